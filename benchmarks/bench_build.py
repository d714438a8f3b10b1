"""Build speed and memory, as ratios against a floor measured in the same run.

Floor: Pillow saving 97 plain 825×1125 RGB PNGs on one core (the least any build of 97 card
images can cost). Measured, in rounds that run every subject once, back to back, so the load
of a shared machine hits them alike:

- cold: a full build (every product: deck.json, card images, Letter and A4 print PDFs, the
  print-on-demand files, the TTS deck, the rulebook and its PDF) into an empty folder, with an
  empty user cache folder (XDG_CACHE_HOME, where the printed rulebook PDF is kept), so nothing
  made before is reused, through the public
  `county-uppy build` entry (`generator.cli.main`) in this process (imports already loaded,
  the faces and templates kept from earlier builds forgotten);
- one-card edit: the cold build's folder rebuilt after changing one card's text, in the same
  process (as `county-uppy watch` rebuilds);
- cold CLI: the same cold build as a new `county-uppy build` process (`python -m generator`),
  start to exit, into an empty folder (its ratio to the floor is a reference line);
- the regenerate loop as a user runs it, each a new process, start to exit, on the shipped
  manifest, against that cold CLI build: a one-card text edit rebuilt into the cold CLI build's
  folder (with the user cache folder the cold build left), then a rebuild with nothing changed
  (answered from what the edit's build remembered, commands/build_memo.py);
  and `county-uppy validate` against a bare `python -c pass`, twice: first with no answer
  remembered (the manifest checked in full), then again (answered from what the first run
  remembered, commands/validate_memo.py); and, as a reference line, the cold build and the
  one-card edit without the rulebook's PDF (`--only` every other product), which shows what
  printing it through Chromium adds to the edit; and, as another reference line, the least a
  one-card edit can take while the edited text is in the rulebook, whose PDF it must print again:
  what must come before the print (a new process that loads and checks the edited deck, draws the
  edited card's picture and makes the rulebook's page: `build --only rulebook` into the same
  folder, with another edit), plus Chromium printing that page (its tab, its load, the print) in
  a browser already started and idle, one after the other as they must be. Wall time; CPU time, user + system of the process
  and its workers, is reported beside it, as a shared machine's load shows in wall time only
  (Chromium's renderers included: the benchmark adopts and reaps the processes a build orphans
  when it kills the browser's group, adopt_orphans);
- art (issue 20), each a new process: the shipped manifest with a picture on every wild card
  (11 card types, 33 cards) and on the back (art_manifest: 600x600 PNGs made here), built cold
  into an empty folder, against the floor; then one wild's picture file changed and the folder
  rebuilt, against that cold build;
- peak memory: the largest resident set of any process of a cold CLI build (the command run as
  a child process, its workers included, each counted alone, none of this process's memory),
  on the shipped manifest and on benchmarks/largest_manifest.py's manifest at the input limits.

Each ratio is the median of the ratios within the rounds. Targets (issue 11): cold ≤ 1.0× the
floor; one-card rebuild ≤ 0.2× cold; peak ≤ 150 MiB on the shipped manifest. Issue 19, new
processes: one-card edit ≤ 0.25× the cold CLI build, nothing changed ≤ 0.15×, validate ≤ 4×
`python -c pass`. Issue 20: the art manifest's cold build <= 1.3x the floor, an art-file edit
<= 0.25x that cold build. Issue 34, new processes: the cold build <= 1.25x the floor, the one-card
edit at most its lower bound (above) + 0.05x the cold build (the edit's time over that bound, as
a share of the cold build, <= 0.05). The machine's load average (1 minute) is printed from
before and after the rounds: on a shared machine it says what the seconds are worth. The
package's bytecode is written first (compileall), as installing it does.

    python benchmarks/bench_build.py [--rounds 5] [--jobs 0] [--json] [--no-largest] [--no-art]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

from generator import products

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / "cards.yaml"
EDITED_LINE = "text: Skip the next player's turn."
TARGETS = {"cold / floor": 1.0, "one-card rebuild / cold": 0.2, "CLI one-card edit / CLI cold": 0.25,
           "CLI nothing changed / CLI cold": 0.15, "validate / python -c pass": 4.0,
           "art: cold CLI / floor": 1.3, "art: art-file edit / art cold CLI": 0.25,
           "cold CLI / floor (issue 34)": 1.25, "CLI one-card edit over its lower bound / CLI cold (issue 34)": 0.05}
PEAK_TARGET_MIB = 150


def floor(folder: Path) -> None:
    for i in range(97):
        Image.new("RGB", (825, 1125), "white").save(folder / f"plain-{i}.png")


def cli(*args: str) -> None:
    from generator.cli import main

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        status = main(list(args))
    if status != 0:
        raise SystemExit(f"build failed ({status}): {args}")


def adopt_orphans() -> bool:
    """Become the reaper of this process's orphaned descendants (Linux: PR_SET_CHILD_SUBREAPER),
    so that run_process counts their CPU too: a build's Chromium is stopped by killing its
    process group, and its renderers, whose own parent dies with them, are then never reaped by
    the build, so their CPU (most of the print) is in no rusage of it. False where unsupported."""
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0  # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        return False


def _children() -> set[int]:
    """The pids whose parent is this process (/proc; empty elsewhere)."""
    me, found = os.getpid(), set()
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rfind(")") + 2:].split()[1]) == me:
                found.add(int(name))
    return found


def _reap_orphans(known: set[int], patience: float = 2.0) -> None:
    """Reap the processes adopted while a child ran (adopt_orphans): this process's children that
    are not in `known`, each as it ends (a killed renderer within milliseconds); at most
    `patience` seconds for those still running."""
    deadline = time.monotonic() + patience
    while True:
        left = _children() - known
        for pid in left:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
        if not _children() - known or time.monotonic() > deadline:
            return
        time.sleep(0.01)


def run_process(args: list[str], cwd: Path, caches: Path | None = None) -> tuple[float, float]:
    """A new process start to exit: (wall seconds, CPU seconds of it and its workers, and of the
    browser's processes once adopt_orphans() is in force). `caches`: the user's cache folder it
    sees (XDG_CACHE_HOME: the printed rulebook PDF)."""
    env = dict(os.environ) if caches is None else {**os.environ, "XDG_CACHE_HOME": str(caches)}
    known = _children()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, *args], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    wall = time.perf_counter() - started
    _reap_orphans(known)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def compile_package() -> None:
    """Write the package's bytecode, as installing it does (PYTHONDONTWRITEBYTECODE, which some
    shells set, would have every new process compile the package again)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "generator")], check=True,
                   stdout=subprocess.DEVNULL)


