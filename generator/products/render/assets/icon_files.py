"""Icon pictures the layout declares (`look: icons:`), read for inline use (inline.py).

An SVG whose shapes are filled with `currentColor` (and have no stroke) is a one-colour icon: a
face draws it as an Outline item in the ink of the text it stands in, so the same icon prints
dark on a white card and light on a black one; the PDF backend reads its outlines (`contours`:
fontTools' SVG path reader, paths and the basic shapes with their transforms) when it draws. The
wild glyphs shipped beside cards.yaml (art/icons/<effect>.svg) are such icons, made from the
typeface's own glyph outlines. Any other picture (PNG, JPEG, an SVG in its own colours) is drawn
as it is, as an Image item. Laying a face out reads only a picture's size and kind, never its
pixels or outlines.

An icon's box is one em tall: the SVG's viewBox height is the text's size, and its top edge
stands at the font's ascent above the baseline (inline.ICON_TOP), its width following the aspect.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from generator.deck.input_file import read_limited
from generator.products.render.assets.svg_values import transform_matrix

#: The largest icon file read, in bytes (an icon is small; the shipped ones are under 4 KB); validate
#: refuses a larger one at the line that names it (products/print_rules.py).
MAX_ICON_BYTES = 512 * 1024
#: Straight segments a curve of an outline becomes (at a 190-dot glyph, under a tenth of a dot off).
CURVE_STEPS = 12
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


@dataclass(frozen=True)
class Picture:
    """A declared icon picture: its file, its aspect (width / height), and whether it is a
    one-colour SVG (`currentColor`), drawn as outlines in the text's ink (items.Outline)."""

    path: Path
    aspect: float
    tinted: bool = False


def read(path: Path) -> bytes:
    return read_limited(str(path), MAX_ICON_BYTES, "an icon")


def picture(path: Path) -> Picture:
    """The icon at `path`: its aspect and whether it is one-colour (cached by its bytes). Laying
    out reads no more: no XML parser, no outlines, no pixels (validate lays out every face)."""
    data = read(path)
    return _picture(str(path), data)


_SVG_TAG = re.compile(rb"<svg\b[^>]*>", re.S)
_PAINT = re.compile(rb"""\b(fill|stroke)\s*(?:=\s*["']|:\s*)\s*([^"';>\s]+)""")


