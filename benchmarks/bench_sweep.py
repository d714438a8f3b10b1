"""What `sweep` adds to the games it plays, and what a Dask cluster adds to local processes.

    .venv/bin/pip install -e '.[cluster]'
    .venv/bin/python benchmarks/bench_sweep.py            # both parts, medians of 5 rounds
    .venv/bin/python benchmarks/bench_sweep.py --part sweep --rounds 9 --games 3000

Part "sweep": a grid of 4 cells (play2_draws=1,2 x all_out=sixteen_wins,draw), and one cell
alone (play2_draws=2), with 4 random bots on The OG (random bots make the games cheapest, so
whatever sweep adds weighs most), played by `county-uppy sweep`, against the same games played
by `county-uppy simulate` once per cell (with the cell's seed and options, so the very same
games: the bench checks the wins agree). The grid favours sweep (one pool of workers for every
cell, where each simulate starts its own); the single cell is the strict comparison.
Both run in this process through the CLI's `main`, on the same number of local workers;
the ratio is sweep's time over the sum of simulate's, and its target is < 1.05.

Part "cluster": a local Dask cluster (a scheduler and 2 single-threaded workers, each its own
process, on 127.0.0.1) against 2 local worker processes: the same sweep with and without
`--scheduler`. The ratio includes connecting to the scheduler, sending the decks, scheduling
every chunk and bringing the counts back; its target is < 1.10.

Each round runs both sides back to back, in turns first and second; a ratio is the median
over the rounds of the ratio within each round, since the load on a shared machine changes
from second to second.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from generator.cli import main  # noqa: E402

MANIFEST = str(ROOT / "cards.yaml")


def cli(argv: list[str]) -> tuple[float, dict]:
    """Run a command in this process; (seconds, its JSON output)."""
    out = io.StringIO()
    started = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        status = main(argv)
    seconds = time.perf_counter() - started
    assert status == 0, argv
    return seconds, json.loads(out.getvalue())


GRIDS = {"grid": ["--param", "play2_draws=1,2", "--param", "all_out=sixteen_wins,draw"],
         "one cell": ["--param", "play2_draws=2"]}


def sweep_argv(grid: str, games: int, workers: int) -> list[str]:
    return ["sweep", "--manifest", MANIFEST, *GRIDS[grid], "--players", "4", "--bots", "random", "--games", str(games),
            "--seed", "1", "--workers", str(workers), "--json", "--no-progress"]


def simulate_cells(cells: list[dict], workers: int) -> tuple[float, list[list[int]]]:
    total, wins = 0.0, []
    for cell in cells:
        options = [x for k, v in cell["options"].items() for x in ("--option", f"{k}={v}")]
        seconds, s = cli(["simulate", "--manifest", MANIFEST, "--games", str(cell["games"]), "--players", "4",
                          "--bots", "random", "--seed", str(cell["seed"]), "--workers", str(workers), *options,
                          "--json", "--no-progress"])
        total += seconds
        wins.append(s["wins_by_seat"])
    return total, wins


def part_sweep(rounds: int, games: int, workers: int) -> list[dict]:
    out = []
    cli(sweep_argv("grid", 200, workers))  # warm-up
    for grid in GRIDS:
        ratios, sweeps, sims = [], [], []
        _, first = cli(sweep_argv(grid, games, workers))
        for k in range(rounds):  # sweep first in even rounds, simulate first in odd ones
            if k % 2:
                t_sim, wins = simulate_cells(first["cells"], workers)
                t_sweep, data = cli(sweep_argv(grid, games, workers))
            else:
                t_sweep, data = cli(sweep_argv(grid, games, workers))
                t_sim, wins = simulate_cells(data["cells"], workers)
            assert wins == [[next(s["wins"] for s in c["seats"] if s["seat"] == k) for k in range(4)]
                            for c in data["cells"]], "sweep and simulate played different games"
            ratios.append(t_sweep / t_sim)
            sweeps.append(t_sweep)
            sims.append(t_sim)
        out.append({"part": "sweep", "grid": grid, "cells": len(data["cells"]), "games": len(data["cells"]) * games,
                    "workers": workers, "rounds": rounds, "sweep_seconds": round(statistics.median(sweeps), 3),
                    "simulate_seconds": round(statistics.median(sims), 3), "ratio": round(statistics.median(ratios), 4),
                    "ratio_range": [round(min(ratios), 4), round(max(ratios), 4)], "target": "< 1.05",
                    "met": statistics.median(ratios) < 1.05})
    return out


class LocalCluster:
    """`dask scheduler` and 2 `dask worker` processes on 127.0.0.1, stopped on exit."""

    def __enter__(self) -> str:
        self.folder = Path(tempfile.mkdtemp(prefix="bench-cluster-"))
        file = self.folder / "scheduler.json"
        self.procs = [self._spawn("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                                  "--no-dashboard", "--scheduler-file", str(file))]
        deadline = time.monotonic() + 60
        while not (file.is_file() and file.stat().st_size):
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        time.sleep(0.2)
        address = json.loads(file.read_text())["address"]
        for _ in range(2):
            self.procs.append(self._spawn("distributed.cli.dask_worker", "--scheduler-file", str(file), "--nthreads",
                                          "1", "--no-nanny", "--no-dashboard", "--host", "127.0.0.1"))
        from distributed import Client

        with Client(address, timeout=10, set_as_default=False) as client:
            client.wait_for_workers(2, timeout=60)
        return address

    def _spawn(self, module: str, *args: str) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", module, *args], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)

    def __exit__(self, *exc) -> None:
        for proc in reversed(self.procs):
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()


def part_cluster(rounds: int, games: int) -> dict:
    argv = ["sweep", "--manifest", MANIFEST, "--param", "target=15,16,17", "--players", "4", "--bots", "random",
            "--games", str(games), "--seed", "2", "--json", "--no-progress"]
    ratios, locals_, remotes = [], [], []
    with LocalCluster() as address:
        cli([*argv[:-4], "--games", "300", "--json", "--no-progress", "--scheduler", address])  # warm-up
        for k in range(rounds):  # local first in even rounds, the cluster first in odd ones
            if k % 2:
                t_remote, b = cli([*argv, "--scheduler", address])
                t_local, a = cli([*argv, "--workers", "2"])
            else:
                t_local, a = cli([*argv, "--workers", "2"])
                t_remote, b = cli([*argv, "--scheduler", address])
            a.pop("timing"), b.pop("timing")
            assert a == b, "the cluster gave other results"
            ratios.append(t_remote / t_local)
            locals_.append(t_local)
            remotes.append(t_remote)
    return {"part": "cluster", "games": 3 * games, "workers": 2, "rounds": rounds,
            "local_seconds": round(statistics.median(locals_), 3), "dask_seconds": round(statistics.median(remotes), 3),
            "ratio": round(statistics.median(ratios), 4), "ratio_range": [round(min(ratios), 4), round(max(ratios), 4)],
            "target": "< 1.10", "met": statistics.median(ratios) < 1.10}


def main_() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("sweep", "cluster", "all"), default="all")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=5000, help="games per cell (default 5000)")
    parser.add_argument("--workers", type=int, default=2, help="local workers in part sweep (default 2)")
    args = parser.parse_args()
    results = []
    if args.part in ("sweep", "all"):
        for result in part_sweep(args.rounds, args.games, args.workers):
            results.append(result)
            print(json.dumps(result), flush=True)
    if args.part in ("cluster", "all"):
        results.append(part_cluster(args.rounds, args.games))
        print(json.dumps(results[-1]), flush=True)
    return 0 if all(r["met"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main_())
