"""simulate: per-game seeds, identical results for any worker count, records that replay alone."""

from __future__ import annotations

import random

import pytest

from generator.engine import Game, bot_seed, game_seed, make_bot, make_record, play_game, replay, simulate, to_position
from generator.engine.simulate import TIMING_KEYS


def strip(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in TIMING_KEYS}


def test_results_do_not_depend_on_workers(deck):
    kw = dict(games=40, players=5, edition="its-wild-time", seed=9, bots=["random", "greedy"], options={"play2_draws": 2})
    one = simulate(deck, workers=1, **kw)
    two = simulate(deck, workers=2, **kw)
    assert strip(one) == strip(two)
    assert one["games"] == 40 and one["finished"] + one["unfinished"] == 40


def test_random_runs_do_not_depend_on_workers_or_chunks(deck):
    """Random players take the simulator's own loop; its per-card counts are summed per chunk of
    games, and one worker cuts 90 games into chunks of 22, two workers into chunks of 11."""
    kw = dict(games=90, players=4, edition="the-og", seed=11, bots=["random"])
    one = simulate(deck, workers=1, **kw)
    two = simulate(deck, workers=2, **kw)
    assert strip(one) == strip(two)
    assert sum(c["plays"] for c in one["cards"].values()) > 90


@pytest.mark.parametrize("edition,players,options", [
    ("the-og", 4, {}),
    ("its-wild-time", 6, {"teams": True, "play2_draws": 2}),
    ("only-chaos", 3, {"wild_sets_target": True, "invert_through_wilds": True}),
    ("math-is-fun", 2, {"all_out": "draw"}),
    ("keep-it-simple", 8, {"dealer": 5}),
])
def test_simulator_plays_the_games_of_the_public_api(deck, edition, players, options):
    """Random players only: play_game runs the rules loop to the end of the game without leaving it.
    Stepping through legal_actions()/apply() with RandomBot and the same RNG must give the same game,
    and the per-card statistics must be those the step-by-step loop counts."""
    game = Game(deck, edition, players, options)
    bot = make_bot("random")
    ncards = len(game.codes)
    for seed in range(20):
        fast_stats, slow_stats = [0] * (2 * ncards), [0] * (2 * ncards)
        fast = play_game(game, [bot] * players, seed, fast_stats)
        watched = play_game(game, [bot] * players, seed, slow_stats, observer=lambda state, seat, action: None)
        state = game.new_initial_state(seed)
        rng = random.Random(bot_seed(seed))
        while not state.is_terminal():
            state.apply(bot.choose(state.view(state.current_player()), state.legal_actions(), rng))
        assert [str(a) for a in fast.history] == [str(a) for a in state.history] == [str(a) for a in watched.history]
        assert to_position(fast) == to_position(state)
        assert fast.penalties == state.penalties and (fast.winner, fast.turns) == (state.winner, state.turns)
        assert fast_stats == slow_stats and sum(fast_stats[:ncards]) > 0


def test_any_game_of_a_run_replays_alone(deck, tmp_path):
    simulate(deck, games=5, players=4, seed=3, bots=["greedy"], workers=1, record_dir=tmp_path)
    import json

    record = json.loads((tmp_path / "game-000004.json").read_text())
    assert record["seed"] == game_seed(3, 4)
    game = Game(deck, "the-og", 4)
    state = play_game(game, [make_bot("greedy") for _ in range(4)], game_seed(3, 4))
    assert make_record(state, ["greedy"] * 4) == record
    replayed, same = replay(deck, record)
    assert same and replayed.winner == state.winner


def test_seeds_are_stable():
    assert game_seed(0, 0) == game_seed(0, 0) != game_seed(0, 1)
    assert game_seed(1, 0) == 5147448847719479326  # sha256-derived: the same on every machine


def test_card_rates(deck):
    s = simulate(deck, games=30, players=3, edition="keep-it-simple", bots=["random"], workers=1)
    assert len(s["cards"]) == 30
    assert abs(sum(c["play_rate"] for c in s["cards"].values()) - 1) < 1e-3
    assert all(c["penalty_rate"] is None or 0 <= c["penalty_rate"] <= 2 for c in s["cards"].values())
