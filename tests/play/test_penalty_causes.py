"""The terminal game names why every discard is owed and why every player goes out.

Games are scripted (standard input is not a terminal) from stacked positions, so each cause
happens at a known decision; a sweep checks the causes against the engine's own penalty
counters over whole random games.
"""

import io
import random

import pytest
from rich.console import Console

from generator.cli import main
from generator.engine import Game, from_position
from generator.play.inputs import LineInput
from generator.play.penalties import MISMATCH, OVER, TARGET, UNDER, costly_plays, penalties
from generator.play.session import Session
from tests.play.test_play_command import DECK, MANIFEST


def scripted(position: dict, answers: str, *, bots: list[str] | None = None, hints: bool = False) -> tuple[Session, str]:
    """Play on from `position` (the human is seat 0) with one answer per line; the transcript as plain text."""
    state = from_position(DECK, {"edition": "the-og", "seed": 3, **position})
    out = io.StringIO()
    inp = LineInput(io.StringIO(answers), Console(file=out, width=200, color_system=None))
    names = bots or ["human"] + ["greedy"] * (state.game.players - 1)
    session = Session(state.game, 3, 0, names, inp, hints=hints, start=state)
    session.run()
    return session, out.getvalue()


def test_a_bots_card_that_makes_the_target_without_matching_is_explained():
    # Seat 1 holds only C6: 10 + 6 = 16 exactly, but C6 does not match M1.
    position = {"players": 3, "turn": 1, "count": 10, "match": "M1", "in_play": ["M1"],
                "hands": [["G7", "G2"], ["C6"], ["M3", "M4"]], "draw": []}
    _, text = scripted(position, "1\n")
    assert ("seat 1 (greedy bot) played ● cyan 6; the count hit 16!; "
            "seat 1 owes a discard: ● cyan 6 does not match ■ magenta 1 (no shared colour or number); "
            "seat 2 and you each owe a discard: seat 1's card made exactly 16; "
            "seat 1 is out: a discard was owed and no card was left") in text


def test_going_over_the_target_and_below_zero_are_named():
    over = {"players": 2, "count": 10, "match": "C1", "in_play": ["C1"], "hands": [["C9", "C2"], ["G3", "G4"]],
            "draw": ["G5", "G6"]}
    _, text = scripted(over, "play C9\n1\nq\n")
    assert "you played ● cyan 9; the count went to 19, over 16: back to 0; you owe a discard for going over 16" in text
    under = {"players": 2, "count": 1, "match": "C1", "in_play": ["C1"], "hands": [["C-2", "C2"], ["G3", "G4"]],
             "draw": ["G5", "G6"]}
    _, text = scripted(under, "play C-2\n1\nq\n")
    assert "you played ● cyan -2; the count went to -1, below 0: back to 0; you owe a discard for going below 0" in text


def test_a_mismatch_then_no_card_left_puts_you_out_and_says_why():
    position = {"players": 3, "count": 3, "match": "G1", "in_play": ["G1"],
                "hands": [["M5"], ["G3", "G4"], ["C3", "C4"]], "draw": []}
    _, text = scripted(position, "1\n" * 20)
    assert ("you played ■ magenta 5; count 8; you owe a discard: ■ magenta 5 does not match ▲ green 1 "
            "(no shared colour or number); you are out: a discard was owed and no card was left") in text


def test_two_discards_owed_the_second_one_puts_you_out():
    # M9 misses G1 and takes 10 to 19: two discards; one card left pays the first only.
    position = {"players": 2, "count": 10, "match": "G1", "in_play": ["G1"],
                "hands": [["M9", "C2"], ["G3", "G4"]], "draw": []}
    session, text = scripted(position, "play M9\n1\n")
    assert ("you owe a discard: ■ magenta 9 does not match ▲ green 1 (no shared colour or number); "
            "you owe a discard for going over 16") in text
    assert "you discarded ● cyan 2; you are out: a discard was owed and no card was left" in text
    assert session.state.winner == 1 and session.result_text() == "Seat 1 (greedy bot) wins."


