"""One seat of County Uppy against built-in bots, as a single-agent Gymnasium environment (`ai` extra).

    from generator.ai.gym_env import CountyUppyGymEnv   # or: county_uppy.gymnasium_env(...)
    e = CountyUppyGymEnv(players=2, opponents=("greedy",))
    obs, info = e.reset(seed=7)                        # game 7 (the engine's), bots moving first if it is theirs
    while True:
        action = e.action_space.sample(obs["action_mask"])
        obs, reward, terminated, truncated, info = e.step(action)
        if terminated or truncated:
            break

The agent plays `seat` (default 0); every other seat is played by a built-in bot named in
`opponents` (any name of `generator.engine.make_bot`: random, greedy, search, search:N), one per
other seat in seat order, the list repeated if shorter. The environment is the PettingZoo one
(generator/ai/pettingzoo.py) seen from one seat: the same observation `{"observation",
"action_mask"}` (normalised unless `normalize=False`), the same decision ids (seats relative to
the agent unless `relative_seats=False`), the same rules. A step applies the agent's decision,
then lets the bots decide until it is the agent's decision again or the game is over; the reward
is the agent's return at the end (+1 won, Teams: its team; -1 lost; 0 a draw), 0 before. A game
stopped at `max_turns` is truncated. An action the mask does not allow ends the game with -1
(nothing is applied; `info["illegal"]` is True), as PettingZoo's classic wrappers do. The bots draw from `random.Random(bot_seed(N))` for game N, so a seeded game replays.
"""

from __future__ import annotations

import random
from typing import Any, Sequence

import gymnasium
import numpy as np

from generator.ai.pettingzoo import raw_env, whole
from generator.engine import make_bot
from generator.engine.simulate import bot_seed


class CountyUppyGymEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi"]}

    def __init__(self, manifest: str | None = None, edition: str = "the-og", players: int = 2, seat: int = 0,
                 opponents: Sequence[str] = ("random",), render_mode: str | None = None, normalize: bool = True,
                 relative_seats: bool = True, **options: Any):
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1}, not {seat!r}")
        if not opponents:
            raise ValueError("opponents names at least one bot")
        self.aec = raw_env(manifest, edition, players, render_mode=render_mode, normalize=normalize,
                           relative_seats=relative_seats, **options)
        self.render_mode = render_mode
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        others = [s for s in range(players) if s != seat]
        self.opponents = {s: list(opponents)[i % len(opponents)] for i, s in enumerate(others)}
        self.bots = {s: make_bot(name) for s, name in self.opponents.items()}  # unknown name: OptionError
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self._bot_rng = random.Random(0)
        self._illegal = False

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """Deal game `seed` (the engine's; no seed: one from this environment's own generator)."""
        super().reset(seed=seed)
        deal = int(seed) if seed is not None else int(self.np_random.integers(0, 2**62))
        self.aec.reset(seed=deal)
        self._illegal = False
        self._bot_rng = random.Random(bot_seed(deal))
        self._bots_move()
        return self.aec.observe(self.agent), self._info()

    def step(self, action: int) -> tuple[dict, float, bool, bool, dict]:
        if self._over() or self._illegal:
            raise RuntimeError("the game is over: call reset()")
        if not self.aec.observe(self.agent)["action_mask"][whole(action, "an action")]:
            self._illegal = True
            return self.aec.observe(self.agent), -1.0, True, False, {**self._info(), "illegal": True}
        self.aec.step(action)
        self._bots_move()
        over = self._over()
        state = self.aec.engine_state
        reward = float(state.returns()[self.seat]) if over else 0.0
        return self.aec.observe(self.agent), reward, over and not state.stopped, over and state.stopped, self._info()

    def _over(self) -> bool:
        return self.aec.engine_state.is_terminal()

    def _bots_move(self) -> None:
        state = self.aec.engine_state
        while not state.is_terminal() and state.current_player() != self.seat:
            seat = state.current_player()
            choice = self.bots[seat].choose(state.view(seat), state.legal_actions(), self._bot_rng)
            self.aec.step(self.aec.id_of(self.aec.possible_agents[seat], choice))

    def _info(self) -> dict:
        """`seed`: the game's, once it is over (before, it would name every hidden card)."""
        return {"seed": self.aec.seed if self._over() or self._illegal else None, "illegal": self._illegal}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        self.aec.agent_selection = self.agent  # the screen as the agent sees it
        return self.aec.render()

    def record(self) -> dict[str, Any]:
        """The game so far as a game record (docs/formats.md); `county-uppy replay` checks it."""
        record = self.aec.record()
        record["bots"] = ["human" if s == self.seat else self.opponents[s] for s in range(len(self.aec.possible_agents))]
        return record


#: `gymnasium.make(ENV_ID, players=..., opponents=[...])` makes the environment once this module is imported
#: (`import county_uppy` does not import it: `county_uppy.gymnasium_env(...)` does, or import it yourself).
ENV_ID = "county_uppy/CountyUppy-v0"
if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point=CountyUppyGymEnv)
