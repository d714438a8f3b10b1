"""County Uppy as a PettingZoo AEC environment (needs the `ai` extra).

    from generator.ai.pettingzoo import env        # or: from county_uppy import pettingzoo_env
    e = env(edition="the-og", players=4)           # any rule option by name: teams=True, play2_draws=2, ...
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Every rule is the engine's; this module translates. `env()` is the environment with PettingZoo's
classic wrappers (an illegal action ends the game with -1 for its agent, an action outside the
space is an error, and the order of calls is enforced), as PettingZoo's own card and board games
come; `raw_env()` is the environment alone. With no `manifest` it plays cards.yaml in the
current folder, else the shipped deck.

Agents are `seat_0` .. `seat_N`; the agent to act is the engine's current player (who owes a
discard, else in Teams the teammate asked to give, else whose turn it is, so one agent may act
several times in a row). An observation is `{"observation", "action_mask"}`: the seat's
information-state tensor (generator/ai/observation.py, laid out in docs/formats.md), each slot
divided by its scale and clipped to 0..1 (`normalize=False`: the raw counts), and a 0/1 mask
over the fixed decision ids (generator/ai/actions.py), all zero for an agent that is not to
act. Decision ids name seats relative to the acting agent, as the observations do (slot 1: the
next seat), unless `relative_seats=False` (the engine's seat numbers, as in OpenSpiel).
`state()` is the whole game (every hand and the draw pile) as one vector, `state_space` its
space. Rewards come at the end: the engine's returns (+1 the winner, Teams: each winning seat;
-1 the others; 0 for a draw). A game stopped at `max_turns` is a truncation for every agent.
`reset(seed=N)` deals game N exactly as the engine does (`play --seed N`; `county-uppy replay`
replays `record()` of it); `render()` is the terminal game's screen as text, for the agent to act.
"""

from __future__ import annotations

import io
import numbers
import random
from collections import Counter
from typing import Any, Callable

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from rich.console import Console
from rich.text import Text

from generator.ai.actions import ActionIds
from generator.ai.observation import Layout, Table
from generator.deck.manifest import load
from generator.engine import Game, make_bot, make_record
from generator.engine.actions import Action
from generator.engine.simulate import bot_seed
from generator.play.screen import Screen
from generator.resources import default_manifest


def raw_env(manifest: str | None = None, edition: str = "the-og", players: int = 4, render_mode: str | None = None,
            normalize: bool = True, relative_seats: bool = True, **options: Any) -> "CountyUppyEnv":
    """A new environment, without wrappers: `options` are rule options by their docs/rules.md names."""
    game = Game(load(manifest or default_manifest()), edition, players, options)
    return CountyUppyEnv(game, render_mode=render_mode, normalize=normalize, relative_seats=relative_seats)


