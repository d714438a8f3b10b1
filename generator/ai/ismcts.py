"""OpenSpiel's information-set MCTS as a bot of the engine (`ismcts:N`), through the adapter (needs the `ai` extra).

`report`, `sweep` and the rated ladder (benchmarks/bench_bots.py) play it like any other bot
(made by name in generator/ai/bots.py, which imports this module only when ISMCTS is asked for):
`choose(view, legal, rng)` sees only the seat's view. Each decision samples a world the seat
cannot tell from the real one (`view.sample_world`, the engine's determinization), makes it a
state of the OpenSpiel game (generator/ai/openspiel.py) and runs OpenSpiel's
`ISMCTSBot` on it: N simulations, UCT constant 2, one random rollout to the end of the game per
leaf, hidden cards dealt again at every simulation by `resample_from_infostate` (the engine's
`State.resample`). Its random numbers (NumPy RandomStates) are seeded from the game's bot
`rng`, so a seeded game replays exactly.
"""

from __future__ import annotations

import random
from typing import Sequence

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from generator.ai.openspiel import CountyUppyGame
from generator.engine import Game
from generator.engine.actions import Action
from generator.engine.view import PlayerView

#: ISMCTS's exploration constant (UCT) and random rollouts per leaf, on the ladder and everywhere.
UCT_C = 2.0
ROLLOUTS = 1


def searcher(game: CountyUppyGame, simulations: int, seed: int) -> ismcts.ISMCTSBot:
    """OpenSpiel's ISMCTSBot as the ladder plays it, every random number from `seed`.

    Its worlds are sampled with a seeded RandomState too: left alone, ISMCTS resamples with
    `pyspiel.UniformProbabilitySampler`, seeded by the operating system, and no game would replay."""
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=ROLLOUTS, random_state=np.random.RandomState(seed % (1 << 32)))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=UCT_C, max_simulations=simulations,
                           random_state=np.random.RandomState((seed >> 1) % (1 << 32)))
    worlds = np.random.RandomState((seed >> 2) % (1 << 32))
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, worlds.uniform))
    return bot


class IsmctsBot:
    """`ismcts:N`: OpenSpiel's ISMCTS with N simulations a decision, as an engine bot."""

    name = "ismcts"

    def __init__(self, simulations: int):
        self.simulations = simulations
        self._for: Game | None = None
        self._game: CountyUppyGame | None = None

    def openspiel_game(self, game: Game) -> CountyUppyGame:
        """The OpenSpiel game of the engine's `game` (made once per Game this bot plays)."""
        if self._for is not game:
            self._for, self._game = game, CountyUppyGame(engine=game)
        assert self._game is not None
        return self._game

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        game = self.openspiel_game(view.game)
        state = game.state_at(view.sample_world(rng))
        policy, picked = searcher(game, self.simulations, rng.getrandbits(63)).step_with_policy(state)
        # `legal` is the world's legal actions, or fewer when a caller keeps the bot from some
        # (restricted play, report/restricted.py): then the searched policy's likeliest among them
        for action_id, _ in [(picked, 1.0), *sorted(policy, key=lambda ap: -ap[1])]:
            chosen = game.ids.action(int(action_id))
            for action in legal:
                if action == chosen:
                    return action
        raise AssertionError(f"ISMCTS found none of {len(legal)} legal actions in its policy")
