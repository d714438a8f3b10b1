"""County Uppy's reference rules engine (docs/rules.md), in the shape of OpenSpiel and python-chess.

    from generator.deck.manifest import load
    from generator.engine import Game
    game = Game(load("cards.yaml"), "the-og", players=4, options={"play2_draws": 2})
    state = game.new_initial_state(seed=7)
    while not state.is_terminal():
        seat = state.current_player()          # who acts: to play, to discard (or give, Teams)
        action = state.legal_actions()[0]      # Actions: str(a) == "play STEAL 2", Action.parse back
        state.apply(action)                    # or state.apply("discard G7"); IllegalActionError if not
    state.winner                               # seat (Teams: team), None for a draw or unfinished

Other entry points:
- `state.view(seat)` -> PlayerView (own hand, hand sizes, count, match, in play, direction...),
  which bots get: `bot.choose(view, legal, rng)`; `make_bot("random" | "greedy" | "search")`.
  A bot that searches plays in `view.sample_world(rng)`: `state.resample(seat, rng)`, a new State
  with what that seat cannot see (other hands, draw pile, the game's random draws to come) dealt
  anew from `rng` (the determinization an OpenSpiel-style `resample_from_infostate` calls).
- SPEED: when a player is over `options.speed_seconds`, the terminal calls `state.late()`
  (the decision "late"): that player owes one discard, then still plays; records keep it.
  `speed_seconds` None means the game is not played at SPEED; `SPEED_SECONDS_DEFAULT` (10,
  docs/rules.md R7.5) is the tempo to use when SPEED is asked for without one.
- Why discards were owed: `state.penalties_by_cause()` ({"mismatch", "bust", "target",
  "late"} counts); per play `state.last_penalty`, `state.last_count`, `state.sixteen_by`.
- `play_game(game, bots, seed, observer=fn)` calls `fn(state, seat, action)` after each decision;
  `bot_seed(seed)` is the seed of the bots' RNG in game `seed`.
- `to_position(state)` / `from_position(deck, dict)` (docs/formats.md positions), `run_scenario(deck,
  dict)` (a position plus "decisions" -> the resulting position), `decision_line` and
  `describe_position` (human-readable log lines), `make_record` / `replay` (game records).
- `simulate(deck, games=..., players=..., ...)` -> a summary dict (see `county-uppy simulate --json`).

Depends only on generator.deck.model and the standard library.
"""

import sys
from importlib import import_module
from types import ModuleType
from typing import TYPE_CHECKING

#: Where each public name lives. The names load on first use (PEP 562), so that importing a
#: light module of the engine (options, limits) does not load all of it: the command line
#: imports those while it builds its parsers, and start-up time matters there.
_HOME = {
    "Action": "actions", "BOTS": "bots", "Bot": "bots", "GreedyBot": "bots", "RandomBot": "bots", "make_bot": "bots",
    "STEP_RULES": "steps", "ActionSyntaxError": "errors", "EngineError": "errors", "IllegalActionError": "errors",
    "OptionError": "errors", "PositionError": "errors", "Game": "game", "decision_line": "log",
    "describe_position": "log", "playthrough": "log", "SPEED_SECONDS_DEFAULT": "options", "Options": "options",
    "DecisionError": "position", "apply_decisions": "position", "compare_expected": "position",
    "from_position": "position", "run_scenario": "position", "to_position": "position", "make_record": "record",
    "replay": "record", "bot_seed": "simulate", "format_summary": "simulate", "game_seed": "simulate",
    "play_game": "simulate", "simulate": "simulate", "PENALTY_CAUSES": "state", "State": "state",
    "PlayerView": "view",
}


def __getattr__(name: str):
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'generator.engine' has no attribute {name!r}")
    value = getattr(import_module(f"generator.engine.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME})


class _Engine(ModuleType):
    """The package, whose `simulate` stays the function when the module of that name loads.

    Loading a submodule sets it as an attribute of its package; `generator.engine.simulate`
    has always meant the function (as `from generator.engine import simulate` promises).
    """

    def __setattr__(self, name: str, value: object) -> None:
        if name in _HOME and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Engine


if TYPE_CHECKING:
    from generator.engine.actions import Action
    from generator.engine.bots import BOTS, Bot, GreedyBot, RandomBot, make_bot
    from generator.engine.steps import STEP_RULES
    from generator.engine.errors import ActionSyntaxError, EngineError, IllegalActionError, OptionError, PositionError
    from generator.engine.game import Game
    from generator.engine.log import decision_line, describe_position, playthrough
    from generator.engine.options import SPEED_SECONDS_DEFAULT, Options
    from generator.engine.position import DecisionError, apply_decisions, compare_expected, from_position, run_scenario, to_position
    from generator.engine.record import make_record, replay
    from generator.engine.simulate import bot_seed, format_summary, game_seed, play_game, simulate
    from generator.engine.state import PENALTY_CAUSES, State
    from generator.engine.view import PlayerView

__all__ = [
    "Action", "ActionSyntaxError", "BOTS", "Bot", "PENALTY_CAUSES", "SPEED_SECONDS_DEFAULT", "bot_seed", "DecisionError", "STEP_RULES", "EngineError", "Game", "GreedyBot",
    "IllegalActionError", "OptionError", "Options", "PlayerView", "PositionError", "RandomBot", "State",
    "apply_decisions", "compare_expected", "decision_line", "describe_position", "format_summary", "from_position",
    "game_seed", "make_bot", "make_record", "play_game", "playthrough", "replay", "run_scenario", "simulate",
    "to_position",
]
