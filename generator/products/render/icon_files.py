"""Icon pictures the layout declares (`look: icons:`), read for inline use (inline.py).

An SVG whose shapes are filled with `currentColor` is a one-colour icon: it is read as outlines
(fontTools' SVG path reader: paths and the basic shapes, with their transforms) and drawn in the
ink of the text it stands in, as vector contours, so the same icon prints dark on a white card
and light on a black one. The wild glyphs shipped beside cards.yaml (art/icons/<effect>.svg) are
such icons, made from the typeface's own glyph outlines. Any other picture (PNG, JPEG, an SVG in
its own colours) is drawn as it is, as an Image item. Either way only the picture's size is
read here, never its pixels.

An icon's box is one em tall: the SVG's viewBox height is the text's size, and its top edge
stands at the font's ascent above the baseline (inline.ICON_TOP), its width following the aspect.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from io import BytesIO
from pathlib import Path

from generator.deck.input_file import read_limited

#: The largest icon file read, in bytes (an icon is small; the shipped ones are under 4 KB).
MAX_ICON_BYTES = 512 * 1024
#: Straight segments a curve of an outline becomes (at a 190-dot glyph, under a tenth of a dot off).
CURVE_STEPS = 12
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


@dataclass(frozen=True)
class Picture:
    """A declared icon picture: its file, its aspect (width / height) and, for an SVG drawn in
    `currentColor`, its outlines as contours in em units (x right, y down from the em box's top)."""

    path: Path
    aspect: float
    contours: tuple[tuple[tuple[float, float], ...], ...] | None = None


def read(path: Path) -> bytes:
    return read_limited(str(path), MAX_ICON_BYTES, "an icon")


def picture(path: Path) -> Picture:
    """The icon at `path`: its aspect and, for a one-colour SVG, its outlines (cached by its bytes)."""
    data = read(path)
    return _picture(str(path), data)


@lru_cache(maxsize=256)
def _picture(path: str, data: bytes) -> Picture:
    if path.lower().endswith(".svg"):
        aspect, contours = svg_outlines(data)
        if contours is not None:
            return Picture(Path(path), aspect, contours)
        return Picture(Path(path), aspect)
    from PIL import Image  # lazy: Pillow, for a raster icon only; opening reads its header, no pixels

    with Image.open(BytesIO(data)) as im:
        w, h = im.size
    return Picture(Path(path), w / h if h else 1.0)


def svg_view(root) -> tuple[float, float, float, float]:
    """The SVG's viewBox (x, y, width, height), else (0, 0, width, height)."""
    box = root.get("viewBox")
    if box:
        x, y, w, h = (float(v) for v in _NUMBER.findall(box)[:4])
        return x, y, w, h
    w, h = (float((_NUMBER.findall(root.get(k) or "0") or ["0"])[0]) for k in ("width", "height"))
    return 0.0, 0.0, w, h


def svg_outlines(data: bytes) -> tuple[float, tuple | None]:
    """(aspect, contours in em units) of an SVG; contours None unless every filled shape is
    `currentColor` (a one-colour icon)."""
    import xml.etree.ElementTree as ET  # lazy: only a layout with SVG icons parses XML

    root = ET.fromstring(data)
    x, y, w, h = svg_view(root)
    if w <= 0 or h <= 0:
        raise ValueError("an SVG icon needs a viewBox (or width and height) of some size")
    fills = {(el.get("fill") or "").strip() for el in root.iter() if el.tag.rsplit("}", 1)[-1]
             in ("path", "rect", "circle", "ellipse", "polygon", "polyline")}
    fills |= {(root.get("fill") or "").strip()} - {""}
    if not fills or any(f not in ("currentColor", "") for f in fills) or "currentColor" not in fills:
        return w / h, None
    from fontTools.pens.basePen import BasePen  # lazy: only a layout with one-colour SVG icons reads them
    from fontTools.svgLib.path import SVGPath  # lazy: as above

    contours: list[tuple[tuple[float, float], ...]] = []

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
                contours.append(tuple((round((px - x) / h, 5), round((py - y) / h, 5)) for px, py in self.points))
            self.points = []

    pen = Flatten()
    SVGPath.fromstring(data).draw(pen)
    pen._close()
    return w / h, tuple(contours)
