"""OpenSpiel's game and PettingZoo's environment play the engine's own games.

For the same deal and the same decisions, each adapter and an engine State played beside it
must ask the same seat, offer exactly the engine's legal decisions (as decision ids: the
mask of the seat to act, nothing for the others), end with the same returns, and show every
seat nothing of the cards it cannot see: a world with those cards dealt again gives that
seat the same tensor (and, in OpenSpiel, the same information-state string).
"""

import random
from pathlib import Path

import pytest

from generator.deck.manifest import load
from generator.engine import Game, from_position
from generator.engine.simulate import game_seed
from tests.ai.extra import need

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = str(ROOT / "cards.yaml")

#: Every edition, 2 to 6 players, Teams and the rule options that change what is legal or who acts.
CONFIGS = [
    ("keep-it-simple", 2, {}),
    ("the-og", 3, {"play2_draws": 2}),
    ("only-chaos", 4, {"teams": True, "sixteen_hits": "opponents"}),
    ("its-wild-time", 5, {"wild_sets_target": True, "invert_through_wilds": True, "dealer": 3}),
    ("math-is-fun", 6, {"all_out": "draw", "max_turns": 60}),
]
IDS = [f"{e}-{p}" for e, p, _ in CONFIGS]


@pytest.fixture(scope="module")
def deck():
    return load(MANIFEST)


@pytest.mark.parametrize("edition, players, options", CONFIGS, ids=IDS)
def test_pettingzoo_plays_the_engine_s_game(deck, edition, players, options):
    np = need("numpy")
    need("pettingzoo")
    from generator.ai import pettingzoo

    game = Game(deck, edition, players, options)
    for seed in (3, 11):
        env = pettingzoo.raw_env(MANIFEST, edition, players, normalize=False, relative_seats=False, **options)
        env.reset(seed=seed)
        engine = game.new_initial_state(seed)
        rng, final, steps = random.Random(seed), {}, 0
        for agent in env.agent_iter():
            obs, reward, termination, truncation, _ = env.last()
            if termination or truncation:
                final[agent] = reward
                env.step(None)
                continue
            seat = env.possible_agents.index(agent)
            assert seat == engine.current_player()
            ids = sorted(env.ids.id(a) for a in engine.legal_actions())
            assert np.flatnonzero(obs["action_mask"]).tolist() == ids
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any(), other
            if steps % 7 == 0:  # the others' hands and the draw pile dealt again: no seat sees a difference
                for who, name in enumerate(env.possible_agents):
                    world = env.engine_state.resample(who, random.Random(steps + who))
                    again = np.asarray(env.layout.information_state(world.view(who), env.table), np.float32)
                    assert np.array_equal(env.observe(name)["observation"], again), (seed, steps, who)
            action = rng.choice(ids)
            env.step(action)
            engine.apply(env.ids.action(action))
            steps += 1
        assert engine.is_terminal() and env.engine_state.history == engine.history
        assert [final[a] for a in env.possible_agents] == engine.returns()


@pytest.mark.parametrize("edition, players, options", CONFIGS, ids=IDS)
def test_openspiel_plays_the_engine_s_game(deck, edition, players, options):
    pyspiel = need("pyspiel")
    import generator.ai.openspiel  # noqa: F401 (registers county_uppy)

    game = pyspiel.load_game("county_uppy", {"manifest": MANIFEST, "edition": edition, "players": players, **options})
    for deal in (0, 9):
        state = game.seeded_state(game_seed(5, deal))
        engine = Game(deck, edition, players, options).new_initial_state(game_seed(5, deal))
        rng, steps = random.Random(deal), 0
        while not state.is_terminal():
            seat = state.current_player()
            assert seat == engine.current_player()
            ids = state.legal_actions()
            assert ids == sorted(game.ids.id(a) for a in engine.legal_actions())
            assert all(state.legal_actions(s) == [] for s in range(players) if s != seat)
            if steps % 7 == 0:  # what a seat sees survives its hidden cards being dealt again
                for who in range(players):
                    world = state.resample_from_infostate(who, random.Random(steps + who).random)
                    assert world.information_state_tensor(who) == state.information_state_tensor(who), (deal, steps, who)
                    assert world.observation_tensor(who) == state.observation_tensor(who)
                    assert world.information_state_string(who) == state.information_state_string(who)
            action = rng.choice(ids)
            state.apply_action(action)
            engine.apply(game.ids.action(action))
            steps += 1
        assert engine.is_terminal() and state.engine.history == engine.history
        assert state.returns() == engine.returns()


def test_pettingzoo_ends_a_game_decided_at_the_draw_after_the_last_decision(deck):
    """R4.2/R5.1: the last decision passes the turn to a player with no card and nothing to draw;
    they are out at that draw and the game is over, with no decision left to mask."""
    need("pettingzoo")
    from generator.ai import pettingzoo
    from generator.ai.observation import Table

    env = pettingzoo.raw_env(MANIFEST, "the-og", 2)
    env.reset(seed=0)
    env.engine_state = from_position(deck, {"players": 2, "count": 2, "match": "C4", "in_play": ["C4"],
                                     "hands": [["C1"], []]})
    env.game, env.table = env.engine_state.game, Table(env.engine_state.game)
    env._select()
    assert env.agent_selection == "seat_0"
    env.step(env.ids.id(env.game.action("play C1")))
    assert env.terminations == {"seat_0": True, "seat_1": True}
    assert env.rewards == {"seat_0": 1.0, "seat_1": -1.0}


def test_openspiel_s_public_observer_names_no_card_a_teammate_gave():
    """A give passes a card face down (R7.2): the giver's team knows it, the table does not. The
    public observer (private_info NONE) shows what everyone knows, so no give's card, no hand."""
    pyspiel = need("pyspiel")
    import generator.ai.openspiel  # noqa: F401 (registers county_uppy)

    game = pyspiel.load_game("county_uppy", {"manifest": MANIFEST, "players": 4, "teams": True})
    private = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    public = game.make_py_observer(pyspiel.IIGObservationType(
        perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE))
    rng = random.Random(2)
    for deal in range(20):
        state = game.seeded_state(deal)
        while not state.is_terminal():
            seat = state.current_player()
            gives = [a for a in state.legal_actions() if state.action_to_string(seat, a).startswith("give")]
            if gives:
                action = rng.choice(gives)
                decision = state.action_to_string(seat, action)  # give SEAT CODE, by seat's teammate
                state.apply_action(action)
                giver = decision.split()[1]
                mine = private.string_from(state, seat).split("heard ")[1]
                everyone = public.string_from(state, seat).split("heard ")[1]
                assert mine.endswith(f"s{seat}: {decision}") and everyone.endswith(f"s{seat}: give {giver} ?")
                assert "\nhand " not in public.string_from(state, seat)
                return
            state.apply_action(rng.choice(state.legal_actions()))
    pytest.fail("no give in 20 deals")
