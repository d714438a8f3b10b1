"""The faces one build draws, each at most once: their cache keys, display lists, print PNGs and
PDF forms. Rendering runs on ctx.jobs processes and goes through the face cache in OUT/.cache,
keyed by each face's inputs, so a rebuild after editing one card re-renders that card only.
"""

from __future__ import annotations

import multiprocessing
import os
from typing import Callable

from generator.products import pdf, png
from generator.products.context import BuildContext
from generator.products.face_cache import RenderCache, code_version, key
from generator.products.faces import Face, back_face, back_inputs, charset, face, face_inputs
from generator.products.png import RENDERER_VERSION, encode, palette_for
from generator.progress import ProgressBar
from generator.workers import WorkerPool

#: Print-on-demand image sizes (px at 300 dpi, trim centred): The Game Crafter's poker
#: template is output/cards; MakePlayingCards wants 822×1122.
PROFILES = {"tgc": (825, 1125), "mpc": (822, 1122)}


def face_keys(ctx: BuildContext, light: bool = False) -> dict[str, str]:
    """Card code (and "back") -> a hash of everything its face depends on, without drawing it.

    `light`: the ink-saver variant of each face (print sheets with --ink-saver).
    """
    def make() -> dict[str, str]:
        deck, version = ctx.deck, code_version()
        extra = ("light",) if light else ()
        keys = {c.code: key(version, face_inputs(c, deck), *extra) for c in deck.cards}
        keys["back"] = key(version, back_inputs(deck), *extra)
        return keys
    return ctx.once("face-keys-light" if light else "face-keys", make)


def face_of(ctx: BuildContext, code: str, light: bool = False) -> Face:
    """The display list of one face, drawn at most once per build."""
    drawn = ctx.shared.setdefault("faces", {})
    if (code, light) not in drawn:
        try:
            drawn[code, light] = (back_face(ctx.deck, light) if code == "back"
                                  else face(ctx.deck.card(code), ctx.deck, light))
        except Exception as exc:  # noqa: BLE001 -- name the card whose face failed
            raise CardFailed(code, f"{type(exc).__name__}: {exc}") from exc
    return drawn[code, light]


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
    return ctx.once("charset", lambda: charset(ctx.deck))


def pdf_forms(ctx: BuildContext, light: bool = False, cmyk: bool = False) -> dict[str, bytes]:
    """Card code (and "back") -> its face as a formatted PDF form, from the cache where possible.

    Every PDF of the build writes these bytes as they are (pdf.reuse_forms), so a face is
    turned into PDF once, not once per file. `light`: the ink-saver faces; `cmyk`: colours as
    DeviceCMYK (the print-shop file).
    """
    def make() -> dict[str, bytes]:
        store, cs = cache(ctx), chars(ctx)
        cs_key = key(cs)
        out: dict[str, bytes] = {}
        todo: list[tuple[str, str]] = []
        for code, fk in face_keys(ctx, light).items():
            k = key("pdf-form", fk, cs_key, *(("cmyk",) if cmyk else ()))
            data = store.get("pdf-form", k)
            if data is None:
                todo.append((code, k))
            else:
                out[code] = data
        ops = pdf.form_ops([face_of(ctx, code, light) for code, _ in todo], cs, cmyk)
        made = pdf.format_forms({code: ops[code] for code, _ in todo}, cs) if todo else {}
        for code, k in todo:
            store.put("pdf-form", k, made[code])
            out[code] = made[code]
        store.prune("pdf-form")
        return {code: out[code] for code in face_keys(ctx, light)}
    return ctx.once("pdf-forms" + ("-light" if light else "") + ("-cmyk" if cmyk else ""), make)


def cache(ctx: BuildContext) -> RenderCache:
    """The face cache in OUT/.cache; during a build its new entries wait in the staging folder."""
    def make() -> RenderCache:
        return RenderCache(ctx.target, stage=ctx.staging.cache if ctx.staging is not None else None)
    return ctx.once("cache", make)


def workers(ctx: BuildContext) -> int:
    return ctx.jobs or os.cpu_count() or 1


def run_jobs(ctx: BuildContext, fn: Callable, jobs: list[tuple], label: str) -> list:
    """fn(*job) for every job, in job order, on ctx.jobs processes, with a progress bar on a terminal.

    The processes are the project's WorkerPool (a failure or Ctrl-C stops them at once); one job,
    or one process asked for, runs here without starting any.
    """
    if not jobs:
        return []
    n = min(workers(ctx), len(jobs))
    with ProgressBar(len(jobs), label, enabled=ctx.progress) as bar:
        if n <= 1:
            results = []
            for job in jobs:
                results.append(fn(*job))
                bar.advance()
            return results
        methods = multiprocessing.get_all_start_methods()
        mp = multiprocessing.get_context("fork" if "fork" in methods else None)
        results = []
        # every job queued at once, as a build's jobs are few: no worker waits behind a slow first job
        with WorkerPool(n, mp_context=mp, window=len(jobs)) as pool:
            for result in pool.map(_call, ((fn, job) for job in jobs)):
                results.append(result)
                bar.advance()
        return results


