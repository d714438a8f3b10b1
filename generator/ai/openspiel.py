"""County Uppy as an OpenSpiel game: `pyspiel.load_game("county_uppy", {...})` (needs the `ai` extra).

Importing this module registers the game. Every rule is the engine's: a State here holds an
engine State and passes each decision to it; this module only translates (decision ids from
generator/ai/actions.py, tensors and strings from generator/ai/observation.py).

The GameType, as the engine is:
- sequential, imperfect information (hands and the draw pile are hidden), terminal rewards;
- chance: explicit stochastic, with one chance node at the start that picks one of `DEALS`
  deals. The engine draws every later random event (reshuffles, Steal's pick, Re-Deal's
  shuffle) from the deal's own seed, so once the deal is chosen the game is deterministic
  given the decisions: that one node is all the chance there is, and replaying a history
  replays the game exactly. The deal's engine seed is `game_seed(seed, outcome)`
  (generator.engine.simulate), the seed `county-uppy simulate --seed SEED` gives game
  `outcome`, so a deal can be replayed there.
- utility: the engine's returns, +1 for the winner (Teams: each winning seat) and -1 for
  the others, 0 for everyone in a draw or an unfinished game. That is zero-sum with 2
  players or in Teams, general-sum otherwise (the registered type says general-sum; each
  loaded game's own type says which it is).
- max game length: decisions are bounded per turn, so `max_turns` bounds the game:
  1 + (max_turns + 1) * (2 * players + 7) (the chance node included).

Parameters: `manifest` (a path, default cards.yaml in the current folder), `edition`,
`players`, `seed` (which family of deals), and every rule option of docs/rules.md under its
own name (`speed_seconds` 0 means not SPEED; `late` is never legal, and the adapter never
lists it: the engine applies it only on a clock). A rule option left out plays as the deck
prints it (`game: options:` in the manifest), as simulate, report and play do: its default is
a value no option takes (-1, "", -1.0; a bool's is False, so True overrides the deck), and
`deck_options=False` starts from the rulebook's defaults instead. A loaded game's parameters
(`get_parameters()`, its string, a serialized state) name every option at the value it plays.

`resample_from_infostate(player, sampler)` deals the hidden cards again through the engine's
own determinization (`State.resample`), for OpenSpiel's information-set MCTS.
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from functools import lru_cache
from typing import Any

import numpy as np
import pyspiel

from generator.ai.actions import ActionIds
from generator.ai.observation import Layout, Table, information_state_string, observation_string
from generator.deck.manifest import load
from generator.engine import Game, to_position
from generator.engine.options import Options
from generator.engine.simulate import game_seed

SHORT_NAME = "county_uppy"
#: Chance outcomes of the deal node: deals 0..DEALS-1 of the `seed` parameter.
DEALS = 1 << 16
#: Players the game may be loaded with (the engine's range for the shipped manifest).
MIN_PLAYERS, MAX_PLAYERS = 2, 8


#: A rule option's parameter at this value plays the option as the deck prints it (`game: options:`
#: in the manifest, else the rulebook's default), as simulate, report and play do. A bool has no
#: spare value, so there it is the rulebook's default (False): True always overrides, and
#: `deck_options=False` starts from the rulebook's defaults instead of the deck's.
AS_THE_DECK: dict[str, Any] = {
    name: (value if isinstance(value, bool) else -1.0 if name == "speed_seconds" else -1 if isinstance(value, int)
           else "")
    for name, value in asdict(Options()).items()
}


def _parameters() -> dict[str, Any]:
    """The game's parameters and their defaults: the place, the deal family, and every rule option."""
    return {"manifest": "cards.yaml", "edition": "the-og", "players": 4, "seed": 0, "deck_options": True,
            **AS_THE_DECK}


def given_options(params: dict[str, Any]) -> dict[str, Any]:
    """The rule options a parameter dict sets (those not at their AS_THE_DECK value), as the engine takes them."""
    given = {}
    for name, unset in AS_THE_DECK.items():
        value = params[name]
        if type(value) is type(unset) and value == unset:
            continue
        given[name] = None if name == "speed_seconds" and not value else value
    return given


def _game_type(utility=pyspiel.GameType.Utility.GENERAL_SUM) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="County Uppy",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS,
        min_num_players=MIN_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(),
    )


GAME_TYPE = _game_type()


@lru_cache(maxsize=8)
def _deck(path: str):
    """The manifest at `path`, read once per process."""
    return load(path)


