"""Positions (CONTRACT.md): a State as a person would write it, both ways, and scenarios."""

from __future__ import annotations

import random
from typing import Any, Mapping

from generator.engine.errors import EngineError, OptionError, PositionError, suggest
from generator.engine.game import Game
from generator.model import Deck

PENDING_DEFAULTS: dict[str, Any] = {
    "invert": False, "drawn": False, "played": 0, "play2": 0, "play2_next": False, "skip": 0, "gave": False, "owed": [],
}
POSITION_KEYS = (
    "players", "edition", "options", "seed", "count", "match", "direction", "turn", "hands", "draw", "discard",
    "in_play", "out", "winner", "pending", "turns", "stopped", "last_count",
)
#: Keys a scenario file may add to a position.
SCENARIO_KEYS = ("decisions", "expected", "expected_error", "rule", "description", "name", "option", "notes")


def to_position(state) -> dict[str, Any]:
    """The position dict of a State (CONTRACT.md), with every pending key.

    One key beyond CONTRACT.md's shape (extra keys are allowed): `last_count`, the count
    once the last card played had taken effect, before any reset (a bust to 19 shows
    "count": 0, "last_count": 19). A position may omit it (it then equals `count`).
    """
    game = state.game
    codes = game.codes

    def names(cards):
        return [codes[c] for c in cards]

    return {
        "players": game.players,
        "edition": game.edition.key,
        "options": game.options.to_dict(),
        "seed": state.seed,
        "count": state.count,
        "match": "start" if state.match == game.START else codes[state.match],
        "direction": state.direction,
        "turn": state.turn,
        "hands": [names(h) for h in state.hands],
        "draw": names(reversed(state.draw)),
        "discard": names(state.discard),
        "in_play": names(state.in_play),
        "out": list(state.out_order),
        "winner": state.winner,
        "turns": state.turns,
        "stopped": state.stopped,
        "last_count": state.last_count,
        "pending": {
            "invert": state.invert, "drawn": state.drawn, "played": state.played, "play2": state.play2,
            "play2_next": state.play2_next, "skip": state.skip, "gave": state.gave, "owed": list(state.owed),
        },
    }


