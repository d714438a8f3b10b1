"""Engine speed against RLCard's UNO and OpenSpiel's crazy_eights, measured in one run on one core.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/bench_engine.py            # table and ratios (timeit-style, best of N)
    .venv/bin/pytest benchmarks/bench_engine.py --benchmark-only   # the same loops under pytest-benchmark

Each measurement plays whole games with uniformly random players for about `--seconds`
and reports steps per second:
- County Uppy simulator: generator.engine.simulate(workers=1), 4 random bots on The OG (turns and decisions):
  what each `county-uppy simulate` worker runs, per game, without the process pool's startup;
- County Uppy public API: legal_actions() + apply() per decision, a random choice;
- RLCard UNO (4 players): RLCard's environment loop with its RandomAgent, less the observation
  encoding: env._get_legal_actions() + agent.step() + env._decode_action() + env.game.step();
- RLCard UNO game only (reference): env.game.get_legal_actions() + env.game.step(), a random choice;
- OpenSpiel crazy_eights (4 players): the Python loop legal_actions() + apply_action(), chance
  outcomes sampled, counting player decisions.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _deck():
    from generator.manifest import load

    return load(ROOT / "cards.yaml")


def county_uppy_simulator(games: int, seed: int = 0) -> tuple[int, int]:
    """(turns, decisions) of `games` games of 4 random bots as `county-uppy simulate` plays them.

    `simulate(..., workers=1)` runs the workers' own code (`_run_chunk`: per game the seed,
    `play_game` with the per-card statistics, the result row) in this process, so the time
    is that of the games themselves, without a process pool's startup, plus the summary.
    """
    from generator.engine import simulate

    s = simulate(_DECK, games=games, players=4, edition="the-og", seed=seed, bots=("random",), workers=1)
    return round(s["mean_turns"] * s["games"]), s["decisions"]


def county_uppy_api(games: int, seed: int = 0) -> tuple[int, int]:
    """(turns, decisions) through the public API: legal_actions() + apply() with a random choice."""
    from generator.engine import Game

    game = Game(_DECK, "the-og", 4)
    rng = random.Random(seed)
    turns = decisions = 0
    for i in range(games):
        state = game.new_initial_state(seed + i)
        while not state.is_terminal():
            legal = state.legal_actions()
            if legal:
                state.apply(rng.choice(legal))
                decisions += 1
        turns += state.turns
    return turns, decisions


def rlcard_uno(games: int, seed: int = 0) -> tuple[int, int]:
    """(turns, turns) of RLCard UNO games (4 players) in RLCard's environment loop with its random agents.

    Per turn this is what `env.run()` does, less the observation encoding (`_extract_state`'s
    numpy planes): the legal action ids (`env._get_legal_actions()`), the seat's
    `RandomAgent.step` (uniform over them), and `env.step` = `_decode_action` + `game.step`.
    """
    import numpy as np
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("uno", config={"seed": seed, "game_num_players": 4})
    agents = [RandomAgent(num_actions=env.num_actions) for _ in range(4)]
    np.random.seed(seed)  # RandomAgent draws from numpy's global RNG
    g = env.game
    legal_ids, decode, step, player = env._get_legal_actions, env._decode_action, g.step, g.get_player_id
    steps = 0
    for _ in range(games):
        g.init_game()
        while not g.is_over():
            action = agents[player()].step({"legal_actions": legal_ids()})
            step(decode(action))
            steps += 1
    return steps, steps


def rlcard_uno_game(games: int, seed: int = 0) -> tuple[int, int]:
    """(turns, turns) of RLCard UNO games (4 players) through the game object alone: a reference
    line, not the issue's baseline (no environment, no agents: `get_legal_actions` + `step`)."""
    import numpy as np
    import rlcard

    env = rlcard.make("uno", config={"seed": seed, "game_num_players": 4})
    g = env.game
    rng = random.Random(seed)
    g.np_random = np.random.RandomState(seed)
    steps = 0
    for _ in range(games):
        g.init_game()
        while not g.is_over():
            g.step(rng.choice(g.get_legal_actions()))
            steps += 1
    return steps, steps


def openspiel_crazy_eights(games: int, seed: int = 0) -> tuple[int, int]:
    """(decisions, decisions) of OpenSpiel crazy_eights games (4 players) in a Python loop."""
    import pyspiel

    game = pyspiel.load_game("crazy_eights", {"players": 4})
    rng = random.Random(seed)
    decisions = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
    return decisions, decisions


