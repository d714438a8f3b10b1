"""JSON as the project reads a record or a position, from a file (`replay`, `scenario`) or from
a web page (`/api/replay`): one set of rules for both.

Besides JSON's own grammar: a whole number has at most MAX_DIGITS digits (checked before Python
converts it, which fails past 4,300 digits and is slow well before), NaN and Infinity are refused
(JSON has no such numbers), and a key given twice in one object is refused (JSON readers keep
only one of the two). Every refusal is a `Refused` with the line and column it is at.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: Digits of a whole number in a position or record (a seed of 2**128 has 39).
MAX_DIGITS = 40


class Refused(ValueError):
    """Text that is not JSON by these rules: `message`, at `line` and `column` (from 1; 0 when unknown)."""

    def __init__(self, message: str, line: int = 0, column: int = 0):
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


def loads(text: str) -> Any:
    """The value of JSON `text`; Refused (located) if it breaks JSON's grammar or the rules above."""
    try:
        return json.loads(text, parse_int=_bounded_int, parse_constant=_no_constant, object_pairs_hook=_no_twice)
    except _NumberRefused as exc:
        raise Refused(exc.message, *_text_position(text, exc.text)) from None
    except _KeyTwice as exc:
        raise Refused(f"duplicate key {exc.key!r}: a key is given once (JSON readers keep only one of the two)",
                      *_key_position(text, exc.key)) from None
    except json.JSONDecodeError as exc:
        raise Refused(f"not valid JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except RecursionError:
        raise Refused("not readable JSON: lists or objects nested too deeply") from None


class _NumberRefused(ValueError):
    def __init__(self, text: str, message: str):
        super().__init__(message)
        self.text = text
        self.message = message


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _NumberRefused(text, f"a number of {digits:,} digits; whole numbers here have at most {MAX_DIGITS} digits")
    return int(text)


class _KeyTwice(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _no_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) < len(pairs):
        seen: set[str] = set()
        raise _KeyTwice(next(k for k, _ in pairs if k in seen or seen.add(k)))  # type: ignore[func-returns-value]
    return out


def _key_position(text: str, key: str) -> tuple[int, int]:
    """The line and column (from 1) of the second place `key` stands as a key in `text`."""
    found = list(re.finditer(re.escape(json.dumps(key)) + r"\s*:", text))
    offset = found[1].start() if len(found) > 1 else 0
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _no_constant(text: str) -> float:
    raise _NumberRefused(text, f"{text} is not a number JSON allows (write a whole number)")


def _text_position(text: str, needle: str) -> tuple[int, int]:
    """The line and column (from 1) of the first `needle` in `text` that stands alone as a JSON value."""
    m = re.search(r"(?<![\w.\"])" + re.escape(needle) + r"(?![\w.])", text)
    offset = m.start() if m else 0
    return text.count("\n", 0, offset) + 1, offset - (text.rfind("\n", 0, offset) + 1) + 1
