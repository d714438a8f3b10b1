"""Bots: `choose(view, legal, rng) -> Action`. A registry by name for simulate and play."""

from __future__ import annotations

import random
from math import floor
from typing import Callable, Protocol, Sequence

from generator.engine.actions import DISCARD, GIVE, Action
from generator.engine.errors import OptionError, suggest
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


#: Greedy's idea of how much a wild is worth keeping (higher = keep longer).
_KEEP = {"multiply": 9, "set_count": 8, "steal": 8, "trade_hands": 7, "draw_extra": 7, "redeal": 6,
         "rotate_hands": 5, "play_two": 5, "skip": 5, "reverse": 4, "invert_next": 4}


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
        best, best_score = legal[0], -1e9
        for a in legal:
            score = self.play_score(view, a)
            if score > best_score:
                best, best_score = a, score
        return best

    def keep_score(self, view: PlayerView, card: int) -> float:
        game = view.game
        if not game.is_number[card]:
            return _KEEP.get(game.effect_name[card], 5)
        v = game.value[card]
        # Small positive cards fit most counts; big and negative ones bust more often.
        return 3 - abs(v - 2) * 0.5

    def play_score(self, view: PlayerView, a: Action) -> float:
        s = view._state
        game = s.game
        me = view.seat
        if a.kind == GIVE:
            return self._give_score(view, a)
        card = a.card
        target = game.target
        penalty = 0 if game.matches[s.match][card] else 1
        count = s.count
        name = game.effect_name[card]
        hands = s.hands
        mine = len(hands[me]) - 1
        extra = 0.0
        if game.is_number[card]:
            v = game.value[card]
            count += -v if s.invert else v
            extra = 1 + count / (4 * target)  # keep the count climbing towards the target
        elif name == "multiply":
            count *= game.effect_param[card]
            extra = -1
        elif name == "set_count":
            count = game.effect_param[card]
            extra = 0.5
        elif name in ("steal", "draw_extra"):
            extra = 3 + (len(hands[a.seat]) * 0.1 if a.seat is not None else 0)
        elif name == "trade_hands":
            extra = (len(hands[a.seat]) - mine) * 3 - 1  # type: ignore[index]
        elif name == "redeal":
            pool = sum(len(hands[t]) for t in range(game.players) if not s.out[t]) - 1
            n_in = s.n_in
            extra = (pool / n_in - mine) * 2 + (0.5 if a.seat == me else 0)
        elif name == "rotate_hands":
            prev = me
            d = -s.direction
            prev = (me + d) % game.players
            while s.out[prev]:
                prev = (prev + d) % game.players
            extra = (len(hands[prev]) - mine) * 3
        else:
            extra = -0.5
        if count > target or count < 0:
            penalty += 1
            hit = False
        else:
            hit = count == target
        score = -40.0 * penalty + extra
        if hit:
            others = s.n_in - 1
            score += 30 + 10 * others
        return score

    def _give_score(self, view: PlayerView, a: Action) -> float:
        # Take a teammate's card only when it plays without penalty and nothing of ours does.
        s = view._state
        game = s.game
        own_ok = any(game.matches[s.match][c] and (not game.is_number[c] or 0 <= s.count + game.value[c] <= game.target)
                     for c in s.hands[view.seat])
        if own_ok:
            return -100.0
        c = a.card
        ok = game.matches[s.match][c] and (not game.is_number[c] or 0 <= s.count + game.value[c] <= game.target)
        return 5.0 if ok else -100.0


def _search_bot(rollouts: int | None = None):
    from generator.engine.search import SearchBot

    return SearchBot() if rollouts is None else SearchBot(rollouts=rollouts)


#: The most rollouts a search bot may make per decision (search:N); more would take hours a move.
MAX_ROLLOUTS = 100_000


def search_rollouts(arg: str) -> int | None:
    """N of `search:N` if it is a whole number 1..MAX_ROLLOUTS (ASCII digits, length checked
    before conversion), else None."""
    if not (arg.isascii() and arg.isdigit()) or len(arg) > len(str(MAX_ROLLOUTS)):
        return None
    n = int(arg)
    return n if 1 <= n <= MAX_ROLLOUTS else None


#: Bot factories by name.
BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "greedy": GreedyBot, "search": _search_bot}


def make_bot(name: str) -> Bot:
    """A new bot by registry name; raise OptionError with a suggestion for an unknown name.

    `search:N` is the search bot with N rollouts per decision (cost grows with N).
    """
    base, colon, arg = name.partition(":")
    if base == "search" and colon:
        rollouts = search_rollouts(arg)
        if rollouts is None:
            raise OptionError(f"'{name[:40]}': the search bot's rollouts are a positive whole number up to "
                              f"{MAX_ROLLOUTS:,}, as in search:800")
        return _search_bot(rollouts)
    try:
        return BOTS[name]()
    except KeyError:
        raise OptionError(f"unknown bot '{name}'{suggest(name, BOTS)}; bots are {', '.join(BOTS)}") from None
