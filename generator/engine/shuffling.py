"""The one shuffle of the engine (deals, reshuffles, Re-Deal), so every machine shuffles alike.

It lives below State, Game and the effects, which all use it, so none of them imports another
for it.
"""

from __future__ import annotations

import random
from math import floor
from typing import Callable


def shuffle(rng: random.Random, cards: list[int]) -> None:
    """Fisher-Yates with rng.random(): the same order on every machine, and fast."""
    shuffle_steps(cards, rng.random, len(cards), 1)


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
