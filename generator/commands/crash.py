"""An unexpected internal error (a bug, not a mistake in the input): one line on the terminal, the
traceback in a file in the output folder, exit status 3 (docs/commands.md, "Exit status and errors").

A user who meets a bug needs to know it is one and where the details are; the traceback itself
is for whoever fixes it, so it goes into `OUT/county-uppy-crash.txt` (the system's temporary
folder when OUT cannot be written), never onto the terminal.
"""

from __future__ import annotations

import os
import sys
import tempfile
import traceback
from pathlib import Path

from generator import __version__
from generator.deck.problems import escape, one_line
from generator.files import write_replacing

CRASH_FILE = "county-uppy-crash.txt"
#: The exit status of an internal error.
STATUS = 3


def report(error: BaseException, folder: str | os.PathLike | None, argv: list[str] | None, *,
           prefix: str = "county-uppy", context: str = "", what: str = "", after: str = "") -> int:
    """Write the traceback of `error` into FOLDER/county-uppy-crash.txt (FOLDER: the command's
    output folder, default `output`), say so in one line on stderr, and return STATUS.
    `context` says what was being done ("the cards product, card '+1'"); `what` replaces the
    error's own "Type: message"; `after` ends the line ("nothing else in output was changed").

    The folder is not created: a first build that fails leaves no folder behind, and the file
    goes to the system's temporary folder instead."""
    where = _save(_details(error, argv, context), Path(folder or "output"))
    what = escape(one_line(what or f"{type(error).__name__}: {error}", 100))
    during = f" in {context}" if context else ""
    saved = f"the details are in {where}" if where else "the details could not be saved"
    _tell(f"{prefix}: internal error{during} ({what}); this is a bug in county-uppy, not in your input; {saved}"
          + (f"; {after}" if after else ""))
    return STATUS


def _details(error: BaseException, argv: list[str] | None, context: str) -> str:
    command = " ".join(["county-uppy", *(argv if argv is not None else sys.argv[1:])])
    lines = [f"county-uppy {__version__} met an internal error", f"command: {command}",
             f"python: {sys.version.split()[0]} on {sys.platform}"]
    if context:
        lines.append(f"while: {context}")
    return "\n".join(lines) + "\n\n" + "".join(traceback.format_exception(error))


def _save(text: str, folder: Path) -> str | None:
    """Write `text` to folder/CRASH_FILE (else to the temporary folder); return where, or None."""
    for place in (folder, Path(tempfile.gettempdir())):
        path = place / CRASH_FILE
        try:
            write_replacing(path, text.encode("utf-8", "backslashreplace"))
            return str(path)
        except OSError:
            continue
    return None



def _tell(message: str) -> None:
    try:
        print(message, file=sys.stderr)
    except (OSError, ValueError, AttributeError):
        pass
