"""The command-line front: help, usage errors, `python -m generator`."""

from __future__ import annotations

import json
import subprocess
import sys

from generator.cli import COMMANDS, main


def test_help_lists_every_command(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in COMMANDS:
        assert name in out


def test_unknown_command_is_a_usage_error(capsys):
    assert main(["bulid"]) == 2
    assert "invalid choice: 'bulid'" in capsys.readouterr().err


def test_no_command_is_a_usage_error(capsys):
    assert main([]) == 2


def test_every_command_takes_manifest(tmp_path, capsys):
    missing = tmp_path / "missing.yaml"
    for name in ("validate", "build"):
        assert main([name, "--manifest", str(missing)]) == 2
        assert f"{missing}: no such file" in capsys.readouterr().err


def test_a_command_that_plays_the_deck_plays_the_shipped_one_outside_a_deck_s_folder(tmp_path, monkeypatch, capsys):
    """An install plays from any folder, as the OpenSpiel and PettingZoo games do, and says which deck;
    commands that make or check a deck's files still ask for one; a folder's own cards.yaml comes first."""
    from generator.resources import shipped_manifest

    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "--games", "2", "--players", "3", "--no-progress", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["games"] == 2
    assert err == f"county-uppy: no cards.yaml in this folder: playing the shipped deck ({shipped_manifest()})\n"
    assert main(["validate"]) == 2
    assert "cards.yaml: no such file" in capsys.readouterr().err
    (tmp_path / "cards.yaml").write_text("not: [a deck", encoding="utf-8")  # this folder's own deck, broken
    assert main(["simulate", "--games", "2", "--players", "3", "--no-progress"]) == 1  # a broken manifest
    err = capsys.readouterr().err
    assert err.startswith("cards.yaml:") and "shipped deck" not in err


def test_python_dash_m(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "generator", "validate", "--json"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert '"printed": 212' in proc.stdout


def test_build_writes_deck_and_build_json(tmp_path, capsys):
    import json

    out = tmp_path / "out"
    assert main(["build", "--out", str(out), "--only", "deck"]) == 0
    deck = json.loads((out / "deck.json").read_text())
    assert deck["printed"] == 212
    assert {k: v["count"] for k, v in deck["editions"].items()} == {
        "the-og": 201, "keep-it-simple": 90, "only-chaos": 93, "its-wild-time": 123, "math-is-fun": 168}
    assert len(deck["editions"]["the-og"]["cards"]) == 201
    record = json.loads((out / "build.json").read_text())
    assert set(record) == {"artifacts", "seconds"}
    changes, art = record["artifacts"]
    assert art["path"] == "deck.json" and art["kind"] == "json" and len(art["sha256"]) == 64
    assert changes["path"] == "changes.json" and changes["kind"] == "json"
    first = (out / "deck.json").read_bytes()
    assert main(["build", "--out", str(out), "--only", "deck"]) == 0
    assert (out / "deck.json").read_bytes() == first


def test_build_rejects_unknown_edition_and_product(tmp_path, capsys):
    assert main(["build", "--out", str(tmp_path), "--edition", "the-of"]) == 2
    assert "unknown edition 'the-of' (did you mean 'the-og'?)" in capsys.readouterr().err
    assert main(["build", "--out", str(tmp_path), "--only", "dek"]) == 2
    assert "unknown product 'dek' (did you mean 'deck'?)" in capsys.readouterr().err


def test_ctrl_c_that_python_wraps_in_another_error_is_an_interrupt_not_a_bug(tmp_path, capsys, monkeypatch):
    """A KeyboardInterrupt landing in a class's __set_name__ while a module is imported reaches the
    command as RuntimeError (its cause): exit 130 and one line, no crash report."""
    from generator.commands import validate

    def interrupted(args):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as e:
            raise RuntimeError("Error calling __set_name__ on 'Field' instance 'origins' in 'Layer'") from e

    monkeypatch.setattr(validate, "run", interrupted)
    monkeypatch.chdir(tmp_path)
    assert main(["validate"]) == 130
    out, err = capsys.readouterr()
    assert err == "county-uppy: interrupted\n" and out == ""
    assert not (tmp_path / "output" / "county-uppy-crash.txt").exists()


_COLLECTOR_AT_EXIT = """
import gc, os, sys
from generator import cli
real_exit = os._exit
def said(status):
    print("collector", "on" if gc.isenabled() else "off", flush=True)
    real_exit(status)
os._exit = said
sys.argv = ["county-uppy", *sys.argv[1:]]
try:
    cli.run()
except SystemExit:
    print("collector", "on" if gc.isenabled() else "off", flush=True)
    raise
"""


def test_a_command_whose_process_ends_with_it_runs_without_the_cycle_collector(tmp_path):
    """`build` and `validate` (QUICK_EXIT) run as their own process without Python's cycle
    collector (their process ends as they do); another command keeps it, and so does a command
    run in a process that goes on (main(), as `watch` and the tests run a build)."""
    from generator.resources import shipped_manifest

    def collector(*args: str) -> str:
        res = subprocess.run([sys.executable, "-c", _COLLECTOR_AT_EXIT, *args], capture_output=True, text=True,
                             cwd=tmp_path, timeout=120)
        return [line for line in res.stdout.splitlines() if line.startswith("collector")][-1]

    assert collector("validate", "--manifest", str(shipped_manifest())) == "collector off"
    assert collector("schema") == "collector on"
    import gc

    assert main(["validate", "--manifest", str(shipped_manifest())]) == 0
    assert gc.isenabled()
