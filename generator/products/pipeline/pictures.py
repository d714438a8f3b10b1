"""The pictures the faces show (`art:`), each prepared once for the forms it is drawn in, kept in
the face cache by what makes it, and prepared on worker processes.

A picture object (render/pdf_pictures.py) is a variant of a picture file: the file's content,
for a raster its box, fit and (in CMYK) matte, and its colour space: RGB for the card images and
the print-and-play forms, a shop's CMYK conversion for that shop's file (pdf_pictures.variant).
As a build starts (rasters.Drawing, before the card-image workers are forked), every variant it
needs is looked up in the face cache (area `picture`, keyed by the variant and the rendering
core's code, render/ and the drawing libraries' versions); those it lacks are made on worker
processes, all the variants of one file by one worker, which decodes and fits its pixels once
for them all. This process remembers them (pdf_pictures.remember): the card-image workers
inherit them, and the PDF forms take them from there. The colours a picture brings to the
images' palettes (art.picture_colours) are kept and made the same way (area `picture-colours`,
by the file's content).

So a rebuild after one picture file changed prepares that picture only; a rebuild that redraws
a face whose picture did not change takes the picture from the cache; and a rebuild that draws
nothing reads no picture and loads no imaging library for one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, Iterable

from generator.products.pipeline.context import BuildContext
from generator.products.pipeline.keys import code_version, key
from generator.products.pipeline.rendered import background, cache, face_keys, face_of, form_keys, workers
from generator.products.render import pdf_pictures
from generator.products.render.assets import art
from generator.products.render.press.cmyk import Ink

#: The face cache's areas: picture objects by variant, and pictures' colours by content.
AREA, COLOURS = "picture", "picture-colours"

#: The PDF forms a build makes: (ink-saver faces, CMYK conversion or None for RGB) of each.
Forms = tuple[tuple[bool, "Ink | None"], ...]

#: Files to prepare up to which they are prepared here rather than by starting workers (a
#: rebuild after a picture changed: a worker would cost more to start than the picture does).
FEW = 1


def prepare(ctx: BuildContext, drawn: Iterable[str], forms: Forms = ()) -> Callable[[], None]:
    """Have every picture object the build will draw remembered (pdf_pictures.remember): those
    of the faces `drawn` (card codes whose images are drawn: RGB) and of the `forms` the face
    cache lacks. From the face cache where it has them, else made on workers, started now (the
    files of FEW pictures: made here, by the function returned): the function returned waits for
    them, remembers them and puts them in the cache. The cache keeps the variants of every face's
    pictures (read or not) and drops the rest."""
    drawn = set(drawn)
    variants_of = {(False, None)} | set(forms)  # every face's images are RGB, drawn or from the cache
    in_use: dict[tuple, tuple] = {}  # variant -> (item, ink), for every face and form of the build
    wanted: set[tuple] = set()  # the variants this build draws
    files: dict[str, Path] = {}  # content's SHA-256 -> a path of the picture files the faces show
    store = cache(ctx)
    for light, ink in sorted(variants_of, key=repr):
        images = {code: face_of(ctx, code, light).images() for code in face_keys(ctx, light)}
        if not any(images.values()):
            continue
        forms_of = form_keys(ctx, light, ink) if (light, ink) in forms else {}
        for code, items in images.items():
            if not items:
                continue
            needed = (ink is None and not light and code in drawn) or (
                code in forms_of and not store.has("pdf-form", forms_of[code]))
            for item in items:
                v = pdf_pictures.variant(item, ink)
                in_use.setdefault(v, (item, ink))
                files.setdefault(v[1], Path(item.path))
                if needed:
                    wanted.add(v)
    pdf_pictures.forget(keep=set(in_use))
    if not in_use:
        return _nothing
    here = code_version()
    missing: dict[str, list[tuple]] = {}  # picture file's SHA-256 -> the variants to make of it
    for v, (item, ink) in in_use.items():
        k = key(AREA, here, v)
        if v in wanted and not pdf_pictures.remembered(v):
            data = store.get(AREA, k)
            try:
                if data is not None:
                    pdf_pictures.remember({v: pdf_pictures.load(data)})
                    continue
            except ValueError:
                pass  # the checksum passed, so only another version could write it: made again
            missing.setdefault(v[1], []).append((item, ink))
        elif not store.has(AREA, k) and pdf_pictures.remembered(v):
            store.put(AREA, k, pdf_pictures.dump(pdf_pictures.kept(v)))  # made by an earlier build of this process
    colours_missing = []
    for sha, path in files.items():
        k = key(COLOURS, here, sha)
        known = art.known_colours(sha)
        if known is not None:
            if not store.has(COLOURS, k):
                store.put(COLOURS, k, _colours_bytes(known))
            continue
        data = store.get(COLOURS, k)
        try:
            if data is not None:
                art.remember_colours({sha: tuple(_colours(data))})
                continue
        except ValueError:
            pass
        colours_missing.append(sha)
    store.prune(AREA)
    store.prune(COLOURS)
    groups = [(files[sha], missing.get(sha, []), sha in colours_missing)
              for sha in sorted(set(missing) | set(colours_missing))]
    if not groups:
        return _nothing
    n = 1 if len(groups) <= FEW else min(workers(ctx), len(groups))
    shares = _shares(groups, n)
    # niceness 0: the card images wait for these; a few are made here when they are waited for
    pending = background(ctx, _prepare, [(share,) for share in shares], "pictures", niceness=0) if n > 1 else None

    def finish() -> None:
        for made, colours in pending() if pending is not None else [_prepare(shares[0])]:
            for v, picture in made.items():
                store.put(AREA, key(AREA, here, v), pdf_pictures.dump(picture))
            pdf_pictures.remember(made)
            for sha, found in colours.items():
                store.put(COLOURS, key(COLOURS, here, sha), _colours_bytes(found))
            art.remember_colours(colours)
    return finish


def _nothing() -> None:
    pass


def _shares(groups: list[tuple], n: int) -> list[list[tuple]]:
    """The files to prepare in n shares of about equal work (pixels times variants), largest first."""
    def work(group: tuple) -> float:
        path, variants, colours = group
        try:
            w, h = art.picture_size(path)
        except art.ArtError:
            w = h = 1.0
        return w * h * (1 + sum(1 if ink is None else 2 for _, ink in variants) + colours)

    shares: list[list[tuple]] = [[] for _ in range(n)]
    loads = [0.0] * n
    for group in sorted(groups, key=work, reverse=True):
        i = loads.index(min(loads))
        shares[i].append(group)
        loads[i] += work(group)
    return [s for s in shares if s]


def _prepare(share: list[tuple]) -> tuple[dict[tuple, tuple], dict[str, tuple[str, ...]]]:
    """Worker (or here): a share's picture objects by variant, and its pictures' colours by content.

    A file that cannot be prepared is left out: the face that shows it fails where it is drawn,
    with the error it always gave, in the product that draws it."""
    made: dict[tuple, tuple] = {}
    colours: dict[str, tuple[str, ...]] = {}
    for path, variants, want_colours in share:
        try:
            made.update(pdf_pictures.prepare(variants))
            if want_colours:
                colours[art.digest(path)] = art.picture_colours(path)
        except Exception:  # noqa: BLE001 -- raised again, in its place, by the product that draws it
            continue
    return made, colours


def _colours_bytes(colours: tuple[str, ...]) -> bytes:
    return json.dumps(list(colours)).encode("ascii")


def _colours(data: bytes) -> list[str]:
    found = json.loads(data)
    if not isinstance(found, list) or not all(isinstance(c, str) and len(c) == 7 and c[0] == "#" for c in found):
        raise ValueError("not a list of colours")
    return found
