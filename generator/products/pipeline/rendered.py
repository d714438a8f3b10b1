"""The faces one build draws, each at most once: their cache keys, display lists and PDF forms;
the face cache; and the worker processes products run jobs on.

Everything goes through the face cache in OUT/.cache, keyed by what each face draws (keys.py),
so a rebuild after editing one card redraws that card only, and any change that alters a face
redraws it. The raster images are rasters.py's.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import multiprocessing
import os
from pathlib import Path
from typing import Callable

from generator.deck.model import Deck
from generator.products.pipeline.context import BuildContext
from generator.products.pipeline.face_cache import RenderCache
from generator.products.pipeline.keys import code_version, face_key, key
from generator.products.pipeline.provenance import Stamping
from generator.products.render.press.cmyk import DEFAULT, Ink, profile_key
from generator.products.render.faces import Face, back_face, charset, face
from generator.products.render.items import Outline
from generator.products.render.stamp import Stamp
from generator.progress import ProgressBar
from generator.workers import WorkerPool, keep_freed_memory


def face_keys(ctx: BuildContext, light: bool = False) -> dict[str, str]:
    """Card code (and "back") -> a hash of what its face draws, the files it reads and the
    rendering core's code (keys.face_key): every face is drawn (a display list, no pixels) to
    be keyed. `light`: the ink-saver variant of each face (print sheets with --ink-saver).
    """
    known = ctx.state.face_keys
    if light not in known:
        memo = ctx.state.file_digests  # each file a face reads, hashed once per build
        known[light] = {code: face_key(face_of(ctx, code, light), memo)
                        for code in [*(c.code for c in ctx.deck.cards), "back"]}
    return known[light]


def face_of(ctx: BuildContext, code: str, light: bool = False) -> Face:
    """The display list of one face, drawn at most once per build."""
    drawn = ctx.state.faces
    if (code, light) not in drawn:
        drawn[code, light] = draw(ctx.deck, code, light)
    return drawn[code, light]


def draw(deck: Deck, code: str, light: bool = False) -> Face:
    """The display list of card `code`'s face ("back": the back); CardFailed names a card that fails."""
    try:
        return back_face(deck, light) if code == "back" else face(deck.card(code), deck, light)
    except Exception as exc:  # noqa: BLE001 -- name the card whose face failed
        raise CardFailed(code, f"{type(exc).__name__}: {exc}") from exc


