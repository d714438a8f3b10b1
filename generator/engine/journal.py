"""A game's record written as the game goes, so that a crash loses at most the decision in flight.

The terminal game (`play`) and the web table (`play --web`) keep the record of the game being
played in its file from the first decision on, in the in-progress form (docs/formats.md,
"A record in progress"):

    {"seed": 7, "players": 4, "edition": "the-og", "options": {...}, "bots": [...], "decisions": []}
    "P:C5"
    "D:x2"

The first line is the record without its decisions and result; each later line is one
decision (a JSON string), appended, flushed and synced to the disk as soon as it is made. When
the game ends (or the program stops in an orderly way) the file is replaced, in one step, by
the whole record. `replay` reads either form (`read_record`): a last line cut short by a crash
(no line end) is the decision in flight and is left out.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path
from typing import Any

from generator import strict_json
from generator.engine.record import make_record
from generator.files import write_replacing


class RecordJournal:
    """The in-progress record of the game on `state`, at `path` (made with the first decision)."""

    def __init__(self, path: Path, state, bots: list[str]):
        self.path = path
        self.state = state
        self.bots = list(bots)
        self._written = 0  #: decisions in the file
        self.failed = ""  #: why the file could not be written, once it could not

    def sync(self) -> None:
        """Append the decisions made since the last call, then flush and sync the file.

        A file that cannot be written (a full disk, the folder gone) stops the journal, never the
        game: `failed` says why, and the whole record is still tried at the end (`finish`)."""
        history = self.state.history
        if len(history) == self._written or self.failed:
            return
        try:
            self._append(history)
        except OSError as exc:
            self.failed = exc.strerror or str(exc)

    def _append(self, history) -> None:
        """Write the new lines; the file is opened and closed each time (nothing is held open between decisions)."""
        lines = []
        if not self._written:
            header = make_record(self.state, self.bots)
            header.pop("result")
            header["decisions"] = []
            lines.append(json.dumps(header, separators=(", ", ": ")))
            self.path.parent.mkdir(parents=True, exist_ok=True)
        lines += [json.dumps(str(a)) for a in history[self._written:]]
        # Never through a link, and only into a regular file: opening a FIFO to write waited for a
        # reader (a `--record` naming one hung the game), and a link planted at the name was written
        # through. Either stops the journal; the whole record is then tried at the end (`finish`),
        # which replaces a link and refuses anything but a regular file with its own message.
        flags = os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | os.O_NOFOLLOW | (os.O_APPEND if self._written else os.O_TRUNC)
        fd = os.open(self.path, flags, 0o644)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(errno.EINVAL, "not a regular file")
            os.set_blocking(fd, True)
            f = os.fdopen(fd, "w", encoding="utf-8")
        except BaseException:
            os.close(fd)
            raise
        with f:
            f.write("".join(line + "\n" for line in lines))
            f.flush()
            os.fsync(f.fileno())
        self._written = len(history)

    def finish(self, record: dict[str, Any]) -> None:
        """Replace the in-progress file by the whole record (one rename: either form is there whole)."""
        write_replacing(self.path, (json.dumps(record, indent=1) + "\n").encode("utf-8"))
        self._written = len(self.state.history)


def read_record(text: str) -> tuple[Any, bool]:
    """A record file's content, in either form: (the record, whether it was in progress).

    A whole record is one JSON value. An in-progress one is a first line holding a record whose
    decisions are empty, then one decision per line; a last line with no line end (cut short by a
    crash) is left out. strict_json.Refused, located, for anything else."""
    try:
        return strict_json.loads(text), False
    except strict_json.Refused as whole:
        first, newline, rest = text.partition("\n")
        if not newline or not first.lstrip().startswith("{"):
            raise whole from None
        try:
            header = strict_json.loads(first)
        except strict_json.Refused:
            raise whole from None
        if not isinstance(header, dict) or header.get("decisions") != [] or "result" in header:
            raise whole from None
    lines = rest.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the end of the last whole line
    elif lines:
        lines.pop()  # the decision in flight: written in part when the game stopped
    decisions = []
    for number, line in enumerate(lines, start=2):
        try:
            decision = strict_json.loads(line)
        except strict_json.Refused as exc:
            raise strict_json.Refused(f"a record in progress holds one decision per line: {exc.message}",
                                      number, exc.column) from None
        if not isinstance(decision, str):
            raise strict_json.Refused("a record in progress holds one decision per line, as a JSON text such as "
                                      f"\"P:C5\", not {line[:40]}", number, 1)
        decisions.append(decision)
    return {**header, "decisions": decisions}, True
