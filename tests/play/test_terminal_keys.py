"""`county-uppy play` at a real terminal (a pty): keys that type nothing (arrows, Escape, Alt+key)
arrive in the same read as the answer typed around them, and must not swallow or garble it."""

from __future__ import annotations

import os

import pytest

from generator.play.inputs import typed_keys
from tests.play.test_play_hangup import _play_in_a_terminal, _read_until, _wait


@pytest.mark.parametrize("data, typed", [
    ("\x1b[A\x1b[B99\r", "99\r"),  # arrows, then the answer: the whole read was dropped
    ("9\x1b[D9\r", "99\r"),  # an arrow between digits: '[D' was typed into the answer
    ("\x1bOP1\r", "1\r"),  # F1 (SS3)
    ("\x1b[1;5C2", "2"),  # Ctrl+Right (CSI with parameters)
    ("\x1b[200~3\x1b[201~", "3"),  # bracketed paste markers
    ("q\x1b", "q"),  # Escape alone, at the end of the read
])
def test_escape_sequences_are_taken_out_of_what_was_typed(data, typed):
    assert typed_keys(data) == typed


def test_an_answer_typed_right_after_an_arrow_key_is_read(tmp_path):
    pid, fd = _play_in_a_terminal(tmp_path, tmp_path / "game.json")
    try:
        _read_until(fd, b"(q quits)>")  # the prompt: the terminal is read key by key from here on
        os.write(fd, b"\x1b[A\x1b[B99\r")  # one read: before, the arrow at its start dropped it whole
        _read_until(fd, b"'99' is not one of the choices")
        _read_until(fd, b"(q quits)>")
        os.write(fd, b"7\x1b[D7\r")
        _read_until(fd, b"'77' is not one of the choices")
        _read_until(fd, b"(q quits)>")
        os.write(fd, b"\x1b[Aq\r")
        _read_until(fd, b"You left the game.")
        assert _wait(pid) == 0
    finally:
        os.close(fd)
