"""What a new game costs in the OpenSpiel game: a reset, against OpenSpiel's own card games, in one run.

    .venv/bin/python benchmarks/bench_reset.py [--rounds N] [--json]

A reset is what OpenSpiel's `rl_environment.Environment.reset()` does: a new initial state,
then chance outcomes sampled (the deal, card by card, and the first turn's draw) up to the
first decision, and every seat's information-state tensor. Subjects, per round, back to back:
- county_uppy, 4 players, The OG: a new state and its chance outcomes (the first card's), the
  deal (new_initial_state + chance to the first decision), and the whole rl_environment reset;
- OpenSpiel's crazy_eights (C++, 4 players, a card-by-card deal too) and leduc_poker: their
  rl_environment reset;
- county_uppy's and crazy_eights' rl_environment reset with a chance sampler in plain Python
  (`random.Random.choices`) instead of OpenSpiel's default (numpy's `RandomState.choice` over
  the outcomes, whose cost grows with their number: 95 card types a deal node here, 52 cards
  and fewer in crazy_eights): what a reset costs besides OpenSpiel's sampling.
A ratio is the median over the rounds of the ratio within each round (a shared machine's load
comes and goes; two subjects measured a moment apart see the same load).
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


def per_call(fn, calls: int) -> float:
    """Seconds per call of `fn`, over `calls` calls."""
    t = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - t) / calls


def subjects():
    import pyspiel
    from open_spiel.python import rl_environment

    import generator.ai.openspiel  # noqa: F401 (registers county_uppy)

    game = pyspiel.load_game("county_uppy", {"manifest": str(ROOT / "cards.yaml"), "players": 4})
    rng = random.Random(0)

    def deal():
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])

    envs = {name: rl_environment.Environment(pyspiel.load_game(name, params) if params else name)
            for name, params in (("county_uppy", {"manifest": str(ROOT / "cards.yaml"), "players": 4}),
                                 ("crazy_eights", {"players": 4}), ("leduc_poker", None))}
    def root():
        game.new_initial_state().chance_outcomes()  # what the 65,536-deal node cost at its first call

    out = {"county_uppy new state + its chance outcomes": root, "county_uppy deal": deal}
    for name, env in envs.items():
        out[f"{name} rl_environment reset"] = env.reset
    for name in ("county_uppy", "crazy_eights"):
        env = rl_environment.Environment(envs[name].game, chance_event_sampler=PythonSampler())
        out[f"{name} reset, Python sampler"] = env.reset
    return out


class PythonSampler:
    """rl_environment's chance sampler in plain Python: an outcome drawn by `random.Random.choices`."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def __call__(self, state) -> int:
        outcomes, probs = zip(*state.chance_outcomes())
        return self.rng.choices(outcomes, probs)[0]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--calls", type=int, default=100)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    fns = subjects()
    for fn in fns.values():
        fn()  # warm-up
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(args.rounds):
        for name, fn in fns.items():
            times[name].append(per_call(fn, args.calls))
    base = "crazy_eights rl_environment reset"
    result = {name: {"ms": statistics.median(ts) * 1000,
                     "ratio_to_crazy_eights": statistics.median(t / b for t, b in zip(ts, times[base]))}
              for name, ts in times.items()}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for name, r in result.items():
            print(f"{name:40} {r['ms']:8.3f} ms  {r['ratio_to_crazy_eights']:6.2f}x crazy_eights")
    return 0


if __name__ == "__main__":
    sys.exit(main())
