"""The simple bots: uniform random, and greedy one-ply rules of thumb (the search bot's prior).

Greedy knows the wilds only through their steps (generator.deck.steps): how much a card is worth
keeping (the best of its steps' keep values), and what playing it does to the count, to your hand
and to others' hands (each step's score below, in order: the count passes from one step to the
next and the bonuses add up). So a wild a designer writes in cards.yaml is played with sense,
with no hint of its own.
"""

from __future__ import annotations

import random
from math import floor
from typing import Any, Callable, Protocol, Sequence

from generator.deck.steps import keep as steps_keep

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
        keep = _tables(game.steps)[2][card]
        if keep is not None:
            return keep
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
        scorer = table.scorers[card]
        if scorer is None:
            v = table.value[card]
            count += -v if table.invert else v
            extra = 1 + count / (4 * target)  # keep the count climbing towards the target
        else:
            count, extra = scorer(view, a, count)
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

    __slots__ = ("target", "matches", "count", "invert", "scorers", "value", "hit_bonus")

    def __init__(self, view: PlayerView):
        game = view.game
        self.target = game.target
        self.matches = game.matches[view.match_id]  #: matches[card]: the card matches the card to match
        self.count = view.count
        self.invert = view.invert
        self.value = game.value
        self.scorers = _tables(game.steps)[1]  #: scorers[card]: a wild's Score, None for a number card
        self.hit_bonus = 30 + 10 * (view.n_in - 1)  #: hitting the target: every other player still in owes


# --- scoring a wild's play, step by step: (the count after the step, a bonus) ------------------------
#: A step's score as greedy reads it: fn(view, action, count) -> (the count after it, a bonus).
Score = Callable[[PlayerView, Action, int], "tuple[int, float]"]


def _seat_of(view: PlayerView, a: Action, who: str) -> int:
    """The one seat `who` names for this play (me, next, previous, or the seat the play names)."""
    me = view.seat
    if who == "me":
        return me
    if who in ("next", "previous"):
        n, out = view.players, view.out
        d = view.direction if who == "next" else -view.direction
        s = (me + d) % n
        while out[s]:
            s = (s + d) % n
        return s
    return me if a.seat is None else a.seat


def _named(view: PlayerView, a: Action, who: str) -> list[int]:
    """The seats `who` names for this play."""
    if who in ("others", "everyone"):
        out = view.out
        seats = [s for s in range(view.players) if not out[s] and s != view.seat]
        return seats + [view.seat] if who == "everyone" else seats
    return [_seat_of(view, a, who)]


# Each factory takes a step's arguments (once per Game) and returns its Score.
def _count(args: dict[str, Any]) -> Score:
    if "multiply" in args:
        f = args["multiply"]
        return lambda view, a, count: (count * f, -1)
    if "set" in args:
        v = args["set"]
        return lambda view, a, count: (v, 0.5)
    if "add" in args:
        n = args["add"]
        return lambda view, a, count: (count + n, 0.5)
    d = args["divide"]
    return lambda view, a, count: (count // d, 0.0)


def _draw(args: dict[str, Any]) -> Score:
    n, who = args["cards"], args["who"]
    if who == "me":
        return lambda view, a, count: (count, 2 + n)  # cards in your hand keep you in
    return lambda view, a, count: (count, sum(2 + n if s == view.seat else -n for s in _named(view, a, who)))


def _discard(args: dict[str, Any]) -> Score:
    n, who = args["cards"], args["who"]
    return lambda view, a, count: (count, sum(-3.0 * n if s == view.seat else 1.5 * n + (1 if view.hand_size(s) <= n else 0)
                                             for s in _named(view, a, who)))


def _take(args: dict[str, Any]) -> Score:
    n, who = args["cards"], args["from"]
    if who == "chosen":  # from the biggest hand
        return lambda view, a, count: (count, 2 + n + view.hand_size(a.seat) * 0.1)
    return lambda view, a, count: (count, sum(2 + n + view.hand_size(s) * 0.1 for s in _named(view, a, who)))


def _trade_hands(args: dict[str, Any]) -> Score:
    who = args["with"]

    def score(view: PlayerView, a: Action, count: int) -> tuple[int, float]:
        mine = view.hand_size(view.seat) - 1
        return count, (view.hand_size(_seat_of(view, a, who)) - mine) * 3 - 1
    return score


def _redeal(args: dict[str, Any]) -> Score:
    first = args["first"]

    def score(view: PlayerView, a: Action, count: int) -> tuple[int, float]:
        me = view.seat
        mine = view.hand_size(me) - 1
        out = view.out
        pool = sum(view.hand_size(t) for t in range(view.players) if not out[t]) - 1
        return count, (pool / view.n_in - mine) * 2 + (0.5 if _seat_of(view, a, first) == me else 0)
    return score


def _pass_hands(args: dict[str, Any]) -> Score:
    giver = "previous" if args["to"] == "next" else "next"  # whose hand comes to you

    def score(view: PlayerView, a: Action, count: int) -> tuple[int, float]:
        mine = view.hand_size(view.seat) - 1
        return count, (view.hand_size(_seat_of(view, a, giver)) - mine) * 3
    return score


def _neutral(args: dict[str, Any]) -> Score:
    return lambda view, a, count: (count, -0.5)


#: Greedy's scoring of each kind of step (generator.deck.steps.STEPS), a factory keyed like the
#: engine's rules (engine/steps.py): a step it cannot value is neutral.
STEP_SCORES: dict[str, Callable[[dict[str, Any]], Score]] = {
    "count": _count, "draw": _draw, "discard": _discard, "take": _take, "trade_hands": _trade_hands,
    "redeal": _redeal, "pass_hands": _pass_hands, "reverse": _neutral, "skip": _neutral, "next_plays": _neutral,
    "invert_next": _neutral,
}


def _scorer(steps: tuple) -> Score | None:
    """A card's Score: its one step's, or its steps' in order (the count passed on, the bonuses
    added); None for a number card."""
    if not steps:
        return None
    parts = tuple(STEP_SCORES.get(s.kind, _neutral)(s.mapping) for s in steps)
    if len(parts) == 1:
        return parts[0]

    def in_order(view: PlayerView, a: Action, count: int) -> tuple[int, float]:
        extra = 0.0
        for score in parts:
            count, more = score(view, a, count)
            extra += more
        return count, extra
    return in_order


#: Per Game's steps table (by identity, the table kept alive beside its entry): greedy's scorers and
#: keep values, made once, so a decision looks them up rather than hashing the deck's steps.
_TABLES: dict[int, tuple] = {}


def _tables(steps: tuple) -> tuple:
    """(steps, scorers per card, keep values per card) for a Game's steps table."""
    hit = _TABLES.get(id(steps))
    if hit is None or hit[0] is not steps:
        while len(_TABLES) >= 16:
            del _TABLES[next(iter(_TABLES))]
        hit = _TABLES[id(steps)] = (steps, tuple(_scorer(card) for card in steps),
                                    tuple(steps_keep(card) if card else None for card in steps))
    return hit
