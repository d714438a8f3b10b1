"""Game records (CONTRACT.md): seed + decisions, replayed exactly."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from generator.engine.errors import PositionError, suggest
from generator.engine.game import Game
from generator.engine.position import apply_decisions
from generator.model import Deck

RECORD_KEYS = ("seed", "players", "edition", "options", "bots", "decisions", "result")


def result_of(state) -> dict[str, Any]:
    """The result a record stores: winner, finished, turns and the order players went out.

    "finished" is true only for a game that is over (a winner, or a draw); a game stopped at
    max_turns, quit or interrupted is not finished.
    """
    return {
        "winner": state.winner,
        "finished": state.done and not state.stopped,
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

    Raises PositionError for a malformed record and position.DecisionError for an illegal decision.
    """
    if not isinstance(record, Mapping):
        raise PositionError(f"a game record is a JSON object, not {type(record).__name__}")
    for key in record:
        if key not in RECORD_KEYS:
            raise PositionError(f"unknown key '{key}'{suggest(key, RECORD_KEYS)}")
    for key in ("seed", "players", "decisions"):
        if key not in record:
            raise PositionError(f"missing key '{key}'")
    seed = record["seed"]
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise PositionError(f"'seed' must be a whole number, not {seed!r}")
    edition = record.get("edition", "the-og")
    if not isinstance(edition, str):
        raise PositionError(f"'edition' must be a string, not {edition!r}")
    game = Game(deck, edition, record["players"], record.get("options"))
    state = game.new_initial_state(seed)
    apply_decisions(state, record["decisions"])
    expected = record.get("result")
    actual = result_of(state)
    if expected is None:
        return state, True
    if not isinstance(expected, Mapping):
        raise PositionError("'result' must be an object")
    same = all(actual.get(k) == v for k, v in expected.items())
    return state, same
