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
import threading
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
                                                  recall_subsets, started, workers)
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
    """Face key -> PNG in a profile, for the faces the build shows in it: waits for those faces,
    not for the whole drawing (the rulebook's pictures are drawn first, so its PDF is printed
    while the other faces are drawn). Several threads may wait at once (Drawing.ready)."""
    with ctx.state.images_lock:
        start(ctx, {})  # nothing started: each profile is drawn when asked
        drawing = ctx.state.drawing
    if profile in drawing.want:
        return drawing.ready(profile)  # the drawing lets each thread go once its faces are in
    with ctx.state.images_lock:
        if ctx.state.images is None:
            ctx.state.images = {}
        done = ctx.state.images
        if profile not in done:  # a profile the build did not expect: drawn on its own
            done.update(Drawing(ctx, {profile: None}).finish())
        return done[profile]


def few_to_draw(ctx: BuildContext) -> bool:
    """Does the build's drawing have FEW faces or fewer to draw (a rebuild after an edit of a card or two)?"""
    drawing = ctx.state.drawing
    return drawing is not None and len(drawing.todo) <= FEW


def finish(ctx: BuildContext) -> None:
    """Wait for the drawing the build started to end (the faces no product has asked for yet),
    so that the face cache keeps and prunes what it drew."""
    if ctx.state.drawing is not None:
        ctx.state.drawing.finish()


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
    return next(png.render_pages(doc, [(0, face.colours(), (profile,), png.picture_palette(face))]))[profile]


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
        self.taken = 0  #: jobs whose faces are in `out`
        self.done = False  #: every job taken, the cache told to prune
        #: threads waiting for faces (the products, the rulebook's printer) take the results one
        #: job at a time, in turn: after each, every waiter looks whether its faces are in
        self._turn = threading.Condition()
        self._taking = False
        self._error: BaseException | None = None
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
        self.jobs = [(ctx.deck, share, chars(ctx), i) for i, share in enumerate(_jobs(ctx, pages, n))] if pages else []
        global _DRAWN
        _DRAWN = None  # drawn here, one share after the other: no count to share
        if workers(ctx) > 1 and pages:
            # lazy: loaded once here, before the workers fork, not in each (while the pictures are made)
            from generator.products.render import pdf, png, typeface  # noqa: F401

            for bold in (False, True):
                typeface.pdf_font(bold)
            if len(pages) > FEW:
                import pypdfium2  # noqa: F401  # lazy: as above
        if pages:  # the fonts' subsets every file of the faces embeds, made once (kept in the face cache)
            _quietly(lambda: recall_subsets(ctx))
        # FEW faces to draw (a rebuild's): their worker starts first and makes its own picture objects
        # (pdf_pictures.picture) while this process prepares them for the forms and the cache
        few = workers(ctx) > 1 and len(pages) <= FEW
        if prepared is not None and not few:
            _quietly(prepared)
        if workers(ctx) > 1 and pages:
            self.drawn = _DRAWN = multiprocessing.RawArray("i", len(self.jobs))  # before the fork: the workers share it
            # one job more than workers may be out: the worker done with the first, short job
            # (the early faces, _jobs) takes the last one at once, whoever is reading the results
            self.pool = started(ctx, pool(n, window=len(self.jobs)))
            if not self.pool.forks:
                self.drawn = None  # workers started afresh do not share it: the bar counts whole shares
            self.results = self.pool.map(_draw, self.jobs, start=True)
        if prepared is not None and few:
            _quietly(prepared)

    def ready(self, profile: str) -> dict[str, bytes]:
        """The images of `profile` once every face it shows is drawn, taking the jobs' results
        in order until then (the rest are drawn on meanwhile); all of them when it shows every face."""
        if self.failed is not None:
            raise self.failed
        if self.want[profile] is None:
            self.finish()
        else:
            missing = {code for code, m in self.todo.items() if profile in m}
            while not missing <= self.out[profile].keys() and self._take_next():
                pass
        return self._of(profile)

    def finish(self) -> dict[str, dict[str, bytes]]:
        """Every image, once every job is taken; the pool closed and the cache told to prune."""
        if self.failed is not None:
            raise self.failed
        if not self.done:
            before = sum(len(job[1]) for job in self.jobs[:self.taken])
            left = sum(len(job[1]) for job in self.jobs[self.taken:])
            drawn = self.drawn

            def count() -> int:
                taken = sum(len(job[1]) for job in self.jobs[:self.taken]) - before
                return max(taken, sum(drawn) - before if drawn is not None else 0)
            with ProgressBar(left, "card images", enabled=self.ctx.request.progress and bool(left)) as bar:
                with bar.waiting(count):
                    while self._take_next():
                        pass
            with self._turn:
                if not self.done:
                    if self.pool is not None:
                        with self.pool:
                            pass
                        self.pool = None
                    store = cache(self.ctx)
                    for p in self.want:
                        store.prune(p)
                    self.done = True
        return {p: self._of(p) for p in self.want}

    def _take_next(self) -> bool:
        """Take the next job's result (drawn here when there are no workers), or wait while
        another thread takes one; False once every job is taken."""
        with self._turn:
            if self._error is not None:
                raise self._error
            if self.taken >= len(self.jobs):
                return False
            if self._taking:
                self._turn.wait()
                return True
            self._taking = True
            job = self.jobs[self.taken]
        try:
            result = _draw(job) if self.pool is None else next(self.results)
        except BaseException as e:
            with self._turn:
                self._error, self._taking = e, False
                self._turn.notify_all()
            raise
        with self._turn:
            self._take(job, result, cache(self.ctx))
            self._taking = False
            self._turn.notify_all()
        return True

    def _of(self, profile: str) -> dict[str, bytes]:
        """Face key -> PNG of the faces of `profile` drawn or found so far, in the faces' order."""
        out = self.out[profile]
        return {code: out[code] for code in face_keys(self.ctx) if code in out}

    def _take(self, job: tuple, result: list[dict[str, bytes]], store: RenderCache) -> None:
        self.taken += 1
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
#: palette of its own (median cut of a sample) and is dithered around its pictures
#: (png.PictureColours): 28 ms for the three images of a wild with the benchmark's picture, 46 ms
#: with a photograph, 8 ms without.
PICTURE_WORK = 4


