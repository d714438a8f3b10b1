"""Build products drawn from the card faces: card images, print sheets, print-on-demand files
and the Tabletop Simulator deck. Each is registered in build.PRODUCTS.

Rendering runs on every core (ctx.jobs) and goes through a cache keyed by each face's inputs,
so a rebuild after editing one card re-renders that card only. Products write under ctx.out
(the build's staging folder); anything that must name the final output folder uses ctx.target.
"""

from __future__ import annotations

import hashlib
import io
import multiprocessing
import os
import re
import signal
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any, Callable

from PIL import Image

from generator import pdf, sheets, tts
from generator.faces import Face, back_face, back_inputs, charset, face, face_inputs
from generator.model import Deck
from generator.outputs import Artifact, json_bytes, write_artifact
from generator.png import RENDERER_VERSION, encode, face_png, palette_for
from generator.render_cache import RenderCache, code_version, key
from generator.units import BLEED, TRIM_H, TRIM_W

if TYPE_CHECKING:
    from generator.build import BuildContext

#: Print-on-demand image sizes (px at 300 dpi, trim centred): The Game Crafter's poker
#: template is output/cards; MakePlayingCards wants 822×1122.
PROFILES = {"tgc": (825, 1125), "mpc": (822, 1122)}
POD_CHOICES = ("tgc", "mpc", "dtc")
_WORDS = {"+": "plus", "-": "minus", "/": "slash", "=": "eq", "*": "times", ".": "dot", " ": "_"}


# --- file names ---------------------------------------------------------------------------

def safe_name(code: str) -> str:
    """A file name stem for a card code, the same on every system.

    Letters and digits stay; a minus sign before a digit stays (`C-2`); every other
    character becomes a word between underscores: `+/-` -> `plus_slash_minus`,
    `=15` -> `eq_15`, `+1` -> `plus_1`.
    """
    parts: list[str] = []
    for i, ch in enumerate(code):
        nxt = code[i + 1] if i + 1 < len(code) else ""
        if ch.isascii() and ch.isalnum():
            parts.append(ch)
        elif ch == "-" and nxt.isdigit() and i > 0:
            parts.append(ch)
        else:
            parts.append(f"_{_WORDS.get(ch, f'u{ord(ch):04x}')}_")
    return re.sub("_+", "_", "".join(parts)).strip("_") or "card"


def file_names(deck: Deck) -> dict[str, str]:
    """Card code -> image file name; names that would clash (case-insensitively) get a suffix."""
    names: dict[str, str] = {}
    taken = {"back"}
    for card in deck.cards:
        stem = safe_name(card.code)
        base, n = stem, 2
        while stem.lower() in taken:
            stem, n = f"{base}_{n}", n + 1
        taken.add(stem.lower())
        names[card.code] = f"{stem}.png"
    return names


# --- shared work ----------------------------------------------------------------------------

def _shared(ctx: BuildContext, name: str, make: Callable[[], Any]) -> Any:
    if name not in ctx.shared:
        ctx.shared[name] = make()
    return ctx.shared[name]


def face_keys(ctx: BuildContext) -> dict[str, str]:
    """Card code (and "back") -> a hash of everything its face depends on, without drawing it."""
    def make() -> dict[str, str]:
        deck, version = ctx.deck, code_version()
        keys = {c.code: key(version, face_inputs(c, deck)) for c in deck.cards}
        keys["back"] = key(version, back_inputs(deck))
        return keys
    return _shared(ctx, "face-keys", make)


def face_of(ctx: BuildContext, code: str) -> Face:
    """The display list of one face, drawn at most once per build."""
    drawn = ctx.shared.setdefault("faces", {})
    if code not in drawn:
        drawn[code] = back_face(ctx.deck) if code == "back" else face(ctx.deck.card(code), ctx.deck)
    return drawn[code]


def chars(ctx: BuildContext) -> str:
    return _shared(ctx, "charset", lambda: charset(ctx.deck))


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
    return _shared(ctx, "pdf-forms", make)


def cache(ctx: BuildContext) -> RenderCache:
    """The face cache in OUT/.cache; during a build its new entries wait in the staging folder."""
    def make() -> RenderCache:
        return RenderCache(ctx.target, stage=ctx.staging.cache if ctx.staging is not None else None)
    return _shared(ctx, "cache", make)


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


# --- card images ------------------------------------------------------------------------------

def _render(face: Face, size: tuple[int, int], charset_: str) -> tuple[bytes, str]:
    """Worker: the print PNG of a face and, given the deck's charset, its PDF operators."""
    return face_png(face, size)[0], pdf.form_ops([face], charset_)[face.key] if charset_ else ""


