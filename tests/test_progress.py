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


def test_a_bar_made_under_another_is_a_line_of_its_display(capsys):
    """A build's bar and the card images' bar under it: one display, no clock thread (the
    build forks workers), and the waiting thread gone once the caller goes on."""
    import threading

    with ProgressBar(2, "building", enabled=True, transient=False, ticking=False) as outer:
        outer.show()
        outer.describe("building cards")
        with ProgressBar(4, "card images", enabled=True, transient=False) as inner:
            inner.show()
            assert inner._progress is outer._progress  # drawn in the outer bar's display
            done = iter(range(1, 100))
            with inner.waiting(lambda: min(next(done), 4)):
                assert any(t.name == "progress" for t in threading.enumerate())
                threading.Event().wait(0.35)
            assert not any(t.name == "progress" for t in threading.enumerate())
            assert inner._progress.tasks[1].completed >= 2  # the thread read the count
        outer.advance(2)
        assert all(t.name != "progress" for t in threading.enumerate())
    err = capsys.readouterr().err
    assert "building cards" in err and "card images" in err and "2/2" in err


def _run_on_a_terminal(argv: list[str], cwd) -> str:
    """What a command writes to a terminal (a pseudo-terminal: stdout and stderr together)."""
    import os
    import pty
    import select
    import subprocess
    import sys

    parent, child = pty.openpty()
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "120"}
    proc = subprocess.Popen([sys.executable, "-m", "generator", *argv], cwd=cwd, stdin=child, stdout=child,
                            stderr=child, env=env, close_fds=True)
    os.close(child)
    out = b""
    try:
        while True:
            ready, _, _ = select.select([parent], [], [], 120)
            if not ready:
                raise AssertionError(f"no output for 120 s: {out[-500:]!r}")
            try:
                data = os.read(parent, 65536)
            except OSError:  # the command ended: the terminal closed
                break
            if not data:
                break
            out += data
    finally:
        proc.wait(timeout=120)
        os.close(parent)
    assert proc.returncode == 0, out[-2000:]
    return out.decode("utf-8", "replace")


def test_a_cold_build_on_a_terminal_shows_its_progress_from_the_start(tmp_path):
    """`county-uppy build` on a terminal draws the build's bar at once and the card images' bar
    while the workers draw them, then leaves only its summary; the files are a plain build's."""
    import re
    import shutil

    from tests.conftest import MANIFEST

    shutil.copy(MANIFEST, tmp_path / "cards.yaml")
    shown = _run_on_a_terminal(["build", "--only", "cards", "--jobs", "2"], tmp_path)
    plain = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", shown)
    assert "building 0/1" in re.sub(r"[━╸╺ ]+", " ", plain)  # drawn before anything was done
    assert re.search(r"card images[━╸╺ ]+ ?\d+/99", plain)
    assert plain.index("building") < plain.index("card images") < plain.index("built ")
    # the bars are wiped before the summary, which ends the output as without a terminal
    assert re.search(r"\n?built \d+ files into output/ \(listed in output/build.json\)$", plain.rstrip())
    assert shown.count("\x1b[?25h") >= 1  # the cursor is shown again
