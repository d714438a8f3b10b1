"""The simple bots: uniform random, and greedy one-ply rules of thumb (the search bot's prior).

Greedy knows the wilds only through the catalogue's bot hints (generator.deck.effects): how much
a card is worth keeping, and which way of scoring its play fits what it does.
"""

from __future__ import annotations

import random
from math import floor
from typing import Callable, Protocol, Sequence

from generator.engine.actions import DISCARD, GIVE, NO_GIVE, Action
from generator.engine.view import PlayerView


class Bot(Protocol):
    """Anything with `choose(view, legal, rng)`; `name` is its registry key."""

    name: str

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action: ...


class RandomBot:
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        return legal[floor(rng.random() * len(legal))]


class GreedyBot:
    """One-ply rules of thumb: avoid penalties, hit the target, use wilds with sense.

    Plays the card that costs it no discard and, if it can, makes the count exactly the
    target (x2 when doubling hits it); Trades with and Steals from the biggest hand; when it
    owes a discard it throws the card it least needs.
    """

    name = "greedy"

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if legal[0].kind == DISCARD:
            return min(legal, key=lambda a: self.keep_score(view, a.card))
        table = _Table(view)  # what every play's score reads, read once per decision
        score_of = self._score
        best, best_score = legal[0], -1e9
        for a in legal:
            score = score_of(view, a, table)
            if score > best_score:
                best, best_score = a, score
        return best

    def keep_score(self, view: PlayerView, card: int) -> float:
        game = view.game
        effect = game.effect[card]
        if effect is not None:
            return effect.bot.keep
        v = game.value[card]
        # Small positive cards fit most counts; big and negative ones bust more often.
        return 3 - abs(v - 2) * 0.5

    def play_score(self, view: PlayerView, a: Action) -> float:
        """How good playing (or, Teams, giving) `a` looks: penalties cost 40, hitting the target pays."""
        return self._score(view, a, _Table(view))

    def _score(self, view: PlayerView, a: Action, table: "_Table") -> float:
        if a.kind == GIVE or a.kind == NO_GIVE:
            return self._give_score(view, a)
        card = a.card
        target = table.target
        penalty = 0 if table.matches[card] else 1
        count = table.count
        effect = table.effect[card]
        if effect is None:
            v = table.value[card]
            count += -v if table.invert else v
            extra = 1 + count / (4 * target)  # keep the count climbing towards the target
        else:
            count, extra = PLAY_SCORES[effect.bot.play](view, a, count, table.effect_param[card])
        if count > target or count < 0:
            penalty += 1
            hit = False
        else:
            hit = count == target
        score = -40.0 * penalty + extra
        if hit:
            score += table.hit_bonus
        return score

    def _give_score(self, view: PlayerView, a: Action) -> float:
        # The giver (Teams, R7.2) sees its own hand, not the player's: it gives a card that the player
        # can play now without a penalty (best if it makes the target), and never its last card.
        if a.kind == NO_GIVE:
            return 0.0
        game = view.game
        if view.hand_size(view.seat) < 2:
            return -100.0
        c, count = a.card, view.count
        if not game.matches[view.match_id][c]:
            return -100.0
        if not game.is_number[c]:
            return 5.0
        count += -game.value[c] if view.invert else game.value[c]
        if not 0 <= count <= game.target:
            return -100.0
        return 35.0 if count == game.target else 5.0


class _Table:
    """What greedy's score of a play reads, read from the view once per decision."""

    __slots__ = ("target", "matches", "count", "invert", "effect", "value", "effect_param", "hit_bonus")

    def __init__(self, view: PlayerView):
        game = view.game
        self.target = game.target
        self.matches = game.matches[view.match_id]  #: matches[card]: the card matches the card to match
        self.count = view.count
        self.invert = view.invert
        self.effect, self.value, self.effect_param = game.effect, game.value, game.effect_param
        self.hit_bonus = 30 + 10 * (view.n_in - 1)  #: hitting the target: every other player still in owes


# --- scoring a wild's play, by the catalogue's `bot.play` hint: (the count after it, a bonus) ---------
Score = Callable[[PlayerView, Action, int, "int | None"], "tuple[int, float]"]


def _multiply_count(view: PlayerView, a: Action, count: int, param: int | None) -> tuple[int, float]:
    return count * param, -1  # type: ignore[operator]


def _fix_count(view: PlayerView, a: Action, count: int, param: int | None) -> tuple[int, float]:
    return param, 0.5  # type: ignore[return-value]


def _gain_card(view: PlayerView, a: Action, count: int, param: int | None) -> tuple[int, float]:
    return count, 3 + (view.hand_size(a.seat) * 0.1 if a.seat is not None else 0)


def _swap_hands(view: PlayerView, a: Action, count: int, param: int | None) -> tuple[int, float]:
    mine = view.hand_size(view.seat) - 1
    return count, (view.hand_size(a.seat) - mine) * 3 - 1  # type: ignore[arg-type]


def _pool_hands(view: PlayerView, a: Action, count: int, param: int | None) -> tuple[int, float]:
    me = view.seat
    mine = view.hand_size(me) - 1
    out = view.out
    pool = sum(view.hand_size(t) for t in range(view.players) if not out[t]) - 1
    return count, (pool / view.n_in - mine) * 2 + (0.5 if a.seat == me else 0)


def _pass_hands(view: PlayerView, a: Action, count: int, param: int | None) -> tuple[int, float]:
    me, n = view.seat, view.players
    mine = view.hand_size(me) - 1
    out = view.out
    d = -view.direction
    prev = (me + d) % n
    while out[prev]:
        prev = (prev + d) % n
    return count, (view.hand_size(prev) - mine) * 3


def _neutral(view: PlayerView, a: Action, count: int, param: int | None) -> tuple[int, float]:
    return count, -0.5


#: Greedy's scoring of a wild's play by the catalogue's hint (generator.deck.effects.PLAY_HINTS).
PLAY_SCORES: dict[str, Score] = {
    "multiply_count": _multiply_count, "fix_count": _fix_count, "gain_card": _gain_card, "swap_hands": _swap_hands,
    "pool_hands": _pool_hands, "pass_hands": _pass_hands, "neutral": _neutral,
}