def env(manifest: str | None = None, edition: str = "the-og", players: int = 4, render_mode: str | None = None,
        normalize: bool = True, relative_seats: bool = True, **options: Any):
    """A new environment with PettingZoo's classic wrappers (as its card games come)."""
    e = raw_env(manifest, edition, players, render_mode, normalize, relative_seats, **options)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class CountyUppyEnv(AECEnv):
    metadata = {"render_modes": ["ansi", "human"], "name": "county_uppy_v1", "is_parallelizable": False}

    def __init__(self, game: Game, render_mode: str | None = None, normalize: bool = True, relative_seats: bool = True):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.game = game
        self.render_mode = render_mode
        self.ids = ActionIds(game)
        self.layout = Layout(game)
        self.normalize = normalize
        self.relative_seats = relative_seats
        self._inverse = 1.0 / np.asarray(self.layout.bounds(), np.float32)
        self.possible_agents = [f"seat_{s}" for s in range(game.players)]
        high = 1.0 if normalize else float(max(len(game.edition_cards), game.target, 3))
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0.0, high, (self.layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.ids.size,), np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.ids.size) for a in self.possible_agents}
        k = len(game.codes)
        #: state(): seat 0's observation (raw), then seats 1.. hands and the draw pile, per card type.
        self.state_space = spaces.Box(0.0, float(len(game.edition_cards)),
                                      (self.layout.observation_size + game.players * k,), np.float32)
        self._seeds = random.Random()
        self.engine_state = None
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
        self.engine_state = self.game.new_initial_state(deal)
        self.table = Table(self.game)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        s = self.engine_state
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

    def action_of(self, agent: str, action_id: int) -> Action:
        """The engine's decision that `agent` names by `action_id` (ValueError for an id outside the table)."""
        seat = self.possible_agents.index(agent)
        return self.ids.action(whole(action_id, "an action"), seat if self.relative_seats else None)

    def id_of(self, agent: str, action: Action) -> int:
        """The id `agent` names the engine's decision `action` by."""
        seat = self.possible_agents.index(agent)
        return self.ids.id(action, seat if self.relative_seats else None)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        seat = self.possible_agents.index(agent)
        decision = self.action_of(agent, action)  # type: ignore[arg-type]
        self.engine_state.apply(decision)  # IllegalActionError for a decision the mask does not allow
        self.table.note(seat, decision)
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self._select()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        s = self.engine_state
        obs = np.asarray(self.layout.information_state(s.view(seat), self.table), np.float32)
        if self.normalize:
            np.minimum(obs * self._inverse, 1.0, out=obs)
        mask = np.zeros(self.ids.size, np.int8)
        if not s.is_terminal() and s.current_player() == seat:
            me = seat if self.relative_seats else None
            for a in s.legal_actions():
                mask[self.ids.id(a, me)] = 1
        return {"observation": obs, "action_mask": mask}

    def state(self) -> np.ndarray:
        """The whole game as one vector (what no seat sees alone): seat 0's observation (raw counts),
        then, per card type, the hands of seats 1, 2, ... and the draw pile."""
        s = self.engine_state
        k = len(self.game.codes)
        out = self.layout.observation(s.view(0))
        hidden = s.card_counts()  # every card of the game; less what is seen, the rest is the draw pile
        for seat in range(1, self.game.players):
            hand = Counter(s.hands[seat])
            out.extend(float(hand[c]) for c in range(k))
        seen = Counter(s.discard) + Counter(s.in_play)
        for hand in s.hands:
            seen.update(hand)
        out.extend(float(hidden[c] - seen[c]) for c in range(k))
        return np.asarray(out, np.float32)

    # --- output -------------------------------------------------------------------------
    def render(self) -> str | None:
        """The terminal game's screen, as plain text, shown to the agent to act."""
        if self.render_mode is None:
            return None
        seat = self.possible_agents.index(self.agent_selection)
        screen = Screen(self.engine_state, seat, ["agent"] * self.game.players, self.seed,
                        acting=-1 if self.engine_state.is_terminal() else self.engine_state.current_player(),
                        ended=self.engine_state.is_terminal(),  # the seed (the deck's order) only once the game is over
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
        return make_record(self.engine_state)  # players from outside the project: no bot names to record

    def close(self) -> None:
        pass


def whole(value: Any, what: str) -> int:
    """`value` as a Python int if it is a whole number (a NumPy integer too); ValueError for any
    other, a float or a bool included (int() would turn 1.5 or True into 1)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{what} is a whole number, not {value!r} ({type(value).__name__})")
    return int(value)


def policy(environment, bot: str = "greedy", seed: int = 0) -> Callable[[Any, str], int]:
    """A built-in bot as a PettingZoo policy: `policy(env, "greedy")(observation, agent)` is the id of the
    decision the bot makes for `agent` now. The bot sees only that seat's view of the game (read from the
    environment, as the observation is), never the hidden cards; its random numbers come from `seed`."""
    base = environment.unwrapped
    chooser, rng = make_bot(bot), random.Random(bot_seed(seed))

    def act(observation: Any, agent: str) -> int:
        s = base.engine_state
        seat = base.possible_agents.index(agent)
        return base.id_of(agent, chooser.choose(s.view(seat), s.legal_actions(), rng))

    return act
