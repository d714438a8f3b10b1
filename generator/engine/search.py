"""A search bot: determinized Monte-Carlo over sampled hidden hands.

For a decision with more than one legal action, the bot asks its view for sampled worlds
(`PlayerView.sample_world`, the engine's `State.resample`): the cards it cannot see (the
other hands and the draw pile) dealt at random in a way consistent with what its seat sees
(its own hand, the discard pile, the cards in play and every hand's size). It tries each
candidate action in that sampled world and plays on with greedy bots in every seat for a
few turns (`horizon`), or to the end of the game if it comes first. Each candidate is scored
by its average outcome over the sampled worlds; the best one is played.

- Outcome: a win scores 1 and a loss 0; a rollout cut off at the horizon scores this
  seat's (team's) share of the "lives" of the players still in, where a life is a card in
  hand, a wild counting `wild_weight` (2) number cards, plus one for being in. These
  weights were fitted to greedy self-play (they predict the winner better than hand sizes
  alone); a short horizon keeps the estimate far less noisy than whole-game rollouts,
  whose outcome is mostly luck.
- Common random numbers: every candidate is tried on the same sampled worlds with the same
  random seeds, so the comparison between candidates is much less noisy than the outcomes.
- Successive halving: all legal actions (every card, every seat a Steal, Trade or Re-Deal
  can name, every card a discard can throw) start as candidates; after each round the worse
  half is dropped, so most rollouts go to the few actions that matter.
- Greedy's choice is the prior: another action replaces it only if it scored at least
  `margin` better on average over the same worlds.

The bot never sees the State it plays in, only its view and the worlds the view samples. It
plays them through the engine itself (copies of a sampled world, legal_actions, and `advance`,
apply's unchecked path for actions legal_actions listed), so there is no second copy of the rules; its randomness
comes only from the `rng` it is given, so seeded games replay exactly. `make_bot("search:N")`
gives a bot with N rollouts per decision.
"""

from __future__ import annotations

import math
import random
from typing import Sequence

from generator.engine.actions import DISCARD, Action
from generator.engine.simple_bots import GreedyBot
from generator.engine.view import PlayerView


#: The rng the rollouts' greedy bots are given: greedy never draws from it.
_NO_DRAWS = random.Random(0)


class SearchBot:
    """Determinized Monte-Carlo with greedy rollouts, common random numbers and successive halving.

    `rollouts`: playouts per decision, split over the rounds of successive halving (at least
    `min_rollouts` per candidate per round); the cost per decision grows linearly with it
    (default 192: about 20-35 ms per decision on one core). `horizon`: turns each playout
    runs before it is scored (0: to the end of the game). `margin`: how much better (on the
    0..1 score) an action must do over the same worlds than greedy's choice to replace it.
    `wild_weight`: a wild card's worth in lives at the horizon. `survival`: the score of a
    lost game for each opponent who went out first, as a share of the others (0: only wins
    count). `depth`: at most this many decisions per playout.
    """

    name = "search"

    def __init__(self, rollouts: int = 192, horizon: int = 4, margin: float = 0.01, survival: float = 0.0,
                 depth: int = 400, min_rollouts: int = 8, wild_weight: float = 2.0):
        self.rollouts = rollouts
        self.wild_weight = wild_weight
        self.horizon = horizon
        self.margin = margin
        self.survival = survival
        self.depth = depth
        self.min_rollouts = min_rollouts
        self.rollout = GreedyBot()

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        greedy = self.rollout
        if legal[0].kind == DISCARD:
            ranked = sorted(legal, key=lambda a: greedy.keep_score(view, a.card))  # least needed first
        else:
            ranked = sorted(legal, key=lambda a: -greedy.play_score(view, a))  # best first; ties keep their order
        me = view.seat
        teams = view.teams
        cands = list(range(len(ranked)))
        totals = [0.0] * len(ranked)
        worlds: list[tuple] = []
        rounds = max(1, math.ceil(math.log2(len(ranked))))
        budget = self.rollouts
        used = 0
        n_worlds = 0
        for r in range(rounds):
            remaining_rounds = rounds - r
            per = max(self.min_rollouts, (budget - used) // (remaining_rounds * len(cands)))
            target = n_worlds + per if r else per
            while len(worlds) < target:
                worlds.append((view.sample_world(rng), rng.getrandbits(64)))
            # Candidates that survived were scored on worlds[:n_worlds]; bring everyone up to `target`.
            for i in cands:
                action = ranked[i]
                t = 0.0
                for world, seed in worlds[n_worlds:target]:
                    state = world.clone(seed)  # the world's draws to come: Random(seed), made if needed
                    state.advance(action)
                    t += self._playout(state, me, teams)
                totals[i] += t
                used += target - n_worlds
            n_worlds = target
            if len(cands) <= 2 or r == rounds - 1:
                break
            cands.sort(key=lambda i: (-totals[i], i))
            keep = max(2, (len(cands) + 1) // 2)
            if 0 not in cands[:keep] and 0 in cands:
                cands = cands[:keep - 1] + [0]  # greedy's choice stays in until the end
            else:
                cands = cands[:keep]
        best = 0
        bar = totals[0] + self.margin * n_worlds
        for i in cands:
            if totals[i] > bar:
                best, bar = i, totals[i]
        return ranked[best]

    def _playout(self, state, me: int, teams: bool) -> float:
        choose = self.rollout.choose
        rng = _NO_DRAWS  # greedy draws nothing from its rng; the world's own Random stays unmade if no rule needs it
        stop = state.turns + self.horizon if self.horizon else 1 << 30
        for _ in range(self.depth):
            if state.done:
                break
            if state.turns >= stop and not state.owed:
                break
            legal = state.legal_actions()
            if not legal:
                continue
            if len(legal) == 1:
                state.advance(legal[0])
                continue
            seat = state.owed[0] if state.owed else state.turn if state.giver < 0 else state.giver
            state.advance(choose(PlayerView(state, seat), legal, rng))
        n = len(state.out)
        if state.done and not state.stopped:
            w = state.winner
            if w is not None and w == ((me % 2) if teams else me):
                return 1.0
            if teams or not self.survival:
                return 0.0
            order = state.out_order
            place = order.index(me) if me in order else n - 1
            return self.survival * place / (n - 1)
        # Cut off at the horizon: a player's cards are their lives, a wild card is worth about two
        # number cards (fitted on greedy self-play); value this seat's (team's) share of them.
        out, hands = state.out, state.hands
        isnum, w = state.game.is_number, self.wild_weight
        lives = [0.0 if out[s] else 1.0 + sum(1.0 if isnum[c] else w for c in hands[s]) for s in range(n)]
        mine = sum(lives[me % 2::2]) if teams else lives[me]
        return mine / sum(lives)  # 0 if this seat (team) is out
