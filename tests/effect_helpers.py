"""A wild effect added for one test, and taken away again: the catalogue entry and the rule."""

from __future__ import annotations

import dataclasses
from contextlib import contextmanager
from typing import Iterator

from generator.deck.effects import WildEffect, register, unregister
from generator.deck.model import Deck, Effect
from generator.engine.effects import EFFECTS, Rule


@contextmanager
def temporary_effect(entry: WildEffect, rule: Rule | None) -> Iterator[WildEffect]:
    """`entry` in the catalogue and `rule` (if any) in the engine's registry, for the `with` block."""
    register(entry)
    if rule is not None:
        EFFECTS[entry.name] = rule
    try:
        yield entry
    finally:
        unregister(entry.name)
        EFFECTS.pop(entry.name, None)


def with_effect(deck: Deck, code: str, name: str, params: tuple[tuple[str, int], ...] = ()) -> Deck:
    """`deck` with the wild `code` doing effect `name` instead of its own (same copies, same editions)."""
    cards = tuple(dataclasses.replace(c, effect=Effect(name, params)) if c.code == code else c for c in deck.cards)
    return dataclasses.replace(deck, cards=cards)
