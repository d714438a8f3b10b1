"""The contract between the rules loop and a wild's rule (generator/engine/effects.py, `Turn`).

What a rule writes takes effect (the match target, the count); what it reads is the turn as it
stands (cards played this turn, this one included); what it may not touch raises at once.
"""

from __future__ import annotations

import ast
import inspect
import textwrap

import pytest

from generator.engine import from_position, run_scenario, to_position
from generator.engine.effects import Turn
from generator.engine.state import State, TurnTables
from tests.effect_helpers import temporary_step, plain_step, with_step


def _position(**more):
    position = {"players": 3, "count": 5, "match": "C5", "hands": [["REV", "G7"], ["M2"], ["G1"]],
                "draw": ["C1", "C2", "C3"], "in_play": ["C5"], "pending": {"drawn": True}}
    position.update(more)
    return position


def test_a_rule_that_sets_the_match_target_is_obeyed(deck):
    def back_to_start(turn: Turn, arg):
        turn.match = turn.START

    with temporary_step(plain_step("back_to_start"), back_to_start):
        d = with_step(deck, "REV", "back_to_start")
        after = run_scenario(d, {**_position(), "decisions": ["play REV"]})
        assert after["match"] == "start"  # the loop used to put C5 back
        # the match stays what the rule set, and the next card is judged against it: M2 matches "start"
        after = run_scenario(d, {**_position(), "decisions": ["play REV", "play M2"]})
        assert after["pending"]["owed"] == []  # M2 matched the start: no discard
        assert after["count"] == 7 and after["match"] == "M2"
        # under wild_sets_target the wild becomes the target, unless the rule sets another
        after = run_scenario(d, {**_position(options={"wild_sets_target": True}), "decisions": ["play REV"]})
        assert after["match"] == "start"


def test_the_wild_becomes_the_target_under_wild_sets_target_when_the_rule_leaves_it(deck):
    def nothing(turn: Turn, arg):
        turn.count += 0

    with temporary_step(plain_step("nothing_at_all"), nothing):
        d = with_step(deck, "REV", "nothing_at_all")
        after = run_scenario(d, {**_position(options={"wild_sets_target": True}), "decisions": ["play REV"]})
        assert after["match"] == "REV"
        after = run_scenario(d, {**_position(), "decisions": ["play REV"]})
        assert after["match"] == "C5"


def test_a_rule_reads_the_plays_of_this_turn(deck):
    seen = []

    def count_plays(turn: Turn, arg):
        seen.append(turn.played)
        turn.count += turn.played

    with temporary_step(plain_step("count_plays"), count_plays):
        d = with_step(deck, "REV", "count_plays")
        after = run_scenario(d, {**_position(), "decisions": ["play REV"]})
        assert seen == [1] and after["count"] == 6
        # the second play of a Play 2 turn: C7 first (count 12), then the wild sees played == 2
        seen.clear()
        two = _position(hands=[["REV", "C7"], ["M2"], ["G1"]], pending={"drawn": True, "play2": 1})
        after = run_scenario(d, {**two, "decisions": ["play C7", "play REV"]})
        assert seen == [2]
        assert after["count"] == 14


def test_a_rule_cannot_write_what_the_contract_does_not_hold(deck):
    def writes_turn(turn: Turn, arg):
        turn.turn = 2  # not a field of Turn

    def writes_played(turn: Turn, arg):
        turn.played = 0  # read only

    def writes_hands(turn: Turn, arg):
        turn.hands = [[], [], []]  # read only (the hands in it may change, not the list)

    def writes_out(turn: Turn, arg):
        turn.out = (True, False, False)  # read only

    cases = (("writes_turn", writes_turn, "'Turn' object has no attribute 'turn'"),
             ("writes_played", writes_played, "the rule of effect 'REV' assigned turn.played, which is read only"),
             ("writes_hands", writes_hands, "the rule of effect 'REV' assigned turn.hands, which is read only"),
             ("writes_out", writes_out, "has no setter"))
    for name, fn, message in cases:
        with temporary_step(plain_step(name), fn):
            state = from_position(with_step(deck, "REV", name), _position())
            with pytest.raises(AttributeError, match=message):
                state.apply("play REV")


def test_a_rule_sees_only_the_fields_of_turn():
    # the values a rule holds: count and match (written back), seat, played and hands (the loop
    # checks they were not reassigned); everything else is a property or a helper method
    assert set(Turn.__slots__) == {"count", "match", "seat", "played", "hands", "_state"}
    writable = {name for name, value in vars(Turn).items() if isinstance(value, property) and value.fset}
    assert writable == {"direction", "invert", "play2_next", "to_skip"}


def test_pending_fields_a_rule_writes_reach_the_position(deck):
    def both(turn: Turn, arg):
        turn.to_skip += 1
        turn.invert = True
        turn.direction = -turn.direction

    with temporary_step(plain_step("three_things"), both):
        state = from_position(with_step(deck, "REV", "three_things"), _position())
        state.apply("play REV")
        pos = to_position(state)
        # the skip passed seat 2 over (counterclockwise from 0: 2 is next, then 1)
        assert pos["direction"] == -1 and pos["pending"]["invert"] is True and pos["turn"] == 1


def test_the_rules_loop_unpacks_the_turn_tables_by_their_names():
    """State._run unpacks Game.turn_row positionally (fast); its local names must be TurnTables' fields."""
    source = textwrap.dedent(inspect.getsource(State._run))
    tree = ast.parse(source)
    unpacks = [node for node in ast.walk(tree) if isinstance(node, ast.Assign)
               and isinstance(node.value, ast.Attribute) and node.value.attr == "turn_row"]
    assert len(unpacks) == 1
    names = tuple(elt.id for elt in unpacks[0].targets[0].elts)  # type: ignore[attr-defined]
    assert names == TurnTables._fields


def test_turn_row_is_the_turn_tables_in_order(game4):
    assert type(game4.turn_row) is tuple
    assert game4.turn_row == tuple(game4.turn_tables)
    assert game4.turn_tables.target == game4.target
