"""The log says what a play did to whom: hands passed or dealt again, a card stolen, a 16's discards.

Each position is stacked (docs/formats.md positions) so the wild lands where the test needs it;
the line is read as every seat is told it, and as someone watching is told it.
"""

from generator.engine import from_position
from generator.play.describe import card_text
from generator.play.events import event_text
from tests.play.test_play_command import DECK


def told(position: dict, decision: str) -> dict:
    """{seat or None: the line that seat is told about `decision`, played from `position`}."""
    state = from_position(DECK, {"edition": "the-og", "seed": 3, **position})
    actor = state.current_player()
    before = state.clone()
    action = state.game.action(decision)
    state.apply(action)
    people = ["human"] * state.game.players
    return {seat: event_text(before, action, state, actor, seat, people).plain
            for seat in [*range(state.game.players), None]}


def test_a_hand_filled_by_rotate_hands_says_so():
    # R6.10: seat 2's empty hand receives seat 1's; seat 0 passes its last card on.
    lines = told({"players": 3, "count": 2, "match": "C4", "in_play": ["C4"],
                  "hands": [["ROTATE", "G1"], ["M2"], []], "draw": []}, "play ROTATE")
    assert lines[2].endswith("count 2; you got a new hand: ■ magenta 2")
    assert lines[1].endswith("count 2; you got a new hand: ▲ green 1")
    assert lines[0].endswith("count 2; your hand is now empty")
    assert lines[None].endswith("count 2")  # someone watching is told no hand


def test_re_deal_lists_the_whole_new_hand():
    position = {"players": 3, "count": 2, "match": "C4", "in_play": ["C4"],
                "hands": [["REDEAL", "G1", "G2", "G3"], ["M2", "M3"], ["C1"]], "draw": []}
    state = from_position(DECK, {"edition": "the-og", "seed": 3, **position})
    state.apply("play REDEAL 1")
    dealt = {seat: state.view(seat).hand for seat in range(3)}
    lines = told(position, "play REDEAL 1")
    for seat, hand in dealt.items():
        words = ", ".join(card_text(state.game, c).plain for c in sorted(hand, key=state.game.card_index))
        assert lines[seat].endswith(f"; you got a new hand: {words}"), lines[seat]
    assert sum(len(h) for h in dealt.values()) == 6  # every card dealt again, the Re-Deal gone to play


def test_a_steal_names_the_card_to_the_two_players_it_moved_between():
    lines = told({"players": 3, "count": 2, "match": "C4", "in_play": ["C4"],
                  "hands": [["STEAL", "G1"], ["M2"], ["C1"]], "draw": []}, "play STEAL 1")
    assert lines[0].endswith("; you got ■ magenta 2")
    assert lines[1].endswith("; you lost ■ magenta 2")
    assert "magenta" not in lines[2] and "magenta" not in lines[None]


def test_a_sixteen_tells_each_other_player_that_each_owes_a_discard():
    lines = told({"players": 4, "count": 10, "match": "C4", "in_play": ["C4"],
                  "hands": [["C6", "G1"], ["M2", "M3"], ["C1", "C2"], ["G4", "G5"]], "draw": []}, "play C6")
    assert lines[0].endswith("the count hit 16!; seat 1, seat 2 and seat 3 each owe a discard: "
                             "your card made exactly 16")
    assert lines[2].endswith("seat 1, you and seat 3 each owe a discard: seat 0's card made exactly 16")
    assert lines[None].endswith("seat 1, seat 2 and seat 3 each owe a discard: seat 0's card made exactly 16")
