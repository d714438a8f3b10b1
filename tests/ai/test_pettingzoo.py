"""The PettingZoo environment passes PettingZoo's api_test and seed_test, and its games replay."""

import json
from pathlib import Path

import pytest

from generator.cli import main
from tests.ai.extra import need

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = str(ROOT / "cards.yaml")


@pytest.fixture(scope="module")
def pz():
    need("pettingzoo")
    from generator.ai import pettingzoo
    return pettingzoo


# PettingZoo's own card and board games (chess, connect four, leduc...) observe {"observation",
# "action_mask"} as this one does; api_test lists theirs by name and warns about any other.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("players, options", [(2, {}), (4, {"teams": True}), (5, {"play2_draws": 2})])
def test_api_test(pz, players, options):
    from pettingzoo.test import api_test

    api_test(pz.env(MANIFEST, "the-og", players, render_mode="ansi", **options), num_cycles=300, verbose_progress=False)


def test_seed_test(pz):
    from pettingzoo.test import seed_test

    seed_test(lambda: pz.env(MANIFEST, "only-chaos", 4, teams=True), num_cycles=300)


def test_a_masked_random_game_replays_and_renders_the_terminal_screen(pz, tmp_path, capsys):
    np = need("numpy")
    env = pz.env(MANIFEST, "keep-it-simple", 3, render_mode="ansi")
    env.reset(seed=21)
    screen = env.render()
    assert "COUNT 0 / 16" in screen and "Your hand" in screen
    assert "seed 21" not in screen  # the seed would give the agent the deck's order (every hand, every draw)
    rng = np.random.default_rng(0)
    final = {}
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            final[agent] = reward
            env.step(None)
            continue
        assert obs["observation"].shape == env.observation_space(agent)["observation"].shape
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    assert env.agents == [] and sorted(final) == ["seat_0", "seat_1", "seat_2"]
    assert sorted(final.values()) in ([-1.0, -1.0, 1.0], [0.0, 0.0, 0.0])
    assert [final[f"seat_{s}"] for s in range(3)] == env.unwrapped.engine_state.returns()
    assert "seed 21" in env.render()  # named once the game has ended, to replay it
    record = tmp_path / "game.json"
    record.write_text(json.dumps(env.record()))
    assert main(["replay", "--manifest", MANIFEST, str(record), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["matches"] is True


def test_an_illegal_action_is_refused(pz):
    from generator.engine.errors import IllegalActionError

    env = pz.raw_env(MANIFEST, "the-og", 2)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(next(i for i, m in enumerate(mask) if not m))
    with pytest.raises(IllegalActionError):
        env.step(illegal)


@pytest.mark.parametrize("kind", ["half", "float", "text", "true", "false", "none"])
def test_an_action_that_is_not_a_whole_number_is_refused(pz, kind):
    """step(6.5) played id 6 and step(True) id 1 (int() took them); nothing is applied now."""
    import numpy as np

    env = pz.raw_env(MANIFEST, "the-og", 2)
    env.reset(seed=1)
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    action = {"half": legal + 0.5, "float": float(legal), "text": str(legal), "true": True, "false": False,
              "none": None}[kind]
    with pytest.raises(ValueError, match="an action is a whole number, not"):
        env.step(action)
    assert env.engine_state.history == []
    env.step(np.int64(legal))  # a NumPy integer is a whole number
    assert len(env.engine_state.history) == 1


@pytest.mark.parametrize("seed", [1.5, True, "7", 2.0])
def test_a_seed_that_is_not_a_whole_number_is_refused(pz, seed):
    import numpy as np

    env = pz.raw_env(MANIFEST, "the-og", 2)
    with pytest.raises(ValueError, match="a seed is a whole number, not"):
        env.reset(seed=seed)
    env.reset(seed=np.int64(7))
    assert env.seed == 7 and type(env.seed) is int


def test_the_env_plays_by_the_deck_s_printed_options_and_keywords_override_them(pz, tmp_path):
    from generator.ai.pettingzoo import raw_env as env
    from generator.deck.manifest import load
    from generator.engine import Game

    text = Path(MANIFEST).read_text(encoding="utf-8")
    marker = "  players: {min: 2, max: 8}\n"
    path = tmp_path / "cards.yaml"
    path.write_text(text.replace(marker, f"{marker}  options: {{play2_draws: 2, all_out: draw, teams: true}}\n", 1),
                    encoding="utf-8")
    e = env(str(path), players=4)
    assert e.game.options == Game(load(str(path)), "the-og", 4).options
    assert (e.game.options.play2_draws, e.game.options.all_out, e.game.options.teams) == (2, "draw", True)
    told = env(str(path), players=4, play2_draws=1, teams=False)
    assert (told.game.options.play2_draws, told.game.options.all_out, told.game.options.teams) == (1, "draw", False)
    e.reset(seed=3)
    assert e.unwrapped.engine_state.game.options.teams is True
