"""The raster images of the faces: every profile of profiles.py the build shows, drawn in one
PDFium pass per face on worker processes, started first so the rest of the build goes on while
they draw.

A build calls start() as soon as it begins; a product asking images() for a profile waits for
the drawing to finish. Each image goes through the face cache (OUT/.cache/PROFILE.pack), keyed
by what the face draws and the profile (image_key), so a rebuild after a one-card edit draws one
face, and any change that alters a face draws it again.
"""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path
from typing import Callable

from generator.deck.model import Deck
from generator.products.output.outputs import Folder
from generator.products.pipeline.context import BuildContext, BuildState
from generator.products.pipeline.request import BuildRequest
from generator.products.pipeline.face_cache import RenderCache
from generator.products.pipeline import pictures
from generator.products.pipeline.keys import code_version, key
from generator.products.render.items import Face
from generator.products.render.profiles import PROFILES
from generator.products.pipeline.rendered import (CardFailed, cache, chars, draw, face_keys, face_of, pool, recall_outlines,
                                                  started, workers)
from generator.progress import ProgressBar

Wanted = dict[str, "frozenset[str] | None"]  #: profile -> the faces shown in it (None: every face)

#: So few faces to draw (a rebuild after editing a card or two) that their worker loads PDFium
#: itself, while the main process goes on with the products (their PDF forms, the rulebook).
#: The fonts are parsed here first (the main process needs them for those faces' PDF forms
#: anyway), so the worker inherits them.
FEW = 2

#: Faces drawn so far by each worker's share of the drawing under way, in memory the forked
#: workers share with the build: the card-images bar counts them while the build waits.
_DRAWN = None


def start(ctx: BuildContext, wanted: Wanted, forms: pictures.Forms = ()) -> None:
    """Begin drawing every image the build shows (`wanted`: profile -> the faces shown in it,
    None for every face; known before anything is drawn, so each face is rendered once for
    every image it appears in) on worker processes, and return at once. The pictures those
    faces and the PDF `forms` the build makes show are prepared first (pictures.prepare)."""
    if ctx.state.drawing is None:
        ctx.state.drawing = Drawing(ctx, wanted, forms)


def images(ctx: BuildContext, profile: str) -> dict[str, bytes]:
    """Face key -> PNG in a profile, for the faces the build shows in it (waits for the drawing;
    one thread at a time)."""
    with ctx.state.images_lock:
        if ctx.state.images is None:
            start(ctx, {})  # nothing started: each profile is drawn when asked
            ctx.state.images = ctx.state.drawing.finish()
        done = ctx.state.images
        if profile not in done:  # a profile the build did not expect: drawn on its own
            done.update(Drawing(ctx, {profile: None}).finish())
        return done[profile]


def standalone_images(deck: Deck, profile: str, codes: frozenset[str] | None = None) -> dict[str, bytes]:
    """Face key -> PNG in a profile for a deck outside any build: drawn here, nothing cached."""
    nowhere = Path(os.devnull)
    ctx = BuildContext(deck, BuildRequest(nowhere, nowhere, jobs=1), Folder(nowhere), BuildState(cache=RenderCache(None)))
    return Drawing(ctx, {profile: codes}).finish()[profile]


def image_keys(ctx: BuildContext, profile: str) -> dict[str, str]:
    """Card code (and "back") -> the cache key of its image in a profile: the face's key
    (rendered.face_keys: what it draws, the files it reads, the rendering core's code), the
    profile, and this module's code, which has the faces drawn."""
    known = ctx.state.image_keys
    if profile not in known:
        here = code_version(Path(__file__).resolve())
        known[profile] = {code: key("image", here, PROFILES[profile], fk) for code, fk in face_keys(ctx).items()}
    return known[profile]


def face_png(face: Face, profile: str = "tgc") -> bytes:
    """One face drawn alone as a PNG in a profile, by the same PDFium pass a build uses."""
    from generator.products.render import pdf, png  # lazy: reportlab, Pillow

    chars_ = "".join(sorted({ch for t in face.texts() for ch in t.text} | {" "}))
    doc = pdf.faces_pdf([face], chars_)
    return next(png.render_pages(doc, [(0, face.colours(), (profile,), png.drawn_count(face))]))[profile]


