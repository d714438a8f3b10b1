"""Seeded workloads to count instructions on (valgrind's cachegrind), for before/after comparisons:
the engine's, and OpenSpiel's rl_environment resets of the game.

Instruction counts do not depend on the machine's load, so two versions of the engine compare
exactly: run each workload at two sizes and subtract (the difference leaves out start-up, the deck's
loading and the Game's tables). Each run prints a digest of the games it played, so the two versions
are seen to play the very same games.

    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        python benchmarks/count_instructions.py simulate 400     # less the same with 100
    python benchmarks/count_instructions.py api 100              # legal_actions() + apply(), random choice
    python benchmarks/count_instructions.py search 2             # 1 search bot (48 rollouts) + 3 greedy
    python benchmarks/count_instructions.py reset 500            # OpenSpiel rl_environment resets (ai extra)
    python benchmarks/count_instructions.py reset-crazy-eights 500   # the same of OpenSpiel's crazy_eights

`python benchmarks/count_instructions.py --valgrind` runs every workload at both sizes and prints
the differences (valgrind must be on the PATH).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: workload: (smaller size, larger size); the count reported is larger less smaller.
SIZES = {"simulate": (100, 400), "api": (0, 100), "search": (0, 2),
         "reset": (100, 500), "reset-crazy-eights": (100, 500)}


def _deck():
    from generator.deck.manifest import load

    return load(ROOT / "cards.yaml")


def simulate_games(games: int) -> str:
    from generator.engine import simulate

    s = simulate(_deck(), games=games, players=4, edition="the-og", seed=0, bots=("random",), workers=1)
    return f"{s['games']} games, {s['decisions']} decisions, mean turns {s['mean_turns']}"


def api_games(games: int) -> str:
    from generator.engine import Game

    game = Game(_deck(), "the-og", 4)
    rng = random.Random(0)
    digest = hashlib.sha256()
    for i in range(games):
        state = game.new_initial_state(i)
        while not state.is_terminal():
            legal = state.legal_actions()
            if legal:
                state.apply(rng.choice(legal))
        digest.update(f"{state.winner},{state.turns};".encode())
    return f"{games} games, outcomes {digest.hexdigest()[:16]}"


def search_games(games: int) -> str:
    from generator.engine import Game, make_bot, play_game

    game = Game(_deck(), "the-og", 4, {"max_turns": 60})
    bots = [make_bot("search:48"), make_bot("greedy"), make_bot("greedy"), make_bot("greedy")]
    digest = hashlib.sha256()
    for seed in range(games):
        state = play_game(game, bots, seed)
        digest.update(" ".join(map(str, state.history)).encode())
    return f"{games} games, histories {digest.hexdigest()[:16]}"


def _resets(name: str, resets: int) -> str:
    import pyspiel
    from open_spiel.python import rl_environment

    import generator.ai.openspiel  # noqa: F401 (registers county_uppy)

    params = {"manifest": str(ROOT / "cards.yaml")} if name == "county_uppy" else {}
    env = rl_environment.Environment(pyspiel.load_game(name, {**params, "players": 4}))
    env.seed(0)  # its chance sampler's numpy RNG: the same deals in every run
    digest = hashlib.sha256()
    for _ in range(resets):
        step = env.reset()  # the digest: the deal (its history), the first legal actions, seat 0's tensor's sum
        digest.update(repr((env.get_state.history(), step.observations["legal_actions"],
                            sum(step.observations["info_state"][0]))).encode())
    return f"{resets} resets, first decisions {digest.hexdigest()[:16]}"


def reset_games(resets: int) -> str:
    """OpenSpiel's rl_environment resets of the county_uppy game (4 players): the deal, every seat's tensor."""
    return _resets("county_uppy", resets)


def reset_crazy_eights(resets: int) -> str:
    """The same of OpenSpiel's crazy_eights (C++, 4 players), the baseline bench_reset.py times."""
    return _resets("crazy_eights", resets)


WORKLOADS = {"simulate": simulate_games, "api": api_games, "search": search_games,
             "reset": reset_games, "reset-crazy-eights": reset_crazy_eights}


def _count(workload: str, size: int) -> tuple[int, str]:
    run = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          sys.executable, __file__, workload, str(size)], capture_output=True, text=True, check=True,
                         # the same start-up in both runs; numpy's BLAS threads (spinning while they start)
                         # made a count vary by about 2% from one run to the next
                         env={**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"})
    refs = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    assert refs, run.stderr[-2000:]
    return int(refs.group(1).replace(",", "")), run.stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("workload", nargs="?", choices=sorted(WORKLOADS))
    ap.add_argument("games", nargs="?", type=int)
    ap.add_argument("--valgrind", action="store_true", help="count every workload at both sizes under cachegrind")
    args = ap.parse_args()
    if args.valgrind:
        for workload in [args.workload] if args.workload else list(WORKLOADS):
            small, large = SIZES[workload]
            (a, _), (b, what) = _count(workload, small), _count(workload, large)
            print(f"{workload:8} {large} less {small}: {(b - a) / 1e6:9.1f}M instructions, "
                  f"{(b - a) / (large - small) / 1e6:.2f}M each  ({what})")
        return
    if not args.workload or args.games is None:
        ap.error("name a workload and a number of games, or pass --valgrind")
    print(WORKLOADS[args.workload](args.games))


if __name__ == "__main__":
    main()