def engine_game(params: dict[str, Any]) -> Game:
    """The engine's Game for a parameter dict (OpenSpiel's, defaults filled in): the deck's printed
    rule options (unless `deck_options` is False) with the options the parameters set over them."""
    deck = _deck(str(params["manifest"]))
    given = given_options(params)
    options = Options.for_deck(deck, given) if params["deck_options"] else Options.from_dict(given)
    return Game(deck, str(params["edition"]), int(params["players"]), options)


def resolved(params: dict[str, Any], game: Game) -> dict[str, Any]:
    """`params` with every rule option at the value `game` plays by, so the parameters alone name the game."""
    out = dict(params)
    for name, value in asdict(game.options).items():
        out[name] = float(value or 0) if name == "speed_seconds" else value  # 0.0: not SPEED
    return out


class CountyUppyGame(pyspiel.Game):
    """The game for one manifest, edition, player count and set of rule options."""

    def __init__(self, params: dict[str, Any] | None = None, engine: Game | None = None):
        """`params` as OpenSpiel gives them; or `engine`, an engine Game already made, whose OpenSpiel
        game this is (a bot's search on the engine's games: no manifest to read again, and its
        parameters name no manifest, so such a game is for search, not for serializing)."""
        full = _parameters()
        full.update(params or {})
        if engine is None:
            self.engine = engine_game(full)
        else:
            self.engine = engine
            full.update(manifest="", edition=engine.edition.key, players=engine.players)
        full = resolved(full, self.engine)
        self.seed = int(full["seed"])
        self.ids = ActionIds(self.engine)
        self.layout = Layout(self.engine)
        n = self.engine.players
        zero_sum = n == 2 or self.engine.options.teams
        info = pyspiel.GameInfo(
            num_distinct_actions=self.ids.size,
            max_chance_outcomes=DEALS,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=1 + (self.engine.options.max_turns + 1) * (2 * n + 7),
        )
        kind = pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        super().__init__(_game_type(kind), info, full)

    def __deepcopy__(self, memo) -> "CountyUppyGame":
        return self  # immutable: states share it

    def __reduce__(self):
        # pickled as its parameters: loading them makes the same game
        return (_game, (json.dumps(self.get_parameters(), sort_keys=True),))

    def new_initial_state(self) -> "CountyUppyState":
        return CountyUppyState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "Observer":
        if params:
            raise ValueError(f"observer parameters are not supported, got {params}")
        return Observer(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))

    def state_at(self, engine_state) -> "CountyUppyState":
        """A state of this game at `engine_state` (a world a seat's view sampled), for search:
        it has no heard decisions and no history, so it is not for serializing."""
        state = CountyUppyState(self)
        state.dealt = Dealt(self, -1, engine_state)
        return state

    def deal(self, outcome: int):
        """The engine State of deal `outcome` (the chance node's action)."""
        return self.engine.new_initial_state(game_seed(self.seed, outcome))


class Dealt:
    """A dealt game: the engine's State and the decisions heard at the table.

    OpenSpiel copies a Python state by deep-copying its attributes and serializes it by
    pickling them; this box makes both cheap and exact. A copy clones the engine State (the
    Game and its deck are shared, never copied); a pickle is the game's parameters, the deal
    and the decisions, and unpickling replays them through the engine."""

    __slots__ = ("game", "outcome", "engine", "table")

    def __init__(self, game: "CountyUppyGame", outcome: int, engine=None, table: Table | None = None):
        self.game = game
        self.outcome = outcome
        self.engine = engine if engine is not None else game.deal(outcome)
        self.table = table if table is not None else Table(game.engine)
        self.engine.current_player()  # the engine makes a turn's draw when asked who acts: ask now, always


    def apply(self, decision) -> None:
        seat = self.engine.current_player()
        self.engine.apply(decision)  # IllegalActionError if the engine does not allow it
        self.table.note(seat, decision)
        self.engine.current_player()

    def __deepcopy__(self, memo) -> "Dealt":
        return Dealt(self.game, self.outcome, self.engine.clone(), self.table.copy())

    def __reduce__(self):
        return (_replay, (self.game.get_parameters(), self.outcome, [str(a) for a in self.engine.history]))


def _replay(params: dict[str, Any], outcome: int, decisions: list[str]) -> Dealt:
    game = _game(json.dumps(params, sort_keys=True))
    dealt = Dealt(game, outcome)
    for text in decisions:
        dealt.apply(game.engine.action(text))
    return dealt