class CardFailed(Exception):
    """Drawing or rendering one card's face failed; `code` names the card ("back" for the back).

    Built from strings only, so a worker process can raise it and the build still names the card."""

    def __init__(self, code: str, message: str):
        super().__init__(code, message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"card '{self.code}': {self.message}"


def chars(ctx: BuildContext) -> str:
    """Every character the deck's faces draw."""
    if ctx.state.chars is None:
        ctx.state.chars = charset(ctx.deck)
    return ctx.state.chars


def stamp(ctx: BuildContext) -> Stamp:
    """The version, manifest fingerprint and date every print file of this build carries."""
    if ctx.state.stamp is None:
        ctx.state.stamp = (ctx.state.stamping or Stamping(ctx.request.manifest)).stamp()
    return ctx.state.stamp


def start_stamp(ctx: BuildContext) -> None:
    """Begin making the stamp (provenance.Stamping: git is asked at once, in processes of its own)
    as the build starts, so that the first product to want it does not wait for git."""
    if ctx.state.stamp is None and ctx.state.stamping is None:
        ctx.state.stamping = started(ctx, Stamping(ctx.request.manifest))


def _ink(cmyk: Ink | bool | None) -> Ink | None:
    return DEFAULT if cmyk is True else (cmyk or None)


def form_keys(ctx: BuildContext, light: bool = False, cmyk: Ink | bool | None = None) -> dict[str, str]:
    """Card code (and "back") -> the cache key of its face's PDF form (pdf_forms): the face's key,
    the characters the files' fonts encode (the text's bytes depend on them), CMYK or not (and
    then the shop's conversion: its press profile's content, ink limit, rich black and the
    designer's own CMYK colours: render/press/cmyk.py), and this module's code, which makes the forms."""
    cmyk = _ink(cmyk)
    known = ctx.state.form_keys
    if (light, cmyk) not in known:
        cs_key, here = key(chars(ctx)), code_version(Path(__file__).resolve())
        colour = profile_key(cmyk) if cmyk else False
        known[light, cmyk] = {code: key("pdf-form", here, fk, cs_key, colour) for code, fk in face_keys(ctx, light).items()}
    return known[light, cmyk]


def pdf_forms(ctx: BuildContext, light: bool = False, cmyk: Ink | bool | None = None) -> dict[str, bytes]:
    """Card code (and "back") -> its face as a formatted PDF form, from the cache where possible.

    Every PDF of the build writes these bytes as they are (pdf_file.PdfFile.add), so a face is
    turned into PDF once, not once per file. `light`: the ink-saver faces; `cmyk`: colours as
    DeviceCMYK through a shop's conversion (cmyk.Ink; True: DriveThruCards').
    """
    cmyk = _ink(cmyk)
    made_once = ctx.state.pdf_forms
    if (light, cmyk) in made_once:
        return made_once[light, cmyk]
    store = cache(ctx)
    out: dict[str, bytes] = {}
    todo: list[tuple[str, str]] = []
    for code, k in form_keys(ctx, light, cmyk).items():
        data = store.get("pdf-form", k)
        if data is None:
            todo.append((code, k))
        else:
            out[code] = data
    if todo:
        from generator.products.render import pdf  # lazy: reportlab, only when a form is missing

        recall_outlines(ctx, make=True)
        if cmyk:
            recall_inks(ctx, light, cmyk)
        ops = pdf.form_ops([face_of(ctx, code, light) for code, _ in todo], chars(ctx), cmyk)
        made = pdf.format_forms({code: ops[code] for code, _ in todo})
        for code, k in todo:
            store.put("pdf-form", k, made[code])
            out[code] = made[code]
    store.prune("pdf-form")
    made_once[light, cmyk] = {code: out[code] for code in face_keys(ctx, light)}
    return made_once[light, cmyk]


#: The face cache's area of the CMYK conversions of the faces' colours (recall_inks).
INKS = "cmyk"


def recall_inks(ctx: BuildContext, light: bool = False, ink: Ink = DEFAULT) -> None:
    """Have render/press/cmyk.py remember the CMYK of every colour the deck's faces print through a
    shop's conversion `ink`, from the face cache: keyed by those colours, the conversion
    (cmyk.profile_key: the press profile's content, limits, own colours) and the rendering core's
    code (cmyk.py is part of it, and Pillow's version, whose LittleCMS converts). Where the cache
    has no such entry, every conversion is made now (LittleCMS) and kept for the next build; a
    rebuild that redraws a face in CMYK then loads no LittleCMS."""
    # lazy: reportlab, only when a CMYK form is missing
    from generator.products.render import pdf
    from generator.products.render.press import cmyk

    inks = sorted(set().union(*(pdf.cmyk_inks(face_of(ctx, code, light)) for code in face_keys(ctx, light))))
    store, k = cache(ctx), key("cmyk", code_version(), cmyk.profile_key(ink), inks)
    kept = store.get(INKS, k)
    store.prune(INKS)
    if kept is not None:
        try:
            table = {(hex_rgb, text): tuple(v) for hex_rgb, text, v in json.loads(kept)}
            if not all(len(v) == 4 and all(_bounded(n, 0, 100) for n in v) for v in table.values()):
                table = None  # percentages of ink, as cmyk.py makes them, or nothing of it is used
        except (ValueError, TypeError):
            table = None  # the cache's checksum passed, so only another version could write this
        if table is not None and set(table) == set(inks):
            cmyk.remember(table, ink)
            return
    made = [[hex_rgb, text, list(cmyk.to_cmyk(hex_rgb, text, ink))] for hex_rgb, text in inks]
    store.put(INKS, k, json.dumps(made, separators=(",", ":")).encode("ascii"))


#: The face cache's area of the outlines of the one-colour SVG icons the faces draw (recall_outlines).
OUTLINES = "outline"


def recall_outlines(ctx: BuildContext, make: bool = False) -> None:
    """Have render/assets/icon_files.py remember the outlines of every one-colour SVG icon the
    deck's faces draw (items.Outline), from the face cache: keyed by the file's content and the
    rendering core's code (icon_files.py is part of it, and fontTools' version, which reads the
    paths). Called before workers fork, so they inherit them: a rebuild that draws a face with
    an icon then loads no fontTools and traces no curve, here or on its workers. `make`: the
    outlines the cache lacks are made now (fontTools) and kept for the next build; otherwise
    they are left to whoever draws them. A file that cannot be read or traced is left alone:
    drawing the face fails on it, naming the card."""
    from generator.products.render.assets import icon_files  # lazy: only a build whose faces draw icons asks

    store, memo, here = cache(ctx), ctx.state.file_digests, code_version()
    paths = sorted({Path(item.path) for code in face_keys(ctx) for item in face_of(ctx, code).items
                    if isinstance(item, Outline)})
    for path in paths:
        sha = memo.get(path)
        if sha is None:
            continue
        k = key(OUTLINES, here, sha)
        if icon_files.known_outlines(sha) is None:
            kept = store.get(OUTLINES, k)
            if kept is not None:
                try:
                    outlines = tuple(tuple((x, y) for x, y in c) for c in json.loads(kept))
                    if all(_bounded(v, -OUTLINE_REACH, OUTLINE_REACH) for c in outlines for p in c for v in p):
                        icon_files.remember_outlines(sha, outlines)
                        continue
                except (ValueError, TypeError):
                    pass  # the cache's checksum passed, so only another version could write this
            elif not make:
                continue
        elif store.has(OUTLINES, k):
            continue
        try:
            data = icon_files.read(path)
            made = icon_files.outlines_of(data) if hashlib.sha256(data).hexdigest() == sha else None
        except Exception:  # noqa: BLE001 -- drawing the face fails the same way, naming its card
            continue
        if made is not None:  # as the face was keyed (not a file saved since)
            store.put(OUTLINES, k, json.dumps(made, separators=(",", ":")).encode("ascii"))
    if paths:
        store.prune(OUTLINES)


#: The face cache's area of the font subsets the faces' files embed (recall_subsets).
SUBSETS = "font-subset"


def recall_subsets(ctx: BuildContext) -> None:
    """Have render/pdf_file.py remember the objects of the font subsets every file of the faces
    embeds (the characters the deck draws, pdf_file.subsets_of), from the face cache, keyed by
    the subset and the rendering core's code (its fonts, and reportlab's version, which subsets
    them); those the cache lacks are made now and kept. Called before workers fork, so that
    they inherit them: a rebuild subsets no font, here or on its workers."""
    from generator.products.render import pdf_file  # lazy: reportlab, only where a file is made

    store, here = cache(ctx), code_version()
    for subset in pdf_file.subsets_of(chars(ctx)):
        k = key(SUBSETS, here, subset)
        if pdf_file.known_subset(subset) is None:
            kept = store.get(SUBSETS, k)
            objects = _unjoined(kept) if kept is not None else None
            if objects is not None:
                pdf_file.remember_subset(subset, objects)
                continue
        elif store.has(SUBSETS, k):
            continue
        store.put(SUBSETS, k, _joined(pdf_file.subset_objects(*subset)))
    store.prune(SUBSETS)


def _joined(parts: tuple[bytes, ...]) -> bytes:
    """Byte strings as one entry: their lengths on a line, then each."""
    return " ".join(str(len(p)) for p in parts).encode("ascii") + b"\n" + b"".join(parts)


def _unjoined(data: bytes) -> tuple[bytes, bytes, bytes, bytes] | None:
    """_joined's four byte strings again (None: not four that add up, which only another version writes)."""
    head, _, rest = data.partition(b"\n")
    try:
        sizes = [int(n) for n in head.split()]
    except ValueError:
        return None
    if len(sizes) != 4 or min(sizes) < 0 or sum(sizes) != len(rest):
        return None
    out, at = [], 0
    for n in sizes:
        out.append(rest[at:at + n])
        at += n
    return tuple(out)  # type: ignore[return-value]


#: How far (in ems) an icon's outline read back from the cache may reach from its box: a number
#: no drawing makes (past a million, infinite, NaN) means the entry is not used.
OUTLINE_REACH = 1e6


def _bounded(value: object, low: float, high: float) -> bool:
    """A number read back from the face cache: a finite int or float from `low` to `high`."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= high


def cache(ctx: BuildContext) -> RenderCache:
    """The face cache in OUT/.cache; its new entries are written once the build is in place."""
    if ctx.state.cache is None:
        ctx.state.cache = RenderCache(ctx.out)
    return ctx.state.cache


def workers(ctx: BuildContext) -> int:
    return ctx.request.jobs or os.cpu_count() or 1


#: How much lower background() workers run than the rest of the build (os.nice): the PDFs they
#: make are wanted only at the end, so the card images, which the other products wait for,
#: get the cores first, and the PDF work fills the time the build would leave them idle.
BACKGROUND_NICENESS = 5


def pool(n: int, window: int, niceness: int = 0) -> WorkerPool:
    """n worker processes, forked where the system can (they start at once, with the build's
    modules already loaded), `niceness` lower in priority than this one."""
    methods = multiprocessing.get_all_start_methods()
    return WorkerPool(n, mp_context=multiprocessing.get_context("fork" if "fork" in methods else None), window=window,
                      initializer=_worker_start, initargs=(niceness,))


def _worker_start(niceness: int) -> None:
    """Worker: run `niceness` steps below the build (where the system has priorities), and keep
    the large blocks it frees for its next ones (workers.keep_freed_memory: a worker draws face
    after face, and each face's bitmap, images and buffers are the same sizes; a cold build's
    workers took 38 thousand new pages from the system, 24 thousand so, at about 5 µs each on
    this project's machine). A build's worker lives for that build only."""
    keep_freed_memory()
    if not niceness:
        return
    try:
        os.nice(niceness)
    except (AttributeError, OSError):
        pass


def run_jobs(ctx: BuildContext, fn: Callable, jobs: list[tuple], label: str) -> list:
    """fn(*job) for every job, in job order, on ctx.request.jobs processes, with a progress bar on a terminal.

    The processes are the project's WorkerPool (a failure or Ctrl-C stops them at once); one job,
    or one process asked for, runs here without starting any.
    """
    if not jobs:
        return []
    n = min(workers(ctx), len(jobs))
    with ProgressBar(len(jobs), label, enabled=ctx.request.progress) as bar:
        if n <= 1:
            results = []
            for job in jobs:
                results.append(fn(*job))
                bar.advance()
            return results
        results = []
        # every job queued at once, as a build's jobs are few: no worker waits behind a slow first job
        with pool(n, window=len(jobs)) as workers_:
            for result in workers_.map(_call, ((fn, job) for job in jobs)):
                results.append(result)
                bar.advance()
        return results


def _call(task: tuple[Callable, tuple]) -> object:
    """Worker: one job of run_jobs, fn(*args)."""
    fn, args = task
    return fn(*args)


def background(ctx: BuildContext, fn: Callable, jobs: list[tuple], label: str,
               processes: int = 0, niceness: int = BACKGROUND_NICENESS) -> Callable[[], list]:
    """Start fn(*job) for every job on worker processes now; return a function that waits for
    the results, in job order. The build goes on with other products meanwhile.

    Each worker is handed its whole share at once (jobs[i::n]), so the work goes on whether
    or not anyone waits for it; even one job gets a process of its own. `processes`: at most
    this many (0: one per core), for jobs too quick to be worth starting more. With one process
    asked for (--jobs 1), the jobs run here when their results are asked for. `niceness`: how much
    lower than the build the workers run (by default, below the card images' workers).
    """
    if not jobs:
        return list
    if workers(ctx) <= 1:
        return lambda: run_jobs(ctx, fn, jobs, label)
    n = min(workers(ctx), len(jobs), processes or len(jobs))
    workers_ = started(ctx, pool(n, window=n, niceness=niceness))
    if workers_.forks:  # the workers are forked with the jobs in memory: only their place goes by pipe
        token = next(_TOKENS)
        _INHERITED[token] = (fn, jobs)
        try:
            pending = workers_.map(_call_inherited, [(token, i, n) for i in range(n)], start=True)
        finally:
            del _INHERITED[token]  # the workers have their copy
    else:
        pending = workers_.map(_call_share, [(fn, jobs[i::n]) for i in range(n)], start=True)

    def finish() -> list:
        out: list = [None] * len(jobs)
        with ProgressBar(len(jobs), label, enabled=ctx.request.progress) as bar, workers_:
            for i, results in enumerate(pending):
                out[i::n] = results
                bar.advance(len(results))
        return out
    return finish


def _call_share(task: tuple[Callable, list[tuple]]) -> list:
    """Worker: a share of background()'s jobs, one after the other."""
    fn, jobs = task
    return [fn(*job) for job in jobs]


#: background()'s jobs by token, while its workers fork: they inherit them with the parent's
#: memory, so megabytes of forms and images are not pickled through a pipe (which also made
#: the main process wait until each worker had started and read them).
_INHERITED: dict[int, tuple[Callable, list[tuple]]] = {}
_TOKENS = itertools.count()


def _call_inherited(task: tuple[int, int, int]) -> list:
    """Worker: share i of n of the jobs inherited under `token`, one after the other."""
    token, i, n = task
    fn, jobs = _INHERITED[token]
    return [fn(*job) for job in jobs[i::n]]


def started(ctx: BuildContext, workers_: WorkerPool) -> WorkerPool:
    """Note a pool that runs while the build goes on, so stop_workers() can end it."""
    ctx.state.pools.append(workers_)
    return workers_


def stop_workers(ctx: BuildContext) -> None:
    """Kill the workers of every pool still running (a product failed, or Ctrl-C); a pool that
    finished has none left. The worker pools first: a thread of the build waiting for one of
    their results (the rulebook's printer) is let go before what it belongs to is stopped."""
    pools, ctx.state.pools = ctx.state.pools, []
    for workers_ in sorted(pools, key=lambda running: not isinstance(running, WorkerPool)):
        workers_.abort()