class Drawing:
    """The images of some profiles: those in the cache, and the rest being drawn.

    Made, it looks up the cache and hands the missing faces to worker processes, a share each,
    which draw the faces (or find them drawn: faces.face keeps them, and forked workers inherit
    that), make their PDF and rasterize it; finish() waits for them and returns profile -> face
    key -> PNG.
    """

    def __init__(self, ctx: BuildContext, want: Wanted, forms: pictures.Forms = ()):
        self.ctx, self.want = ctx, want
        self.out: dict[str, dict[str, bytes]] = {p: {} for p in want}
        self.todo: dict[str, dict[str, str]] = {}  # code -> profile -> cache key, of what is missing
        self.jobs, self.pool, self.results, self.drawn = [], None, None, None
        #: a face that failed to draw (while keying it): raised by finish(), in the product that
        #: asks for the images, so the error names that product and the card
        self.failed: CardFailed | None = None
        try:
            keys = {p: image_keys(ctx, p) for p in want}
        except CardFailed as err:
            self.failed = err
            return
        store = cache(ctx)
        for code in face_keys(ctx):
            for p, codes in want.items():
                if codes is None or code in codes:
                    k = keys[p][code]
                    data = store.get(p, k)
                    if data is None:
                        self.todo.setdefault(code, {})[p] = k
                    else:
                        self.out[p][code] = data
        ctx.state.redrawn.update({p: [c for c, m in self.todo.items() if p in m] for p in want})
        # the pictures these faces and the forms show, made before the workers fork (they inherit them)
        prepared = _quietly(lambda: pictures.prepare(ctx, self.todo, forms))
        if self.todo:  # and the icons' outlines the face cache keeps (the workers need no fontTools)
            _quietly(lambda: recall_outlines(ctx))
        pages = [(code, tuple(missing)) for code, missing in self.todo.items()]
        n = max(1, min(workers(ctx), len(pages)))
        self.jobs = [(ctx.deck, share, chars(ctx), i) for i, share in enumerate(_shares(ctx, pages, n))] if pages else []
        global _DRAWN
        _DRAWN = None  # drawn here, one share after the other: no count to share
        if workers(ctx) > 1 and pages:
            # lazy: loaded once here, before the workers fork, not in each (while the pictures are made)
            from generator.products.render import pdf, png, typeface  # noqa: F401

            for bold in (False, True):
                typeface.pdf_font(bold)
            if len(pages) > FEW:
                import pypdfium2  # noqa: F401  # lazy: as above
        if prepared is not None:
            _quietly(prepared)
        if workers(ctx) > 1 and pages:
            self.drawn = _DRAWN = multiprocessing.RawArray("i", n)  # before the fork: the workers share it
            self.pool = started(ctx, pool(n, window=n))
            if not self.pool.forks:
                self.drawn = None  # workers started afresh do not share it: the bar counts whole shares
            self.results = self.pool.map(_draw, self.jobs, start=True)

    def finish(self) -> dict[str, dict[str, bytes]]:
        if self.failed is not None:
            raise self.failed
        ctx, store = self.ctx, cache(self.ctx)
        with ProgressBar(len(self.todo), "card images", enabled=ctx.request.progress and bool(self.todo)) as bar:
            bar.show()
            if self.pool is None:
                for job in self.jobs:
                    self._take(job, _draw(job), store)
                    bar.advance(len(job[1]))
            else:
                got = 0
                drawn = self.drawn
                with self.pool, bar.waiting(lambda: max(got, sum(drawn) if drawn is not None else 0)):
                    for job, result in zip(self.jobs, self.results):
                        self._take(job, result, store)
                        got += len(result)
                self.pool = None
        for p in self.want:
            store.prune(p)
        keys = face_keys(ctx)
        return {p: {code: self.out[p][code] for code in keys if code in self.out[p]} for p in self.want}

    def _take(self, job: tuple, result: list[dict[str, bytes]], store: RenderCache) -> None:
        for (code, _), pngs in zip(job[1], result):
            for p, k in self.todo[code].items():
                store.put(p, k, pngs[p])
                self.out[p][code] = pngs[p]


def _quietly(fn: Callable[[], object]) -> object:
    """fn(), or None where it raises: a picture, face or form that fails to be prepared fails
    again where it is drawn, and the error is told there, in the product that draws it."""
    try:
        return fn()
    except Exception:  # noqa: BLE001 -- see above
        return None


#: How many plain faces' work one face with a picture costs to draw: each of its images gets a
#: palette of its own (median cut) and is dithered (png.PictureColours).
PICTURE_WORK = 5


def _shares(ctx: BuildContext, pages: list[tuple[str, tuple[str, ...]]], n: int) -> list[list]:
    """The pages in n shares of about equal work, each in the pages' order: a face's work is its
    images, a face with pictures PICTURE_WORK times a plain one's."""
    def work(page: tuple[str, tuple[str, ...]]) -> int:
        return len(page[1]) * (PICTURE_WORK if face_of(ctx, page[0]).images() else 1)

    loads, owner = [0] * n, {}
    for i in sorted(range(len(pages)), key=lambda i: (-work(pages[i]), i)):
        j = loads.index(min(loads))
        owner[i] = j
        loads[j] += work(pages[i])
    return [[page for i, page in enumerate(pages) if owner[i] == j] for j in range(n)]


def _draw(job: tuple[Deck, list[tuple[str, tuple[str, ...]]], str, int]) -> list[dict[str, bytes]]:
    """Worker: faces drawn, made into a PDF and rasterized; per face, profile -> PNG bytes.
    Share `share`'s count in _DRAWN follows the faces done."""
    from generator.products.render import pdf, png  # lazy: reportlab, Pillow, only where a face is drawn

    deck, pages, chars_, share = job
    faces = [draw(deck, code) for code, _ in pages]
    doc = pdf.faces_pdf(faces, chars_)
    out = []
    for pngs in png.render_pages(doc, [(i, face.colours(), wanted, png.drawn_count(face)) for i, (face, (_, wanted))
                                       in enumerate(zip(faces, pages))]):
        out.append(pngs)
        if _DRAWN is not None and share < len(_DRAWN):
            _DRAWN[share] = len(out)
    return out