@lru_cache(maxsize=16)
def _game(params_json: str) -> CountyUppyGame:
    return CountyUppyGame(json.loads(params_json))


class CountyUppyState(pyspiel.State):
    """One game: the deal (chance), then the engine's State and the decisions heard at the table."""

    def __init__(self, game: CountyUppyGame):
        super().__init__(game)
        self.rules = game  #: the CountyUppyGame (shared by its states; OpenSpiel copies nothing of it)
        self.dealt: Dealt | None = None

    @property
    def engine(self):
        """The engine's State, once dealt (None before)."""
        return None if self.dealt is None else self.dealt.engine

    @property
    def table(self) -> Table | None:
        return None if self.dealt is None else self.dealt.table

    # --- the game ---------------------------------------------------------------------
    def current_player(self) -> int:
        e = self.engine
        if e is None:
            return pyspiel.PlayerId.CHANCE
        if e.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return e.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        e = self.engine
        if e is None or e.is_terminal() or player != e.current_player():
            return []
        return sorted(map(self.rules.ids.id, e.legal_actions()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(_outcomes()) if self.dealt is None else []

    def _apply_action(self, action: int) -> None:
        if self.dealt is None:
            if not 0 <= action < DEALS:
                raise pyspiel.SpielError(f"deal {action} is not 0..{DEALS - 1}")
            self.dealt = Dealt(self.rules, action)
        else:
            self.dealt.apply(self.rules.ids.action(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return str(self.rules.ids.action(action))

    def is_terminal(self) -> bool:
        e = self.engine
        return e is not None and e.is_terminal()

    def returns(self) -> list[float]:
        e = self.engine
        return [0.0] * self.rules.engine.players if e is None else e.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "CountyUppyState":
        """A state `player_id` cannot tell from this one, hidden cards dealt again by the engine.

        The engine's determinization (`State.resample`) keeps everything the seat sees; the
        decisions heard at the table are kept too, so both states have the same information
        state. The history (OpenSpiel's list of actions) is this one's: the new state is for
        search, not for serializing."""
        new = self.clone()
        if self.dealt is not None:
            rng = random.Random(int(probability_sampler() * (1 << 53)))
            new.dealt.engine = self.dealt.engine.resample(player_id, rng)
            new.dealt.engine.current_player()  # the turn's draw, as every dealt state has made it
        return new

    # --- what a player sees -------------------------------------------------------------
    def _legal_for(self, player: int):
        """The legal actions if `player` is to act (they show a Teams player its teammates' gives)."""
        e = self.engine
        return e.legal_actions() if e is not None and not e.is_terminal() and e.current_player() == player else None

    def __str__(self) -> str:
        e = self.engine
        return "deal not chosen yet" if e is None else json.dumps(to_position(e), sort_keys=True)


@lru_cache(maxsize=1)
def _outcomes() -> tuple[tuple[int, float], ...]:
    return tuple((i, 1.0 / DEALS) for i in range(DEALS))


class Observer:
    """OpenSpiel's PyObserver: the information state (perfect_recall) or the observation of a seat.

    A public-only observer (private_info NONE) leaves out the seat's hand and what its
    teammates could give it."""

    def __init__(self, game: CountyUppyGame, iig_obs_type):
        self.game = game
        self.layout = game.layout
        self.infostate = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info != pyspiel.PrivateInfoType.NONE
        segments = self.layout.segments if self.infostate else self.layout.observation_segments
        self.tensor = np.zeros(sum(size for _, size in segments), np.float32)
        self.dict = {}
        at = 0
        for name, size in segments:
            self.dict[name] = self.tensor[at:at + size]
            at += size

    def set_from(self, state: CountyUppyState, player: int) -> None:
        self.tensor.fill(0)
        if state.engine is None:
            return
        view = state.engine.view(player)
        legal = state._legal_for(player) if self.private else None
        values = (self.layout.information_state(view, state.table, legal) if self.infostate
                  else self.layout.observation(view, legal))
        self.tensor[:] = values
        if not self.private:
            self.dict["hand"][:] = 0

    def string_from(self, state: CountyUppyState, player: int) -> str:
        if state.engine is None:
            return f"seat {player}: before the deal"
        view = state.engine.view(player)
        legal = state._legal_for(player) if self.private else None
        text = (information_state_string(view, state.table, legal, public=not self.private) if self.infostate
                else observation_string(view, legal))
        if not self.private:
            text = "\n".join(line for line in text.split("\n") if not line.startswith("hand "))
        return text


pyspiel.register_game(GAME_TYPE, CountyUppyGame)
