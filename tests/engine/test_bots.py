"""Bots: legal choices, greedy's rules of thumb, and greedy beating random (seeded, Wilson interval)."""

from __future__ import annotations

import random

import pytest

from generator.engine import BOTS, OptionError, from_position, make_bot, simulate
from generator.engine.simulate import wilson


def choose(deck, bot: str, position: dict):
    state = from_position(deck, position)
    legal = state.legal_actions()
    seat = state.current_player()
    return str(make_bot(bot).choose(state.view(seat), legal, random.Random(0)))


def test_registry_and_unknown_bot():
    assert set(BOTS) >= {"random", "greedy", "search"}
    with pytest.raises(OptionError, match="did you mean 'greedy'"):
        make_bot("gredy")


@pytest.mark.parametrize("bot", sorted(BOTS))
def test_every_bot_plays_a_legal_game(deck, bot):
    from generator.engine import Game, play_game

    game = Game(deck, "its-wild-time", 3, {"max_turns": 40})
    bots = [make_bot(bot) for _ in range(3)]
    state = play_game(game, bots, seed=3)
    assert state.is_terminal()


def test_greedy_doubles_eight_to_hit_the_target(deck):
    pos = {"players": 3, "count": 8, "match": "C4", "hands": [["C1", "x2", "M2"], ["M1"], ["G1"]], "draw": ["G5"]}
    assert choose(deck, "greedy", pos) == "play x2"


def test_greedy_takes_the_count_to_the_target(deck):
    pos = {"players": 3, "count": 11, "match": "C4", "hands": [["C1", "C5", "M2"], ["M1"], ["G1"]], "draw": ["G9"]}
    assert choose(deck, "greedy", pos) == "play C5"


def test_greedy_avoids_penalties(deck):
    pos = {"players": 2, "count": 12, "match": "C4", "hands": [["C7", "M9", "C2"], ["M1"]], "draw": ["G9"]}
    assert choose(deck, "greedy", pos) == "play C2"


def test_greedy_trades_with_and_steals_from_the_biggest_hand(deck):
    pos = {"players": 4, "count": 2, "match": "C4", "hands": [["TRADE"], ["M1"], ["G1", "G2", "G3", "G4"], ["M3", "M4"]], "draw": ["M9"]}
    assert choose(deck, "greedy", pos) == "play TRADE 2"
    pos["hands"][0] = ["STEAL"]
    assert choose(deck, "greedy", pos) == "play STEAL 2"


def test_greedy_discards_its_least_useful_card(deck):
    pos = {"players": 2, "count": 3, "match": "C4", "hands": [["x2", "C2", "M9"], ["M1"]], "pending": {"owed": [0], "drawn": True, "played": 1}}
    assert choose(deck, "greedy", pos) == "discard M9"


def test_search_takes_an_immediate_win(deck):
    pos = {"players": 2, "count": 10, "match": "C4", "hands": [["C6", "C1", "M2"], []], "draw": ["G9", "G1", "G2"]}
    assert choose(deck, "search", pos) == "play C6"


def test_greedy_beats_random(deck):
    # Seats alternate greedy, random; under "no better than random" greedy would win half the games.
    summary = simulate(deck, games=300, players=4, seed=11, bots=["greedy", "random"], workers=1)
    wins = summary["wins_by_bot"]["greedy"]
    low, _ = wilson(wins, summary["games"])
    assert low > 0.5, f"greedy won {wins}/300"