#: The profile whose faces are drawn first, in a job of their own: the rulebook's pictures, which
#: its PDF waits for (the printing then runs while the other faces are drawn).
EARLY = "rulebook"


def _jobs(ctx: BuildContext, pages: list[tuple[str, tuple[str, ...]]], n: int) -> list[list]:
    """The pages in jobs for n workers: n shares of about equal work (_shares); with more faces
    than a few to draw and some of them EARLY's, those come first, as a short job of their own,
    and the worker that draws them then takes the last share, the rest of its part."""
    early = [page for page in pages if EARLY in page[1]]
    rest = [page for page in pages if EARLY not in page[1]]
    if n < 2 or len(pages) <= FEW or not early or not rest:
        return _shares(ctx, pages, n)
    first, *others = _shares(ctx, rest, n, first_load=sum(_work(ctx, page) for page in early))
    return [share for share in (early, *others, first) if share]


def _work(ctx: BuildContext, page: tuple[str, tuple[str, ...]]) -> int:
    """A face's work: its images, a face with pictures PICTURE_WORK times a plain one's."""
    return len(page[1]) * (PICTURE_WORK if face_of(ctx, page[0]).images() else 1)


def _shares(ctx: BuildContext, pages: list[tuple[str, tuple[str, ...]]], n: int, first_load: int = 0) -> list[list]:
    """The pages in n shares of about equal work, each in the pages' order (_work); the first
    share already carries `first_load`."""
    loads, owner = [first_load] + [0] * (n - 1), {}
    for i in sorted(range(len(pages)), key=lambda i: (-_work(ctx, pages[i]), i)):
        j = loads.index(min(loads))
        owner[i] = j
        loads[j] += _work(ctx, pages[i])
    return [[page for i, page in enumerate(pages) if owner[i] == j] for j in range(n)]


def _draw(job: tuple[Deck, list[tuple[str, tuple[str, ...]]], str, int]) -> list[dict[str, bytes]]:
    """Worker: faces drawn, made into a PDF and rasterized; per face, profile -> PNG bytes.
    Share `share`'s count in _DRAWN follows the faces done."""
    from generator.products.render import pdf, png  # lazy: reportlab, Pillow, only where a face is drawn

    deck, pages, chars_, share = job
    faces = [draw(deck, code) for code, _ in pages]
    doc = pdf.faces_pdf(faces, chars_)
    out = []
    for pngs in png.render_pages(doc, [(i, face.colours(), wanted, png.picture_palette(face)) for i, (face, (_, wanted))
                                       in enumerate(zip(faces, pages))]):
        out.append(pngs)
        if _DRAWN is not None and share < len(_DRAWN):
            _DRAWN[share] = len(out)
    return out
