"""The research-facing package: `county_uppy`, PettingZoo's classic form (wrappers, state, normalised
observations, relative ids), the Gymnasium environment, the bots as OpenSpiel Bots and PettingZoo
policies, the training tutorial of docs/engine.md, and an install that plays from any folder."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.cli import main
from tests.ai.extra import need

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = str(ROOT / "cards.yaml")


def finish(env, choose) -> dict:
    """Play a PettingZoo game to the end with `choose(obs, agent)`; the final rewards."""
    final = {}
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            final[agent] = reward
            env.step(None)
        else:
            env.step(choose(obs, agent))
    return final


def test_pettingzoo_env_has_the_classic_wrappers_and_an_illegal_action_ends_the_game():
    np = need("numpy")
    need("pettingzoo")
    import county_uppy
    from pettingzoo.utils import wrappers

    e = county_uppy.pettingzoo_env(players=3, manifest=MANIFEST)
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    layers, inner = [], e
    while hasattr(inner, "env"):
        layers.append(type(inner).__name__)
        inner = inner.env
    assert layers == ["OrderEnforcingWrapper", "AssertOutOfBoundsWrapper", "TerminateIllegalWrapper"]
    assert type(inner).__name__ == "CountyUppyEnv" and type(county_uppy.pettingzoo_raw_env(manifest=MANIFEST)) is type(inner)
    e.reset(seed=4)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    e.step(int(np.flatnonzero(mask == 0)[0]))  # PettingZoo logs "Illegal move made, game terminating"
    assert e.rewards[agent] == -1 and all(e.terminations.values())
    assert e.unwrapped.engine_state.history == []  # nothing was applied to the game


def test_pettingzoo_state_normalised_observations_and_relative_ids():
    np = need("numpy")
    need("pettingzoo")
    import county_uppy

    e = county_uppy.pettingzoo_raw_env(players=4, manifest=MANIFEST)
    raw = county_uppy.pettingzoo_raw_env(players=4, manifest=MANIFEST, normalize=False, relative_seats=False)
    e.reset(seed=9)
    raw.reset(seed=9)
    rng = random.Random(1)
    steps = 0
    while not e.engine_state.is_terminal() and steps < 200:
        s = e.engine_state
        state = e.state()
        assert e.state_space.contains(state)
        # the state holds every hand: seat 0's in its observation, the others' after it, then the draw pile
        k = len(e.game.codes)
        tail = state[e.layout.observation_size:]
        for seat in range(1, 4):
            assert sorted(np.repeat(np.arange(k), tail[(seat - 1) * k:seat * k].astype(int)).tolist()) == sorted(s.hands[seat])
        assert tail[3 * k:].sum() == s.draw_size
        agent = e.agent_selection
        seat = e.possible_agents.index(agent)
        obs, plain = e.observe(agent), raw.observe(agent)
        assert e.observation_space(agent).contains(obs) and obs["observation"].max() <= 1.0
        bounds = np.asarray(e.layout.bounds(), np.float32)
        assert np.allclose(obs["observation"], np.minimum(plain["observation"] / bounds, 1.0))
        legal = s.legal_actions()
        # the same decisions, named relative to the acting seat or by the engine's seat numbers
        assert sorted(e.id_of(agent, a) for a in legal) == np.flatnonzero(obs["action_mask"]).tolist()
        assert sorted(raw.id_of(agent, a) for a in legal) == np.flatnonzero(plain["action_mask"]).tolist()
        for a in legal:
            assert e.action_of(agent, e.id_of(agent, a)) is a
            if a.seat is not None:  # slot r is seat (me + r) % players
                assert e.id_of(agent, a) == raw.id_of(agent, a) - a.seat + (a.seat - seat) % 4
        action = rng.choice(legal)
        e.step(e.id_of(agent, action))
        raw.step(raw.id_of(agent, action))
        steps += 1
    assert steps > 20 and e.engine_state.history == raw.engine_state.history


def test_built_in_bots_as_pettingzoo_policies_and_openspiel_bots_beat_random():
    np = need("numpy")
    pyspiel = need("pyspiel")
    need("pettingzoo")
    import county_uppy

    wins = 0
    for game in range(30):
        e = county_uppy.pettingzoo_env(players=2, manifest=MANIFEST)
        greedy = county_uppy.pettingzoo_policy(e, "greedy", seed=game)
        rnd = np.random.default_rng(game)
        e.reset(seed=game)
        final = finish(e, lambda obs, agent: greedy(obs, agent) if agent == "seat_0"
                       else int(rnd.choice(np.flatnonzero(obs["action_mask"]))))
        wins += final["seat_0"] > 0
    assert wins >= 20  # greedy wins about 86% against random at 2 players

    game = county_uppy.openspiel_game(players=2, manifest=MANIFEST)
    assert isinstance(county_uppy.openspiel_bot(game, 0), pyspiel.Bot)
    total = 0.0
    for seed in range(20):
        bots = [county_uppy.openspiel_bot(game, 0, "greedy", seed), pyspiel.make_uniform_random_bot(1, seed)]
        total += pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)[0]  # chance sampled by OpenSpiel
    assert total >= 8  # +1 a win, -1 a loss: greedy wins at least 14 of 20


def test_the_gymnasium_env_passes_check_env_and_its_games_replay(tmp_path, capsys):
    need("gymnasium")
    need("pettingzoo")
    import county_uppy
    from gymnasium.utils.env_checker import check_env

    env = county_uppy.gymnasium_env(players=3, opponents=["greedy", "random"], manifest=MANIFEST, render_mode="ansi")
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=12)
    assert info["seed"] is None  # the deal's seed would name every hand: told once the game is over
    assert env.aec.engine_state.current_player() == 0 and "Your hand" in env.render()
    rewards, done = [], False
    while not done:
        legal = [int(i) for i in obs["action_mask"].nonzero()[0]]
        obs, reward, terminated, truncated, info = env.step(legal[0])
        rewards.append(reward)
        done = terminated or truncated
    assert rewards[:-1] == [0.0] * (len(rewards) - 1) and rewards[-1] in (-1.0, 0.0, 1.0)
    assert info["seed"] == 12
    record = env.record()
    assert record["bots"] == ["human", "greedy", "random"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    assert main(["replay", "--manifest", MANIFEST, str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["matches"] is True

    import gymnasium
    from generator.ai.gym_env import ENV_ID

    made = gymnasium.make(ENV_ID, players=3, opponents=["greedy", "random"], manifest=MANIFEST)
    assert made.unwrapped.opponents == {1: "greedy", 2: "random"}
    again, _ = made.reset(seed=12)
    first, _ = env.reset(seed=12)
    assert (again["observation"] == first["observation"]).all()


def tutorial() -> str:
    text = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    section = text.split("**Training an agent**", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_training_tutorial_beats_the_random_bot(tmp_path):
    need("gymnasium")
    need("pettingzoo")
    code = tutorial()
    lines = [line for line in code.splitlines() if line.strip()]
    assert len(lines) <= 22  # "about 20 lines": every line of it counted but the blank ones
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    wins = int(re.fullmatch(r"won (\d+) of 400 against random\n", done.stdout).group(1))
    assert wins >= 240  # 60%: the random bot wins 49% in this seat (196 of 400), greedy 86%


@pytest.mark.slow
def test_a_fresh_venv_installs_the_ai_extra_and_plays_every_environment_with_no_manifest(tmp_path):
    """`pip install '.[ai]'` into a new virtual environment (dependencies from pip's cache or the
    index), then, from a folder that is not a checkout, the OpenSpiel game, the PettingZoo
    environment and the Gymnasium environment load with no manifest given: the shipped deck."""
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE", "cards.yaml", "cards.schema.json", "MANIFEST.in"):
        shutil.copy2(ROOT / name, source / name)
    for name in ("generator", "templates", "art", "county_uppy"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run([str(python), "-m", "pip", "install", "-q", f"{source}[ai]"], env=env,
                          capture_output=True, text=True, timeout=1500)
    assert done.returncode == 0, done.stderr[-3000:]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    script = """
import json, pyspiel, county_uppy, generator
import generator.ai.openspiel
game = pyspiel.load_game("county_uppy")
state = game.new_initial_state()
while state.is_chance_node():
    state.apply_action(state.chance_outcomes()[0][0])
aec = county_uppy.pettingzoo_env(players=3)
aec.reset(seed=1)
gym = county_uppy.gymnasium_env(opponents=["greedy"])
obs, info = gym.reset(seed=2)
print(json.dumps({"package": generator.__file__, "manifest": game.get_parameters()["manifest"],
                  "players": state.current_player() >= 0, "agent": aec.agent_selection,
                  "gym": int(obs["action_mask"].sum())}))
"""
    done = subprocess.run([str(python), "-c", script], cwd=elsewhere, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    site = str(venv)
    assert out["package"].startswith(site) and out["manifest"].startswith(site)  # the installed copy, not this checkout
    assert out["manifest"].endswith("generator/shipped/cards.yaml")
    assert out["players"] and out["agent"].startswith("seat_") and out["gym"] > 0