@lru_cache(maxsize=256)
def _picture(path: str, data: bytes) -> Picture:
    if not data.startswith((b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff")):  # by content, not by name, as art.py
        tag = _SVG_TAG.search(data)
        if tag is None:
            raise ValueError(f"{path}: not an SVG file (no <svg> element)")
        _, _, w, h = svg_view(tag.group(0).decode("utf-8", "replace"))
        paints = {(kind, value) for kind, value in _PAINT.findall(data)}
        fills = {v for k, v in paints if k == b"fill"} - {b"none"}
        strokes = {v for k, v in paints if k == b"stroke"} - {b"none"}
        return Picture(Path(path), w / h, fills == {b"currentColor"} and not strokes)
    from generator.products.render.assets.art import open_raster  # lazy: Pillow, for a raster icon only

    with open_raster(data) as im:  # its header only, no pixels, under art.py's limits (no Pillow warning)
        w, h = im.size
    return Picture(Path(path), w / h if h else 1.0)


def _attribute(tag: str, name: str) -> str | None:
    found = re.search(rf"""\s{name}\s*=\s*["']([^"']*)["']""", tag)
    return found.group(1) if found else None


def svg_view(tag: str) -> tuple[float, float, float, float]:
    """The viewBox (x, y, width, height) of an <svg ...> tag, else (0, 0, width, height)."""
    box = _attribute(tag, "viewBox")
    if box and len(_NUMBER.findall(box)) >= 4:
        x, y, w, h = (float(v) for v in _NUMBER.findall(box)[:4])
    else:
        x, y = 0.0, 0.0
        w, h = (float((_NUMBER.findall(_attribute(tag, k) or "0") or ["0"])[0]) for k in ("width", "height"))
    if w <= 0 or h <= 0:
        raise ValueError("an SVG icon needs a viewBox (or a width and height) of some size")
    return x, y, w, h


Contours = tuple[tuple[tuple[float, float], ...], ...]

#: The outlines of the SVG icons seen, by the SHA-256 of their bytes: made here (svg_outlines) or
#: remembered from the face cache (pipeline/rendered.py: recall_outlines), so a rebuild need not
#: load fontTools or trace a curve, and the workers it forks inherit them.
_OUTLINES: dict[str, Contours] = {}


def contours(path: Path) -> Contours:
    """A one-colour SVG icon's outlines, in em units (x right, y down from the em box's top; the
    viewBox's height is one em), for drawing (pdf.py, the rulebook); kept by its bytes."""
    return outlines_of(read(path))


def outlines_of(data: bytes) -> Contours:
    """The outlines of the SVG `data` (svg_outlines), made once per content."""
    sha = hashlib.sha256(data).hexdigest()
    found = _OUTLINES.get(sha)
    if found is None:
        found = _OUTLINES[sha] = svg_outlines(data)
    return found


def known_outlines(sha: str) -> Contours | None:
    """The outlines of the SVG whose bytes have this SHA-256, if made or remembered."""
    return _OUTLINES.get(sha)


def remember_outlines(sha: str, outlines: Contours) -> None:
    """Take the outlines of the SVG whose bytes have this SHA-256, as svg_outlines made them."""
    _OUTLINES[sha] = outlines


def forget_outlines() -> None:
    """Forget every outline made or remembered (a benchmark's cold build)."""
    _OUTLINES.clear()


def svg_outlines(data: bytes) -> Contours:
    """The outlines of an SVG (paths and the basic shapes, in groups and through <use>, each with the
    transforms of its own and of every element around it), in em units. What is only referred to
    (<defs>, <symbol>, clip paths, masks) or not displayed draws nothing by itself."""
    from fontTools.misc.transform import Identity  # lazy: only drawing a one-colour SVG icon reads outlines
    from fontTools.pens.basePen import BasePen  # lazy: as above
    from fontTools.pens.transformPen import TransformPen  # lazy: as above
    from fontTools.svgLib.path.parser import parse_path  # lazy: as above
    from fontTools.svgLib.path.shapes import PathBuilder  # lazy: as above

    from generator.products.render.assets.art import parse_svg  # lazy: the safe XML reader, with lxml

    tag = _SVG_TAG.search(data)
    if tag is None:
        raise ValueError("not an SVG file (no <svg> element)")
    x, y, w, h = svg_view(tag.group(0).decode("utf-8", "replace"))
    out: list[tuple[tuple[float, float], ...]] = []

    class Flatten(BasePen):
        def __init__(self) -> None:
            super().__init__(None)
            self.points: list[tuple[float, float]] = []

        def _moveTo(self, p):
            self._close()
            self.points = [p]

        def _lineTo(self, p):
            self.points.append(p)

        def _curveToOne(self, p1, p2, p3):
            p0 = self.points[-1]
            for k in range(1, CURVE_STEPS + 1):
                t = k / CURVE_STEPS
                u = 1 - t
                self.points.append((u ** 3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t ** 3 * p3[0],
                                    u ** 3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t ** 3 * p3[1]))

        def _closePath(self):
            self._close()

        def _endPath(self):
            self._close()

        def _close(self) -> None:
            if len(self.points) > 2:
                out.append(tuple((round((px - x) / h, 5), round((py - y) / h, 5)) for px, py in self.points))
            self.points = []

    pen = Flatten()
    root = parse_svg("icon", data)
    ids = {el.get("id"): el for el in root.iter() if isinstance(el.tag, str) and el.get("id") is not None}

    def walk(el, matrix, depth: int) -> None:
        if not isinstance(el.tag, str) or depth > USE_DEPTH:
            return
        local = el.tag.rsplit("}", 1)[-1]
        if local in NOT_DRAWN or _hidden(el):
            return
        if el.get("transform"):
            matrix = matrix.transform(svg_transform(el.get("transform")))
        if local == "use":
            href = el.get("href") or el.get("{http://www.w3.org/1999/xlink}href") or ""
            target = ids.get(href[1:]) if href.startswith("#") else None
            if target is not None:
                moved = matrix.translate(_number(el.get("x")), _number(el.get("y")))
                walk_children(target, moved, depth + 1) if target.tag.rsplit("}", 1)[-1] == "symbol" else \
                    walk(target, moved, depth + 1)
            return
        parse = getattr(PathBuilder, f"_parse_{local.lower()}", None)
        if parse is not None:
            shapes = PathBuilder()
            parse(shapes, _Lengths(el))
            for path in shapes.paths:
                parse_path(path, TransformPen(pen, matrix))
                pen._close()
        walk_children(el, matrix, depth)

    def walk_children(el, matrix, depth: int) -> None:
        for child in el:
            walk(child, matrix, depth)

    walk_children(root, Identity, 0)
    pen._close()
    return tuple(out)


#: Elements whose content is drawn only where something refers to it, or never.
NOT_DRAWN = frozenset(("defs", "symbol", "clipPath", "mask", "marker", "pattern", "linearGradient", "radialGradient",
                       "filter", "title", "desc", "metadata", "style", "script"))
#: How deep one <use> may reach through others (art.py refuses deeper ones before this is reached).
USE_DEPTH = 50


def _number(value: str | None) -> float:
    found = _NUMBER.match((value or "").strip())
    return float(found.group(0)) if found else 0.0


def _hidden(el) -> bool:
    style = (el.get("style") or "").replace(" ", "")
    return el.get("display") == "none" or "display:none" in style


def svg_transform(text: str):
    """An SVG `transform` attribute (a list of matrix, translate, scale, rotate, skewX, skewY) as
    one fontTools Transform, applied right to left as SVG does; ValueError for anything else."""
    from fontTools.misc.transform import Transform  # lazy: as svg_outlines

    return Transform(*transform_matrix(text))


def check_shapes(data: bytes) -> None:
    """ValueError naming the first length of a basic shape that svg_outlines could not follow (a
    length in % or em), read with the same safe XML reader as the picture check, and no fontTools:
    the picture check (art.py) has read every transform, path and length of the file strictly."""
    from generator.products.render.assets.art import parse_svg  # lazy: as svg_outlines

    for el in parse_svg("icon", data).iter():
        if isinstance(el.tag, str) and el.tag.rsplit("}", 1)[-1] in ("rect", "circle", "ellipse", "line"):
            _Lengths(el)


#: Lengths of the basic shapes, and the user units (CSS px) of each unit they may be written in.
SHAPE_LENGTHS = ("x", "y", "width", "height", "rx", "ry", "cx", "cy", "r", "x1", "y1", "x2", "y2")
UNITS = {"": 1.0, "px": 1.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4, "pt": 96 / 72, "pc": 16.0}
_LENGTH = re.compile(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([a-z]*)\s*")


class _Lengths:
    """An element as fontTools' shape reader reads it (`attrib`), its shapes' lengths in user units:
    `10px` or `2mm` is a number to it (it raised on the unit); a length in % or em, which depends
    on what holds it, is a ValueError naming it."""

    def __init__(self, el) -> None:
        self.attrib = dict(el.attrib)
        for key in SHAPE_LENGTHS:
            value = self.attrib.get(key)
            if value is None:
                continue
            found = _LENGTH.fullmatch(value)
            if found is None or found.group(2) not in UNITS:
                raise ValueError(f"a length it cannot read: {key}=\"{value}\" (give it in px, mm, cm, in, pt or pc)")
            self.attrib[key] = repr(float(found.group(1)) * UNITS[found.group(2)])
