"""Teams (R7.2): the give is the giver's decision, so the player about to play learns nothing of a
teammate's hand from its legal actions or its observation, in OpenSpiel and in PettingZoo."""

import random
from pathlib import Path

from generator.engine.actions import GIVE, NO_GIVE
from tests.ai.extra import need

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = str(ROOT / "cards.yaml")


def test_openspiel_the_receiver_s_actions_and_observation_hold_no_card_of_a_teammate():
    pyspiel = need("pyspiel")
    import generator.ai.openspiel  # noqa: F401 (registers county_uppy)

    game = pyspiel.load_game("county_uppy", {"manifest": MANIFEST, "players": 6, "teams": True})
    rng, asked, received, hidden = random.Random(4), 0, 0, 0
    for deal in range(3):
        state = game.seeded_state(deal)
        while not state.is_terminal():
            e = state.engine
            seat = state.current_player()
            actions = [game.ids.action(a) for a in state.legal_actions()]
            if e.phase() == "give":
                asked += 1
                assert seat != e.turn and seat % 2 == e.turn % 2
                assert all(a.kind == NO_GIVE or (a.kind == GIVE and a.seat == seat and a.code in e.view(seat).hand)
                           for a in actions)
            elif seat == e.turn and not e.played and e.history and e.history[-1].kind in (GIVE, NO_GIVE):
                received += 1
                # the player about to play: plays of its own cards only
                assert all(a.kind == "play" and a.code in e.view(seat).hand for a in actions)
                # its information is the same in a world where every other hand is dealt again
                for k in range(3):
                    world = state.resample_from_infostate(seat, random.Random(k).random)
                    assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
                    assert world.observation_tensor(seat) == state.observation_tensor(seat)
                    assert world.information_state_string(seat) == state.information_state_string(seat)
                    assert world.legal_actions() == state.legal_actions()
                mates = {c for m in range(seat % 2, 6, 2) if m != seat for c in e.view(m).hand}
                text = state.observation_string(seat)
                hand_line = next(line for line in text.split("\n") if line.startswith("hand "))
                assert "can be given" not in text and set(hand_line.split()[1:]) <= set(e.view(seat).hand)
                hidden += bool(mates - set(e.view(seat).hand))  # a teammate held a card this seat does not
            state.apply_action(rng.choice(state.legal_actions()))
    assert asked > 50 and received > 20 and hidden > 10


def test_pettingzoo_the_receiver_s_mask_and_observation_hold_no_card_of_a_teammate():
    np = need("numpy")
    need("pettingzoo")
    from generator.ai.pettingzoo import raw_env

    env = raw_env(MANIFEST, "the-og", 4, teams=True)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    checked = 0
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        s = env.engine_state
        seat = env.possible_agents.index(agent)
        legal = [env.action_of(agent, int(i)) for i in np.flatnonzero(obs["action_mask"])]
        if s.phase() == "play" and seat == s.turn and not s.played:
            checked += 1
            assert all(a.kind == "play" and a.code in s.view(seat).hand for a in legal)
            world = s.resample(seat, random.Random(checked))  # every hand but this seat's dealt again
            saved = env.engine_state
            env.engine_state = world
            again = env.observe(agent)
            env.engine_state = saved
            assert np.array_equal(again["observation"], obs["observation"])
            assert np.array_equal(again["action_mask"], obs["action_mask"])
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checked > 10
