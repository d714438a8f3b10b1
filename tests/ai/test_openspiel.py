"""The OpenSpiel game passes OpenSpiel's own random simulation test (with serialization), and
OpenSpiel's information-set MCTS plays it through resample_from_infostate."""

import json
import os
from pathlib import Path

import pytest

from generator.cli import main
from tests.ai.extra import need

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = str(ROOT / "cards.yaml")


@pytest.mark.parametrize("params", [
    {"players": 2, "edition": "keep-it-simple"},
    {"players": 3, "edition": "the-og", "play2_draws": 2},
    {"players": 4, "edition": "only-chaos", "teams": True, "sixteen_hits": "opponents"},
    {"players": 6, "edition": "its-wild-time", "all_out": "draw", "wild_sets_target": True, "dealer": 2},
    {"players": 8, "edition": "math-is-fun", "invert_through_wilds": True, "max_turns": 40},
])
def test_random_sim_test_with_serialization(pyspiel, params):
    game = pyspiel.load_game("county_uppy", {"manifest": MANIFEST, **params})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("params", [{"players": 4}, {"players": 6, "edition": "its-wild-time", "teams": True},
                                    {"players": 3, "edition": "keep-it-simple"}])
def test_a_tensor_asked_in_python_is_the_one_pyspiel_writes_through_the_observer(pyspiel, params):
    """The state answers information_state_tensor and observation_tensor itself (pyspiel's own call
    takes a detour that was most of a reset); C++ code (random_sim_test, OpenSpiel's algorithms)
    still asks the game's observer. The two give the same list, at every step of whole games."""
    import random

    game = pyspiel.load_game("county_uppy", {"manifest": MANIFEST, **params})
    n = game.num_players()
    for seed in range(3):
        rng, state, steps = random.Random(seed), game.new_initial_state(), 0
        while not state.is_terminal() and steps < 120:
            for p in range(n):
                for ours, theirs in ((state.information_state_tensor(p), pyspiel.State.information_state_tensor(state, p)),
                                     (state.observation_tensor(p), pyspiel.State.observation_tensor(state, p))):
                    assert ours == theirs and all(type(x) is float for x in ours)
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                assert state.information_state_tensor() == state.information_state_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
    with pytest.raises(pyspiel.SpielError):
        state.information_state_tensor(n)


def test_a_reset_makes_one_state_and_writes_each_seat_s_tensor_once(pyspiel, monkeypatch):
    """What rl_environment's reset costs, structurally (its time is in benchmarks/bench_reset.py):
    one new state, dealt, and every seat's information-state tensor written once. (pyspiel's own
    tensor call for a Python game made a second state per call, for the tensor's shape, and wrote
    the tensor into numpy and C++ before handing out a new list.)"""
    from open_spiel.python import rl_environment

    from generator.ai.observation import Layout
    from generator.ai.openspiel import CountyUppyGame

    game = pyspiel.load_game("county_uppy", {"manifest": MANIFEST, "players": 4})
    env = rl_environment.Environment(game)
    env.reset()
    made, written = [], []
    new_state, write = CountyUppyGame.new_initial_state, Layout.information_state
    monkeypatch.setattr(CountyUppyGame, "new_initial_state", lambda self: made.append(1) or new_state(self))
    monkeypatch.setattr(Layout, "information_state",
                        lambda self, view, table: written.append(view.seat) or write(self, view, table))
    for _ in range(3):
        made.clear(), written.clear()
        step = env.reset()
        assert made == [1] and sorted(written) == [0, 1, 2, 3]
        assert step.observations["info_state"] == [env.get_state.information_state_tensor(p) for p in range(4)]


def test_the_game_type_is_what_the_engine_is(pyspiel):
    game = pyspiel.load_game("county_uppy", {"manifest": MANIFEST, "players": 3, "max_turns": 100})
    t = game.get_type()
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.max_game_length() == 101 * (2 * 3 + 7)
    assert game.min_utility() == -1 and game.max_utility() == 1
    two = pyspiel.load_game("county_uppy", {"manifest": MANIFEST, "players": 2})
    assert two.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    state = game.seeded_state(0)
    seat = state.current_player()
    assert state.information_state_string(seat).startswith(f"seat {seat} of 3")
    assert len(state.information_state_tensor(seat)) == game.information_state_tensor_size()
    assert len(state.observation_tensor(seat)) == game.observation_tensor_size()
    other = (seat + 1) % 3
    assert state.information_state_string(seat) != state.information_state_string(other)


def play(pyspiel, game, choose, deal=11):
    state = game.seeded_state(deal)
    while not state.is_terminal():
        state.apply_action(int(choose(state)))
    return state


