"""Helpers shared by commands: loading the deck and reporting input problems."""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from generator import strict_json
from generator.deck.problems import MAX_ECHOED, InputError, Problem, cut, escape

if TYPE_CHECKING:
    from generator.deck.model import Deck


def report(error: InputError) -> int:
    """Print each problem as `PATH:LINE:COL: message` to stderr; return the exit status."""
    for problem in error.problems:
        print(problem, file=sys.stderr)
    return error.status


def folder_problem(path: Path) -> str | None:
    """Why `path` cannot be an output folder (a file is there, or the name cannot be looked up:
    too long for the file system), or None."""
    try:
        if path.exists() and not path.is_dir():
            return f"{path} exists and is not a folder"
    except OSError as exc:
        return f"{path} cannot be used as a folder: {exc.strerror or exc}"
    return None


def load_deck(path: str) -> Deck:
    """The deck, or InputError for the command to `report`."""
    from generator.deck.manifest import load  # lazy: start-up (YAML; --help and --version need no deck)

    return load(path)


def load_printable_deck(path: str, *, named: tuple[str, ...] | None = None) -> Deck:
    """The deck, checked as `build` needs it (every character drawable): what validate passes builds.

    `named` (build: the files the manifest names, named_files): a manifest whose check passed before
    is not checked again while it, those files and the program are as they were (validate_memo.py
    keeps the verdict, with the warnings it said, which are said again); a check that finds
    problems is not kept."""
    deck = load_deck(path)
    if named is None:
        _check_printable(deck)
        return deck
    from generator.commands import validate_memo  # lazy: only build keeps the verdict

    keyed = validate_memo.key(path, ("build: printable",))
    kept = validate_memo.recall(keyed[0]) if keyed else None
    if kept is not None and kept[2] == 0:
        sys.stderr.write(kept[1])
        return deck
    answer = validate_memo.Answer(keyed[0], path, keyed[1], named) if keyed else None
    said = io.StringIO()
    with contextlib.redirect_stderr(said):
        _check_printable(deck)  # InputError: nothing was said (warnings follow a check that passed)
    sys.stderr.write(said.getvalue())
    if answer is not None:
        answer.keep("", said.getvalue(), 0)
    return deck


def _check_printable(deck: Deck) -> None:
    """InputError for what would stop a build of `deck`; its warnings to standard error."""
    from generator.products.printable import problems  # lazy: the fonts' glyph tables, only for build

    found = problems(deck)
    if found:
        raise InputError(found, deck=deck)
    from generator.products.print_rules import warnings  # lazy: as problems

    for warning in warnings(deck):  # a picture that will print soft: a warning at the line that names it
        print(f"warning: {warning}", file=sys.stderr)


def named_files(manifest: Path) -> tuple[str, ...]:
    """The picture and font files the manifest's look names (deck/look.py: named_files), read from
    the manifest as it stands, valid or not; none when it cannot be read. What `watch` watches and
    `validate`'s remembered answers depend on, besides the manifest."""
    from generator.deck.look import named_files as named  # lazy: YAML, only when asked
    from generator.deck.yaml_source import read  # lazy: as above

    try:
        src = read(manifest)
    except InputError:
        return ()
    return tuple(str(p) for p in named(src.data, Path(os.path.abspath(manifest)).parent))


def read_json(path: str) -> Any:
    """The JSON in `path`; raise InputError (status 2) with a one-line `FILE[:LINE:COL]: message`.

    The file must be UTF-8 text; a leading byte-order mark is allowed.
    """
    text = _read_text(path)
    try:
        return strict_json.loads(text)
    except strict_json.Refused as exc:
        raise InputError([Problem(path, exc.line, exc.column, exc.message)], status=2) from None


def read_record_file(path: str) -> tuple[Any, bool]:
    """A game record file, whole or in progress (engine/journal.py): (the record, whether it was in
    progress); InputError (status 2) located as read_json's."""
    from generator.engine.journal import read_record  # lazy: start-up (the engine)

    text = _read_text(path)
    try:
        return read_record(text)
    except strict_json.Refused as exc:
        raise InputError([Problem(path, exc.line, exc.column, exc.message)], status=2) from None