def forget() -> None:
    """Empty the caches a process keeps between builds (the drawn faces, the compiled templates,
    the font subsets, the icons' outlines, the engine's tables for the rulebook's examples), so an
    in-process cold build pays for them as a new `county-uppy build` does."""
    from generator.engine import game
    from generator.products.render import faces, pdf, pdf_file
    from generator.products.render.assets import icon_files
    from generator.products.rulebook import page

    faces.forget()
    page._environment.cache_clear()
    pdf_file.forget_subsets()
    icon_files.forget_outlines()
    pdf._SCRATCH.clear()
    game._action_tables.cache_clear()
    game._full_seat_plays.cache_clear()
    game._TABLE_CACHE.clear()


def print_alone(page: Path, warm_up: float = 0.3) -> float:
    """Seconds Chromium takes to print the rulebook page `page` (as the build prints it: its tab,
    its load, the print) in a browser already started and idle, in this process."""
    from generator.products.rulebook import chromium, pdf

    binary, why = chromium.find_chromium()
    if binary is None:
        raise SystemExit(f"the benchmark prints the rulebook: {why}")
    html = pdf.for_print(page.read_bytes())
    browser = chromium.Browser(binary)
    try:
        time.sleep(warm_up)  # its start-up over, as a build's browser is started while the page is made
        return timed(lambda: pdf.printed(browser, html))
    finally:
        browser.close()


def timed(fn) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def peak_rss_mib(manifest: Path, out: Path, jobs: int) -> float:
    """Largest max-RSS of any process of a cold CLI build: the build and its workers.

    The build runs under a small Python process that reports its children's peak
    (RUSAGE_CHILDREN, which takes in every descendant waited for). Asking this process's own
    RUSAGE_CHILDREN, or the build's RUSAGE_SELF, would count this benchmark's memory too: Linux
    keeps a process's peak across exec, and a child starts as a copy of its parent."""
    runner = ("import resource, subprocess, sys; rc = subprocess.run(sys.argv[1:]).returncode; "
              "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(rc)")
    shutil.rmtree(out, ignore_errors=True)
    res = subprocess.run([sys.executable, "-c", runner, sys.executable, "-m", "generator", "build", "--manifest",
                          str(manifest), "--out", str(out), "--jobs", str(jobs)],
                         capture_output=True, text=True, cwd=out.parent)
    if res.returncode != 0:
        raise SystemExit(f"build of {manifest} failed ({res.returncode}): {res.stderr[-2000:]}")
    return int(res.stdout.strip().splitlines()[-1]) / 1024


