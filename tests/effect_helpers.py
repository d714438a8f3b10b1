"""A step kind added for one test, and taken away again: its record and its rule."""

from __future__ import annotations

import dataclasses
from contextlib import contextmanager
from typing import Callable, Iterator

from generator.deck.model import Deck, Effect, Step
from generator.deck.steps import Arg, StepKind, register, unregister
from generator.engine.steps import STEP_RULES


def plain_step(key: str) -> StepKind:
    """A step kind written `KEY: true`, with plain words: for tests of the rules loop's contract."""
    return StepKind(key, "", args=(Arg(key, "true"),), scalar=True, say=lambda a: "test", glyph=lambda a: "?",
                    keep=lambda a: 5.0)


@contextmanager
def temporary_step(kind: StepKind, rule: Callable | None) -> Iterator[StepKind]:
    """`kind` among the steps and `rule` (a function `fn(turn, arg)`, if any) its rule, for the `with` block."""
    register(kind)
    if rule is not None:
        STEP_RULES[kind.key] = lambda args: rule
    try:
        yield kind
    finally:
        unregister(kind.key)
        STEP_RULES.pop(kind.key, None)


def with_steps(deck: Deck, code: str, *steps: Step) -> Deck:
    """`deck` with the wild `code` doing `steps` instead of its own (same copies, same editions)."""
    cards = tuple(dataclasses.replace(c, effect=Effect("", (), steps=steps)) if c.code == code else c for c in deck.cards)
    return dataclasses.replace(deck, cards=cards)


def with_step(deck: Deck, code: str, key: str) -> Deck:
    """`deck` with the wild `code` doing the one step `key: true` (a step of `plain_step`)."""
    return with_steps(deck, code, Step(key, ((key, True),)))
