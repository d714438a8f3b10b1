"""Chance as it happens: the random events of an engine game as chance nodes (OpenSpiel's kind).

The engine draws every random event of a game (a card drawn from a pile shuffled lazily,
a reshuffle, Steal's pick, Re-Deal's shuffle) through its game RNG, in the two forms of
generator/engine/shuffling.py: a shuffle's step ("which card comes next") and `randrange(n)`.
A `Chance` stands in for that RNG. It answers from the outcomes it was fed; when it has none
left it raises `NeedChance`, which names the event's real outcomes and their probabilities:
the card types that can come next (each as likely as its copies), or which of n cards.

The OpenSpiel adapter (generator/ai/openspiel.py) makes each decision on a copy of the
engine's State; a `NeedChance` leaves the copy and becomes a chance node, and once chance
has chosen, the decision is made again on a new copy with every outcome chosen so far. The
engine and its rules are not changed: only who decides the random numbers is.
"""

from __future__ import annotations


class NeedChance(Exception):
    """The engine asked for a random event no outcome was fed for.

    `kind` "card": which card type of `pile` (the cards that can come next) comes next, each as
    likely as its copies there; "pick": which of `size` things, each as likely. `outcomes`
    [(id, probability)] is left for whoever knows the card types to make when first asked for
    (a chance node's outcomes: the OpenSpiel game's `pile_outcomes`)."""

    def __init__(self, kind: str, size: int, pile: list[int] | None = None):
        super().__init__(kind)
        self.kind = kind
        self.size = size
        self.pile = pile
        self.outcomes: list[tuple[int, float]] | None = None

    def allows(self, outcome: int) -> bool:
        """Whether `outcome` is one of the event's outcomes."""
        return outcome in self.pile if self.pile is not None else 0 <= outcome < self.size


class Chance:
    """A game RNG whose every random event is a chance outcome fed from outside (`feed`).

    `ahead` is 1: a lazily shuffled draw pile chooses each card when it is drawn, not before."""

    __slots__ = ("fed", "used")

    ahead = 1

    def __init__(self, fed: list[int] | None = None):
        self.fed = fed if fed is not None else []  #: outcomes for the events to come, in order
        self.used = 0  #: how many of them the engine has taken

    def copy(self) -> "Chance":
        new = Chance(list(self.fed))
        new.used = self.used
        return new

    def _next(self) -> int | None:
        if self.used < len(self.fed):
            self.used += 1
            return self.fed[self.used - 1]
        return None

    def pick(self, cards: list[int], i: int) -> int:
        """A shuffle's step: the position 0..i whose card goes to position i (the card type chance chose)."""
        card = self._next()
        if card is None:
            raise NeedChance("card", i + 1, cards[:i + 1])
        try:
            return cards.index(card, 0, i + 1)
        except ValueError:
            raise ValueError(f"chance outcome {card} is not a card that can come next") from None

    def randrange(self, n: int) -> int:
        """Which of `n` things (Steal's pick of a hand's cards): each as likely."""
        k = self._next()
        if k is None:
            raise NeedChance("pick", n)
        if not 0 <= k < n:
            raise ValueError(f"chance outcome {k} is not 0..{n - 1}")
        return k

    def random(self) -> float:
        raise TypeError("a rule drew a bare random number: draw through shuffle(rng, cards) or rng.randrange(n) "
                        "(generator/engine/shuffling.py), which chance nodes can stand for")