def picture(path: Path, seed: int) -> None:
    """A 600x600 PNG of coloured ellipses on a ground, different for every seed."""
    from PIL import ImageDraw

    rng = random.Random(seed)
    image = Image.new("RGB", (600, 600), tuple(rng.randrange(256) for _ in range(3)))
    draw = ImageDraw.Draw(image)
    for _ in range(12):
        x, y = rng.randrange(500), rng.randrange(500)
        draw.ellipse((x, y, x + rng.randrange(40, 200), y + rng.randrange(40, 200)),
                     fill=tuple(rng.randrange(256) for _ in range(3)))
    image.save(path)


def art_manifest(folder: Path, text: str) -> tuple[Path, list[Path]]:
    """The manifest `text` with a picture on every wild card (`art:` on each wild's entry) and on
    the back (`look: back: art:`, beside the shipped look's icons), written into `folder` with its
    pictures and the shipped ones (art/icons/); (manifest, the wilds' pictures)."""
    art = folder / "art"
    shutil.copytree(ROOT / "art", art, dirs_exist_ok=True)
    lines, wilds = [], []
    for line in text.splitlines(keepends=True):
        lines.append(line)
        if line == "  - kind: wild\n":
            wilds.append(art / f"wild-{len(wilds) + 1}.png")
            picture(wilds[-1], len(wilds))
            lines.append(f"    art: art/{wilds[-1].name}\n")
    assert wilds and text.count("\nlook:\n") <= 1, "the benchmark adds art to the wild cards and the back"
    picture(art / "back.png", 0)
    back = "  back:\n    art: {file: art/back.png, fit: contain}\n"
    written = "".join(lines)
    written = written.replace("\nlook:\n", "\nlook:\n" + back, 1) if "\nlook:\n" in written else written + "\nlook:\n" + back
    path = folder / "cards.yaml"
    path.write_text(written, encoding="utf-8")
    return path, wilds


