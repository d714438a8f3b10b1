"""Placeholders in printed texts: `{factor}`, `{count}`, and a word that agrees with a number.

A card's name and text in cards.yaml, and a catalogue entry's glyph and quick-reference line
(deck/effects.py), may name the card's parameters and the game's numbers in braces. Besides
the plain number, a placeholder may choose between a singular and a plural form by its value:
`{count:card/cards}` is "card" for 1 and "cards" for any other number (`card{count:/s}` the
same, shorter), so "Draw {count} extra card{count:/s}." reads "Draw 1 extra card." or "Draw 2
extra cards.", and `{count:word}` writes the number in words ("one" to "twelve", digits beyond).
"""

from __future__ import annotations

import re
import string
from typing import Any, Mapping

#: The widest a placeholder's format may make it (a card's text is at most 200 characters).
MAX_FORMAT_WIDTH = 200
_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


class _Wording(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        if "/" in format_spec and isinstance(value, int):
            one, _, many = format_spec.partition("/")
            if "/" in many:
                raise ValueError(f"'{format_spec}' takes one singular and one plural word, as in card/cards")
            return one if value in (1, -1) else many
        if format_spec == "word" and isinstance(value, int):
            return _WORDS[value] if 0 <= value < len(_WORDS) else str(value)
        for digits in re.findall(r"\d+", format_spec):  # a width or precision: '{target:.999999999f}' took minutes and GBs
            if len(digits) > 3 or int(digits) > MAX_FORMAT_WIDTH:
                raise ValueError(f"the format '{format_spec}' asks for {int(digits):,} characters; a placeholder's width "
                                 f"and precision are at most {MAX_FORMAT_WIDTH}")
        return super().format_field(value, format_spec)


_FORMATTER = _Wording()


def fill(text: str, values: Mapping[str, Any]) -> str:
    """`text` with its placeholders filled from `values`; KeyError for an unknown one, ValueError
    for a malformed one."""
    return _FORMATTER.vformat(text, (), dict(values))


def fields(text: str) -> list[str]:
    """The names of the placeholders in `text`, in order (ValueError if it does not parse)."""
    return [f for _, f, _, _ in _FORMATTER.parse(text) if f is not None]
