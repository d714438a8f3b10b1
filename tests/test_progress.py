"""The one progress bar: drawn on a terminal only, counting what was done."""

from __future__ import annotations

import io

from generator.progress import ProgressBar, is_terminal


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_bar_is_drawn_on_a_terminal_only(monkeypatch):
    monkeypatch.setenv("TERM", "xterm")
    assert is_terminal(FakeTerminal())
    assert not is_terminal(io.StringIO())
    monkeypatch.setenv("TERM", "dumb")
    assert not is_terminal(FakeTerminal())


def test_a_disabled_bar_writes_nothing(capsys):
    with ProgressBar(3, "games", enabled=False) as bar:
        bar.advance()
        bar.set(3)
    assert capsys.readouterr().err == ""


def test_a_lasting_bar_shows_its_label_and_count(capsys):
    with ProgressBar(5, "simulating", enabled=True, transient=False) as bar:
        bar.advance(2)
        bar.set(5)
    err = capsys.readouterr().err
    assert "simulating" in err and "5/5" in err
