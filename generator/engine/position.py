"""Positions (docs/formats.md): a State as a person would write it, both ways, and scenarios."""

from __future__ import annotations

import random
from typing import Any, Mapping

from generator.deck.effects import Pending, pending_keys
from generator.deck.model import Deck
from generator.engine.errors import EngineError, OptionError, PositionError, kind_of, shown, suggest
from generator.engine.game import Game
from generator.engine.options import Options
from generator.engine.state import State

#: The pending parts of a turn that belong to no effect: the turn's draw, its plays, a teammate's
#: give, the teammates who kept their cards (Teams, R7.2) and the discards owed. Effects add theirs from the catalogue (generator.deck.effects).
TURN_PENDING: dict[str, Any] = {"drawn": False, "played": 0, "gave": False, "kept": [], "owed": []}
#: The whole numbers of the turn's own pending state, with the values the engine can reach.
TURN_RANGES: dict[str, tuple[int, int, str]] = {
    "played": (0, 2, "cards played this turn: a turn has at most two plays"),
}


def effect_pending() -> list[Pending]:
    """The catalogue's pending state, read when needed so that an effect added later counts."""
    return pending_keys()


def pending_defaults() -> dict[str, Any]:
    """Every key of a position's `pending`, with its default, in the order positions list them."""
    out: dict[str, Any] = {}
    extra = effect_pending()
    for key, default in TURN_PENDING.items():
        for p in extra:
            if p.before == key:
                out[p.key] = p.default
        out[key] = default
    for p in extra:
        out.setdefault(p.key, p.default)
    return out


def pending_ranges(game: Any = None) -> dict[str, tuple[int, int, str]]:
    """The whole numbers `pending` may hold: (lowest, highest, what the value says); a key whose
    range grows with a step's number (`skip: 2`) by the largest the game's deck gives it."""
    ranges = dict(TURN_RANGES)
    for p in effect_pending():
        if type(p.default) is int:
            scale = 1
            if p.per and game is not None:
                scale = max((a for steps in game.steps for s in steps for k, a in s.args if k == p.per), default=1)
            ranges[p.key] = (0, p.hi * scale, p.meaning)
    return ranges
#: Words for the kinds of value a key takes.
KIND_WORDS = {int: "a whole number", str: "text", dict: "an object", list: "a list", bool: "true or false"}
#: How a card that is never shuffled into a game is named in messages (by its kind in the manifest).
NOT_PLAYED = {"reference": "a quick-reference card", "blank": "a blank card"}
POSITION_KEYS = (
    "players", "edition", "options", "seed", "count", "match", "direction", "turn", "hands", "draw", "discard",
    "in_play", "out", "winner", "pending", "turns", "stopped", "last_count",
)
#: Keys a scenario file may add to a position.
SCENARIO_KEYS = ("decisions", "expected", "expected_error", "rule", "description", "name", "option", "notes")


def to_position(state) -> dict[str, Any]:
    """The position dict of a State (docs/formats.md), with every pending key.

    One key beyond docs/formats.md's shape (extra keys are allowed): `last_count`, the count
    once the last card played had taken effect, before any reset (a bust to 19 shows
    "count": 0, "last_count": 19). A position may omit it (it then equals `count`).
    """
    game = state.game
    codes = game.codes

    def names(cards):
        return [codes[c] for c in cards]

    pending = {key: getattr(state, field) for key, field in _pending_fields()}
    pending["owed"] = list(pending["owed"])
    pending["kept"] = list(pending["kept"])
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
        "pending": pending,
    }


def _pending_fields() -> list[tuple[str, str]]:
    """(position key, State field) of every pending key, in the order positions list them."""
    fields = {p.key: p.field for p in effect_pending()}
    return [(key, fields.get(key, key)) for key in pending_defaults()]


