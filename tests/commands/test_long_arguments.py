"""An argument of thousands of characters, or one holding a line break or an escape sequence, is
echoed cut and escaped by every message of every command (generator/commands/common.py: EchoGuard and the messages
that quote part of an argument), and never ends in an internal error (a name too long for the
file system is a usage problem)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from generator.cli import build_parser, main
from tests.commands.test_terminal_escapes import assert_safe
from tests.conftest import MANIFEST, ROOT

#: 2,005 characters with a line break and a clear-screen sequence in the middle.
LONG = "x" * 1000 + "\n\x1b[2J" + "y" * 1000
#: The longest line a refusal may print (the message and the cut argument with its count).
LINE = 600
#: Commands that serve or wait for a person: tried on their own below.
SERVING = {"watch", "play"}


def _options() -> list[tuple[str, str]]:
    """(command, option) for every option of every command that takes a value."""
    sub = next(a for a in build_parser()._actions if a.__class__.__name__ == "_SubParsersAction")
    found = []
    for name, parser in sub.choices.items():
        if name in SERVING:
            continue
        for action in parser._actions:
            if action.option_strings and action.nargs != 0 and action.option_strings[0] not in ("-h", "--manifest"):
                found.append((name, action.option_strings[-1]))
    return found


def _values(option: str) -> list[str]:
    if option in ("--param", "--option"):
        return [LONG, f"{LONG}=1", f"target={LONG}", "copies.\nC5=1"]
    return [LONG]


@pytest.mark.parametrize("command,option", _options(), ids=lambda v: v)
def test_every_option_echoes_a_long_or_hostile_value_cut_and_escaped(capsys, tmp_path, monkeypatch, command, option):
    monkeypatch.chdir(tmp_path)
    for value in _values(option):
        argv = [command, "--manifest", str(MANIFEST), option, value]
        if command in ("replay", "scenario"):
            argv.append(str(tmp_path / "missing.json"))
        try:
            status = main(argv)
        except SystemExit as exc:
            status = exc.code
        out, err = capsys.readouterr()
        assert status in (1, 2), (status, err[:400])
        assert_safe(err)
        assert all(len(line) <= LINE for line in err.splitlines()), max(err.splitlines(), key=len)[:300]
        assert "internal error" not in err and "Traceback" not in err


def test_a_param_with_a_line_break_is_one_line_naming_it_escaped(capsys):
    status = main(["sweep", "--manifest", str(MANIFEST), "--param", "copies.\nC5=1"])
    err = capsys.readouterr().err
    assert status == 2 and len(err.splitlines()) == 1
    assert "no card with the code '\\nC5' (did you mean 'C5'?)" in err


def test_a_long_argument_is_shown_cut_with_its_length(capsys):
    status = main(["report", "--manifest", str(MANIFEST), "--players", "9" * 2000])
    err = capsys.readouterr().err
    assert status == 2 and "9" * 2001 not in err and "... (2,000 characters)" in err


@pytest.mark.parametrize("option", ["--out", "--against"])
def test_a_path_too_long_for_the_file_system_is_a_usage_error(capsys, tmp_path, monkeypatch, option):
    monkeypatch.chdir(tmp_path)
    status = main(["report", "--manifest", str(MANIFEST), "--games", "2", "--players", "2", option, "p" * 5000])
    err = capsys.readouterr().err
    assert status == 2 and "File name too long" in err and "internal error" not in err
    assert "... (5,000 characters)" in err


def test_play_web_prints_its_hostile_paths_escaped(tmp_path):
    """play --web with an --out and a --record holding escape sequences and a line break: the
    notice about the card images and the 'game record saved to' line show them escaped."""
    out, records = tmp_path / "o\x1b[2Jut\nx", tmp_path / "rec\x1b]0;T\x07ords"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "generator", "play", "--manifest", str(MANIFEST), "--web",
                             "--port", "0", "--seats", "human,greedy,random", "--delay", "0", "--seed", "4",
                             "--out", str(out), "--record", str(records)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
                            start_new_session=True)
    try:
        assert "the table is open at http://127.0.0.1:" in proc.stdout.readline()
        time.sleep(1.5)  # the bots before the person's seat decide
        proc.send_signal(signal.SIGINT)  # the unfinished game's record is saved
        stdout, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert_safe(stdout + stderr)
    assert "o\\x1b[2Jut\\nx/cards" in stderr
    assert "game record saved to " in stdout and "rec\\x1b]0;T\\x07ords/web-" in stdout
