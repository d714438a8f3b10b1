"""The terminal game explains itself: the goal at the start, `?`, the whole log, what wilds did,
the play that makes the target, and the marker on the seat that acts."""

from __future__ import annotations

import io

from rich.console import Console

from generator.engine import from_position
from generator.play.inputs import LineInput
from generator.play.session import Session
from tests.play.test_penalty_causes import scripted
from tests.play.test_play_command import DECK


def test_the_goal_and_matching_are_said_at_the_start_and_help_is_not_refused():
    position = {"players": 2, "count": 3, "match": "C1", "in_play": ["C1"],
                "hands": [["C5", "M4"], ["G3", "G4"]], "draw": ["G5", "G6"]}
    session, text = scripted(position, "?\nhelp\nq\n")
    assert "Goal: Get the count to exactly 16, and be the last player able to play." in text
    assert "It matches if it shares a colour or the number" in text
    assert "is not one of the choices" not in text
    assert text.count("Penalties:") == 2  # `?` and `help` each print the quick reference
    assert "Count exactly 16: everyone else discards 1; reset." in text
    assert session.outcome == "quit"


def test_log_prints_every_line_of_the_game_so_far():
    position = {"players": 2, "count": 3, "match": "C1", "in_play": ["C1"],
                "hands": [["C5", "C2", "M4"], ["C3", "C4", "G4"]], "draw": ["G5", "G6", "C7", "C8"]}
    session, text = scripted(position, "1\n1\nlog\nq\n")
    assert len(session.screen.log) > 3
    numbered = [line for line in text.splitlines() if line.lstrip()[:3].rstrip(".").strip().isdigit()]
    for i, line in enumerate(session.screen.log, 1):
        assert f"{i:>4}. {line.plain}" in text, (i, line.plain, numbered)


def test_skip_reverse_and_invert_say_what_they_did():
    # seat 0 plays Skip in a 3-player game: seat 1 is passed over, seat 2 plays next
    position = {"players": 3, "count": 3, "match": "C1", "in_play": ["C1"],
                "hands": [["SKIP", "C2"], ["C3", "C4"], ["C5", "C6"]], "draw": ["G5", "G6", "C7", "C8", "C9"]}
    _, text = scripted(position, "1\nq\n")
    assert "you played Skip (The next player loses a turn.)" in text
    assert "you played Skip (The next player loses a turn.); count 3; seat 1 is skipped" in text
    position["hands"][0] = ["REV", "C2"]
    _, text = scripted(position, "1\nq\n")
    assert "(Reverse the order of play.)" in text and "play now goes counterclockwise ↺" in text
    position["hands"][0] = ["+/-", "C2"]
    _, text = scripted(position, "1\nq\n")
    assert "+/- waiting: the next number card counts the other way" in text


def test_hints_mark_the_play_that_makes_the_target():
    position = {"players": 2, "count": 10, "match": "C1", "in_play": ["C1"],
                "hands": [["C6", "C3"], ["G3", "G4"]], "draw": ["G5", "G6"]}
    _, text = scripted(position, "q\n", hints=True)
    line = next(line for line in text.splitlines() if "play ● cyan 6" in line)
    assert "★ makes 16: every other player owes a discard" in line
    assert "★" not in next(line for line in text.splitlines() if "play ● cyan 3" in line)


def test_the_marker_points_at_the_seat_that_acts_when_someone_else_owes_a_discard():
    state = from_position(DECK, {"edition": "the-og", "seed": 3, "players": 3, "count": 3, "match": "C1",
                                 "in_play": ["C1"], "turn": 1, "pending": {"owed": [2]},
                                 "hands": [["C5"], ["C3", "C4"], ["C6", "G4"]], "draw": ["G5", "G6"]})
    out = io.StringIO()
    inp = LineInput(io.StringIO("q\n"), Console(file=out, width=200, color_system=None))
    session = Session(state.game, 3, 0, ["human", "greedy", "greedy"], inp, start=state)
    session.screen.acting = state.current_player()
    rows = [line for line in Console(file=io.StringIO(), width=200).render_lines(session.screen.players())]
    text = ["".join(seg.text for seg in row) for row in rows]
    marked = [line for line in text if "▶" in line]
    assert len(marked) == 1 and "seat 2" in marked[0] and "owes a discard" in marked[0]


def test_after_a_decision_the_marker_moves_on_before_the_next_question():
    state = from_position(DECK, {"edition": "the-og", "seed": 3, "players": 3, "count": 3, "match": "C1",
                                 "in_play": ["C1"], "turn": 1,
                                 "hands": [["C5"], ["C3", "C4"], ["C6", "G4"]], "draw": ["G5", "G6", "G7"]})
    inp = LineInput(io.StringIO("q\n"), Console(file=io.StringIO(), width=200, color_system=None))
    session = Session(state.game, 3, 0, ["human", "greedy", "greedy"], inp, start=state)
    session.screen.acting = state.current_player()
    state.apply("play C3")  # seat 1 played; the screen is redrawn now, before seat 2 is asked
    rows = Console(file=io.StringIO(), width=200).render_lines(session.screen.players())
    marked = ["".join(seg.text for seg in row) for row in rows if "▶" in "".join(seg.text for seg in row)]
    assert len(marked) == 1 and "seat 2" in marked[0]