def from_position(deck: Deck, data: Mapping[str, Any], *, extra_keys: tuple[str, ...] = ()):
    """A State from a position dict; raise PositionError (or OptionError) naming what is wrong."""
    from generator.engine.state import State

    if not isinstance(data, Mapping):
        raise PositionError(f"a position is a JSON object, not {type(data).__name__}")
    allowed = POSITION_KEYS + extra_keys
    for key in data:
        if key not in allowed:
            raise PositionError(f"unknown key '{key}'{suggest(key, allowed)}")
    if "hands" not in data:
        return _deal(deck, data, allowed)
    hands_raw = data.get("hands")
    if not isinstance(hands_raw, list) or not all(isinstance(h, list) for h in hands_raw):
        raise PositionError("'hands' must be a list of lists of card codes, one per seat")
    players = data.get("players", len(hands_raw))
    if players != len(hands_raw):
        raise PositionError(f"'players' is {players} but 'hands' has {len(hands_raw)} hands")
    game = Game(deck, _get(data, "edition", str, "the-og"), players, data.get("options"))
    n = players

    def cards(key: str, raw: Any) -> list[int]:
        if not isinstance(raw, list):
            raise PositionError(f"'{key}' must be a list of card codes")
        out = []
        for code in raw:
            if not isinstance(code, str) or code not in game.index:
                hint = suggest(code, game.codes) if isinstance(code, str) else ""
                raise PositionError(f"unknown card code {code!r} in '{key}'{hint}")
            out.append(game.index[code])
        return out

    hands = [cards(f"hands[{i}]", h) for i, h in enumerate(hands_raw)]
    draw = cards("draw", data.get("draw", []))[::-1]
    discard = cards("discard", data.get("discard", []))
    in_play = cards("in_play", data.get("in_play", []))

    def seat(key: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
            raise PositionError(f"'{key}' must be a seat 0..{n - 1}, not {value!r}")
        return value

    out_order = [seat("out", s) for s in _get(data, "out", list, [])]
    if len(set(out_order)) != len(out_order):
        raise PositionError("'out' lists a seat twice")
    out = [s in out_order for s in range(n)]
    for s in out_order:
        if hands[s]:
            raise PositionError(f"seat {s} is out but holds cards")
    match_code = _get(data, "match", str, "start")
    if match_code == "start":
        match = game.START
    elif match_code in game.index:
        match = game.index[match_code]
        if not game.is_number[match] and not game.options.wild_sets_target:
            raise PositionError(f"match {match_code!r} is a wild; only option wild_sets_target lets a wild be the match")
    else:
        raise PositionError(f"unknown match {match_code!r}{suggest(match_code, game.codes)} (a card code or \"start\")")
    direction = _get(data, "direction", int, 1)
    if direction not in (1, -1):
        raise PositionError(f"'direction' must be 1 or -1, not {direction!r}")
    winner = data.get("winner")
    if winner is not None:
        winner = seat("winner", winner)
    seed = _get(data, "seed", int, 0)
    turn = seat("turn", data.get("turn", 0))
    state = State(game, random.Random(seed), seed, hands, draw, turn=turn, discard=discard, in_play=in_play,
                  count=_get(data, "count", int, 0), match=match, direction=direction, out=out, out_order=out_order,
                  winner=winner, turns=_get(data, "turns", int, 0))
    pending = dict(PENDING_DEFAULTS)
    raw_pending = _get(data, "pending", dict, {})
    for key, value in raw_pending.items():
        if key not in PENDING_DEFAULTS:
            raise PositionError(f"unknown pending key '{key}'{suggest(key, PENDING_DEFAULTS)}")
        want = type(PENDING_DEFAULTS[key])
        if type(value) is not want:
            raise PositionError(f"pending '{key}' must be {want.__name__}, not {value!r}")
        pending[key] = value
    state.invert = pending["invert"]
    state.drawn = pending["drawn"]
    state.played = pending["played"]
    state.play2 = pending["play2"]
    state.play2_next = pending["play2_next"]
    state.skip = pending["skip"]
    state.gave = pending["gave"]
    state.owed = [seat("pending.owed", s) for s in pending["owed"]]
    state.stopped = bool(data.get("stopped", False))
    state.last_count = _get(data, "last_count", int, state.count)
    if state.winner is not None or state.stopped or state.n_in == 0:
        state.done = True
        return state
    if out[turn] and not state.owed:
        raise PositionError(f"seat {turn} is to act but is out")
    state._run(None, settle=True)
    return state


def _deal(deck: Deck, data: Mapping[str, Any], allowed: tuple[str, ...]):
    """A position without "hands" is a new game dealt from its seed (R3): players, edition, options, seed."""
    extra = [k for k in data if k not in ("players", "edition", "options", "seed") and k in POSITION_KEYS]
    if extra:
        raise PositionError(f"a position without 'hands' is a new deal and takes only players, edition, options and "
                            f"seed, not '{extra[0]}'")
    players = data.get("players")
    if players is None:
        raise PositionError("a position needs 'hands', or 'players' for a new deal from its seed")
    game = Game(deck, _get(data, "edition", str, "the-og"), players, data.get("options"))
    return game.new_initial_state(_get(data, "seed", int, 0))


def _get(data: Mapping[str, Any], key: str, kind: type, default: Any) -> Any:
    value = data.get(key, default)
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        raise PositionError(f"'{key}' must be {'a whole number' if kind is int else kind.__name__}, not {value!r}")
    return value


class DecisionError(EngineError):
    """A decision of a scenario or record that fails; `index` counts from 0."""

    def __init__(self, index: int, decision: Any, reason: str):
        self.index = index
        self.decision = decision
        super().__init__(f"decision {index} ({decision!r}): {reason}")


def apply_decisions(state, decisions: Any) -> None:
    """Apply decision strings in order; raise DecisionError naming the failing one."""
    if not isinstance(decisions, list):
        raise PositionError("'decisions' must be a list of decision strings")
    for i, decision in enumerate(decisions):
        try:
            state.apply(decision)
        except (EngineError, TypeError) as exc:
            raise DecisionError(i, decision, str(exc)) from None


def run_scenario(deck: Deck, scenario: Mapping[str, Any]) -> dict[str, Any]:
    """Load a scenario (a position plus "decisions"), apply them and return the resulting position."""
    state = from_position(deck, scenario, extra_keys=SCENARIO_KEYS)
    apply_decisions(state, scenario.get("decisions", []))
    return to_position(state)


def compare_expected(expected: Mapping[str, Any], actual: Mapping[str, Any]) -> list[str]:
    """Differences between the keys a scenario expects and the actual position (hands as multisets)."""
    problems = []
    for key, want in expected.items():
        if key not in actual:
            problems.append(f"unknown expected key '{key}'")
            continue
        got = actual[key]
        if key == "hands":
            if [sorted(h) for h in want] != [sorted(h) for h in got]:
                problems.append(f"hands: expected {want}, got {got}")
        elif key == "pending" and isinstance(want, dict):
            for k, v in want.items():
                if got.get(k) != v:
                    problems.append(f"pending.{k}: expected {v!r}, got {got.get(k)!r}")
        elif key == "options" and isinstance(want, dict):
            for k, v in want.items():
                if got.get(k, OptionsDefault.get(k)) != v:
                    problems.append(f"options.{k}: expected {v!r}, got {got.get(k)!r}")
        elif want != got:
            problems.append(f"{key}: expected {want!r}, got {got!r}")
    return problems


def _defaults() -> dict[str, Any]:
    from generator.engine.options import Options

    return Options().to_dict(changed_only=False)


OptionsDefault = _defaults()
__all__ = ["to_position", "from_position", "run_scenario", "apply_decisions", "compare_expected", "DecisionError",
           "OptionError"]