def _cell(png: bytes, colours: tuple[str, ...]) -> bytes:
    """Worker: a TTS cell from a print PNG: the trim reduced to the sheet's cell size, in the
    deck-wide palette, so cells paste into one palette sheet without another quantize."""
    im = Image.open(io.BytesIO(png)).convert("RGB")
    ox, oy = round((im.width - TRIM_W) / 2), round((im.height - TRIM_H) / 2)
    small = im.crop((ox, oy, ox + int(TRIM_W), oy + int(TRIM_H))).resize((tts.CELL_W, tts.CELL_H), Image.Resampling.BOX)
    return encode(small, palette_for(list(colours)), dpi=72, level=1)


def deck_colours(ctx: BuildContext) -> tuple[str, ...]:
    """Every colour any face uses, in first-use order: the palette of the TTS sheets."""
    def make() -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for code in face_keys(ctx):
            for c in face_of(ctx, code).colours():
                seen.setdefault(c)
        return tuple(seen)
    return _shared(ctx, "deck-colours", make)


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
    return _shared(ctx, f"images-{profile}", make)


def tts_cells(ctx: BuildContext) -> dict[str, bytes]:
    """Face key -> TTS cell, made from the card images, cached by their bytes."""
    rendered = images(ctx, "tgc")
    colours = deck_colours(ctx)
    store = cache(ctx)
    out: dict[str, bytes] = {}
    todo = []
    for face_key, png in rendered.items():
        k = key("tts-cell-1", hashlib.sha256(png).hexdigest(), colours)
        data = store.get("tts-cell", k)
        if data is None:
            todo.append((face_key, k, png))
        else:
            out[face_key] = data
    for (face_key, k, _), data in zip(todo, run_jobs(ctx, _cell, [(png, colours) for _, _, png in todo], "tts cells")):
        store.put("tts-cell", k, data)
        out[face_key] = data
    store.prune("tts-cell")
    return out


def _write_images(ctx: BuildContext, folder: str, profile: str) -> list[Artifact]:
    rendered = images(ctx, profile)
    names = file_names(ctx.deck)
    arts = [write_artifact(ctx.out, f"{folder}/{names[c.code]}", rendered[c.code], "png", cards=1)
            for c in ctx.deck.cards]
    arts.append(write_artifact(ctx.out, f"{folder}/back.png", rendered["back"], "png", cards=1))
    return arts


def build_cards(ctx: BuildContext) -> list[Artifact]:
    """output/cards/: one 825×1125 PNG per distinct face, back.png, and index.json (code -> file)."""
    arts = _write_images(ctx, "cards", "tgc")
    names = file_names(ctx.deck)
    w, h = PROFILES["tgc"]
    index = {
        "size_px": [w, h], "dpi": 300, "bleed_px": round(BLEED, 1), "safe_px": round(BLEED, 1),
        "naming": "letters and digits kept; a minus before a digit kept (C-2); any other character "
                  "becomes a word between underscores: + plus, - minus, / slash, = eq (+/- -> plus_slash_minus)",
        "back": "back.png",
        "cards": {c.code: {"file": names[c.code], "name": c.name, "kind": c.kind, "set": c.set, "copies": c.copies}
                  for c in ctx.deck.cards},
    }
    arts.append(write_artifact(ctx.out, "cards/index.json", json_bytes(index), "json", cards=len(ctx.deck.cards)))
    return arts


# --- print sheets ---------------------------------------------------------------------------------

def _sheet_job(ops: dict[str, bytes], pages: list[sheets.Page], set_names: dict[str, str], paper: str, mode: str,
               filename: str, charset_: str) -> tuple[bytes, int]:
    return pdf.sheet_pdf(ops, pages, set_names, paper, mode, filename, charset_)


def print_sets(ctx: BuildContext) -> list[tuple[str, list]]:
    """(file suffix, card types): the complete printed set, then each edition asked for.

    An edition's file holds its playing cards plus the quick-reference cards.
    """
    deck = ctx.deck
    sets: list[tuple[str, list]] = [("", list(deck.cards))]
    for key_ in ctx.editions:
        codes = set(deck.edition(key_).codes)
        sets.append((f"-{key_}", [c for c in deck.cards if c.code in codes or c.kind == "reference"]))
    return sets


