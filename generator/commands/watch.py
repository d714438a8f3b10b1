"""`county-uppy watch`: build, rebuild on every save of the manifest, of a picture or font file its
look names, or of templates/, and serve a self-updating preview on 127.0.0.1. It takes every
option of `build`, for every rebuild.

Each rebuild is an ordinary all-or-nothing build into the output folder, so it reuses the face
cache (a one-card edit redraws one face), a manifest with a mistake never touches the last good
build, and Ctrl-C or SIGTERM in the middle of one leaves the folder whole. The terminal gets one
line per rebuild; the page (generator/preview/) shows the rest.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

from generator.commands import build as build_command
from generator.commands.common import folder_problem, load_deck, named_files
from generator.deck.problems import InputError, escape
from generator.progress import is_terminal
from generator.workers import interrupted_status

if TYPE_CHECKING:
    from generator.products.pipeline.request import BuildRequest
    from generator.preview.rebuild import Outcome
    from generator.preview.state import PreviewState

DEFAULT_PORT = 8716
#: watchfiles (inotify, where the system has it): yield once no file has changed for STEP_MS, or
#: after DEBOUNCE_MS of steady changes. An editor writes a save in a few milliseconds, so the
#: rebuild starts 25-50 ms after it; a save still on its way when the rebuild reads it (a
#: manifest that does not parse yet, a picture cut short) is waited for (preview/rebuild.py,
#: SETTLE_SECONDS) before its mistake is shown, and every later change rebuilds again. 300 ms
#: here was a third of the time from a save to the changed card on the page.
STEP_MS = 25
DEBOUNCE_MS = 2000
#: Seconds the rest of a rebuild waits, once its card images are in, for an open page to show
#: the first changed card's new image (PreviewState.handed_over).
HANDOFF_SECONDS = 0.5
#: With no change seen for this long, the watcher wakes to compare the files' times and sizes.
IDLE_CHECK_MS = 500
#: Names editors write next to the file they save (vim's 4913 probe, swap and backup files).
_EDITOR_LITTER = ("4913",)


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("watch", help="rebuild on every save and serve a live preview on 127.0.0.1",
                       description="Build into the output folder, rebuild whenever the manifest or templates/ "
                                   "change, and serve a preview page that updates itself after every rebuild: "
                                   "every card face by edition, the print sheets, the rulebook, what changed, "
                                   "and the manifest's mistakes. Only on 127.0.0.1. Ctrl-C stops it.")
    p.add_argument("--out", default="output", metavar="DIR", help="output folder (default: output)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, metavar="N",
                   help=f"port of the preview on 127.0.0.1 (default: {DEFAULT_PORT}; 0 picks a free one)")
    build_command.add_build_options(p)  # every rebuild is `county-uppy build` with these
    return p


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        print(f"county-uppy watch: --port must be 0..65535 (0 picks a free one), not {args.port}", file=sys.stderr)
        return 2
    if args.out == "":
        print("county-uppy watch: --out needs a folder name (use --out . for the current folder)", file=sys.stderr)
        return 2
    request = build_command.build_request(args, progress=is_terminal())  # every rebuild's, made once
    if isinstance(request, str):
        print(escape(f"county-uppy watch: {request}"), file=sys.stderr)
        return 2
    if request.only and "deck" not in request.only:  # the page shows the faces, editions and game from deck.json
        request = replace(request, only=("deck", *request.only))
    out, manifest = request.out, request.manifest
    problem = folder_problem(out)
    if problem:
        print(escape(f"county-uppy watch: {problem}"), file=sys.stderr)
        return 2
    if not manifest.parent.is_dir():
        print(escape(f"county-uppy watch: {manifest.parent} is not a folder, so {manifest.name} cannot be watched"),
              file=sys.stderr)
        return 2
    # lazy: start-up (the build's libraries, the web server)
    from generator.preview.output import read_output
    from generator.preview.page import render_page
    from generator.preview.server import PreviewServer
    from generator.preview.state import PreviewState
    from generator.products.rulebook import chromium
    from generator.resources import templates_dir

    state = PreviewState(str(manifest), str(out), read_output(out))

    def page() -> bytes:
        return render_page(state.get("output")["game"].get("name") or "County Uppy", str(manifest), str(out))

    table = _PlayLink(manifest, out)
    try:
        server = PreviewServer(args.port, out, state, page, play=table.url)
    except OSError as err:
        why = "is in use" if err.errno in (98, 48, 10048) else f"cannot be used ({err.strerror or err})"
        print(f"county-uppy watch: port {args.port} on 127.0.0.1 {why}; choose another with --port N "
              "(0 picks a free one)", file=sys.stderr)
        return 2
    server.start()
    templates = templates_dir()
    printing = chromium.keep()  # one browser prints the rulebook for every rebuild, stopped with the watch
    try:
        print(f"county-uppy watch: preview at {server.url}", flush=True)
        print(escape(f"watching {manifest}, the files its look names and {templates}{os.sep} (Ctrl-C stops)"),
              flush=True)
        follow(request, state, templates)
    except KeyboardInterrupt as stop:
        from generator.products.output.staging import InterruptedAfterCommit  # lazy: loaded by the build already

        moved = " (the build that was running had moved its files in, and finished doing so)" \
            if isinstance(stop, InterruptedAfterCommit) else ""
        print(escape(f"county-uppy watch: stopped; {out} holds the last good build{moved}"), file=sys.stderr)
        stopped = True
    else:
        stopped = False
    finally:
        server.stop()
        table.stop()
        printing.close()
    if stopped:
        _leave(interrupted_status())
    return 0  # the watch ended by itself (the watched folders went away)


def follow(request: BuildRequest, state: PreviewState, templates: Path) -> None:
    """Build, then rebuild whenever the watched files differ from those the last rebuild started
    from, until the watched folders go away. A save the watcher could not see (made before it
    started, during the first build) shows at its idle check; the events of a save the last
    rebuild already read (it starts at a save's first event) make no second rebuild."""
    manifest = request.manifest
    files = named_files(manifest)
    built = _signature(manifest, templates, files)  # the files as the build about to run reads them
    _rebuild(request, state, lambda: _signature(manifest, templates, files), built)
    watching = True
    while watching:
        watching = False
        folders = watched_folders(str(manifest.resolve()), templates, files)
        for _ in _changes(manifest, templates, files):
            now = _signature(manifest, templates, files)
            if now == built:
                continue
            built = now
            _rebuild(request, state, lambda: _signature(manifest, templates, files), now)
            # the look may now name other files, in other folders: watch those from now on
            named = named_files(manifest)
            if named != files:
                files = named
                built = _signature(manifest, templates, files)
            if watched_folders(str(manifest.resolve()), templates, files) != folders:
                watching = True
                break


def _leave(status: int) -> None:
    """End the process with `status` once everything `watch` owns is closed and its output flushed,
    without the interpreter's teardown. Stopped after a session with the page open, `watch` died of a
    segmentation fault in that teardown (no Python frame left) about one stop in three under load,
    instead of exiting 130: the preview's connection threads are daemons that may still be in a
    native library (PDFium drawing a sheet's thumbnail, the likeliest) while the interpreter frees
    what they use. The exact cause was not pinned down; skipping the teardown removes the whole
    class. Nothing is left to tear down: a build commits or discards its files before the stop
    reaches here, and worker processes die with their parent."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)


class _PlayLink:
    """The preview's "play this version": one web table (generator/web), started on first use, one
    person against greedy bots on the manifest's first edition; its games note a manifest change
    and finish on the deck they began with; the next game deals from the new one."""

    def __init__(self, manifest: Path, out: Path):
        self.manifest, self.out = manifest, out
        self.running = None
        self.lock = threading.Lock()

    def url(self) -> str:
        with self.lock:
            if self.running is None:
                from generator.web.server import Running, Settings, WebTable, make_app  # lazy: on the first click

                try:
                    deck = load_deck(str(self.manifest))
                except InputError as err:
                    raise ValueError(f"{self.manifest} has a mistake, so there is nothing to play: "
                                     f"{err.problems[0] if err.problems else err}") from None
                params = deck.params
                players = max(params.min_players, min(4, params.max_players))
                settings = Settings(manifest=self.manifest, edition=deck.editions[0].key,
                                    seats=["human"] + ["greedy"] * (players - 1), options={}, out=self.out,
                                    records=self.out / "games",
                                    load=load_deck)
                web = WebTable(settings, deck)
                self.running = Running(make_app(web), "127.0.0.1", 0, web.token).start()
            return self.running.url()

    def stop(self) -> None:
        if self.running is not None:
            self.running.stop()


def _changes(manifest: Path, templates: Path, files: tuple[str, ...] = ()) -> Iterator[set]:
    """Batches of changes to the manifest, to a file its look names or to a file in templates/, a
    burst of saves as one batch."""
    import watchfiles  # lazy: only `watch` needs it

    target = os.path.abspath(manifest)
    folders = watched_folders(target, templates, files)
    templates_folders = _template_folders(templates)
    yield from watchfiles.watch(*folders, watch_filter=lambda _change, path: relevant(path, target, templates_folders,
                                                                                       files),
                                debounce=DEBOUNCE_MS, step=STEP_MS, recursive=False, raise_interrupt=True,
                                rust_timeout=IDLE_CHECK_MS, yield_on_timeout=True)


def _signature(manifest: Path, templates: Path, files: tuple[str, ...] = ()) -> tuple:
    """The watched files' inodes, times and sizes, and the manifest's and templates' content
    (a digest): what a save changes, however it was made. The content too, because a second save
    within the file system's clock tick keeps the time, and one of the same size would look like
    none; the files the look names (pictures, fonts, perhaps large) by their inodes, times and sizes."""
    target = os.path.abspath(manifest)
    folders = watched_folders(target, templates, files)
    templates_folders = _template_folders(templates)
    found = []
    for folder in folders:
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            path = os.path.join(folder, name)
            if relevant(path, target, templates_folders, files):
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                text = path not in files and not any(f.startswith(path + os.sep) for f in files)
                found.append((path, st.st_ino, st.st_mtime_ns, st.st_size, _digest(path) if text else ""))
    return tuple(found)


def _digest(path: str) -> str:
    """The sha256 of a manifest or template (read as untrusted: a FIFO or a huge file is none)."""
    from generator.deck.input_file import MAX_FILE_BYTES, Unread, read_regular  # lazy: with the deck's modules

    try:
        return hashlib.sha256(read_regular(path, MAX_FILE_BYTES)).hexdigest()
    except (Unread, OSError):
        return ""


def watched_folders(manifest: str, templates: Path, files: tuple[str, ...] = ()) -> list[str]:
    """The manifest's folder, then templates/ and each folder in it, then the folders of the files
    the look names (the nearest that exists, for a file in a folder not made yet); each watched
    on its own, not recursively, so a build's output next to the manifest is never walked."""
    folders = [os.path.dirname(manifest), *_template_folders(templates)]
    for path in files:
        folder = os.path.dirname(path)
        while not os.path.isdir(folder) and os.path.dirname(folder) != folder:
            folder = os.path.dirname(folder)
        folders.append(folder)
    return list(dict.fromkeys(folders))


def _template_folders(templates: Path) -> list[str]:
    found = []
    for root, dirs, _files in os.walk(templates):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
        found.append(os.path.abspath(root))
    return found


def relevant(path: str, manifest: str, template_folders: list[str], files: tuple[str, ...] = ()) -> bool:
    """Is a change to `path` one to rebuild for: the manifest itself, a file its look names (or a
    folder on the way to one, made), or a template (not an editor's swap, backup or probe file)?"""
    path = os.path.abspath(path)
    if path == manifest or path in files or any(f.startswith(path + os.sep) for f in files):
        return True
    name = os.path.basename(path)
    return (os.path.dirname(path) in template_folders and not name.startswith((".", "#"))
            and not name.endswith(("~", ".swp", ".swx", ".tmp")) and name not in _EDITOR_LITTER)


def _rebuild(request: BuildRequest, state: PreviewState, signature: Callable[[], tuple] | None = None,
             current: tuple | None = None) -> None:
    """One rebuild of what `request` asks for: the build, one line in the terminal, the page's state.
    `signature`: the watched files' times and sizes (a save still being written shows in it);
    `current`: its value as the rebuild starts, when the caller has just taken it."""
    # lazy: start-up (the build's libraries)
    from generator.preview.output import read_output, sheet_hashes
    from generator.preview.rebuild import CARDS_FIRST, rebuild
    from generator.preview.thumbnails import AREA, prune
    from generator.products import PRODUCTS
    from generator.products.output.outputs import CACHE_DIR

    manifest, out = request.manifest, request.out
    # what a rebuild makes after its card images, as the page lists it while it is being made
    rest = [{"product": p.name, "what": p.summary} for p in PRODUCTS
            if (not request.only or p.name in request.only) and p.name not in CARDS_FIRST]
    # how long ago the newest watched file was saved, as the rebuild starts (the watcher's part)
    if current is None and signature is not None:
        current = signature()
    saved = max((entry[2] for entry in current), default=0) if current is not None else 0
    after_save = (time.time_ns() - saved) / 1e9 if saved else None
    state.update(status="building", message=f"building {manifest} …")

    first: list[str] = []  # what the card images' commit changed, for the page's list of changes
    handed: list[float] = []  # seconds the rest waited for an open page to show the changed image

    def cards_in(line: str, seconds: float) -> None:
        """The card images are committed: the page shows them (and scrolls to a changed one) now."""
        shown = read_output(out)
        first.extend(shown["changes"]["summary"])
        focus = changed_cards(shown)
        print(escape(f"[{time.strftime('%H:%M:%S')}] cards in {seconds:.1f} s: {line}"), flush=True)
        state.update(message=f"cards in after {seconds:.1f} s; the sheets, print files and rulebook follow",
                     output=shown, pending=True, problems=[], focus=focus, on_the_way=rest)
        image = next((c["image"] for c in shown["cards"] if focus and c["code"] == focus[0] and c["image"]), None)
        if image:  # the page shows the changed card before the rest of the build takes both cores
            waited = time.perf_counter()
            if state.handed_over(image, HANDOFF_SECONDS):
                handed.append(time.perf_counter() - waited)

    def done(product: str) -> None:
        """A product's files are made: the page no longer lists it as on its way."""
        left = state.get("on_the_way")
        if any(p["product"] == product for p in left):
            state.update(on_the_way=[p for p in left if p["product"] != product])

    outcome = rebuild(request, tell=lambda line: print(escape(line), file=sys.stderr, flush=True), first=cards_in,
                      signature=signature, done=done, current=current)
    stamp = time.strftime("%H:%M:%S")
    output = read_output(out)
    if outcome.status == "ok":
        builds = state.get("builds") + 1
        focus = changed_cards(output) or state.get("focus")
        if first:  # the rebuild's changes: the card images' commit's, then the rest's
            output["changes"]["summary"] = list(dict.fromkeys(first + output["changes"]["summary"]))
        print(escape(f"[{stamp}] rebuilt in {outcome.seconds:.1f} s: {outcome.message}"), flush=True)
        stages = {"after_save": after_save, **outcome.stages, "page_shows_image": handed[0] if handed else None,
                  "whole": outcome.seconds}
        state.update(status="ok", message=f"built at {stamp} in {outcome.seconds:.1f} s", problems=[], builds=builds,
                     last={"at": stamp, "seconds": round(outcome.seconds, 3), "line": outcome.message,
                           "stages": {k: None if v is None else round(v, 4) for k, v in stages.items()}},
                     output=output, focus=focus, pending=False, on_the_way=[])
        try:
            prune(out / CACHE_DIR / AREA, sheet_hashes(out), root=out)
        except OSError:
            pass  # old thumbnails only take room
        return
    _tell_failure(stamp, outcome, out)
    state.update(status=outcome.status, message=_page_message(outcome, out), problems=outcome.problems, output=output,
                 pending=False, on_the_way=[])


def changed_cards(output: dict) -> list[str]:
    """The codes of the cards a build changed: those the manifest changed, then those only drawn
    anew (a look: edit, a quick reference that quotes a changed text), each in the page's order.
    The page scrolls to the first and marks them all."""
    cards = output["cards"]
    return [c["code"] for c in cards if c.get("change")] + [c["code"] for c in cards
                                                            if c.get("redrawn") and not c.get("change")]


def _tell_failure(stamp: str, outcome: Outcome, out: Path) -> None:
    if outcome.internal is not None:
        error, what = outcome.internal
        from generator.commands import crash  # lazy: start-up (traceback, tempfile), only for a bug

        crash.report(error, out, None, prefix=f"[{stamp}] county-uppy watch", context=what, what=outcome.what,
                     after=f"{out} still holds the last good build")
        return
    print(escape(f"[{stamp}] not rebuilt: {outcome.message}"), file=sys.stderr, flush=True)


def _page_message(outcome: Outcome, out: Path) -> str:
    if outcome.status == "invalid":
        return "not rebuilt: " + outcome.message
    if outcome.internal is not None:
        return f"not rebuilt: {outcome.message} (a bug in county-uppy; the terminal says where the details are)"
    return f"not rebuilt: {outcome.message}"
