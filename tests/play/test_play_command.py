"""`county-uppy play` driven through standard input, to the end of a game, then replayed."""

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from generator.cli import main
from generator.deck.manifest import load
from generator.engine import Game, replay
from generator.play.inputs import LineInput
from generator.play.session import Session
from tests.conftest import MANIFEST_ARG as MANIFEST

DECK = load(MANIFEST)


def play(monkeypatch, tmp_path, lines: str, *args: str) -> tuple[int, Path]:
    record = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    status = main(["play", "--manifest", MANIFEST, "--record", str(record), *args])
    return status, record


def test_a_scripted_game_plays_to_the_end_and_replays(monkeypatch, tmp_path, capsys):
    status, record = play(monkeypatch, tmp_path, "1\n" * 400, "--seed", "5")
    out = capsys.readouterr().out
    assert status == 0
    assert "Your turn: which card do you play?" in out and "COUNT" in out and "MATCH" in out
    assert "wins" in out or "You win!" in out
    assert f"game record saved to {record}" in out
    data = json.loads(record.read_text())
    assert data["seed"] == 5 and data["bots"] == ["human", "greedy", "greedy", "greedy"]
    state, same = replay(DECK, data)
    assert same and state.is_terminal() and state.winner is not None
    assert main(["replay", "--manifest", MANIFEST, str(record)]) == 0


@pytest.mark.parametrize("answers, ending", [("1\n" * 400, "wins"), ("1\nq\n", "You left the game.")])
def test_the_seed_is_shown_only_once_the_game_has_ended(monkeypatch, tmp_path, capsys, answers, ending):
    # The seed rebuilds the deck's order: shown during the game, it would tell the player every
    # hand and every draw to come. The screen after the end names it, as the saved record does.
    status, record = play(monkeypatch, tmp_path, answers, "--seed", "987654321")
    out = capsys.readouterr().out
    assert status == 0 and ending in out
    last_question = out.rindex("which card do you play?")
    assert "987654321" not in out[:last_question]
    assert "seed 987654321" in out[last_question:]
    assert json.loads(record.read_text())["seed"] == 987654321


def test_same_seed_and_answers_give_the_same_game(monkeypatch, tmp_path):
    _, a = play(monkeypatch, tmp_path / "a", "2\n1\n" * 300, "--seed", "11", "--players", "3", "--edition", "keep-it-simple")
    _, b = play(monkeypatch, tmp_path / "b", "2\n1\n" * 300, "--seed", "11", "--players", "3", "--edition", "keep-it-simple")
    assert json.loads(a.read_text()) == json.loads(b.read_text())


def test_bad_answers_are_asked_again(monkeypatch, tmp_path, capsys):
    status, record = play(monkeypatch, tmp_path, "banana\n0\n99\n\n" + "1\n" * 400, "--seed", "5")
    out = capsys.readouterr().out
    assert status == 0
    assert "'banana' is not one of the choices" in out and "'99' is not one of the choices" in out
    assert replay(DECK, json.loads(record.read_text()))[1]


def test_end_of_input_stops_cleanly_and_saves(monkeypatch, tmp_path, capsys):
    status, record = play(monkeypatch, tmp_path, "1\n1\n", "--seed", "5")
    out = capsys.readouterr().out
    assert status == 0 and "End of input" in out
    data = json.loads(record.read_text())
    assert data["result"]["finished"] is False
    state, same = replay(DECK, data)
    assert same and not state.is_terminal()


def test_speed_without_seconds_uses_the_rulebook_tempo(monkeypatch, tmp_path):
    from generator.engine import SPEED_SECONDS_DEFAULT

    status, record = play(monkeypatch, tmp_path, "1\n1\n", "--seed", "5", "--speed")
    assert status == 0 and SPEED_SECONDS_DEFAULT == 10
    assert json.loads(record.read_text())["options"]["speed_seconds"] == SPEED_SECONDS_DEFAULT


def test_quit_and_decision_text(monkeypatch, tmp_path, capsys):
    # seed 5: the first hand holds =15; answering with the decision itself works too.
    status, record = play(monkeypatch, tmp_path, "play =15\nq\n", "--seed", "5")
    assert status == 0 and "You left the game." in capsys.readouterr().out
    assert "play =15" in json.loads(record.read_text())["decisions"]


def test_ctrl_c_stops_cleanly_and_saves(monkeypatch, tmp_path, capsys):
    class Interrupt(io.StringIO):
        def readline(self, *a):
            raise KeyboardInterrupt

    record = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", Interrupt())
    assert main(["play", "--manifest", MANIFEST, "--record", str(record), "--seed", "5"]) == 130
    assert "Interrupted" in capsys.readouterr().out and record.exists()


