"""The rulebook's worked examples: small positions the engine plays at build time.

Each example is a docs/formats.md position plus decisions. The engine plays them step by step
and the rulebook prints what the engine's positions say (count, cards in play, hands, who
owes a discard, who is out), so the text and the result cannot disagree. Counts are set
relative to the manifest's target (and the x2 card's factor), so a tweak to cards.yaml
gives examples that still show what their captions say; `expect` checks that they do and
stops the build, naming the example, when a rule change makes one show something else.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from generator.deck.effects import CATALOGUE
from generator.deck.model import CardType, Deck
from generator.engine.errors import EngineError
from generator.engine.position import from_position, to_position


class ExampleError(RuntimeError):
    """An example no longer shows what its caption says (or the engine refused it)."""


@dataclass(frozen=True)
class Example:
    key: str  #: names the caption partial templates/examples/KEY.html.j2
    position: Callable[[Deck], dict[str, Any]]  #: the position before the play
    decisions: tuple[str, ...]
    #: what the engine made of the first decision: "matched" (the card matched), "bust" (the
    #: count went over the target or under 0), "target" (it hit the target exactly), "reset"
    #: (the count went back to 0), "owed" (seats owing a discard, in order); and after every
    #: decision: "out" (seats out), "winner"
    expect: Mapping[str, Any] = field(default_factory=dict)
    #: whether the deck has what the example shows (a deck without a multiplying wild has no
    #: example of one): an example that does not apply is left out without a word
    applies: Callable[[Deck], bool] = lambda deck: True


def _factor_card(deck: Deck) -> CardType:
    """The first wild that multiplies the count: its effect takes a `factor` (the catalogue's parameters)."""
    card = _factor_card_or_none(deck)
    if card is None:
        raise ExampleError("the deck has no wild with a factor")
    return card


def _factor_card_or_none(deck: Deck) -> CardType | None:
    return next((c for c in deck.cards if c.effect and c.effect.name in CATALOGUE
                 and "factor" in CATALOGUE[c.effect.name].param_names), None)


def _factor(deck: Deck) -> int:
    return _factor_card(deck).effect.param("factor")  # type: ignore[union-attr]


def _factor_code(deck: Deck) -> str:
    return _factor_card(deck).code


def _pos(count: int, match: str, hands: list[list[str]], in_play: list[str], **more: Any) -> dict[str, Any]:
    """A position standing just before the play of seat 0, who has already drawn."""
    return {
        "players": len(hands), "count": count, "match": match, "hands": hands,
        "in_play": in_play, "draw": ["G1", "M2", "C3"], "discard": [], "turn": 0,
        "pending": {"drawn": True}, **more,
    }


EXAMPLES: tuple[Example, ...] = (
    Example(
        "miss",
        lambda d: _pos(d.params.target - 7, "G4", [["M6", "C1", "G7"], ["C2", "M0"], ["G5", "C7"]], ["C4", "G4"]),
        ("play M6", "discard C1"),
        {"matched": False, "bust": False, "reset": False, "target": False, "owed": [0]},
    ),
    Example(
        "over",
        lambda d: _pos(d.params.target - 3, "C2", [["C5", "M1", "G3"], ["C2", "M0"], ["G5", "C7"]], ["G2", "C2"]),
        ("play C5", "discard M1"),
        {"matched": True, "bust": True, "reset": True, "target": False, "owed": [0]},
    ),
    Example(
        "under",
        lambda d: _pos(1, "G3", [["G-2", "M5", "C6"], ["C2", "M0"], ["G5", "C7"]], ["M-2", "G3"]),
        ("play G-2", "discard M5"),
        {"matched": True, "bust": True, "reset": True, "target": False, "owed": [0]},
    ),
    Example(
        "target",
        lambda d: _pos(d.params.target - 4, "M7", [["M4", "C1", "G6"], ["C2", "M0"], ["G5", "C7"]], ["M3", "M7"]),
        ("play M4", "discard M0", "discard G5"),
        {"matched": True, "bust": False, "reset": True, "target": True, "owed": [1, 2]},
    ),
    Example(
        "stack",
        lambda d: _pos(d.params.target - 2, "C3", [["G5", "M1", "C0"], ["C2", "M0"], ["G5", "C7"]], ["M3", "C3"]),
        ("play G5", "discard M1", "discard C0"),
        {"matched": False, "bust": True, "reset": True, "target": False, "owed": [0, 0]},
    ),
    Example(
        "stack_target",
        lambda d: _pos(d.params.target - 5, "C2", [["M5", "G1", "C6"], ["C3", "M0"], ["G7", "C7"]], ["G2", "C2"]),
        ("play M5", "discard G1", "discard M0", "discard G7"),
        {"matched": False, "bust": False, "reset": True, "target": True, "owed": [0, 1, 2]},
    ),
    Example(
        "wild_bust",
        lambda d: _pos(d.params.target // _factor(d) + 1, "G6",
                       [[_factor_code(d), "C1", "M3"], ["C2", "M0"], ["G5", "C7"]], ["G6"]),
        ("play {factor_card}", "discard M3"),
        {"matched": True, "bust": True, "reset": True, "target": False, "owed": [0]},
        applies=lambda d: _factor_card_or_none(d) is not None,
    ),
    Example(
        "out",
        lambda d: _pos(d.params.target - 6, "G1", [["G6", "M2"], []], ["M5", "G1"]),
        ("play G6",),
        {"matched": True, "bust": False, "reset": True, "target": True, "out": [1], "winner": 0},
    ),
)


def edition_for(deck: Deck, position: dict[str, Any]) -> str:
    """The first edition (manifest order) that holds every card of the position as often as the
    position does (the whole deck's, as a rule), else the first: the engine names what is missing."""
    wanted = Counter(code for pile in ("draw", "discard", "in_play") for code in position.get(pile, ()))
    wanted.update(code for hand in position.get("hands", ()) for code in hand)
    for e in deck.editions:
        held = Counter(c.code for c in deck.edition_cards(e.key))
        if all(held[code] >= n for code, n in wanted.items()):
            return e.key
    return deck.editions[0].key


def play_examples(deck: Deck, examples: tuple[Example, ...] | None = None,
                  left_out: list[str] | None = None) -> list[dict[str, Any]]:
    """Play every example with the engine; the steps as data for the templates.

    An example that fails raises ExampleError, or, given a `left_out` list, is left out of
    the rulebook and explained there (a designer's tweak must not stop the whole build).
    """
    played = []
    for ex in EXAMPLES if examples is None else examples:
        if not ex.applies(deck):
            continue
        try:
            played.append(play_example(deck, ex))
        except ExampleError as exc:
            if left_out is None:
                raise
            left_out.append(str(exc))
    return played


def play_example(deck: Deck, ex: Example) -> dict[str, Any]:
    decisions = [d.format(factor_card=_factor_code(deck)) if "{factor_card}" in d else d for d in ex.decisions]
    try:
        position = ex.position(deck)
        state = from_position(deck, {**position, "edition": edition_for(deck, position)})
        before = to_position(state)
        steps = []
        previous = before
        for decision in decisions:
            actor = state.current_player()
            kind, code = decision.split()[:2]
            matched = kind != "play" or state.game.matches[state.match][state.game.card_index(code)]
            state.apply(decision)
            after = to_position(state)
            steps.append({
                "decision": decision, "kind": kind, "seat": actor, "card": code, "position": after,
                "matched": matched, "target": kind == "play" and state.sixteen_by >= 0,
                "reached": state.last_count if kind == "play" else None,  # the count before any reset
                "bust": kind == "play" and state.last_penalty > (0 if matched else 1),
                "reset": after["count"] == 0 and not after["in_play"] and bool(previous["in_play"] or previous["count"]),
                "owed": _tally(after["pending"]["owed"]),
                "now_out": [s for s in after["out"] if s not in previous["out"]],
            })
            previous = after
    except (EngineError, KeyError, StopIteration) as exc:
        raise ExampleError(f"rulebook example '{ex.key}': the engine refused it: {exc}") from exc
    first = steps[0]["position"]
    seen = {
        "reset": steps[0]["reset"],
        "matched": steps[0]["matched"],
        "bust": steps[0]["bust"],
        "target": steps[0]["target"],
        "owed": first["pending"]["owed"],
        "out": steps[-1]["position"]["out"],
        "winner": steps[-1]["position"]["winner"],
    }
    wrong = [f"{k}: expected {v!r}, the engine gave {seen[k]!r}" for k, v in ex.expect.items() if seen[k] != v]
    if wrong:
        raise ExampleError(f"rulebook example '{ex.key}' no longer shows what its caption says: {'; '.join(wrong)}")
    return {"key": ex.key, "before": before, "steps": steps, "seen": seen}


def _tally(seats: list[int]) -> list[dict[str, int]]:
    """Seats owing discards, in the order they discard, with how many each owes."""
    out: list[dict[str, int]] = []
    for s in seats:
        if out and out[-1]["seat"] == s:
            out[-1]["count"] += 1
        else:
            out.append({"seat": s, "count": 1})
    return out