def from_position(deck: Deck, data: Mapping[str, Any], *, extra_keys: tuple[str, ...] = ()):
    """A State from a position dict; raise PositionError (or OptionError) naming what is wrong."""
    if not isinstance(data, Mapping):
        raise PositionError(f"a position is a JSON object, not {kind_of(data)}")
    allowed = POSITION_KEYS + extra_keys
    for key in data:
        if key not in allowed:
            raise PositionError(f"unknown key '{key}'{suggest(key, allowed)}")
    if "hands" not in data:
        return _deal(deck, data, allowed)
    hands_raw = data.get("hands")
    if not isinstance(hands_raw, list) or not all(isinstance(h, list) for h in hands_raw):
        raise PositionError("'hands' must be a list of lists of card codes, one per seat")
    players = _get(data, "players", int, len(hands_raw))
    if players != len(hands_raw):
        raise PositionError(f"'players' is {players} but 'hands' has {len(hands_raw)} hands")
    game = Game(deck, _get(data, "edition", str, "the-og"), players, _options(data))
    n = players
    in_edition = set(game.edition.codes)

    def cards(key: str, raw: Any) -> list[int]:
        if not isinstance(raw, list):
            raise PositionError(f"'{key}' must be a list of card codes, not {shown(raw)}")
        out = []
        for code in raw:
            if not isinstance(code, str):
                raise PositionError(f"'{key}' must hold card codes like 'C5', not {shown(code)}")
            if code not in game.index:
                raise PositionError(unknown_card(deck, game, code, f" in '{key}'"))
            if code not in in_edition:
                raise PositionError(f"card {shown(code)} in '{key}' is not in edition '{game.edition.key}' "
                                    "(a position holds only the edition's cards)")
            out.append(game.index[code])
        return out

    hands = [cards(f"hands[{i}]", h) for i, h in enumerate(hands_raw)]
    draw = cards("draw", data.get("draw", []))[::-1]
    discard = cards("discard", data.get("discard", []))
    in_play = cards("in_play", data.get("in_play", []))
    _check_copies(game, hands, draw, discard, in_play)

    def seat(key: str, value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n:
            raise PositionError(f"'{key}' must be a seat 0..{n - 1}, not {shown(value)}")
        return value

    out_order = [seat("out", s) for s in _get(data, "out", list, [], "a list of seats")]
    if len(set(out_order)) != len(out_order):
        raise PositionError("'out' lists a seat twice")
    out = [s in out_order for s in range(n)]
    for s in out_order:
        if hands[s]:
            raise PositionError(f"seat {s} is out but holds cards")
    match_code = _get(data, "match", str, "start", "a card code or \"start\"")
    if match_code == "start":
        match = game.START
    elif match_code in game.index:
        if match_code not in in_edition:
            raise PositionError(f"match {shown(match_code)} is not a card of edition '{game.edition.key}'")
        match = game.index[match_code]
        if not game.is_number[match] and not game.options.wild_sets_target:
            raise PositionError(f"match {match_code!r} is a wild; only option wild_sets_target lets a wild be the match")
    elif _not_played(deck, match_code):
        raise PositionError(f"match {unknown_card(deck, game, match_code)}")
    else:
        raise PositionError(f"unknown match {match_code!r}{suggest(match_code, game.codes)} (a card code or \"start\")")
    direction = _get(data, "direction", int, 1)
    if direction not in (1, -1):
        raise PositionError(f"'direction' must be 1 or -1, not {shown(direction)}")
    winner = data.get("winner")
    if winner is not None:
        winner = seat("winner", winner)
    seed = _get(data, "seed", int, 0)
    turn = seat("turn", data.get("turn", 0))
    turns = _get(data, "turns", int, 0)
    if turns < 0:
        raise PositionError(f"'turns' must be 0 or more, not {shown(turns)}")
    count = _get(data, "count", int, 0)
    if not 0 <= count < game.target:  # R8: the engine never leaves the count outside 0..target-1
        raise PositionError(f"'count' must be 0..{game.target - 1} (the count rests between 0 and one below the "
                            f"target {game.target}), not {shown(count)}")
    stopped = _get(data, "stopped", bool, False)
    last_count = _get(data, "last_count", int, count)
    defaults = pending_defaults()
    ranges = pending_ranges(game)
    pending = dict(defaults)
    raw_pending = _get(data, "pending", dict, {})
    for key, value in raw_pending.items():
        if key not in defaults:
            raise PositionError(f"unknown pending key '{key}'{suggest(key, defaults)}")
        want = type(defaults[key])
        if type(value) is not want:
            what = "a list of seats" if want is list else KIND_WORDS[want]
            raise PositionError(f"'pending.{key}' must be {what}, not {shown(value)}")
        if key in ranges:
            lo, hi, meaning = ranges[key]
            if not lo <= value <= hi:
                allowed = " or ".join(map(str, range(lo, hi + 1))) if hi - lo < 2 else f"{lo}..{hi}"
                raise PositionError(f"'pending.{key}' must be {allowed} ({meaning}), not {shown(value)}")
        pending[key] = value
    owed = [seat("pending.owed", s) for s in pending["owed"]]
    kept = [seat("pending.kept", s) for s in pending["kept"]]
    for s in owed:
        if out[s]:
            raise PositionError(f"'pending.owed' lists seat {s}, which is out (a seat that is out owes nothing)")
    state = State(game, random.Random(seed), seed, hands, draw, turn=turn, discard=discard, in_play=in_play,
                  count=count, match=match, direction=direction, out=out, out_order=out_order,
                  winner=winner, turns=turns)
    for key, field in _pending_fields():
        setattr(state, field, owed if key == "owed" else kept if key == "kept" else pending[key])
    state.stopped = stopped
    state.last_count = last_count
    if state.winner is not None or state.stopped or state.n_in == 0:
        state.done = True
        return state
    if out[turn] and not state.owed:
        raise PositionError(f"seat {turn} is to act but is out")
    state.settle()
    return state


def _check_copies(game: Game, *piles: list[list[int]] | list[int]) -> None:
    """R8: a card is in one place at a time, so a position holds at most the copies the edition has."""
    seen: dict[int, int] = {}
    for pile in piles:
        for item in pile:
            for card in (item if isinstance(item, list) else [item]):
                seen[card] = seen.get(card, 0) + 1
    for card, n in seen.items():
        code = game.codes[card]
        have = game.deck.card(code).copies
        if n > have:
            raise PositionError(f"the position holds {n} copies of {shown(code)} (hands, draw, discard and in_play "
                                f"together), but edition '{game.edition.key}' has {have}")


def _deal(deck: Deck, data: Mapping[str, Any], allowed: tuple[str, ...]):
    """A position without "hands" is a new game dealt from its seed (R3): players, edition, options, seed."""
    extra = [k for k in data if k not in ("players", "edition", "options", "seed") and k in POSITION_KEYS]
    if extra:
        raise PositionError(f"a position without 'hands' is a new deal and takes only players, edition, options and "
                            f"seed, not '{extra[0]}'")
    if "players" not in data:
        raise PositionError("a position needs 'hands', or 'players' for a new deal from its seed")
    players = _get(data, "players", int, None)
    game = Game(deck, _get(data, "edition", str, "the-og"), players, _options(data))
    return game.new_initial_state(_get(data, "seed", int, 0))


def _get(data: Mapping[str, Any], key: str, kind: type, default: Any, what: str = "") -> Any:
    """data[key] (or `default` when absent), which must be of `kind` (a bool is not a whole number);
    `what` names the kind in the message (default: KIND_WORDS)."""
    value = data.get(key, default)
    if kind is not bool and isinstance(value, bool) or not isinstance(value, kind):
        raise PositionError(f"'{key}' must be {what or KIND_WORDS[kind]}, not {shown(value)}")
    return value


def _options(data: Mapping[str, Any]) -> Any:
    """The 'options' object, over the rulebook's defaults (absent or null: the rulebook's rules),
    whatever the deck prints: a position says everything its game plays by (Options.to_dict)."""
    options = data.get("options")
    if options is not None and not isinstance(options, Mapping):
        raise PositionError(f"'options' must be an object of rule option names and values, not {shown(options)}")
    return Options.from_dict(options)


def _not_played(deck: Deck, code: str) -> str:
    """How to name `code` if it is a card of the deck that is never played (REF, BLANK), else ''."""
    by_code = {c.code: c for c in deck.cards}
    card = by_code.get(code)
    if card is None or card.playing:
        return ""
    return NOT_PLAYED.get(card.kind, f"a {card.kind} card")


def unknown_card(deck: Deck, game: Game, code: str, where: str = "") -> str:
    """Why `code` (`where`: " in 'draw'") is not a playing card of `game`: a card that is never played
    (REF, BLANK), or an unknown code, with a near miss."""
    what = _not_played(deck, code)
    if what:
        return f"{code!r}{where} is {what}, not a playing card"
    return f"unknown card code {code!r}{where}{suggest(code, game.codes)}"


class DecisionError(EngineError):
    """A decision of a scenario or record that fails; `index` counts from 0."""

    def __init__(self, index: int, decision: Any, reason: str):
        self.index = index
        self.decision = decision
        super().__init__(f"decision {index} ({decision!r}): {reason}")


def check_decisions(decisions: Any) -> list[str]:
    """`decisions` if it is a list of strings; else raise PositionError naming the first that is not."""
    if not isinstance(decisions, list):
        raise PositionError(f"'decisions' must be a list of decision strings, not {shown(decisions)}")
    for i, decision in enumerate(decisions):
        if not isinstance(decision, str):
            raise PositionError(f"decision {i} must be a string like 'play C5', not {shown(decision)}")
    return decisions


def apply_decisions(state, decisions: Any) -> None:
    """Apply decision strings in order; raise DecisionError naming the failing one.

    The list is checked before anything is applied: PositionError if it is not a list of strings.
    """
    for i, decision in enumerate(check_decisions(decisions)):
        try:
            state.apply(decision)
        except (EngineError, TypeError) as exc:
            raise DecisionError(i, decision, _reason(state.game, decision, str(exc))) from None


def _reason(game: Game, decision: str, reason: str) -> str:
    """The reason a decision failed; a card that is never played (REF, BLANK) is named as such."""
    words = decision.split()
    for code in words[1:]:
        if code not in game.index and _not_played(game.deck, code):
            return unknown_card(game.deck, game, code)
    return reason


def run_scenario(deck: Deck, scenario: Mapping[str, Any]) -> dict[str, Any]:
    """Load a scenario (a position plus "decisions"), apply them and return the resulting position.

    The position stands before the next turn's draw (docs/formats.md), unless that draw ends the
    game (a player with no card and nothing to draw is out at it, R4.2): then it shows the end."""
    state = from_position(deck, scenario, extra_keys=SCENARIO_KEYS)
    apply_decisions(state, scenario.get("decisions", []))
    state.is_terminal()
    return to_position(state)


def compare_expected(expected: Mapping[str, Any], actual: Mapping[str, Any]) -> list[str]:
    """Differences between the keys a scenario expects and the actual position (hands as multisets).

    Beyond a position's keys, `hand_sizes` compares only how many cards each seat holds (after a
    Re-Deal of different cards, the shuffle decides which card lands where)."""
    problems = []
    for key, want in expected.items():
        if key == "hand_sizes":  # how many cards each seat holds, whichever they are (a shuffled deal)
            got = [len(h) for h in actual["hands"]]
            if want != got:
                problems.append(f"hand_sizes: expected {want}, got {got}")
            continue
        if key not in actual:
            problems.append(f"unknown expected key '{key}'")
            continue
        got = actual[key]
        if key == "hands":
            if _multisets(want) != _multisets(got):
                problems.append(f"hands: expected {want}, got {got}")
        elif key == "pending" and isinstance(want, dict):
            for k, v in want.items():
                if got.get(k) != v:
                    problems.append(f"pending.{k}: expected {v!r}, got {got.get(k)!r}")
        elif key == "options" and isinstance(want, dict):
            for k, v in want.items():
                if got.get(k, OPTION_DEFAULTS.get(k)) != v:
                    problems.append(f"options.{k}: expected {v!r}, got {got.get(k)!r}")
        elif want != got:
            problems.append(f"{key}: expected {want!r}, got {got!r}")
    return problems


def _multisets(hands: Any) -> Any:
    """Each hand as a multiset of codes; anything else (a mistyped `expected`) as itself, never equal to one."""
    if not isinstance(hands, list) or not all(isinstance(h, list) and all(isinstance(c, str) for c in h) for h in hands):
        return ("not a list of hands", repr(hands))
    return [sorted(h) for h in hands]


#: Every rule option's default, for scenarios that expect an option they did not set.
OPTION_DEFAULTS = Options().to_dict(changed_only=False)
__all__ = ["to_position", "from_position", "run_scenario", "apply_decisions", "compare_expected", "DecisionError",
           "OptionError"]
