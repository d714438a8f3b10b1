"""Checks that a deck can be printed, run by `validate` and before every build: what passes here builds.

The deck layer checks the manifest's form and meaning; whether a character can be drawn is
a question for the typeface, which lives with the products. Each problem is located in the
manifest (`cards.yaml:56:11: ...`) and names the card and the character, so a designer knows
what to change before a build fails half-way through drawing the faces.
"""

from __future__ import annotations

from pathlib import Path

from generator.deck.model import Deck
from generator.deck.problems import InputError, Problem, char_name
from generator.deck.yaml_source import Loc, Source, read
from generator.products import typeface as tf


def problems(deck: Deck, manifest: str | Path) -> list[Problem]:
    """Located problems that would stop `build` for this deck (none for a printable deck)."""
    found: list[tuple[Loc, str]] = []
    for ch in _undrawable(deck.params.name):
        found.append((("game", "name"), f"the game's name holds {char_name(ch)}, which the typeface (DejaVu Sans) "
                                        "cannot draw on the card backs; use another character"))
    for card in deck.cards:
        for field in ("name", "text"):
            for ch in _undrawable(getattr(card, field)):
                found.append((("cards", card.code, field),
                              f"card '{card.code}': its {field} holds {char_name(ch)}, which the typeface "
                              "(DejaVu Sans) cannot draw; use another character"))
    if not found:
        return []
    source = _source(manifest)
    return [_locate(source, str(manifest), loc, message) for loc, message in found]


def _undrawable(text: str) -> list[str]:
    """The characters of `text` (each once, in order) missing from the regular or the bold face."""
    return [ch for ch in dict.fromkeys(text) if not ch.isspace() and not (tf.has_glyph(ch) and tf.has_glyph(ch, True))]


def _source(manifest: str | Path) -> Source | None:
    """The manifest again, for positions (read only when there is a problem to place)."""
    try:
        return read(manifest)
    except InputError:
        return None


def _locate(source: Source | None, path: str, loc: Loc, message: str) -> Problem:
    """`loc` names a card by its code; the manifest's entries are found by their `code` key."""
    if source is None:
        return Problem(path, 1, 1, message)
    if loc[0] == "cards":
        code, field = loc[1], loc[2]
        entries = source.data.get("cards") if isinstance(source.data, dict) else None
        index = next((i for i, e in enumerate(entries or []) if isinstance(e, dict) and e.get("code") == code), None)
        loc = ("cards", index, field) if index is not None else ("cards",)
    return source.at(loc, message)
