"""output/print/: print-and-play PDF sheets, the complete printed set and each edition asked for,
on every paper, in every layout asked for: duplex (with fronts-only and backs-only files) and
gutterfold; and on every paper the card-count sheet (render/card_count.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from generator.products.render import card_count, sheets
from generator.products.pipeline.context import BuildContext
from generator.products.pipeline.keys import code_version, key
from generator.products.output.outputs import Artifact
from generator.products.pipeline.rendered import background, cache, chars, form_keys, pdf_forms, stamp
from generator.products.render.stamp import Stamp


def _sheet_job(ops: dict[str, bytes], pages: list[sheets.Page], set_names: dict[str, str], g: sheets.Grid, mode: str,
               filename: str, charset_: str, stamp_: Stamp) -> tuple[bytes, int]:
    from generator.products.render import pdf  # lazy: reportlab, only for a file the cache lacks

    return pdf.sheet_pdf(ops, pages, set_names, g, mode, filename, charset_, stamp_)


def _count_job(editions: tuple[str, ...], tables: tuple, paper: str, filename: str, charset_: str,
               stamp_: Stamp) -> tuple[bytes, int]:
    return card_count.card_count_pdf(editions, tables, paper, filename, charset_, stamp_)


def _job(make: Callable[..., tuple[bytes, int]], *args) -> tuple[bytes, int]:
    """Worker: one file, a sheet or a card-count sheet (both kinds share one worker)."""
    return make(*args)


def grids(ctx: BuildContext) -> dict[tuple[str, str], sheets.Grid]:
    """(paper, layout) -> the sheet grid for the build's print options (sheets.LayoutError if one
    does not fit)."""
    r = ctx.request
    return {(paper, layout): sheets.grid(paper, r.gutter, r.duplex, r.back_offset, layout)
            for paper in ctx.papers for layout in r.layouts}


#: The files of each layout: (mode, file name's tail).
FILES = {"duplex": (("duplex", ""), ("fronts", "-fronts"), ("backs", "-backs")),
         "gutterfold": (("gutterfold", "-gutterfold"),)}


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


def form_variants(ctx: BuildContext) -> list[tuple[bool, None]]:
    """The faces' PDF forms the print sheets draw: RGB, the ink-saver faces with --ink-saver."""
    return [(ctx.request.ink_saver, None)]


def build_print(ctx: BuildContext) -> Callable[[], list[Artifact]]:
    """output/print/county-uppy-PAPER[-EDITION][-fronts|-backs|-gutterfold].pdf and
    county-uppy-PAPER-card-count.pdf: the PDFs the cache lacks are made by workers; the function
    returned waits for them and writes the files."""
    light = ctx.request.ink_saver
    ops, keys, cs, store, made_by = pdf_forms(ctx, light), form_keys(ctx, light), chars(ctx), cache(ctx), stamp(ctx)
    here = code_version(Path(__file__).resolve())
    set_names = {s.key: s.name for s in ctx.deck.sets}
    jobs, meta = [], []
    for (paper, layout), g in grids(ctx).items():
        note = sheets.gutter_note(paper, ctx.request.gutter, layout)
        if note and note not in ctx.notes:
            ctx.notes.append(note)
        for suffix, cards in print_sets(ctx):
            pages = sheets.pages(ctx.deck, cards, g.per_page)
            used = [k for k in ops if k == "back" or any(k in p.codes for p in pages)]
            count = sum(len(p.codes) for p in pages)
            for mode, tail in FILES[layout]:
                name = f"county-uppy-{paper}{suffix}{tail}.pdf"
                needs = ["back"] if mode == "backs" else used
                k = key("pdf", here, [keys[u] for u in needs], pages, set_names, g, mode, name, cs, made_by)
                data = store.get("pdf", k)
                if data is None:
                    jobs.append((_sheet_job, {u: ops[u] for u in needs}, pages, set_names, g, mode, name, cs, made_by))
                meta.append((name, count, (len(pages) + 1) * (2 if mode == "duplex" else 1), k, data))
    counted = card_count.tables(ctx.deck)
    count_jobs, count_meta = [], []
    for paper in ctx.papers:
        name = f"county-uppy-{paper}-card-count.pdf"
        k = key("pdf", here, counted, paper, name, cs, made_by)
        data = store.get("pdf", k)
        if data is None:
            count_jobs.append((_count_job, *counted, paper, name, cs, made_by))
        count_meta.append((name, ctx.deck.printed, k, data))
    # one process for both kinds: a file takes milliseconds (pdf_file.py), less than starting a second would cost
    pending = background(ctx, _job, count_jobs + jobs, "print sheets", processes=1)

    def finish() -> list[Artifact]:
        done = pending()
        counts, results = iter(done[:len(count_jobs)]), iter(done[len(count_jobs):])
        arts = []
        for name, n_cards, k, data in count_meta:
            if data is None:  # kept with its page count in front: b"PAGES\n" + the file
                data, n_pages = next(counts)
                store.put("pdf", k, b"%d\n" % n_pages + data)
            else:
                head, _, data = data.partition(b"\n")
                n_pages = int(head)
            arts.append(ctx.target.write(f"print/{name}", data, "pdf", cards=n_cards, pages=n_pages))
        for name, count, n_pages, k, data in meta:
            if data is None:
                data, made = next(results)
                assert made == n_pages
                store.put("pdf", k, data)
            arts.append(ctx.target.write(f"print/{name}", data, "pdf", cards=count, pages=n_pages))
        store.prune("pdf")
        return arts
    return finish
