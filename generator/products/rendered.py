"""The faces one build draws, each at most once: their cache keys, display lists, print PNGs and
PDF forms. Rendering runs on ctx.jobs processes and goes through the face cache in OUT/.cache,
keyed by each face's inputs, so a rebuild after editing one card re-renders that card only.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from concurrent.futures import ProcessPoolExecutor
from typing import Callable

from generator.products import pdf
from generator.products.context import BuildContext
from generator.products.face_cache import RenderCache, code_version, key
from generator.products.faces import Face, back_face, back_inputs, charset, face, face_inputs
from generator.products.png import RENDERER_VERSION, face_png

#: Print-on-demand image sizes (px at 300 dpi, trim centred): The Game Crafter's poker
#: template is output/cards; MakePlayingCards wants 822×1122.
PROFILES = {"tgc": (825, 1125), "mpc": (822, 1122)}


def face_keys(ctx: BuildContext) -> dict[str, str]:
    """Card code (and "back") -> a hash of everything its face depends on, without drawing it."""
    def make() -> dict[str, str]:
        deck, version = ctx.deck, code_version()
        keys = {c.code: key(version, face_inputs(c, deck)) for c in deck.cards}
        keys["back"] = key(version, back_inputs(deck))
        return keys
    return ctx.once("face-keys", make)


def face_of(ctx: BuildContext, code: str) -> Face:
    """The display list of one face, drawn at most once per build."""
    drawn = ctx.shared.setdefault("faces", {})
    if code not in drawn:
        drawn[code] = back_face(ctx.deck) if code == "back" else face(ctx.deck.card(code), ctx.deck)
    return drawn[code]


def chars(ctx: BuildContext) -> str:
    return ctx.once("charset", lambda: charset(ctx.deck))


def pdf_forms(ctx: BuildContext) -> dict[str, bytes]:
    """Card code (and "back") -> its face as a formatted PDF form, from the cache where possible.

    Every PDF of the build writes these bytes as they are (pdf.reuse_forms), so a face is
    turned into PDF once, not once per file.
    """
    def make() -> dict[str, bytes]:
        store, cs = cache(ctx), chars(ctx)
        cs_key = key(cs)
        out: dict[str, bytes] = {}
        todo: list[tuple[str, str]] = []
        for code, fk in face_keys(ctx).items():
            k = key("pdf-form", fk, cs_key)
            data = store.get("pdf-form", k)
            if data is None:
                todo.append((code, k))
            else:
                out[code] = data
        fresh = ctx.shared.get("fresh-ops", {})
        missing = [code for code, _ in todo if code not in fresh]
        ops = {**{c: fresh[c] for c, _ in todo if c in fresh},
               **pdf.form_ops([face_of(ctx, code) for code in missing], cs)}
        made = pdf.format_forms({code: ops[code] for code, _ in todo}, cs) if todo else {}
        for code, k in todo:
            store.put("pdf-form", k, made[code])
            out[code] = made[code]
        store.prune("pdf-form")
        return {code: out[code] for code in face_keys(ctx)}
    return ctx.once("pdf-forms", make)


def cache(ctx: BuildContext) -> RenderCache:
    """The face cache in OUT/.cache; during a build its new entries wait in the staging folder."""
    def make() -> RenderCache:
        return RenderCache(ctx.target, stage=ctx.staging.cache if ctx.staging is not None else None)
    return ctx.once("cache", make)


def workers(ctx: BuildContext) -> int:
    return ctx.jobs or os.cpu_count() or 1


def run_jobs(ctx: BuildContext, fn: Callable, jobs: list[tuple], label: str) -> list:
    """fn(*job) for every job, on ctx.jobs processes, with a progress bar on a terminal."""
    if not jobs:
        return []
    n = min(workers(ctx), len(jobs))
    if n <= 1:
        bar = _bar(ctx, len(jobs), label)
        try:
            results = []
            for job in jobs:
                results.append(fn(*job))
                bar.update(1)
            return results
        finally:
            bar.close()
    methods = multiprocessing.get_all_start_methods()
    mp = multiprocessing.get_context("fork" if "fork" in methods else None)
    pool = ProcessPoolExecutor(n, mp_context=mp, initializer=_worker_start)
    try:
        futures = [pool.submit(fn, *job) for job in jobs]
        bar = _bar(ctx, len(jobs), label)  # after the workers exist: never fork with its thread running
        try:
            results = []
            for fut in futures:
                results.append(fut.result())
                bar.update(1)
            return results
        finally:
            bar.close()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # after a failure or Ctrl-C: start no more jobs


def _worker_start() -> None:
    """Workers leave Ctrl-C to the main process, which stops the build and cleans up."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


class _RichBar:
    """A transient rich progress bar on stderr."""

    def __init__(self, total: int, label: str):
        from rich.console import Console
        from rich.progress import Progress

        self.progress = Progress(console=Console(stderr=True), transient=True)
        self.progress.start()
        self.task = self.progress.add_task(label, total=total)

    def update(self, n: int) -> None:
        self.progress.advance(self.task, n)

    def close(self) -> None:
        self.progress.stop()


def _bar(ctx: BuildContext, total: int, label: str):
    if not ctx.progress:
        return _NoBar()
    return _RichBar(total, label)


def _render(face: Face, size: tuple[int, int], charset_: str) -> tuple[bytes, str]:
    """Worker: the print PNG of a face and, given the deck's charset, its PDF operators."""
    return face_png(face, size)[0], pdf.form_ops([face], charset_)[face.key] if charset_ else ""


def deck_colours(ctx: BuildContext) -> tuple[str, ...]:
    """Every colour any face uses, in first-use order: the palette of the TTS sheets."""
    def make() -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for code in face_keys(ctx):
            for c in face_of(ctx, code).colours():
                seen.setdefault(c)
        return tuple(seen)
    return ctx.once("deck-colours", make)


def images(ctx: BuildContext, profile: str) -> dict[str, bytes]:
    """Face key -> print PNG for a profile, rendered only where the cache has no copy."""
    def make() -> dict[str, bytes]:
        size = PROFILES[profile]
        store = cache(ctx)
        out: dict[str, bytes] = {}
        todo: list[tuple[str, str]] = []
        for code, fk in face_keys(ctx).items():
            k = key(RENDERER_VERSION, profile, size, fk)
            data = store.get(profile, k)
            if data is None:
                todo.append((code, k))
            else:
                out[code] = data
        ctx.shared.setdefault("rendered", {})[profile] = [code for code, _ in todo]
        cs = chars(ctx) if profile == "tgc" else ""
        results = run_jobs(ctx, _render, [(face_of(ctx, code), size, cs) for code, _ in todo], f"{profile} images")
        fresh_ops = ctx.shared.setdefault("fresh-ops", {})
        for (code, k), (data, ops) in zip(todo, results):
            store.put(profile, k, data)
            out[code] = data
            if ops:
                fresh_ops[code] = ops
        store.prune(profile)
        return out
    return ctx.once(f"images-{profile}", make)
