"""`county-uppy play` at a real terminal that closes (SIGHUP), and a record path that would
mislead the terminal if echoed raw."""

from __future__ import annotations

import json
import os
import select
import signal
import sys
import time
from pathlib import Path

import pytest

from generator.cli import main
from generator.deck.manifest import load
from generator.engine import replay

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = str(ROOT / "cards.yaml")

pty = pytest.importorskip("pty")


def _read_until(fd: int, needle: bytes, timeout: float = 30.0) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while needle not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"the game never showed {needle!r}; it showed {seen[-500:]!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen


def _drain(fd: int, seconds: float) -> None:
    """Read what the game shows for `seconds` (so that it never blocks on a full terminal)."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        if select.select([fd], [], [], left)[0]:
            try:
                if not os.read(fd, 65536):
                    return
            except OSError:
                return


def _wait(pid: int, timeout: float = 30.0) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    raise AssertionError("the game did not end after its terminal closed")


def _play_in_a_terminal(folder: Path, record: Path) -> tuple[int, int]:
    """`county-uppy play --seed 5` started in `folder` on a pty of its own: (its pid, the pty's fd)."""
    argv = [sys.executable, "-m", "generator", "play", "--manifest", MANIFEST, "--seed", "5", "--delay", "0",
            "--record", str(record)]
    pid, fd = pty.fork()
    if pid == 0:  # the child: a session of its own, the pty its controlling terminal
        try:
            os.chdir(folder)
            os.execv(sys.executable, argv)
        finally:
            os._exit(127)
    return pid, fd


@pytest.mark.parametrize("how", ["terminal-closes", "kill-hup"])
def test_a_game_whose_terminal_closes_saves_its_record_and_exits_129(tmp_path, how):
    record = tmp_path / "game.json"
    pid, fd = _play_in_a_terminal(tmp_path, record)
    try:
        _read_until(fd, b"which card do you play?")
        os.write(fd, b"1\r")  # one move, so the record holds a decision
        _drain(fd, 1.5)
        if how == "terminal-closes":
            os.close(fd)  # the kernel sends SIGHUP to the terminal's session
            fd = -1
        else:
            os.kill(pid, signal.SIGHUP)
        status = _wait(pid)
    finally:
        if fd >= 0:
            os.close(fd)
    assert status == 129
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["seed"] == 5 and len(data["decisions"]) >= 1 and data["result"]["finished"] is False
    state, same = replay(load(MANIFEST), data)
    assert same and not state.is_terminal()


@pytest.mark.parametrize("name", ["[bold red]game.json", "ga\x1b[2Jme.json"], ids=["rich-markup", "escape"])
def test_the_record_path_is_echoed_as_it_is_escaped_and_never_read_as_markup(monkeypatch, tmp_path, capsys, name):
    import io

    record = tmp_path / name
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\n"))
    assert main(["play", "--manifest", MANIFEST, "--record", str(record), "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert record.exists()
    shown = str(record).replace("\x1b", "\\x1b")
    assert f"game record saved to {shown}; play it back with: county-uppy replay {shown}" in out
    assert "\x1b" not in out.split("game record saved")[1]


def test_a_record_that_cannot_be_saved_is_refused_before_the_game_names_its_path_escaped(monkeypatch, tmp_path, capsys):
    # it was said only once the game had been played to its end
    import io

    blocker = tmp_path / "file"
    blocker.write_text("in the way")
    record = blocker / "[red]x\x1b.json"  # under a file: cannot be made
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    assert main(["play", "--manifest", MANIFEST, "--record", str(record), "--seed", "5"]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # no game was dealt
    shown = str(blocker).replace("\x1b", "\\x1b")
    assert err.startswith(f"county-uppy play: {shown} exists and is not a folder (where the game record goes")
    assert "\x1b" not in err and len(err.strip().splitlines()) == 1
    assert main(["play", "--manifest", MANIFEST, "--record", str(tmp_path), "--seed", "5"]) == 2
    assert f"{tmp_path} is a folder; --record names the record's file" in capsys.readouterr().err


def test_a_record_that_cannot_be_saved_at_the_end_names_its_path_escaped(monkeypatch, tmp_path, capsys):
    import io

    def full(path, data):
        raise OSError(28, "No space left on device")

    record = tmp_path / "[red]x\x1b.json"
    monkeypatch.setattr("generator.engine.journal.write_replacing", full)  # the record's last write (journal.finish)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    assert main(["play", "--manifest", MANIFEST, "--record", str(record), "--seed", "5"]) == 1
    err = capsys.readouterr().err
    shown = str(record).replace("\x1b", "\\x1b")
    assert f"could not save the game record to {shown}: No space left on device" in err
    assert "\x1b" not in err and len(err.strip().splitlines()) == 1