def build_print(ctx: BuildContext) -> list[Artifact]:
    """output/print/county-uppy-PAPER[-EDITION][-fronts|-backs].pdf."""
    ops, keys, cs, store = pdf_forms(ctx), face_keys(ctx), chars(ctx), cache(ctx)
    set_names = {s.key: s.name for s in ctx.deck.sets}
    jobs, meta = [], []
    for paper in ctx.papers:
        for suffix, cards in print_sets(ctx):
            pages = sheets.pages(ctx.deck, cards)
            used = [k for k in ops if k == "back" or any(k in p.codes for p in pages)]
            count = sum(len(p.codes) for p in pages)
            for mode, tail in (("duplex", ""), ("fronts", "-fronts"), ("backs", "-backs")):
                name = f"county-uppy-{paper}{suffix}{tail}.pdf"
                needs = ["back"] if mode == "backs" else used
                k = key("pdf", code_version(), [keys[u] for u in needs], pages, set_names, paper, mode, name, cs)
                data = store.get("pdf", k)
                if data is None:
                    jobs.append(({u: ops[u] for u in needs}, pages, set_names, paper, mode, name, cs))
                meta.append((name, count, len(pages) * (2 if mode == "duplex" else 1), k, data))
    results = iter(run_jobs(ctx, _sheet_job, jobs, "print sheets"))
    arts = []
    for name, count, n_pages, k, data in meta:
        if data is None:
            data, made = next(results)
            assert made == n_pages
            store.put("pdf", k, data)
        arts.append(write_artifact(ctx.out, f"print/{name}", data, "pdf", cards=count, pages=n_pages))
    store.prune("pdf")
    return arts


# --- print on demand -----------------------------------------------------------------------------

def build_pod(ctx: BuildContext) -> list[Artifact]:
    """output/pod/: MakePlayingCards images (822×1122) and a DriveThruCards-style PDF."""
    arts: list[Artifact] = []
    if "mpc" in ctx.pod:
        arts += _write_images(ctx, "pod/mpc", "mpc")
    if "dtc" in ctx.pod:
        codes = [c.code for c in ctx.deck.cards for _ in range(c.copies)]
        data, n = pdf.single_cards_pdf(pdf_forms(ctx), codes, "county-uppy-drivethrucards.pdf", chars(ctx))
        arts.append(write_artifact(ctx.out, "pod/county-uppy-drivethrucards.pdf", data, "pdf", cards=len(codes), pages=n))
    return arts


# --- Tabletop Simulator -----------------------------------------------------------------------------

def _sheet_png(cells: list[bytes], sheet: tts.Sheet, hidden: bytes) -> bytes:
    """Worker: one deck sheet. Cells share the deck palette, so the sheet is a palette image."""
    first = Image.open(io.BytesIO(hidden))
    im = Image.new("P", sheet.size, 0)
    im.putpalette(first.getpalette() or [])
    for slot, data in enumerate(cells):
        im.paste(Image.open(io.BytesIO(data)), sheet.cell(slot))
    im.paste(first, sheet.cell(sheet.hidden_slot))
    return encode(im, dpi=72)


def build_tts(ctx: BuildContext) -> list[Artifact]:
    """output/tts/: deck sheets, the back, and county-uppy.json (a TTS saved object)."""
    cells_by_key = tts_cells(ctx)
    keys = [c.code for c in ctx.deck.cards]
    layout = tts.layout(keys)
    store = cache(ctx)
    hidden = cells_by_key["back"]
    jobs, todo, arts = [], [], []
    done: dict[int, bytes] = {}
    for sheet in layout:
        cells = [cells_by_key[k] for k in sheet.keys]
        k = key("tts-sheet-1", sheet, cells, hidden)
        data = store.get("tts-sheet", k)
        if data is None:
            jobs.append((cells, sheet, hidden))
            todo.append((sheet.number, k))
        else:
            done[sheet.number] = data
    for (number, k), data in zip(todo, run_jobs(ctx, _sheet_png, jobs, "tts sheets")):
        store.put("tts-sheet", k, data)
        done[number] = data
    store.prune("tts-sheet")
    for sheet in layout:
        arts.append(write_artifact(ctx.out, f"tts/{sheet.filename}", done[sheet.number], "png", cards=len(sheet.keys)))
    arts.append(write_artifact(ctx.out, "tts/back.png", hidden, "png", cards=1))
    url = ctx.tts_url.rstrip("/") if ctx.tts_url else (ctx.target.resolve() / "tts").as_uri()
    obj = tts.saved_object(ctx.deck, layout, url)
    arts.append(write_artifact(ctx.out, "tts/county-uppy.json", json_bytes(obj), "tts", cards=ctx.deck.printed))
    return arts