def test_teams_game_asks_the_human_to_give(monkeypatch, tmp_path, capsys):
    # 2 then 1: the second choice where there is one (a give of the human's own cards), else the first
    status, record = play(monkeypatch, tmp_path, "2\n1\n" * 700, "--seed", "3", "--teams", "--players", "4")
    out = capsys.readouterr().out
    assert status == 0
    assert "your teammate, is about to play. Give them a card?" in out
    data = json.loads(record.read_text())
    assert data["options"] == {"teams": True}
    assert any(d.startswith("give 0 ") for d in data["decisions"])
    state, same = replay(DECK, data)
    assert same and state.is_terminal()


class StepClock:
    """A clock whose first `slow` looks are 100 s apart (the human is too slow), then 0.1 s apart."""

    def __init__(self, slow: int):
        self.t, self.slow = 0.0, slow

    def __call__(self):
        self.t += 100.0 if self.slow > 0 else 0.1
        self.slow -= 1
        return self.t


def test_speed_late_player_owes_a_discard_then_plays_with_a_new_clock():
    out = io.StringIO()
    console = Console(file=out, width=100)
    game = Game(DECK, "keep-it-simple", 2, {"speed_seconds": 5})
    inp = LineInput(io.StringIO("1\n" * 300), console, clock=StepClock(2))
    asked = []
    ask = inp.ask
    inp.ask = lambda screen, deadline: asked.append((screen.prompt.question, deadline)) or ask(screen, deadline)
    session = Session(game, 9, 0, ["human", "greedy"], inp)
    assert session.run() in ("over", "eof")
    decisions = [str(a) for a in session.state.history]
    late = decisions.index("late")
    assert decisions[late + 1].startswith("discard") and decisions[late + 2].startswith("play")
    assert decisions.count("late") == 1
    # the play after the late discard was asked with a clock running
    plays = [d for q, d in asked if "which card do you play" in q]
    assert len(plays) >= 2 and plays[1] is not None
    assert "took too long (SPEED)" in out.getvalue()
    record = {"seed": 9, "players": 2, "edition": "keep-it-simple", "options": {"speed_seconds": 5}, "decisions": decisions}
    assert replay(DECK, record)[0].history == session.state.history


def test_speed_a_player_always_too_slow_is_late_at_every_play_until_out():
    game = Game(DECK, "keep-it-simple", 2, {"speed_seconds": 5})
    inp = LineInput(io.StringIO("1\n" * 300), Console(file=io.StringIO(), width=100), clock=StepClock(10**6))
    session = Session(game, 9, 0, ["human", "greedy"], inp)
    assert session.run() == "over"
    mine = [str(a) for a, who in zip(session.state.history, _actors(session)) if who == 0]
    assert mine and all(d == "late" or d.startswith("discard") for d in mine)
    assert session.state.out[0]


def _actors(session) -> list[int]:
    """The seat that made each decision of the session's game, replayed."""
    state = session.game.new_initial_state(session.seed)
    who = []
    for action in session.state.history:
        who.append(state.current_player())
        state.apply(action)
    return who


@pytest.mark.parametrize("args, message", [
    (["--teams", "--players", "3"], "Teams"),
    (["--edition", "the-ogg"], "did you mean"),
    (["--bots", "clever"], "unknown bot"),
    (["--seat", "7"], "--seat"),
])
def test_bad_options_are_usage_errors(monkeypatch, tmp_path, capsys, args, message):
    status, _ = play(monkeypatch, tmp_path, "", *args)
    assert status == 2 and message in capsys.readouterr().err


def first_hand_with(code: str, players: int = 4) -> tuple[int, int]:
    """A seed whose first player can play `code` at once, and its choice number in the card list."""
    game = Game(DECK, "the-og", players)
    for seed in range(500):
        state = game.new_initial_state(seed)
        legal = state.legal_actions()
        cards = list(dict.fromkeys(a.code for a in legal))
        if code in cards:
            return seed, cards.index(code) + 1
    raise AssertionError(f"no seed deals {code}")


def test_a_card_that_names_a_player_asks_whom_and_can_go_back(monkeypatch, tmp_path, capsys):
    seed, number = first_hand_with("STEAL")
    script = f"{number}\n4\n{number}\n3\n" + "1\n" * 400  # Steal, back, Steal again, from the 3rd choice (seat 3)
    status, record = play(monkeypatch, tmp_path, script, "--seed", str(seed), "--seat", "1")
    out = capsys.readouterr().out
    assert status == 0
    assert "→ then choose a player" in out and "Steal a Card: take a card from whom?" in out
    assert "back: choose another card" in out
    decisions = json.loads(record.read_text())["decisions"]
    assert decisions[0] == "play STEAL 3"
