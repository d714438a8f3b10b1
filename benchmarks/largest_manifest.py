"""Build the largest manifest `validate` accepts and report the build's time and peak memory.

The manifest is cards.yaml with its card list grown to the limits (400 card types, 2,000
printed cards, names and texts at their longest): 380 number card types of five copies, 20
wilds of 5 copies with 24-character names and 200-character texts. Memory is sampled from
/proc every 50 ms over the whole process tree (the build and its workers): the largest single
process (RSS) and the sum at the busiest moment (PSS, so pages forked workers share with the
build count once).

    python benchmarks/largest_manifest.py [--jobs N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.deck.shape import MAX_CARD_TYPES, MAX_PRINTED  # noqa: E402
from generator.deck.shape import MAX_NAME, MAX_TEXT  # noqa: E402

WILDS = 20
COPIES = MAX_PRINTED // MAX_CARD_TYPES


def largest_manifest() -> str:
    """cards.yaml with every card replaced by MAX_CARD_TYPES types printing MAX_PRINTED cards."""
    text = (ROOT / "cards.yaml").read_text(encoding="utf-8")
    head, rest = text.split("\ncards:\n", 1)
    editions = rest[rest.index("\neditions:\n"):]
    editions = re.sub(r"\n\s*expect: \d+", "", editions)
    numbers = MAX_CARD_TYPES - WILDS
    lines = ["cards:"]
    colours = ("cyan", "green", "magenta")
    made = 0
    for k in range(numbers // 100 + 1):
        for colour in colours:
            run = min(100, numbers - made)
            if run <= 0:
                break
            lo = -999 + k * 100
            lines.append(f"  - {{kind: number, set: {('base', 'chaos')[(made // 100) % 2]}, colour: {colour}, "
                         f"values: {lo}..{lo + run - 1}, copies: {COPIES}}}")
            made += run
    effects = ["draw_extra", "invert_next", "reverse", "steal", "trade_hands", "play_two", "redeal", "rotate_hands",
               "skip", "multiply"]
    for i in range(WILDS):
        effect = effects[i % len(effects)]
        params = "\n    params: {factor: 2}" if effect == "multiply" else ""
        name = (f"Wild {i} and a very long name for a card")[:MAX_NAME].strip()
        body = ("Wordy effect text, long as the manifest allows, wrapping over many lines of the card face. " * 4)[:MAX_TEXT]
        lines.append(f"  - kind: wild\n    set: {('base', 'chaos')[i % 2]}\n    code: W{i}\n    name: {name}\n"
                     f"    effect: {effect}{params}\n    text: {body}\n    copies: {COPIES}")
    return head + "\n" + "\n".join(lines) + "\n" + editions


def tree_rss(root: int) -> tuple[int, int]:
    """(largest single process's resident memory, the tree's proportional set size) in KiB over
    `root` and its descendants. The sum is of PSS, not RSS: forked workers share most of their
    pages with the parent, and RSS would count those once per process."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        pid, ppid = int(entry), int(fields.get("PPid", "0").strip())
        children.setdefault(ppid, []).append(pid)
        rss[pid] = int(fields.get("VmRSS", "0 kB").split()[0])
    todo, total, largest = [root], 0, 0
    while todo:
        pid = todo.pop()
        total += _pss(pid, rss.get(pid, 0))
        largest = max(largest, rss.get(pid, 0))
        todo += children.get(pid, [])
    return largest, total


def _pss(pid: int, rss: int) -> int:
    """A process's proportional set size in KiB (its RSS where the kernel does not say)."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return rss


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=0)
    ap.add_argument("--keep", metavar="DIR", help="write the manifest and output here (default: a temporary folder)")
    args = ap.parse_args()
    work = Path(args.keep or tempfile.mkdtemp(prefix="largest-"))
    work.mkdir(parents=True, exist_ok=True)
    manifest = work / "cards.yaml"
    manifest.write_text(largest_manifest(), encoding="utf-8")
    cli = [sys.executable, "-m", "generator"]
    check = subprocess.run([*cli, "validate", "--manifest", str(manifest)], capture_output=True, text=True)
    if check.returncode != 0:
        print(check.stderr, file=sys.stderr)
        return 1
    started = time.perf_counter()
    proc = subprocess.Popen([*cli, "build", "--manifest", str(manifest), "--out", str(work / "output"),
                             "--jobs", str(args.jobs)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    largest = total = 0
    while proc.poll() is None:
        one, both = tree_rss(proc.pid)
        largest, total = max(largest, one), max(total, both)
        time.sleep(0.05)
    seconds = time.perf_counter() - started
    out, err = proc.communicate()
    print(out.strip().splitlines()[-1] if out.strip() else err.strip())
    print(f"card types {MAX_CARD_TYPES}, printed cards {MAX_PRINTED}, manifest {manifest.stat().st_size:,} bytes")
    print(f"build: {seconds:.1f} s, exit {proc.returncode}; peak memory: largest process {largest / 1024:.0f} MiB "
          f"(RSS), the build and its workers together {total / 1024:.0f} MiB (PSS)")
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