_DECK = None
SUBJECTS = {
    "county-uppy simulator": (county_uppy_simulator, 400),
    "county-uppy public API": (county_uppy_api, 400),
    "rlcard uno": (rlcard_uno, 100),
    "rlcard uno (game only)": (rlcard_uno_game, 100),
    "open_spiel crazy_eights": (openspiel_crazy_eights, 100),
}


def measure(fn, games: int, repeats: int) -> dict:
    """Best of `repeats` runs of `games` games: steps per second (turns and decisions)."""
    best = None
    for r in range(repeats):
        t = time.perf_counter()
        turns, decisions = fn(games, seed=1000 * r)
        dt = time.perf_counter() - t
        rate = (turns / dt, decisions / dt)
        if best is None or rate[0] > best[0]:
            best = rate
    assert best is not None
    return {"turns_per_second": round(best[0]), "decisions_per_second": round(best[1])}


def main(argv: list[str] | None = None) -> int:
    global _DECK
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the games per run")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    _DECK = _deck()
    results: dict[str, dict] = {}
    # Round-robin over the subjects, `repeats` times, keeping each one's best run: a change in
    # machine load then affects every subject alike.
    for _ in range(args.repeats):
        for name, (fn, games) in SUBJECTS.items():
            if "error" in results.get(name, {}):
                continue
            try:
                r = measure(fn, max(1, int(games * args.scale)), 1)
            except ImportError as exc:
                results[name] = {"error": f"not installed: {exc}"}
                continue
            if name not in results or r["turns_per_second"] > results[name]["turns_per_second"]:
                results[name] = r
    sim, api = results["county-uppy simulator"], results["county-uppy public API"]
    ratios = {}
    uno, c8 = results["rlcard uno"], results["open_spiel crazy_eights"]
    uno_game = results["rlcard uno (game only)"]
    if "error" not in uno:
        ratios["simulator turns/s / RLCard UNO turns/s"] = round(sim["turns_per_second"] / uno["turns_per_second"], 2)
        ratios["public API turns/s / RLCard UNO turns/s"] = round(api["turns_per_second"] / uno["turns_per_second"], 2)
    if "error" not in uno_game:  # reference only: the targets are against the environment loop above
        ratios["simulator turns/s / RLCard UNO game-only turns/s"] = round(
            sim["turns_per_second"] / uno_game["turns_per_second"], 2)
    if "error" not in c8:
        ratios["simulator decisions/s / OpenSpiel decisions/s"] = round(sim["decisions_per_second"] / c8["decisions_per_second"], 2)
        ratios["public API decisions/s / OpenSpiel decisions/s"] = round(api["decisions_per_second"] / c8["decisions_per_second"], 2)
    if args.json:
        print(json.dumps({"results": results, "ratios": ratios}, indent=2))
        return 0
    for name, r in results.items():
        if "error" in r:
            print(f"{name:26} {r['error']}")
        else:
            print(f"{name:26} {r['turns_per_second']:>9,} turns/s  {r['decisions_per_second']:>9,} decisions/s")
    for name, value in ratios.items():
        print(f"{name:50} {value:5.2f}x")
    return 0


# --- pytest-benchmark entry points (pytest benchmarks/bench_engine.py --benchmark-only) ---
def _bench(benchmark, name: str) -> None:
    global _DECK
    import pytest

    if _DECK is None:
        _DECK = _deck()
    fn, games = SUBJECTS[name]
    try:
        benchmark.pedantic(fn, args=(max(1, games // 4),), rounds=5, iterations=1)
    except ImportError as exc:
        pytest.skip(str(exc))


def test_county_uppy_simulator(benchmark):
    _bench(benchmark, "county-uppy simulator")


def test_county_uppy_api(benchmark):
    _bench(benchmark, "county-uppy public API")


def test_rlcard_uno(benchmark):
    _bench(benchmark, "rlcard uno")


def test_rlcard_uno_game_only(benchmark):
    _bench(benchmark, "rlcard uno (game only)")


def test_openspiel_crazy_eights(benchmark):
    _bench(benchmark, "open_spiel crazy_eights")


if __name__ == "__main__":
    sys.exit(main())
