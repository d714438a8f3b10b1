"""An internal error (a bug) is one line on the terminal, the traceback in OUT/county-uppy-crash.txt, exit 3."""

from __future__ import annotations

from pathlib import Path

from generator.cli import main
from generator.commands import validate as validate_command
from generator.products.pipeline import rendered
from tests.conftest import MANIFEST


def test_a_bug_in_a_command_is_one_line_and_a_crash_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "output").mkdir()

    def broken(deck):
        raise ZeroDivisionError("division by zero\nin the table")

    monkeypatch.setattr(validate_command, "table", broken)
    status = main(["validate", "--manifest", str(MANIFEST)])
    out, err = capsys.readouterr()
    crash = tmp_path / "output" / "county-uppy-crash.txt"
    assert status == 3
    assert err == ("county-uppy: internal error (ZeroDivisionError: division by zero in the table); this is a bug in "
                   f"county-uppy, not in your input; the details are in {Path('output') / 'county-uppy-crash.txt'}\n")
    assert "Traceback" not in out + err
    details = crash.read_text(encoding="utf-8")
    assert f"command: county-uppy validate --manifest {MANIFEST}" in details
    assert "Traceback (most recent call last)" in details and "in broken" in details
    assert details.rstrip().endswith("ZeroDivisionError: division by zero\nin the table")


def test_a_face_that_fails_to_draw_names_the_product_and_the_card(tmp_path, monkeypatch, capsys):
    out = tmp_path / "out"
    out.mkdir()
    real = rendered.face

    def broken(card, deck, *args, **kwargs):
        if card.code == "+1":
            raise ValueError("raqm_layout() failed")
        return real(card, deck, *args, **kwargs)

    monkeypatch.setattr(rendered, "face", broken)  # the build's drawing only: validate's checks still pass
    status = main(["build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "deck,cards", "--jobs", "1"])
    _, err = capsys.readouterr()
    assert status == 3
    assert err.count("\n") == 1
    assert err == ("county-uppy build: internal error in the cards product, card '+1' (ValueError: raqm_layout() "
                   f"failed); this is a bug in county-uppy, not in your input; the details are in "
                   f"{out / 'county-uppy-crash.txt'}; nothing else in {out} was changed\n")
    details = (out / "county-uppy-crash.txt").read_text(encoding="utf-8")
    assert "raqm_layout() failed" in details and "while: the cards product, card '+1'" in details
    assert not (out / "deck.json").exists()  # all or nothing: the deck product's file was not moved in


def test_a_missing_folder_is_not_made_the_temporary_folder_is_used(tmp_path, monkeypatch, capsys):
    from generator.commands import crash

    monkeypatch.setattr(crash.tempfile, "gettempdir", lambda: str(tmp_path))
    status = crash.report(RuntimeError("boom"), tmp_path / "no-such-folder", ["report"])
    assert status == 3
    assert f"the details are in {tmp_path / 'county-uppy-crash.txt'}" in capsys.readouterr().err
    assert "RuntimeError: boom" in (tmp_path / "county-uppy-crash.txt").read_text(encoding="utf-8")
