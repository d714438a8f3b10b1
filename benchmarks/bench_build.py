"""Build speed of the card products, against a floor measured in the same run.

Baseline: Pillow saving 97 plain 825×1125 PNGs on one core (the least any build of 97 card
images can cost). Measured, each the best of --repeats runs with `timeit`:

- cold: a full card build (every card image, Letter and A4 print PDFs) into an empty folder,
  through the public `county-uppy build` entry (`generator.cli.main`), in this process;
- everything: the same plus print-on-demand files and the TTS deck;
- one-card edit: the cold build's folder rebuilt after changing one card's text;
- peak memory: the largest resident set of any process of a cold CLI build (the command run
  as a child process, its workers included, each counted alone).

Targets: cold ≤ 1.0× baseline on a 2-core machine; one-card rebuild ≤ 0.2× cold; peak
≤ 150 MiB. Run on a quiet machine:

    .venv/bin/python benchmarks/bench_build.py [--repeats 3] [--jobs 0] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import timeit
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / "cards.yaml"
CARD_PRODUCTS = "cards,print"
ALL_PRODUCTS = "deck,cards,print,pod,tts"


def baseline(folder: Path) -> None:
    for i in range(97):
        Image.new("RGB", (825, 1125), "white").save(folder / f"plain-{i}.png")


def cli(*args: str) -> None:
    from generator.cli import main

    with contextlib.redirect_stdout(io.StringIO()):
        status = main(list(args))
    if status != 0:
        raise SystemExit(f"build failed: {args}")


def best(fn, setup, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        setup()
        times.append(timeit.Timer(fn).timeit(number=1))
    return min(times)


def peak_rss_mib(out: Path, manifest: Path, jobs: int) -> float:
    """Largest max-RSS of the CLI process or any of its workers (RUSAGE_CHILDREN)."""
    code = ("import resource, sys; from generator.cli import main; rc = main(sys.argv[1:]); "
            "me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss; "
            "kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss; print(max(me, kids))")
    res = subprocess.run([sys.executable, "-c", code, "build", "--manifest", str(manifest), "--out", str(out),
                          "--only", CARD_PRODUCTS, "--jobs", str(jobs)], capture_output=True, text=True, check=True)
    return int(res.stdout.strip().splitlines()[-1]) / 1024


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=0, help="worker processes for the build (0: one per core)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    jobs = str(args.jobs)

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        manifest = tmp / "cards.yaml"
        shutil.copy(MANIFEST, manifest)
        out = tmp / "out"
        plain = tmp / "plain"

        def fresh_plain() -> None:
            shutil.rmtree(plain, ignore_errors=True)
            plain.mkdir()

        def fresh_out() -> None:
            shutil.rmtree(out, ignore_errors=True)

        cli("build", "--manifest", str(manifest), "--out", str(tmp / "warmup"), "--only", "deck")  # imports
        base = best(lambda: baseline(plain), fresh_plain, args.repeats)
        build_args = ("build", "--manifest", str(manifest), "--out", str(out), "--jobs", jobs)
        cold = best(lambda: cli(*build_args, "--only", CARD_PRODUCTS), fresh_out, args.repeats)
        everything = best(lambda: cli(*build_args, "--only", ALL_PRODUCTS), fresh_out, args.repeats)

        text = manifest.read_text(encoding="utf-8")
        edits = [text.replace("text: Skip the next player's turn.", f"text: Skip the next player's turn ({k}).")
                 for k in range(args.repeats + 1)]
        assert edits[0] != text
        fresh_out()
        manifest.write_text(edits[0], encoding="utf-8")
        cli(*build_args, "--only", CARD_PRODUCTS)
        state = {"k": 0}

        def edit() -> None:
            state["k"] += 1
            manifest.write_text(edits[state["k"]], encoding="utf-8")

        rebuild = best(lambda: cli(*build_args, "--only", CARD_PRODUCTS), edit, args.repeats)
        manifest.write_text(text, encoding="utf-8")
        fresh_out()
        peak = peak_rss_mib(out, manifest, args.jobs)

    result = {
        "cpus": os.cpu_count(), "jobs": args.jobs, "repeats": args.repeats,
        "baseline_97_plain_pngs_s": round(base, 3),
        "cold_cards_and_print_s": round(cold, 3),
        "cold_everything_s": round(everything, 3),
        "one_card_rebuild_s": round(rebuild, 3),
        "cold_vs_baseline": round(cold / base, 3),
        "everything_vs_baseline": round(everything / base, 3),
        "rebuild_vs_cold": round(rebuild / cold, 3),
        "peak_rss_mib": round(peak, 1),
        "this_process_peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for k, v in result.items():
            print(f"{k:28} {v}")
        print(f"\ncold build / baseline      {result['cold_vs_baseline']:.2f}x  (target <= 1.0)")
        print(f"one-card rebuild / cold    {result['rebuild_vs_cold']:.2f}x  (target <= 0.2)")
        print(f"peak memory                {result['peak_rss_mib']:.0f} MiB  (target <= 150)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
