"""Game records (docs/formats.md): seed + decisions, replayed exactly."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from generator.deck.model import Deck
from generator.engine.bots import BOTS, MAX_ROLLOUTS, search_rollouts
from generator.engine.errors import PositionError, kind_of, shown, suggest
from generator.engine.game import Game
from generator.engine.options import Options
from generator.engine.position import apply_decisions, check_decisions

RECORD_KEYS = ("seed", "players", "edition", "options", "bots", "decisions", "result")
#: The keys of a record's "result" (result_of).
RESULT_KEYS = ("winner", "finished", "turns", "out")
#: The name `play` records for the seat a person played.
HUMAN = "human"


def result_of(state) -> dict[str, Any]:
    """The result a record stores: winner, finished, turns and the order players went out.

    "finished" is true only for a game that is over (a winner, or a draw); a game stopped at
    max_turns, quit or interrupted is not finished. A player out at the draw that follows the
    last decision (nothing to draw, no card: R4.2) is resolved first (`State.is_terminal`), as
    the game that wrote the record resolved it when it asked for the next decision.
    """
    done = state.is_terminal()
    return {
        "winner": state.winner,
        "finished": done and not state.stopped,
        "turns": state.turns,
        "out": list(state.out_order),
    }


def make_record(state, bots: Sequence[str] = ()) -> dict[str, Any]:
    """The record of a game played from `game.new_initial_state(seed)`."""
    game = state.game
    return {
        "seed": state.seed,
        "players": game.players,
        "edition": game.edition.key,
        "options": game.options.to_dict(),
        "bots": list(bots),
        "decisions": [str(a) for a in state.history],
        "result": result_of(state),
    }


def replay(deck: Deck, record: Mapping[str, Any]):
    """Deal the record's game from its seed and apply its decisions; return (state, result_matches).

    `result_matches` is True or False, or None when the record has no "result" to check.
    Raises PositionError (or OptionError) for a malformed record, checked whole before any
    decision is applied, and position.DecisionError for an illegal decision.
    """
    if not isinstance(record, Mapping):
        raise PositionError(f"a game record is a JSON object, not {kind_of(record)}")
    for key in record:
        if key not in RECORD_KEYS:
            raise PositionError(f"unknown key '{key}'{suggest(key, RECORD_KEYS)}")
    for key in ("seed", "players", "decisions"):
        if key not in record:
            raise PositionError(f"missing key '{key}'")
    seed = record["seed"]
    if not _whole(seed):
        raise PositionError(f"'seed' must be a whole number, not {shown(seed)}")
    players = record["players"]
    if not _whole(players):
        raise PositionError(f"'players' must be a whole number, not {shown(players)}")
    edition = record.get("edition", "the-og")
    if not isinstance(edition, str):
        raise PositionError(f"'edition' must be text, not {shown(edition)}")
    options = record.get("options")
    if options is not None and not isinstance(options, Mapping):
        raise PositionError(f"'options' must be an object of rule option names and values, not {shown(options)}")
    game = Game(deck, edition, players, Options.from_dict(options))  # a record's options are whole (Options.to_dict)
    _check_bots(record.get("bots", []), players)
    decisions = check_decisions(record["decisions"])
    expected = _check_result(record["result"], game) if "result" in record else None
    state = game.new_initial_state(seed)
    apply_decisions(state, decisions)
    state.is_terminal()  # a player out at the draw after the last decision (R4.2), before the state is shown
    if expected is None:
        return state, None
    actual = result_of(state)
    return state, all(actual[k] == v for k, v in expected.items())


def result_differences(expected: Mapping[str, Any], actual: Mapping[str, Any]) -> list[str]:
    """How a replayed result differs from a record's, one phrase per key: "winner is 2, the record says 1"."""
    return [f"{key} is {shown(actual.get(key))}, the record says {shown(want)}"
            for key, want in expected.items() if actual.get(key) != want]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def bot_name_known(name: str) -> bool:
    """A bot name a record may hold: a registered bot, `search:N`, or "human" (a person at `play`)."""
    base, colon, arg = name.partition(":")
    if colon:
        return base == "search" and search_rollouts(arg) is not None
    return name in BOTS or name == HUMAN


def _check_bots(bots: Any, players: int) -> None:
    """'bots': one name per seat (an empty list: not recorded). Only checked; a replay needs no bots."""
    names = [*BOTS, "search:N", HUMAN]
    if not isinstance(bots, list):
        raise PositionError(f"'bots' must be a list of bot names, one per seat, not {shown(bots)}")
    for seat, name in enumerate(bots):
        if not isinstance(name, str):
            raise PositionError(f"'bots' must hold bot names like 'greedy', not {shown(name)} (seat {seat})")
        if not bot_name_known(name) and name.startswith("search:"):
            raise PositionError(f"bot {name[:40]!r} for seat {seat} in 'bots': the search bot's rollouts are a "
                                f"positive whole number up to {MAX_ROLLOUTS:,}, as in search:800")
        if not bot_name_known(name):
            raise PositionError(f"unknown bot {name[:40]!r} for seat {seat} in 'bots'{suggest(name, names)}; "
                                f"bots are {', '.join(names)}")
    if bots and len(bots) != players:
        raise PositionError(f"'bots' names {len(bots)} bot{'s' if len(bots) != 1 else ''} but the game has "
                            f"{players} players (one name per seat)")


def _check_result(result: Any, game: Game) -> dict[str, Any]:
    """The record's 'result' (the keys result_of writes; any of them may be left out), checked."""
    if not isinstance(result, Mapping):
        raise PositionError(f"'result' must be an object like {{\"winner\": 1, \"finished\": true, \"turns\": 40, "
                            f"\"out\": [0, 2]}}, not {shown(result)}")
    n = game.players
    winners = 2 if game.options.teams else n
    for key, value in result.items():
        if key not in RESULT_KEYS:
            raise PositionError(f"unknown key '{key}' in 'result'{suggest(key, RESULT_KEYS)}; "
                                f"a result holds {', '.join(RESULT_KEYS)}")
        if key == "winner" and value is not None and not (_whole(value) and 0 <= value < winners):
            what = "team 0 or 1" if game.options.teams else f"seat 0..{n - 1}"
            raise PositionError(f"'result.winner' must be a {what} or null (no winner), not {shown(value)}")
        if key == "finished" and not isinstance(value, bool):
            raise PositionError(f"'result.finished' must be true or false, not {shown(value)}")
        if key == "turns" and not (_whole(value) and value >= 0):
            raise PositionError(f"'result.turns' must be a whole number, 0 or more, not {shown(value)}")
        if key == "out" and not (isinstance(value, list) and all(_whole(s) and 0 <= s < n for s in value)):
            raise PositionError(f"'result.out' must be a list of seats 0..{n - 1}, not {shown(value)}")
    return dict(result)
