"""County Uppy as an OpenSpiel game: `pyspiel.load_game("county_uppy", {...})` (needs the `ai` extra).

Importing this module registers the game. Every rule is the engine's: a State here holds an
engine State and passes each decision to it; this module only translates (decision ids from
generator/ai/actions.py, tensors and strings from generator/ai/observation.py).

The GameType, as the engine is:
- sequential, imperfect information (hands and the draw pile are hidden), terminal rewards;
- chance: explicit stochastic, as it happens. The deal is a chance node per card, dealt one
  at a time from the seat left of the dealer (R3); its outcomes are the card types still to
  deal, each as likely as its copies left. The draw pile is not put in order: each card
  drawn from it is a chance node when it is drawn (outcomes: the card types left in the
  pile), and so is each card of a reshuffled pile; Steal's pick is a chance node over the
  cards of the hand it takes from, and Re-Deal's shuffle one per card it deals. Nothing
  about cards not yet seen is fixed before it happens (generator/ai/chance.py), so no table
  maps what a seat sees to what is hidden. `seeded_state(N)` is the engine's game N (the
  deal of `Game.new_initial_state(N)`, its later random events from that seed, no chance
  node), for comparing bots on fixed deals; docs/engine.md ("Game N") says how the seeds of
  the engine, `simulate` and PettingZoo relate.
- utility: the engine's returns, +1 for the winner (Teams: each winning seat) and -1 for
  the others, 0 for everyone in a draw or an unfinished game. That is zero-sum with 2
  players or in Teams, general-sum otherwise (the registered type says general-sum; each
  loaded game's own type says which it is).
- max game length (decisions; chance outcomes are not counted): decisions are bounded per
  turn, so `max_turns` bounds the game: (max_turns + 1) * (2 * players + 7), at most MAX_LENGTH
  (2**31 - 1, the largest OpenSpiel holds): any `max_turns` the engine takes makes a game, whose
  `max_turns` parameter says at most that much.

Parameters: `manifest` (a path; left out: cards.yaml in the current folder, else the shipped
deck, generator/resources.py: default_manifest), `edition`,
`players`, and every rule option of docs/rules.md under its
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
from collections import Counter
from dataclasses import asdict
from functools import lru_cache
from typing import Any

import numpy as np
import pyspiel

from generator.ai.actions import ActionIds
from generator.ai.chance import Chance, NeedChance
from generator.ai.observation import Layout, Table, information_state_string, observation_string
from generator.deck.manifest import load
from generator.engine import Game, make_bot
from generator.engine.errors import IllegalActionError
from generator.engine.options import Options
from generator.engine.shuffling import is_chance
from generator.engine.simulate import bot_seed
from generator.resources import default_manifest

SHORT_NAME = "county_uppy"
#: The largest whole number OpenSpiel's GameInfo and game parameters hold (a C int): a longer game
#: bound, or a larger max_turns, is said as this.
MAX_LENGTH = (1 << 31) - 1
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
    return {"manifest": "", "edition": "the-og", "players": 4, "deck_options": True,
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
    # OpenSpiel's whole-number parameters are C ints: a longer max_turns than the largest is said as
    # the largest (2**31 - 1 turns, days of play: no game of the engine is told apart by it)
    out["max_turns"] = min(out["max_turns"], MAX_LENGTH)
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
            full["manifest"] = str(full["manifest"] or default_manifest())  # the game's parameters name the deck read
            self.engine = engine_game(full)
        else:
            self.engine = engine
            full.update(manifest="", edition=engine.edition.key, players=engine.players)
        full = resolved(full, self.engine)
        self.ids = ActionIds(self.engine)
        self.layout = Layout(self.engine)
        #: The edition's copies of each card type (by card index), how many cards the deal gives out, and how many there are.
        copies = Counter(self.engine.edition_cards)
        self.edition_copies = tuple(copies[c] for c in range(len(self.engine.codes)))
        self.deal_size, self.deal_total = self.engine.deal_size, len(self.engine.edition_cards)
        #: Every card of the edition, each type its copies times, ascending (the draw pile after the deal
        #: is this less the cards dealt), and where each type's first copy is in it.
        self._all_cards = [c for c, k in enumerate(self.edition_copies) for _ in range(k)]
        self._first_copy = [self._all_cards.index(c) if k else -1 for c, k in enumerate(self.edition_copies)]
        #: Per number of cards a chance node draws from, its outcomes' tables (_tables); each type's place in
        #: the outcomes with every type at its full copies.
        self._pairs: dict[int, tuple[list, list]] = {}
        self._deal_at = [0] * len(self.edition_copies)
        for i, c in enumerate(c for c, copies in enumerate(self.edition_copies) if copies):
            self._deal_at[c] = i
        n = self.engine.players
        zero_sum = n == 2 or self.engine.options.teams
        info = pyspiel.GameInfo(
            num_distinct_actions=self.ids.size,
            max_chance_outcomes=max(len(self.engine.codes), len(self.engine.edition_cards)),
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=min(MAX_LENGTH, max_decisions(self.engine)),
        )
        kind = pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        super().__init__(_game_type(kind), info, full)

    def _tables(self, n: int) -> tuple[list[list[tuple[int, float]]], list[tuple[int, float]]]:
        """For a chance node that draws one of `n` cards: pairs[c][k] = (c, k / n), card type c's outcome
        when k of the n are of that type, and the outcomes with every type at its edition's copies.

        Made once per n: OpenSpiel's sampler asks at each of the deal's ~20 nodes, and making the
        95 pairs each time was a sixth of an rl_environment reset."""
        tables = self._pairs.get(n)
        if tables is None:
            pairs = [[(c, k / n) for k in range(copies + 1)] for c, copies in enumerate(self.edition_copies)]
            tables = self._pairs[n] = (pairs, [row[-1] for row in pairs if len(row) > 1])
        return tables

    def deal_outcomes(self, left: list[int], dealt: list[int]) -> list[tuple[int, float]]:
        """The chance outcomes of the deal's next card, `dealt` cards dealt so far and `left[card]` copies
        of each card type left: every type still to deal, ascending, as likely as its copies left.

        The outcomes with every type at its full copies are copied and only the types dealt so far
        changed (a third of the instructions of making the list from `left`)."""
        pairs, full = self._tables(self.deal_total - len(dealt))
        out, at, gone = list(full), self._deal_at, []
        for c in set(dealt):
            k = left[c]
            if k:
                out[at[c]] = pairs[c][k]
            else:
                gone.append(at[c])
        for i in sorted(gone, reverse=True):
            del out[i]
        return out

    def pile_outcomes(self, cards: list[int]) -> list[tuple[int, float]]:
        """The chance outcomes of the next card drawn from `cards` (a draw pile, in any order): every
        card type there, ascending, as likely as its copies there."""
        counts = [0] * len(self.edition_copies)
        for c in cards:
            counts[c] += 1
        try:
            return [row[k] for row, k in zip(self._tables(len(cards))[0], counts) if k]
        except IndexError:  # a position set up by hand (a scenario) may hold more copies than the edition
            n = len(cards)
            return [(c, k / n) for c, k in enumerate(counts) if k]

    def pile_after_deal(self, dealt: list[int]) -> list[int]:
        """The draw pile once `dealt` is dealt: every other card, ascending by type."""
        rest, first = list(self._all_cards), self._first_copy
        for c in sorted(dealt, reverse=True):  # the higher types first: a lower type's place stays put
            del rest[first[c]]
        return rest

    def __deepcopy__(self, memo) -> "CountyUppyGame":
        return self  # immutable: states share it

    def __reduce__(self):
        # pickled as its parameters: loading them makes the same game
        return (_game, (json.dumps(self.get_parameters(), sort_keys=True),))

    def new_initial_state(self) -> "CountyUppyState":
        """The game before the deal: chance deals the first card."""
        return CountyUppyState(self)

    def seeded_state(self, seed: int) -> "CountyUppyState":
        """Game `seed` of the engine (docs/engine.md, "Game N"), at its first decision: the deal
        `Game.new_initial_state(seed)` makes, as `play --seed`, `replay` and PettingZoo's
        `reset(seed=...)` deal it. Its later random events come from that seed as in the engine,
        so it has no chance node: a fixed deal to compare bots on, not a game to enumerate chance in."""
        state = CountyUppyState(self)
        state.progress = Progress(self, int(seed))
        return state

    def make_py_observer(self, iig_obs_type=None, params=None) -> "Observer":
        if params:
            raise ValueError(f"observer parameters are not supported, got {params}")
        return Observer(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))

    def state_at(self, engine_state) -> "CountyUppyState":
        """A state of this game at `engine_state` (a world a seat's view sampled), for search:
        it has no heard decisions and no history, so it is not for serializing."""
        state = CountyUppyState(self)
        state.progress = Progress(self, None if is_chance(engine_state.rng) else engine_state.seed, engine_state)
        return state


def max_decisions(game: Game) -> int:
    """The most decisions a game can take (OpenSpiel's max_game_length, chance outcomes not counted):
    decisions are bounded per turn, so `max_turns` bounds the game."""
    return (game.options.max_turns + 1) * (2 * game.players + 7)


_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)

#: `Progress.step` of the draw that follows the deal (no decision: the first turn's draw).
_SETTLE = None


class Progress:
    """Where one game is: the deal so far, then the engine's State, the decisions heard at the table,
    and a decision waiting for chance.

    A game of chance (`seed` None) deals card by card: each card is a chance node whose
    outcomes are the card types still to deal, each as likely as its copies left. Then the
    engine's State plays with a `Chance` (generator/ai/chance.py) as its RNG: a decision is
    made on a copy of the State, and when the engine needs a random event (a card drawn, a
    reshuffled pile's next card, Steal's pick, Re-Deal's shuffle) the copy is dropped and chance
    chooses; the decision is then made again with every outcome chosen so far. A seeded game
    (`seed` an engine seed) is the engine's own game of that seed, with no chance nodes.

    OpenSpiel copies a Python state by deep-copying its attributes and serializes it by
    pickling them; this box makes both cheap and exact: a copy clones the engine State (the
    Game and its deck are shared, never copied), a pickle is the game's parameters, the seed
    and the moves, and unpickling makes the moves again."""

    __slots__ = ("game", "seed", "dealt", "left", "engine", "table", "step", "fed", "need", "moves")

    def __init__(self, game: "CountyUppyGame", seed: int | None = None, engine=None):
        self.game = game
        self.seed = seed
        self.dealt: list[int] = []  #: cards dealt so far, in the order dealt (a game of chance)
        self.left: list[int] | None = None  #: left[card type]: its copies still to deal
        self.table: Table | None = None
        self.step: Any = _SETTLE  #: the decision waiting for chance (_SETTLE: the draw after the deal)
        self.fed: list[int] = []  #: the chance outcomes chosen for it so far
        self.need: NeedChance | None = None  #: what chance chooses next, while a decision waits
        self.moves: list[int] = []  #: every OpenSpiel action so far, chance's included
        self.engine = engine
        if seed is not None and engine is None:
            self.engine = game.engine.new_initial_state(seed)
        if self.engine is not None:
            self.table = Table(game.engine)
            self._make(_SETTLE)  # the engine makes a turn's draw when asked who acts: ask now, always
        else:
            self.left = list(game.edition_copies)

    # --- chance -------------------------------------------------------------------------
    def is_chance(self) -> bool:
        return self.engine is None or self.need is not None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        need = self.need
        if need is not None:
            if need.outcomes is None:
                need.outcomes = (self.game.pile_outcomes(need.pile) if need.pile is not None
                                 else [(j, 1.0 / need.size) for j in range(need.size)])
            return list(need.outcomes)
        if self.engine is None:
            return self.game.deal_outcomes(self.left, self.dealt)  # type: ignore[arg-type]
        return []

    def chance(self, outcome: int) -> None:
        """Chance chose `outcome` (one of chance_outcomes())."""
        if self.engine is None:  # the deal, card by card
            left = self.left
            if not 0 <= outcome < len(left) or not left[outcome]:  # type: ignore[arg-type]
                raise pyspiel.SpielError(f"chance outcome {outcome} is not a card still to deal")
            left[outcome] -= 1  # type: ignore[index]
            self.dealt.append(outcome)
            if len(self.dealt) == self.game.deal_size:
                self.engine = self.game.engine.dealt_state(self.dealt, self.game.pile_after_deal(self.dealt), Chance())
                self.table = Table(self.game.engine)
                self.left = None
                self._make(_SETTLE)
            return
        if self.need is None or not self.need.allows(outcome):
            raise pyspiel.SpielError(f"{outcome} is not a chance outcome here")
        self.fed.append(outcome)
        self._make(self.step)

    # --- decisions ----------------------------------------------------------------------
    def apply(self, decision) -> None:
        seat = self.engine.current_player()
        if decision not in self.engine.legal_actions():
            self.engine.clone().apply(decision)  # IllegalActionError, saying why
            raise IllegalActionError(f"'{decision}' is not one of the game's decisions here")  # late: never listed
        self.table.note(seat, decision)  # type: ignore[union-attr]
        self.fed = []
        self._make(decision)

    def _make(self, step) -> None:
        """Make `step` (a decision, or _SETTLE) and the draw that follows it, with the outcomes fed so far."""
        e = self.engine
        if self.seed is not None:  # the engine's own game: its RNG decides
            if step is not _SETTLE:
                e.apply(step)
            e.current_player()
            return
        trial = e.clone()
        chance = trial.rng
        chance.fed, chance.used = list(self.fed), 0
        try:
            if step is not _SETTLE:
                trial.apply(step)
            trial.current_player()
        except NeedChance as need:
            # kept without its traceback, whose first frame (this call's) holds self: a cycle that
            # only Python's collector frees, holding the trial State (and, at a reset, a tenth of its time)
            self.step, self.need = step, need.with_traceback(None)
            return
        chance.fed, chance.used = [], 0
        self.engine, self.step, self.fed, self.need = trial, _SETTLE, [], None

    def move(self, action: int) -> None:
        """One OpenSpiel action: chance's outcome at a chance node, else a decision id."""
        if self.is_chance():
            self.chance(action)
        else:
            self.apply(self.game.ids.action(action))
        self.moves.append(action)

    def __deepcopy__(self, memo) -> "Progress":
        new = Progress.__new__(Progress)
        new.game, new.seed, new.step, new.need = self.game, self.seed, self.step, self.need
        new.dealt, new.fed, new.moves = list(self.dealt), list(self.fed), list(self.moves)
        new.left = None if self.left is None else list(self.left)
        new.engine = None if self.engine is None else self.engine.clone()
        new.table = None if self.table is None else self.table.copy()
        return new

    def __reduce__(self):
        return (_replay, (self.game.get_parameters(), self.seed, list(self.moves)))


def _replay(params: dict[str, Any], seed: int | None, moves: list[int]) -> Progress:
    progress = Progress(_game(json.dumps(params, sort_keys=True)), seed)
    for action in moves:
        progress.move(action)
    return progress


@lru_cache(maxsize=16)
def _game(params_json: str) -> CountyUppyGame:
    return CountyUppyGame(json.loads(params_json))


class CountyUppyState(pyspiel.State):
    """One game: the deal (chance, card by card), then the engine's State, with chance nodes as it needs them."""

    def __init__(self, game: CountyUppyGame):
        super().__init__(game)
        self.rules = game  #: the CountyUppyGame (shared by its states; OpenSpiel copies nothing of it)
        self.progress = Progress(game)

    @property
    def engine(self):
        """The engine's State, once dealt (None before; before the decision that waits for chance)."""
        return self.progress.engine

    @property
    def table(self) -> Table | None:
        return self.progress.table

    # --- the game ---------------------------------------------------------------------
    def current_player(self) -> int:
        # asked ~100 times per rl_environment reset (by pyspiel's apply_action, is_chance_node and
        # legal_actions too): plain ints, as pyspiel's own games answer, and no call that can be saved
        p = self.progress
        e = p.engine
        if e is None or p.need is not None:
            return _CHANCE
        return _TERMINAL if e.is_terminal() else e.current_player()

    # is_chance_node and legal_actions answer here, as pyspiel's own would (a chance node's legal
    # actions are its outcomes, in their order): pyspiel's go through C++ and back into current_player,
    # _legal_actions and is_terminal, a third of what a reset spends outside OpenSpiel's sampler
    def is_chance_node(self) -> bool:
        return self.progress.is_chance()

    def legal_actions(self, player: int | None = None) -> list[int]:
        p = self.progress
        if p.is_chance():
            return [outcome for outcome, _ in p.chance_outcomes()]
        if p.engine.is_terminal():
            return []
        if player is not None and player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return self._legal_actions(p.engine.current_player() if player is None else player)

    def _legal_actions(self, player: int) -> list[int]:
        p = self.progress
        if p.is_chance() or p.engine.is_terminal() or player != p.engine.current_player():
            return []
        return sorted(map(self.rules.ids.id, p.engine.legal_actions()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.progress.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.progress.move(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            p = self.progress
            if p.need is not None and p.need.kind == "pick":
                return f"chance: card {action + 1} of {p.need.size} of the hand"
            codes = self.rules.engine.codes
            card = codes[action] if 0 <= action < len(codes) else f"#{action}"
            return f"chance: deal {card}" if p.engine is None else f"chance: {card} comes next"
        return str(self.rules.ids.action(action))

    def is_terminal(self) -> bool:
        p = self.progress
        return not p.is_chance() and p.engine.is_terminal()

    def returns(self) -> list[float]:
        p = self.progress
        return [0.0] * self.rules.engine.players if p.is_chance() else p.engine.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "CountyUppyState":
        """A state `player_id` cannot tell from this one, hidden cards dealt again by the engine.

        The engine's determinization (`State.resample`) keeps everything the seat sees; the
        decisions heard at the table are kept too, so both states have the same information
        state. In a game of chance the new state's draw pile and random events are chance's
        again, as they are here. The history (OpenSpiel's list of actions) is this one's: the
        new state is for search, not for serializing."""
        new = self.clone()
        p = new.progress
        if p.engine is not None and p.need is None:
            rng = random.Random(int(probability_sampler() * (1 << 53)))
            p.engine = self.progress.engine.resample(player_id, rng, Chance() if p.seed is None else None)
            p.engine.current_player()  # the turn's draw, as every dealt state has made it
        return new

    # --- what a player sees -------------------------------------------------------------
    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """pyspiel's `information_state_tensor`: the list the game's observer writes (Layout), made here
        without pyspiel's detour, which asks the game for the tensor's shape on every call (a new state
        and its tensor), copies the list into the observer's numpy tensor, that segment by segment into
        C++, and back into a new list of 1,180 floats (4 players): most of an OpenSpiel reset."""
        return self._tensor(player, self.rules.layout.size, True)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """pyspiel's `observation_tensor`, without its detour (as information_state_tensor)."""
        return self._tensor(player, self.rules.layout.observation_size, False)

    def _tensor(self, player: int | None, size: int, infostate: bool) -> list[float]:
        if player is None:
            player = self.current_player()
        if not 0 <= player < self.rules.engine.players:
            raise pyspiel.SpielError(f"no player {player} in a game of {self.rules.engine.players}")
        p = self.progress
        if p.engine is None:
            return [0.0] * size
        view = p.engine.view(player)
        return self.rules.layout.information_state(view, p.table) if infostate else self.rules.layout.observation(view)

    def __str__(self) -> str:
        p = self.progress
        if p.engine is None:
            return f"dealing: {' '.join(self.rules.engine.codes[c] for c in p.dealt) or 'no card yet'}"
        lines = [f"s{s}: {' '.join(self.rules.engine.codes[c] for c in hand) or '-'}" for s, hand in enumerate(p.engine.hands)]
        return "\n".join([*lines, *(f"{who}: {a}" for who, a in p.table.log), f"moves {p.moves}"])


class Observer:
    """OpenSpiel's PyObserver: the information state (perfect_recall) or the observation of a seat.

    A public-only observer (private_info NONE) leaves out the seat's hand."""

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
        #: What the tensor holds: (the state's Progress, its engine State, its moves, the player).
        #: OpenSpiel asks twice for each tensor it hands out; the second time nothing is computed.
        self._holds: tuple | None = None

    def set_from(self, state: CountyUppyState, player: int) -> None:
        p = state.progress
        holds = (p, p.engine, len(p.moves), player)  # Progress and State compare by identity
        if holds == self._holds:
            return
        self._holds = holds
        self.tensor.fill(0)
        if state.engine is None:
            return
        view = state.engine.view(player)
        values = (self.layout.information_state(view, state.table) if self.infostate
                  else self.layout.observation(view))
        self.tensor[:] = values
        if not self.private:
            self.dict["hand"][:] = 0

    def string_from(self, state: CountyUppyState, player: int) -> str:
        if state.engine is None:
            return f"seat {player}: before the deal"
        view = state.engine.view(player)
        text = (information_state_string(view, state.table, public=not self.private) if self.infostate
                else observation_string(view))
        if not self.private:
            text = "\n".join(line for line in text.split("\n") if not line.startswith("hand "))
        return text


pyspiel.register_game(GAME_TYPE, CountyUppyGame)


class EngineBot(pyspiel.Bot):
    """A built-in bot of the engine (`random`, `greedy`, `search:N`) as an OpenSpiel `Bot` for `player`.

    `step(state)` is the id of the decision the bot makes from `player`'s view of the state (never
    the hidden cards); its random numbers come from `seed`. It keeps nothing between steps, so
    `restart_at` and `inform_action` have nothing to do."""

    def __init__(self, game: CountyUppyGame, player: int, bot: str = "greedy", seed: int = 0):
        pyspiel.Bot.__init__(self)
        self._game, self._player = game, player
        self._bot, self._rng = make_bot(bot), random.Random(bot_seed(seed))

    def step(self, state: CountyUppyState) -> int:
        e = state.engine
        if state.current_player() != self._player:
            raise ValueError(f"it is not player {self._player}'s decision")
        return self._game.ids.id(self._bot.choose(e.view(self._player), e.legal_actions(), self._rng))

    def restart_at(self, state) -> None:
        pass

    def inform_action(self, state, player_id: int, action: int) -> None:
        pass

    def provides_force_action(self) -> bool:
        return False

    def provides_policy(self) -> bool:
        return False
