"""County Uppy as a PettingZoo AEC environment (needs the `ai` extra).

    from generator.ai.pettingzoo import env
    e = env(edition="the-og", players=4)           # any rule option by name: teams=True, play2_draws=2, ...
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Every rule is the engine's; this module translates. Agents are `seat_0` .. `seat_N`; the
agent to act is the engine's current player (who owes a discard, else whose turn it is, so
one agent may act several times in a row). An observation is `{"observation", "action_mask"}`:
the seat's information-state tensor (generator/ai/observation.py, laid out in
docs/formats.md) and a 0/1 mask over the fixed decision ids (generator/ai/actions.py), all
zero for an agent that is not to act. Rewards come at the end: the engine's returns (+1 the
winner, Teams: each winning seat; -1 the others; 0 for a draw). A game stopped at
`max_turns` is a truncation for every agent. `reset(seed=S)` deals game S exactly as the
engine does (`county-uppy replay` replays `record()` of it); `render()` is the terminal
game's screen as text, for the agent to act.
"""

from __future__ import annotations

import io
import numbers
import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from rich.console import Console
from rich.text import Text

from generator.ai.actions import ActionIds
from generator.ai.observation import Layout, Table
from generator.deck.manifest import load
from generator.engine import Game, make_record
from generator.play.screen import Screen


def env(manifest: str = "cards.yaml", edition: str = "the-og", players: int = 4, render_mode: str | None = None,
        **options: Any) -> "CountyUppyEnv":
    """A new environment: `options` are rule options by their docs/rules.md names."""
    return CountyUppyEnv(Game(load(manifest), edition, players, options), render_mode=render_mode)


class CountyUppyEnv(AECEnv):
    metadata = {"render_modes": ["ansi", "human"], "name": "county_uppy_v0", "is_parallelizable": False}

    def __init__(self, game: Game, render_mode: str | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.game = game
        self.render_mode = render_mode
        self.ids = ActionIds(game)
        self.layout = Layout(game)
        self.possible_agents = [f"seat_{s}" for s in range(game.players)]
        high = float(max(len(game.edition_cards), game.target, 2))
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0.0, high, (self.layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.ids.size,), np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.ids.size) for a in self.possible_agents}
        self._seeds = random.Random()
        self.state = None
        self.table: Table | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # --- the game -----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new game: game `seed` of the engine, or (no seed) the next of this env's own seeds."""
        if seed is not None:
            deal = whole(seed, "a seed")  # 1.5 or True would deal game 1 without a word
            self._seeds = random.Random(deal)
        else:
            deal = self._seeds.getrandbits(63)
        self.seed = deal
        self.state = self.game.new_initial_state(deal)
        self.table = Table(self.game)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        s = self.state
        if s.is_terminal():
            if not any(self.terminations.values()) and not any(self.truncations.values()):
                returns = s.returns()
                for seat, agent in enumerate(self.possible_agents):
                    self.rewards[agent] = returns[seat]
                    if s.stopped:
                        self.truncations[agent] = True
                    else:
                        self.terminations[agent] = True
                self._accumulate_rewards()
            self.agent_selection = next((a for a in self.possible_agents if a in self.agents), self.possible_agents[0])
        else:
            self.agent_selection = self.possible_agents[s.current_player()]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        seat = self.possible_agents.index(agent)
        decision = self.ids.action(whole(action, "an action"))  # ValueError for an id outside the table
        self.state.apply(decision)  # IllegalActionError for a decision the mask does not allow
        self.table.note(seat, decision)
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self._select()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        s = self.state
        acting = not s.is_terminal() and s.current_player() == seat
        legal = s.legal_actions() if acting else None
        obs = np.asarray(self.layout.information_state(s.view(seat), self.table), np.float32)
        mask = np.zeros(self.ids.size, np.int8)
        for a in legal or ():
            mask[self.ids.id(a)] = 1
        return {"observation": obs, "action_mask": mask}

    # --- output -------------------------------------------------------------------------
    def render(self) -> str | None:
        """The terminal game's screen, as plain text, shown to the agent to act."""
        if self.render_mode is None:
            return None
        seat = self.possible_agents.index(self.agent_selection)
        screen = Screen(self.state, seat, ["agent"] * self.game.players, self.seed,
                        acting=-1 if self.state.is_terminal() else self.state.current_player(),
                        ended=self.state.is_terminal(),  # the seed (the deck's order) only once the game is over
                        log=[Text(line) for line in self.table.lines(seat)])
        out = io.StringIO()
        Console(file=out, width=100, color_system=None, legacy_windows=False).print(
            screen.renderable(with_status=False, with_asking=False))
        text = out.getvalue()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def record(self) -> dict[str, Any]:
        """The game so far as a game record (docs/formats.md), which `county-uppy replay` checks."""
        return make_record(self.state)  # players from outside the project: no bot names to record

    def close(self) -> None:
        pass


def whole(value: Any, what: str) -> int:
    """`value` as a Python int if it is a whole number (a NumPy integer too); ValueError for any
    other, a float or a bool included (int() would turn 1.5 or True into 1)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{what} is a whole number, not {value!r} ({type(value).__name__})")
    return int(value)