def test_no_card_to_play_at_the_start_of_a_turn_is_named():
    # Seat 1's hand is empty and there is nothing to draw (R4.2).
    position = {"players": 3, "turn": 1, "count": 3, "match": "G1", "in_play": ["G1"],
                "hands": [["G2", "G3"], [], ["C3", "C4"]], "draw": []}
    _, text = scripted(position, "1\n" * 10)
    assert "seat 1 is out: no card left to play" in text


def test_a_game_won_when_the_other_player_is_out_at_the_draw_says_so():
    # Seat 1 holds nothing and there is nothing to draw (R4.2): out at its draw, and seat 0,
    # the only player left, wins (R5.1) with no decision made.
    position = {"players": 2, "turn": 1, "count": 3, "match": "G1", "in_play": ["G1"],
                "hands": [["G2"], []], "draw": []}
    session, text = scripted(position, "")
    assert session.outcome == "over" and session.state.winner == 0
    assert "seat 1 is out: no card left to play" in text
    assert session.result_text() == "You win!"


def test_hints_mark_the_cards_that_would_cost_a_discard():
    position = {"players": 2, "count": 10, "match": "C1", "in_play": ["C1"],
                "hands": [["M5", "C3", "C9", "x2"], ["G3", "G4"]], "draw": ["G5", "G6"]}
    _, text = scripted(position, "q\n", hints=True)
    lines = {line.strip()[3:].split("  ✗")[0].strip(): line for line in text.splitlines() if "play " in line}
    assert "costs a discard: does not match ● cyan 1 (no shared colour or number)" in lines["play ■ magenta 5"]
    assert "costs a discard: count 19, over 16" in lines["play ● cyan 9"]
    assert "costs a discard: count 20, over 16" in next(v for k, v in lines.items() if k.startswith("play x2"))
    assert "costs" not in lines["play ● cyan 3"]
    _, plain = scripted(position, "q\n")
    assert "costs a discard" not in plain


def test_hints_flag_on_the_command_line(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    assert main(["play", "--manifest", MANIFEST, "--record", str(tmp_path / "g.json"), "--seed", "7", "--hints"]) == 0
    out = capsys.readouterr().out
    assert "✗ costs a discard: " in out and "owe a discard" in out


@pytest.mark.parametrize("edition, players, options", [
    ("the-og", 4, {}),
    ("only-chaos", 3, {"wild_sets_target": True}),
    ("the-og", 6, {"teams": True, "sixteen_hits": "opponents"}),
    ("its-wild-time", 5, {"invert_through_wilds": True, "play2_draws": 2}),
])
def test_named_causes_add_up_to_the_engines_penalty_counts(edition, players, options):
    game = Game(DECK, edition, players, options)
    for seed in range(40):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            actor = state.current_player()
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            before = state.clone()
            state.apply(action)
            named = penalties(before, action, state, actor)
            got = [state.penalties[i] - before.penalties[i] for i in range(3)]
            assert got == [sum(p.cause == MISMATCH for p in named), sum(p.cause in (OVER, UNDER) for p in named),
                           sum(p.cause == TARGET for p in named)], (seed, str(action))


def test_costly_plays_agree_with_playing_them():
    game = Game(DECK, "the-og", 3)
    state = game.new_initial_state(11)
    for _ in range(200):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        if legal[0].kind == "play":
            cost = costly_plays(state)
            for action in legal:
                trial = state.clone()
                before = trial.penalties[:2]
                trial.apply(action)
                own = trial.penalties[0] - before[0] + trial.penalties[1] - before[1]
                if action.seat is None:
                    assert own == len(cost[action.code]), str(action)
            assert set(cost) == {a.code for a in legal}
        state.apply(legal[0])