def largest_manifest(folder: Path) -> Path:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import largest_manifest as lm  # noqa: E402 -- the benchmark next to this one

    path = folder / "largest.yaml"
    path.write_text(lm.largest_manifest(), encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=0, help="worker processes for the build (0: one per core)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-largest", action="store_true", help="skip the largest manifest's peak memory")
    ap.add_argument("--no-art", action="store_true", help="skip the manifest with art (issue 20)")
    args = ap.parse_args(argv)
    adopted = adopt_orphans()

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        manifest = tmp / "cards.yaml"
        shutil.copy(MANIFEST, manifest)
        shutil.copytree(ROOT / "art", tmp / "art")  # the pictures the shipped look names (art/icons/)
        text = manifest.read_text(encoding="utf-8")
        assert EDITED_LINE in text, "the benchmark edits this card text"
        out, plain, cli_out = tmp / "out", tmp / "plain", tmp / "cli-out"
        build = ("build", "--manifest", str(manifest), "--out", str(out), "--jobs", str(args.jobs))

        def fresh(folder: Path) -> None:
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()

        art_yaml, wilds = art_manifest(tmp / "with-art", text)
        art_out = tmp / "with-art" / "out"
        art_build = ["-m", "generator", "build", "--manifest", str(art_yaml), "--out", str(art_out), "--jobs", str(args.jobs)]
        compile_package()
        cli("build", "--manifest", str(manifest), "--out", str(tmp / "warm-up"))  # imports, template compiles
        cli_build = ["-m", "generator", *build[:3], "--out", str(cli_out), *build[5:]]
        rows: list[dict[str, float]] = []
        load_before = os.getloadavg()[0]
        for r in range(args.rounds):
            fresh(plain)
            base = timed(lambda: floor(plain))
            shutil.rmtree(out, ignore_errors=True)
            manifest.write_text(text, encoding="utf-8")
            forget()
            os.environ["XDG_CACHE_HOME"] = str(tmp / f"caches-{r}")  # cold: no printed rulebook kept either
            cold = timed(lambda: cli(*build))
            manifest.write_text(text.replace(EDITED_LINE, EDITED_LINE[:-1] + f" ({r}).", 1), encoding="utf-8")
            rebuild = timed(lambda: cli(*build))
            # the regenerate loop, each step a new process: cold, a one-card edit, nothing changed
            manifest.write_text(text, encoding="utf-8")
            shutil.rmtree(cli_out, ignore_errors=True)
            caches = tmp / f"cli-caches-{r}"  # the user's cache folder: empty for the cold build, then kept
            cold_cli, cold_cpu = run_process(cli_build, tmp, caches)
            manifest.write_text(text.replace(EDITED_LINE, EDITED_LINE[:-1] + f" (edit {r}).", 1), encoding="utf-8")
            edit_cli, edit_cpu = run_process(cli_build, tmp, caches)
            same_cli, same_cpu = run_process(cli_build, tmp, caches)
            # what no one-card edit can go below while it prints the rulebook again: making the
            # edited page (a new process, `--only rulebook`, another edit), then Chromium printing
            # it in a browser already started (a reference line)
            manifest.write_text(text.replace(EDITED_LINE, EDITED_LINE[:-1] + f" (page {r}).", 1), encoding="utf-8")
            page_only, _ = run_process([*cli_build, "--only=rulebook"], tmp, caches)
            print_only = print_alone(cli_out / "rulebook.html")
            # the same loop without the rulebook's PDF (every other product), to show what printing
            # them costs the edit (a reference line: the target is the full build's)
            manifest.write_text(text, encoding="utf-8")
            shutil.rmtree(cli_out, ignore_errors=True)
            no_pdf = [*cli_build, *(f"--only={p}" for p in products.names() if p != "rulebook-pdf")]
            cold_no_pdf, _ = run_process(no_pdf, tmp, caches)
            manifest.write_text(text.replace(EDITED_LINE, EDITED_LINE[:-1] + f" (edit {r}, no PDF).", 1), encoding="utf-8")
            edit_no_pdf, _ = run_process(no_pdf, tmp, caches)
            manifest.write_text(text, encoding="utf-8")
            bare, bare_cpu = run_process(["-c", "pass"], tmp)
            check = ["-m", "generator", "validate", "--manifest", str(manifest)]
            answers = tmp / f"validate-caches-{r}"  # validate's remembered answers: none, then its own
            validate_first, validate_first_cpu = run_process(check, tmp, answers)
            validate, validate_cpu = run_process(check, tmp, answers)
            art: dict[str, float] = {}
            if not args.no_art:  # issue 20: art on every wild and the back, cold; then one picture changed
                shutil.rmtree(art_out, ignore_errors=True)
                art_caches = tmp / f"art-caches-{r}"
                art["art_cold_cli_s"], art["art_cold_cli_cpu_s"] = run_process(art_build, tmp, art_caches)
                picture(wilds[r % len(wilds)], 1000 + r)
                art["art_file_edit_s"], art["art_file_edit_cpu_s"] = run_process(art_build, tmp, art_caches)
            rows.append({**art, "floor_s": base, "cold_s": cold, "one_card_rebuild_s": rebuild, "cold_cli_s": cold_cli,
                         "cli_one_card_edit_s": edit_cli, "cli_nothing_changed_s": same_cli,
                         "cold_cli_no_pdf_s": cold_no_pdf, "edit_page_only_s": page_only,
                         "rulebook_print_alone_s": print_only, "cli_one_card_edit_no_pdf_s": edit_no_pdf,
                         "python_c_pass_s": bare, "validate_s": validate, "validate_first_s": validate_first,
                         "cold_cli_cpu_s": cold_cpu, "cli_one_card_edit_cpu_s": edit_cpu,
                         "cli_nothing_changed_cpu_s": same_cpu, "python_c_pass_cpu_s": bare_cpu,
                         "validate_cpu_s": validate_cpu, "validate_first_cpu_s": validate_first_cpu})

        load_after = os.getloadavg()[0]
        peak = peak_rss_mib(manifest, tmp / "peak", args.jobs)
        peak_largest = None if args.no_largest else peak_rss_mib(largest_manifest(tmp), tmp / "peak-largest", args.jobs)

    def med(f) -> float:
        return round(statistics.median(f(row) for row in rows), 3)

    ratios = {
        "cold / floor": med(lambda w: w["cold_s"] / w["floor_s"]),
        "one-card rebuild / cold": med(lambda w: w["one_card_rebuild_s"] / w["cold_s"]),
        "cold CLI / floor (issue 34)": med(lambda w: w["cold_cli_s"] / w["floor_s"]),
        "CLI one-card edit / CLI cold": med(lambda w: w["cli_one_card_edit_s"] / w["cold_cli_s"]),
        "CLI nothing changed / CLI cold": med(lambda w: w["cli_nothing_changed_s"] / w["cold_cli_s"]),
        "CLI one-card edit / CLI cold, without the rulebook PDFs (reference)":
            med(lambda w: w["cli_one_card_edit_no_pdf_s"] / w["cold_cli_no_pdf_s"]),
        "edit's lower bound (make the page, then print it) / CLI cold (reference)":
            med(lambda w: (w["edit_page_only_s"] + w["rulebook_print_alone_s"]) / w["cold_cli_s"]),
        "CLI one-card edit over its lower bound / CLI cold (issue 34)":
            med(lambda w: (w["cli_one_card_edit_s"] - w["edit_page_only_s"] - w["rulebook_print_alone_s"]) / w["cold_cli_s"]),
        "validate / python -c pass": med(lambda w: w["validate_s"] / w["python_c_pass_s"]),
        "validate, first check / python -c pass": med(lambda w: w["validate_first_s"] / w["python_c_pass_s"]),
    }
    if not args.no_art:
        ratios["art: cold CLI / floor"] = med(lambda w: w["art_cold_cli_s"] / w["floor_s"])
        ratios["art: art-file edit / art cold CLI"] = med(lambda w: w["art_file_edit_s"] / w["art_cold_cli_s"])
    cpu_ratios = {
        "CLI one-card edit / CLI cold": med(lambda w: w["cli_one_card_edit_cpu_s"] / w["cold_cli_cpu_s"]),
        "CLI nothing changed / CLI cold": med(lambda w: w["cli_nothing_changed_cpu_s"] / w["cold_cli_cpu_s"]),
        "validate / python -c pass": med(lambda w: w["validate_cpu_s"] / w["python_c_pass_cpu_s"]),
    }
    if not args.no_art:
        cpu_ratios["art: art-file edit / art cold CLI"] = med(lambda w: w["art_file_edit_cpu_s"] / w["art_cold_cli_cpu_s"])
    result = {
        "cpus": os.cpu_count(), "jobs": args.jobs, "rounds": args.rounds,
        "CPU counts the browser's renderers": adopted,
        "load average (1 min) before, after": [round(load_before, 2), round(load_after, 2)],
        "seconds (median)": {k: med(lambda w, k=k: w[k]) for k in rows[0]},
        "ratios (median of the rounds)": ratios,
        "CPU-time ratios (median of the rounds)": cpu_ratios,
        "ratio range": {k: [round(min(v), 3), round(max(v), 3)] for k, v in {
            "cold / floor": [w["cold_s"] / w["floor_s"] for w in rows],
            "one-card rebuild / cold": [w["one_card_rebuild_s"] / w["cold_s"] for w in rows],
            "CLI one-card edit / CLI cold": [w["cli_one_card_edit_s"] / w["cold_cli_s"] for w in rows],
            "CLI nothing changed / CLI cold": [w["cli_nothing_changed_s"] / w["cold_cli_s"] for w in rows],
            "validate / python -c pass": [w["validate_s"] / w["python_c_pass_s"] for w in rows],
            "validate, first check / python -c pass": [w["validate_first_s"] / w["python_c_pass_s"] for w in rows],
            **({} if args.no_art else {
                "art: cold CLI / floor": [w["art_cold_cli_s"] / w["floor_s"] for w in rows],
                "art: art-file edit / art cold CLI": [w["art_file_edit_s"] / w["art_cold_cli_s"] for w in rows]}),
        }.items()},
        "peak_rss_mib": round(peak, 1),
        "peak_rss_mib_largest_manifest": None if peak_largest is None else round(peak_largest, 1),
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{'load average (1 min)':34} {load_before:.2f} before, {load_after:.2f} after, on {os.cpu_count()} CPUs")
    for k, v in result["seconds (median)"].items():
        print(f"{k:34} {v:.3f} s")
    for k, v in ratios.items():
        target = TARGETS.get(k)
        verdict = "" if target is None else f"  (target <= {target}: {'met' if v <= target else 'NOT met'})"
        lo, hi = result["ratio range"].get(k, (None, None))
        spread = "" if lo is None else f"  [{lo:.2f}-{hi:.2f}]"
        print(f"{k:34} {v:.2f}x{spread}{verdict}")
    for k, v in cpu_ratios.items():
        print(f"{'CPU: ' + k:34} {v:.2f}x")
    if not adopted:
        print("CPU seconds leave out Chromium's renderers (no PR_SET_CHILD_SUBREAPER here)")
    print(f"{'peak memory':28} {peak:.0f} MiB  (target <= {PEAK_TARGET_MIB}: "
          f"{'met' if peak <= PEAK_TARGET_MIB else 'NOT met'})")
    if peak_largest is not None:
        print(f"{'peak memory, largest':28} {peak_largest:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
