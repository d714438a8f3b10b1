"""The one shuffle of the engine (deals, reshuffles, Re-Deal), so every machine shuffles alike.

It lives below State, Game and the effects, which all use it, so none of them imports another
for it.

The game's RNG is a `random.Random`, or a chance source: an object that decides each random
event when it happens (the OpenSpiel adapter's chance nodes, generator/ai/chance.py). A
chance source has `pick(cards, i)` (the position 0..i whose card a shuffle's step puts at
position i: which card comes next), `randrange(n)` (Steal's pick) and `ahead`, the cards a
lazily shuffled draw pile puts in place at a time (1: each card when it is drawn). A rule
draws its random numbers only through `shuffle` and `rng.randrange`, so both kinds serve it.
"""

from __future__ import annotations

import random
from math import floor
from typing import Callable


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """Fisher-Yates with rng.random(): the same order on every machine, and fast."""
    shuffle_down(cards, rng, len(cards), 1)


def shuffle_down(cards: list[int], rng, start: int, stop: int) -> None:
    """The Fisher-Yates steps `start`-1 down to `stop` (see shuffle_steps) with `rng`: a Random or a chance source."""
    pick = getattr(rng, "pick", None)
    if pick is None:
        shuffle_steps(cards, rng.random, start, stop)
        return
    for i in range(start - 1, stop - 1, -1):
        j = pick(cards, i)
        cards[i], cards[j] = cards[j], cards[i]


def shuffle_steps(cards: list[int], rnd: Callable[[], float], start: int, stop: int) -> None:
    """Fisher-Yates steps i = start-1 down to stop (stop >= 1): each puts position i's final card there.

    The steps from the top (the end of the list) down: after the steps down to i, positions
    i.. hold their final cards, so a draw pile can be shuffled only as far as it is drawn.
    """
    for i in range(start - 1, stop - 1, -1):
        j = floor(rnd() * (i + 1))  # = int(): the product is >= 0, and floor() is the cheaper call
        cards[i], cards[j] = cards[j], cards[i]


#: Cards a lazily shuffled draw pile puts in place at a time (see State.draw).
SHUFFLE_AHEAD = 8


def ahead(rng) -> int:
    """Cards a lazily shuffled draw pile drawn with `rng` puts in place at a time."""
    return getattr(rng, "ahead", SHUFFLE_AHEAD)


def is_chance(rng) -> bool:
    """`rng` is a chance source (decides each event when it happens), not a Random."""
    return rng is not None and hasattr(rng, "pick")
