"""A search bot: determinized Monte-Carlo over sampled hidden hands.

For each legal action it samples the hidden cards (other hands and the draw pile, which
this seat could infer from what it has seen), plays the action, then plays the game on
with greedy bots for every seat, and keeps the action with the best average outcome.
"""

from __future__ import annotations

import random
from typing import Sequence

from generator.engine.actions import Action
from generator.engine.bots import GreedyBot
from generator.engine.view import PlayerView


def determinize(view: PlayerView, rng: random.Random):
    """A State consistent with what `view.seat` knows: hidden cards dealt at random, a fresh RNG."""
    state = view._state.clone()
    me = view.seat
    hidden = list(state.draw)
    for s, h in enumerate(state.hands):
        if s != me:
            hidden.extend(h)
    hidden.sort()
    rng.shuffle(hidden)
    k = len(state.draw)
    state.draw = hidden[:k]
    pos = k
    for s in range(len(state.hands)):
        if s != me:
            size = len(state.hands[s])
            state.hands[s] = hidden[pos:pos + size]
            pos += size
    state.rng = random.Random(rng.getrandbits(64))
    return state


class SearchBot:
    """Determinized Monte-Carlo: `playouts` sampled games per decision, greedy rollouts of `depth` decisions."""

    name = "search"

    def __init__(self, playouts: int = 48, depth: int = 60):
        self.playouts = playouts
        self.depth = depth
        self.rollout = GreedyBot()

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        me = view.seat
        teams = view.teams
        per = max(2, self.playouts // len(legal))
        best, best_value = legal[0], -1e9
        for action in legal:
            total = 0.0
            for _ in range(per):
                state = determinize(view, rng)
                state.apply(action)
                total += self._playout(state, me, teams, rng)
            value = total / per
            if value > best_value:
                best, best_value = action, value
        return best

    def _playout(self, state, me: int, teams: bool, rng: random.Random) -> float:
        greedy = self.rollout
        for _ in range(self.depth):
            if state.done:
                break
            legal = state.legal_actions()
            if not legal:
                continue
            seat = state.owed[0] if state.owed else state.turn
            state._apply(greedy.choose(PlayerView(state, seat), legal, rng))
        if state.done:
            if state.winner is None:
                return 0.0
            mine = (me % 2) if teams else me
            return 1.0 if state.winner == mine else 0.0
        # Unfinished: a player's cards are their lives; value our share of them.
        if state.out[me]:
            return 0.0
        total = sum(len(h) for h in state.hands) or 1
        return 0.5 * len(state.hands[me]) / total