def _read_text(path: str) -> str:
    raw = _read_bytes(path)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line, column = _byte_position(raw, exc.start)
        message = f"not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the file as UTF-8"
        raise InputError([Problem(path, line, column, message)], status=2) from None


#: The largest record or position a command reads: a long game's record is some tens of KiB.
MAX_JSON_BYTES = 8 * 1024 * 1024


def _read_bytes(path: str) -> bytes:
    """The bytes of an input file, or InputError (status 2) saying plainly why not."""
    from generator.deck.input_file import read_limited  # lazy: start-up (only the commands that read JSON)

    if os.path.isdir(path):
        raise InputError([Problem(path, 0, 0, "is a directory, not a JSON file")], status=2)
    return read_limited(path, MAX_JSON_BYTES, "a JSON record or position")


def _byte_position(raw: bytes, offset: int) -> tuple[int, int]:
    """The line and column (from 1, in characters) of byte `offset`; a byte-order mark takes no column."""
    line_start = raw.rfind(b"\n", 0, offset) + 1
    prefix = raw[line_start:offset]
    if line_start == 0 and prefix.startswith(codecs.BOM_UTF8):
        prefix = prefix[len(codecs.BOM_UTF8):]
    return raw.count(b"\n", 0, offset) + 1, len(prefix.decode("utf-8", "replace")) + 1


def fail(path: str, message: str, status: int) -> int:
    """Print `PATH: message` on one line of stderr (control characters escaped); return `status`."""
    print(f"{escape(path)}: {escape(message)}", file=sys.stderr)
    return status


# --- the command line's arguments in messages ------------------------------------------------------

#: An argument shorter than this with a control character in it is left alone: replacing every
#: raw "\n" or "a\n" of the messages would break their own lines.
SHORTEST = 3


def replacements(argv: Iterable[str]) -> list[tuple[str, str]]:
    """(as written, as shown) for each argument a message must not echo raw, longest first."""
    found: dict[str, str] = {}
    for arg in argv:
        if not isinstance(arg, str):
            continue
        name, sep, value = arg.partition("=")
        for piece in (arg, name, value) if sep else (arg,):
            if len(piece) > MAX_ECHOED or (not piece.isprintable() and len(piece) >= SHORTEST):
                shown = escape(cut(piece))
                found[repr(piece)] = f"'{shown}'"
                found[piece] = found[escape(piece)] = shown  # raw, or escaped whole by the message itself
    return sorted(found.items(), key=lambda item: -len(item[0]))


class EchoGuard:
    """Standard error while a command runs: the command line's own arguments as messages echo
    them, cut and escaped wherever they appear.

    Dozens of messages name what they refuse (`unknown edition 'x'`, `cannot write PATH`). An
    argument of thousands of characters, or one holding a line break or an escape sequence
    (`--param $'copies.\\nC5=1'`, a path with ESC in it), would fill the terminal, split the
    message's line in two or act on the terminal. Every argument (or either side of its
    `NAME=VALUE`) longer than MAX_ECHOED characters or holding a character that is not printable
    is shown cut and escaped (deck/problems.py: cut, escape), in its raw, its escaped and its
    quoted ('...') form alike. A message that quotes only part of an argument cuts and escapes
    that part itself. Short printable arguments, the usual ones, change nothing: then the CLI
    does not wrap standard error at all (`needed`).
    """

    def __init__(self, stream, argv: Iterable[str]):
        self._stream = stream
        self._swaps = replacements(argv)

    @property
    def needed(self) -> bool:
        return bool(self._swaps)

    def write(self, text: str) -> int:
        for raw, shown in self._swaps:
            if raw in text:
                text = text.replace(raw, shown)
        return self._stream.write(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name):
        return getattr(self._stream, name)
