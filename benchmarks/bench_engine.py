"""Engine speed against RLCard's UNO and OpenSpiel's crazy_eights, measured in one run on one core.

    .venv/bin/pip install -e '.[bench]'
    taskset -c 0 .venv/bin/python benchmarks/bench_engine.py   # table and ratios (medians of 15 rounds)
    .venv/bin/pytest benchmarks/bench_engine.py --benchmark-only   # the same loops under pytest-benchmark

Each round runs every subject once, back to back, playing whole games with uniformly random
players; a ratio is the median over the rounds of the ratio within each round. Subjects:
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
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _deck():
    from generator.deck.manifest import load

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


#: The issue's targets: (name, numerator subject and unit, denominator subject and unit, target).
TARGETS = (
    ("simulator turns/s / RLCard UNO turns/s", "county-uppy simulator", "turns", "rlcard uno", "turns", 5.0),
    ("public API turns/s / RLCard UNO turns/s", "county-uppy public API", "turns", "rlcard uno", "turns", 2.0),
    ("simulator decisions/s / OpenSpiel decisions/s", "county-uppy simulator", "decisions", "open_spiel crazy_eights",
     "decisions", 1.0),
    ("public API decisions/s / OpenSpiel decisions/s", "county-uppy public API", "decisions", "open_spiel crazy_eights",
     "decisions", None),
    ("simulator turns/s / RLCard UNO game-only turns/s", "county-uppy simulator", "turns", "rlcard uno (game only)",
     "turns", None),
)


def measure(fn, games: int, seed: int) -> tuple[float, float]:
    """One run of `games` games: (turns per second, decisions per second)."""
    t = time.perf_counter()
    turns, decisions = fn(games, seed=seed)
    dt = time.perf_counter() - t
    return turns / dt, decisions / dt


def run_rounds(rounds: int, scale: float) -> tuple[dict[str, list[tuple[float, float]]], dict[str, str]]:
    """`rounds` rounds, each running every subject once, back to back, after one warm-up round."""
    rates: dict[str, list[tuple[float, float]]] = {name: [] for name in SUBJECTS}
    missing: dict[str, str] = {}
    for r in range(rounds + 1):
        for name, (fn, games) in SUBJECTS.items():
            if name in missing:
                continue
            try:
                rate = measure(fn, max(1, int(games * scale)), seed=1000 * r)
            except ImportError as exc:
                missing[name] = f"not installed: {exc}"
                continue
            if r:  # round 0 warms up imports, caches and tables
                rates[name].append(rate)
    return rates, missing


def summarise(rates: dict[str, list[tuple[float, float]]], missing: dict[str, str]) -> dict:
    """Median rates per subject, and each ratio as the median (and range) of its per-round ratios.

    A ratio is taken within a round, where both subjects ran seconds apart, so that load on a
    shared machine (which comes and goes) cancels out rather than favouring whichever
    subject happened to run in a quiet moment.
    """
    unit = {"turns": 0, "decisions": 1}
    results = {name: {"turns_per_second": round(statistics.median(r[0] for r in runs)),
                      "decisions_per_second": round(statistics.median(r[1] for r in runs))}
               for name, runs in rates.items() if name not in missing}
    ratios = {}
    for label, num, num_unit, den, den_unit, target in TARGETS:
        if num in missing or den in missing:
            continue
        per_round = [a[unit[num_unit]] / b[unit[den_unit]] for a, b in zip(rates[num], rates[den])]
        ratios[label] = {"median": round(statistics.median(per_round), 2), "min": round(min(per_round), 2),
                         "max": round(max(per_round), 2), "target": target}
    return {"rounds": len(next(iter(rates.values()), [])), "results": results, "missing": missing, "ratios": ratios}


def main(argv: list[str] | None = None) -> int:
    global _DECK
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15, help="measured rounds, each running every subject once")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the games per run")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    _DECK = _deck()
    report = summarise(*run_rounds(args.rounds, args.scale))
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"medians of {report['rounds']} rounds (every subject once per round, one core)")
    for name in SUBJECTS:
        if name in report["missing"]:
            print(f"{name:26} {report['missing'][name]}")
        else:
            r = report["results"][name]
            print(f"{name:26} {r['turns_per_second']:>9,} turns/s  {r['decisions_per_second']:>9,} decisions/s")
    for label, q in report["ratios"].items():
        goal = "" if q["target"] is None else f"  target >= {q['target']:g}: {'met' if q['median'] >= q['target'] else 'NOT met'}"
        print(f"{label:50} {q['median']:5.2f}x  (rounds {q['min']:.2f}-{q['max']:.2f}){goal}")
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