def test_ismcts_plays_through_the_adapter_and_its_game_replays(pyspiel, tmp_path, capsys):
    np = need("numpy")
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("county_uppy", {"manifest": MANIFEST, "players": 2, "edition": "keep-it-simple"})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=10, random_state=np.random.RandomState(2))
    rng = np.random.RandomState(3)
    state = play(pyspiel, game, lambda s: bot.step(s) if s.current_player() == 0 else rng.choice(s.legal_actions()))
    assert sorted(state.returns()) == [-1.0, 1.0]
    from generator.engine import make_record
    record = tmp_path / "game.json"
    record.write_text(json.dumps(make_record(state.engine)))
    assert main(["replay", "--manifest", MANIFEST, str(record), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["matches"] is True


PRINTED = "{play2_draws: 2, all_out: draw, invert_through_wilds: true, max_turns: 300}"


def printed_manifest(tmp_path: Path) -> str:
    """The shipped manifest with rule options printed in it (`game: options:`)."""
    text = Path(MANIFEST).read_text(encoding="utf-8")
    marker = "  players: {min: 2, max: 8}\n"
    assert marker in text
    path = tmp_path / "cards.yaml"
    path.write_text(text.replace(marker, f"{marker}  options: {PRINTED}\n", 1), encoding="utf-8")
    return str(path)


def test_the_game_plays_by_the_deck_s_printed_options_and_parameters_override_them(pyspiel, tmp_path):
    from generator.deck.manifest import load
    from generator.engine import Game

    manifest = printed_manifest(tmp_path)
    deck_game = Game(load(manifest), "the-og", 3)  # what simulate, report and play give this deck
    assert (deck_game.options.play2_draws, deck_game.options.all_out, deck_game.options.max_turns) == (2, "draw", 300)
    game = pyspiel.load_game("county_uppy", {"manifest": manifest, "players": 3})
    assert game.engine.options == deck_game.options
    assert game.max_game_length() == 301 * (2 * 3 + 7)  # the deck's max_turns bounds the game
    params = game.get_parameters()
    assert (params["play2_draws"], params["all_out"], params["invert_through_wilds"], params["max_turns"]) == \
        (2, "draw", True, 300)
    # a game and its states reload from the string, with the same rules
    again = pyspiel.load_game(str(game))
    assert again.engine.options == deck_game.options

    # explicit parameters win, even when they name the rulebook's default
    told = pyspiel.load_game("county_uppy", {"manifest": manifest, "players": 3, "play2_draws": 1,
                                             "all_out": "sixteen_wins", "max_turns": 2000, "wild_sets_target": True})
    o = told.engine.options
    assert (o.play2_draws, o.all_out, o.max_turns, o.wild_sets_target, o.invert_through_wilds) == \
        (1, "sixteen_wins", 2000, True, True)
    # deck_options=False: the rulebook's defaults (a printed bool option can be turned off this way)
    plain = pyspiel.load_game("county_uppy", {"manifest": manifest, "players": 3, "deck_options": False})
    assert plain.engine.options == Game(load(MANIFEST), "the-og", 3).options
    assert plain.engine.options.invert_through_wilds is False

    # the adapter's deal plays the deck's game: the same decisions give the same game as the engine's own
    from generator.engine.simulate import game_seed
    state = game.seeded_state(game_seed(0, 4))
    engine = deck_game.new_initial_state(game_seed(0, 4))
    import random
    rng = random.Random(5)
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        decision = state.rules.ids.action(action)
        assert decision in engine.legal_actions()
        state.apply_action(action)
        engine.apply(decision)
    assert engine.is_terminal() and engine.returns() == state.returns()
    assert engine.history == state.engine.history


def test_a_bad_option_parameter_is_refused_with_the_option_s_message(pyspiel):
    with pytest.raises(Exception, match="play2_draws"):
        pyspiel.load_game("county_uppy", {"manifest": MANIFEST, "play2_draws": 3})


@pytest.mark.parametrize("max_turns", [2**31 - 1, 2**31, 10**18])
def test_any_max_turns_the_engine_takes_makes_a_game(pyspiel, max_turns):
    """OpenSpiel's GameInfo and parameters are C ints: a max_turns past 2**31 - 1 (which the engine
    takes) failed to make the game, so ISMCTS could not play it. Said as the largest now."""
    from generator.ai.bots import ladder_bot
    from generator.ai.openspiel import MAX_LENGTH, CountyUppyGame
    from generator.deck.manifest import load
    from generator.engine import Game
    from generator.engine.simulate import play_game

    engine = Game(load(MANIFEST), "keep-it-simple", 2, {"max_turns": max_turns})
    game = CountyUppyGame(engine=engine)
    assert game.max_game_length() == MAX_LENGTH == 2**31 - 1
    assert game.get_parameters()["max_turns"] == 2**31 - 1
    assert game.engine.options.max_turns == max_turns  # the engine's game is the one asked for
    state = play_game(engine, [ladder_bot("ismcts:3"), ladder_bot("greedy")], 4)
    assert state.is_terminal() and not state.stopped
    loaded = pyspiel.load_game("county_uppy", {"manifest": MANIFEST, "players": 2, "max_turns": 2**31 - 1})
    assert loaded.max_game_length() == MAX_LENGTH
