"""Located problems with user input, reported as `PATH:LINE:COL: message`."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from generator.deck.model import Place

#: Escapes for the characters that would move the cursor or break a line if printed raw.
_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
#: Digits of a whole number a person gives (in a manifest, or typed as a game's value on a command
#: line): a value this long is a mistake, and is refused before Python converts it.
MAX_DIGITS = 18
_WHOLE = re.compile(r"-?[0-9]{1,%d}" % MAX_DIGITS)

#: Names of the control characters people meet (Unicode gives control characters no name).
_CONTROL_NAMES = {"\x00": "NUL", "\x07": "BELL", "\x08": "BACKSPACE", "\t": "TAB", "\n": "LINE FEED",
                  "\x0b": "LINE TABULATION", "\x0c": "FORM FEED", "\r": "CARRIAGE RETURN", "\x1b": "ESCAPE",
                  "\x7f": "DELETE", "\x85": "NEXT LINE"}


@dataclass(frozen=True, order=True)
class Problem:
    """One mistake in an input file; line and column count from 1 (0 when unknown)."""

    path: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        if self.line:
            return f"{escape(self.path)}:{self.line}:{self.column}: {escape(self.message)}"
        return f"{escape(self.path)}: {escape(self.message)}"

    @classmethod
    def at(cls, place: Place | None, message: str) -> Problem:
        """A problem where a part of the deck was written (`origin.of(key)`); unplaced (line 0) for a deck made in code."""
        if place is None:
            return cls("the deck", 0, 0, message)
        return cls(place.path, place.line, place.column, message)

    def as_json(self) -> dict:
        return {"path": self.path, "line": self.line, "column": self.column, "message": self.message}


class InputError(Exception):
    """Problems that stop a command. `status` is the exit status: 1 invalid, 2 unreadable."""

    def __init__(self, problems: Iterable[Problem], status: int = 1, deck: object = None):
        self.problems = sorted(problems)
        self.status = status
        #: the deck when it could be built despite the problems (only counts missed `expect`)
        self.deck = deck
        super().__init__("\n".join(str(p) for p in self.problems))


#: The longest word a near miss is looked for (difflib's time grows with its length squared).
MAX_SUGGESTED = 100


def whole_number(text: str) -> int | None:
    """`text` as a whole number: ASCII digits, a '-' before them, at most MAX_DIGITS of them, spaces
    around; None for anything else (int() would also take '1_000', '١٦' and 4,300 digits)."""
    text = text.strip()
    return int(text) if _WHOLE.fullmatch(text) else None


def suggest(word: object, choices: Iterable[object]) -> str:
    """' (did you mean 'cyan'?)' for a near miss, else ''.

    The one near-miss helper of the project: the manifest, the engine (card codes, options,
    editions) and the commands all word their suggestions the same way. Choices that are not
    text (an option's values) are compared as text.
    """
    if not isinstance(word, str) or len(word) > MAX_SUGGESTED:
        return ""
    import difflib  # lazy: start-up (only a mistake needs a suggestion)

    pool = [str(c) for c in choices]
    close = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in pool}
        close = [lowered[word.lower()]] if word.lower() in lowered else []
    return f" (did you mean '{close[0]}'?)" if close else ""


def escape(text: str) -> str:
    """`text` safe to print on a terminal, on one line: every character that is not printable
    (controls such as ESC, line and paragraph separators, lone surrogates, format characters)
    shows as a Python-style escape (`\\x1b`, `\\n`, `\\u2028`, `\\udc80`).

    A name in cards.yaml or a code in a position is echoed in tables and messages; raw, an
    escape sequence there could clear the screen or retitle the window, and a newline would
    split a `PATH:LINE:COL: message` line in two. A backslash is left alone unless the text
    needs escaping elsewhere, so ordinary messages read as written.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape_char(ch) for ch in text)


#: Characters json.dumps(ensure_ascii=False) may leave raw: everything but newline and printable ASCII.
_JSON_CANDIDATES = re.compile(r"[^\n -~]")


def escape_json(text: str) -> str:
    """JSON text (as json.dumps writes it) safe to print on a terminal, meaning the same values.

    json.dumps escapes the C0 controls but, with ensure_ascii=False, leaves DEL, the C1 controls
    (a terminal may read U+009B as ESC [), line separators, bidi overrides and lone surrogates
    raw. Each such character, only ever inside a string, becomes a JSON `\\u` escape of four
    hex digits (a surrogate pair past U+FFFF), so the output parses to exactly the values that
    were dumped and printable text such as 'é' stays as it is.
    """
    return _JSON_CANDIDATES.sub(_json_char, text)


def _json_char(match: re.Match[str]) -> str:
    ch = match.group()
    if ch.isprintable():
        return ch
    code = ord(ch)
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def _escape_char(ch: str) -> str:
    if ch in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[ch]
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def char_name(ch: str) -> str:
    """'U+2028 (LINE SEPARATOR)': a character named for a person, whatever it is."""
    name = unicodedata.name(ch, "") or _CONTROL_NAMES.get(ch) or {
        "Cc": "a control character", "Cs": "a lone surrogate"}.get(unicodedata.category(ch), "an unnamed character")
    return f"U+{ord(ch):04X} ({name})"


#: The most characters of a value typed or read (a path, a --param, a name) a message echoes.
MAX_ECHOED = 200


def cut(text: str, limit: int = MAX_ECHOED) -> str:
    """`text` as a message echoes it: at most `limit` characters, the rest counted, not shown."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


def one_line(error: BaseException | str, limit: int = 300) -> str:
    """An exception's message (or a text) on one line, shortened to `limit` characters."""
    text = " ".join(str(error).split()) or "(no message)"
    return text if len(text) <= limit else text[: limit - 1] + "…"