def _call(task: tuple[Callable, tuple]) -> object:
    """Worker: one job of run_jobs, fn(*args)."""
    fn, args = task
    return fn(*args)


def _render_pages(doc: bytes, pages: list[tuple[int, list[str]]], profiles: tuple[str, ...]) -> list[dict[str, bytes]]:
    """Worker: rasterize pages of the faces PDF (pdf.faces_pdf) with PDFium, anti-aliased as any
    PDF viewer draws them, once per face at The Game Crafter's size; the MakePlayingCards
    image is cropped from the same render. Returns, per page, profile -> PNG bytes."""
    return [{p: encode(im, palette_for(colours)) for p, im in crops(raster, profiles).items()}
            for raster, colours in zip(png.rasterize_pdf(doc, [i for i, _ in pages]), (c for _, c in pages))]


def crops(im, profiles: tuple[str, ...]) -> dict:
    """The render at each profile's size, trim centred (822 px is 825 less 1 px left, 2 right)."""
    out = {}
    for p in profiles:
        w, h = PROFILES[p]
        x0, y0 = (im.width - w) // 2, (im.height - h) // 2
        out[p] = im if (w, h) == im.size else im.crop((x0, y0, x0 + w, y0 + h))
    return out


def deck_colours(ctx: BuildContext) -> tuple[str, ...]:
    """Every colour any face uses, in first-use order: the palette of the TTS sheets."""
    def make() -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for code in face_keys(ctx):
            for c in face_of(ctx, code).colours():
                seen.setdefault(c)
        return tuple(seen)
    return ctx.once("deck-colours", make)


def wanted_profiles(ctx: BuildContext) -> tuple[str, ...]:
    """The image profiles this build writes: TGC always (cards, TTS, rulebook), MPC with the pod product."""
    products = ctx.shared.get("products")
    mpc = "mpc" in ctx.pod and (products is None or "pod" in products)
    return ("tgc", "mpc") if mpc else ("tgc",)


def images(ctx: BuildContext, profile: str) -> dict[str, bytes]:
    """Face key -> print PNG for a profile, rendered only where the cache has no copy."""
    rendered = card_images(ctx)
    if profile not in rendered:  # a profile the build did not expect: render it on its own
        rendered.update(_card_images(ctx, (profile,)))
    return rendered[profile]


def card_images(ctx: BuildContext) -> dict[str, dict[str, bytes]]:
    """Profile -> face key -> PNG, for every profile the build writes, one render per face."""
    return ctx.once("card-images", lambda: _card_images(ctx, wanted_profiles(ctx)))


def _card_images(ctx: BuildContext, profiles: tuple[str, ...]) -> dict[str, dict[str, bytes]]:
    store = cache(ctx)
    out: dict[str, dict[str, bytes]] = {p: {} for p in profiles}
    todo: list[tuple[str, dict[str, str]]] = []
    for code, fk in face_keys(ctx).items():
        ks = {p: key(RENDERER_VERSION, p, PROFILES[p], fk) for p in profiles}
        got = {p: store.get(p, ks[p]) for p in profiles}
        if any(v is None for v in got.values()):
            todo.append((code, ks))
        else:
            for p in profiles:
                out[p][code] = got[p]  # type: ignore[assignment]
    for p in profiles:
        ctx.shared.setdefault("rendered", {})[p] = [code for code, _ in todo]
    if todo:
        forms = pdf_forms(ctx)
        doc = pdf.faces_pdf({code: forms[code] for code, _ in todo}, chars(ctx))
        pages = [(i, face_of(ctx, code).colours()) for i, (code, _) in enumerate(todo)]
        n = max(1, min(workers(ctx), len(pages)))
        chunks = [pages[i::n] for i in range(n)]
        results = run_jobs(ctx, _render_pages, [(doc, chunk, profiles) for chunk in chunks], "card images")
        by_page = {i: r for chunk, res in zip(chunks, results) for (i, _), r in zip(chunk, res)}
        for i, (code, ks) in enumerate(todo):
            for p in profiles:
                store.put(p, ks[p], by_page[i][p])
                out[p][code] = by_page[i][p]
    for p in profiles:
        store.prune(p)
    return {p: {code: out[p][code] for code in face_keys(ctx)} for p in profiles}
