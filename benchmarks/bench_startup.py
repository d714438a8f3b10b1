"""Start-up time of the command line, against a bare `python -c pass` measured in the same run.

A designer runs `county-uppy validate` after every tweak (and `watch` rebuilds on every save),
so the time before a command does anything counts. Measured, each a new process started with
the same interpreter and environment:

- baseline: `python -c pass` (the interpreter and site start-up every command pays);
- `python -m generator --version` (parse the command line and stop: the imports of cli.py and
  of every command's parser);
- `python -m generator validate` on the shipped cards.yaml (read, check and count the deck);
- `python -m generator validate --json`.

The package's bytecode is written first (compileall), as an install writes it, so that a
PYTHONDONTWRITEBYTECODE in the environment does not make every run compile the package.
Rounds run every subject once, back to back, so that the load of a shared machine hits them
alike; each subject's time is the median over the rounds, and each ratio the median of the
ratios within the rounds. Wall time and CPU time (user + system) are both given: on a busy
machine the CPU time, which leaves out waiting for a core, is the steadier. Target (issue 12): `--version` and `validate` under 0.15 s.

    .venv/bin/python benchmarks/bench_startup.py [--rounds 21] [--json]

`python -X importtime -m generator validate 2>&1 | sort -t'|' -k2 -n | tail` shows what is
left to import.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / "cards.yaml"
TARGET_SECONDS = 0.15

SUBJECTS = {
    "python -c pass": ["-c", "pass"],
    "county-uppy --version": ["-m", "generator", "--version"],
    "county-uppy validate": ["-m", "generator", "validate", "--manifest", str(MANIFEST)],
    "county-uppy validate --json": ["-m", "generator", "validate", "--json", "--manifest", str(MANIFEST)],
}


def once(args: list[str]) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one new process, to its exit.

    On a busy machine the wall time includes waiting for a core; the CPU time does not, so
    it is the steadier of the two (the target itself is about the wall time, on a quiet machine).
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, *args], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
    return seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def compile_package() -> None:
    """Write the package's bytecode (__pycache__), as installing it does: with PYTHONDONTWRITEBYTECODE
    set (some shells and containers set it), every run would otherwise compile the package again,
    which is not what a user's `county-uppy` does."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "generator")], check=True,
                   stdout=subprocess.DEVNULL)


def measure(rounds: int) -> dict[str, dict[str, float]]:
    compile_package()
    for args in SUBJECTS.values():  # warm-up: the file cache
        once(args)
    wall: dict[str, list[float]] = {name: [] for name in SUBJECTS}
    cpu: dict[str, list[float]] = {name: [] for name in SUBJECTS}
    for _ in range(rounds):
        for name, args in SUBJECTS.items():
            w, c = once(args)
            wall[name].append(w)
            cpu[name].append(c)
    base, base_cpu = wall["python -c pass"], cpu["python -c pass"]
    result = {}
    for name, seconds in wall.items():
        ratios = [s / b for s, b in zip(seconds, base)]
        result[name] = {"median_s": round(statistics.median(seconds), 4), "min_s": round(min(seconds), 4),
                        "cpu_median_s": round(statistics.median(cpu[name]), 4),
                        "ratio_median": round(statistics.median(ratios), 2),
                        "cpu_ratio_median": round(statistics.median([c / b for c, b in zip(cpu[name], base_cpu)]), 2),
                        "over_baseline_s": round(statistics.median([s - b for s, b in zip(seconds, base)]), 4)}
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=21, help="rounds of every subject (default 21)")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args()
    result = measure(args.rounds)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{'subject':<28} {'wall':>7} {'min':>7} {'CPU':>7} {'wall ×':>7} {'CPU ×':>6} {'+ wall':>7}"
          f"  target: wall < {TARGET_SECONDS} s")
    for name, r in result.items():
        met = "" if name == "python -c pass" else ("met" if r["median_s"] < TARGET_SECONDS else "NOT met")
        print(f"{name:<28} {r['median_s']:>6.3f}s {r['min_s']:>6.3f}s {r['cpu_median_s']:>6.3f}s "
              f"{r['ratio_median']:>6.2f}× {r['cpu_ratio_median']:>5.2f}× {r['over_baseline_s']:>6.3f}s  {met}")
    print("(medians over the rounds; × is the median of the ratios to python -c pass within each round)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
