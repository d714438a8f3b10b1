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
    state._legal = None  # hands changed: the cached legal actions may list a teammate's old cards
    return state


class SearchBot:
    """Determinized Monte-Carlo with common random numbers.

    Greedy's one-ply score picks the `candidates` most promising actions; each is tried on
    the same `samples` determinizations (hidden hands dealt at random), played on by greedy
    bots for up to `depth` decisions (win 1, loss 0; an unfinished rollout scores this seat's
    share of the cards in hand). Greedy's first choice stands unless another candidate scored
    at least `margin` more over the same samples: the outcomes are noisy, so the bias keeps
    search from trading good one-ply play for sampling noise.
    """

    name = "search"

    def __init__(self, samples: int = 32, candidates: int = 3, depth: int = 20, margin: float = 1.0):
        self.samples = samples
        self.margin = margin
        self.candidates = candidates
        self.depth = depth
        self.rollout = GreedyBot()

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        greedy = self.rollout
        if legal[0].kind == "discard":
            ranked = sorted(legal, key=lambda a: greedy.keep_score(view, a.card))  # least needed first
        else:
            ranked = sorted(legal, key=lambda a: greedy.play_score(view, a), reverse=True)
        candidates = ranked[: self.candidates]
        me = view.seat
        teams = view.teams
        totals = [0.0] * len(candidates)
        for _ in range(self.samples):
            world = determinize(view, rng)
            seed = rng.getrandbits(64)
            for i, action in enumerate(candidates):
                state = world.clone()
                state.rng = random.Random(seed)
                state.apply(action)
                totals[i] += self._playout(state, me, teams, random.Random(seed + 1))
        # Greedy's choice stands unless another candidate did clearly better on the same samples.
        best = 0
        for i in range(1, len(candidates)):
            if totals[i] - totals[best] >= self.margin:
                best = i
        return candidates[best]

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
