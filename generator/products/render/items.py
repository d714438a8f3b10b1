"""The drawing items a face is made of, and the geometry that builds them.

A face is a tuple of items in *dots* (300 dpi pixels) measured from the top-left of the trim, y
downwards: filled polygons, strokes, lines of text and pictures (PNG, JPEG or SVG files). The PDF backend (pdf.py) draws each kind;
an item that reads a file names it (`files()`), so the face cache keys a face by those bytes too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Union

from generator.products.render.assets import art
from generator.products.render import typeface as tf
from generator.products.render.units import TRIM_H, TRIM_W

W, H = TRIM_W, TRIM_H

Point = tuple[float, float]


@dataclass(frozen=True)
class Poly:
    """A filled polygon."""

    points: tuple[Point, ...]
    fill: str


@dataclass(frozen=True)
class Stroke:
    """A polyline of `width`, closed when `closed`."""

    points: tuple[Point, ...]
    width: float
    colour: str
    closed: bool = False


@dataclass(frozen=True)
class Text:
    """One line of text; (x, y) is on the baseline at the left, middle or right (`align`).

    `rot180` turns it upside down about (x, y), for the bottom-right corner index.
    """

    x: float
    y: float
    text: str
    size: float
    fill: str
    bold: bool = False
    align: str = "m"
    rot180: bool = False
    stroke: float = 0.0  #: outline width around the glyphs (0: none)
    stroke_colour: str = ""
    #: a font file's absolute path (TTF/OTF: render/assets/font_files.py); "" is the built-in typeface,
    #: whose regular or bold face `bold` picks
    font: str = ""

    def files(self) -> tuple[Path, ...]:
        """The files drawing it reads: its font."""
        return (Path(self.font),) if self.font else (tf.FILES[self.bold],)

    def bbox(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) in dots, from the font's advance widths and ascent."""
        w = tf.width(self.text, self.size, self.bold, font=self.font)
        ascent, descent = tf.extent(self.font)
        left = {"l": self.x, "m": self.x - w / 2, "r": self.x - w}[self.align]
        top, bottom = self.y - ascent * self.size - self.stroke, self.y + descent * self.size + self.stroke
        left, right = left - self.stroke, left + w + self.stroke
        if self.rot180:
            left, right = 2 * self.x - right, 2 * self.x - left
            top, bottom = 2 * self.y - bottom, 2 * self.y - top
        return left, top, right, bottom


@dataclass(frozen=True)
class Outline:
    """A one-colour SVG picture (an inline icon drawn in `currentColor`, render/assets/icon_files.py) as
    vector outlines filled with `fill`: its viewBox scaled into the box (x0, y0)-(x1, y1), the
    contours filled together by the nonzero winding rule, so a glyph's counters stay open.
    `rot180` turns it half a turn about the box's centre (the bottom-right corner index)."""

    x0: float
    y0: float
    x1: float
    y1: float
    path: Path
    fill: str
    rot180: bool = False

    def files(self) -> tuple[Path, ...]:
        """The files drawing it reads: the picture (the face cache keys the face by its bytes)."""
        return (Path(self.path),)

    def bbox(self) -> tuple[float, float, float, float]:
        return self.x0, self.y0, self.x1, self.y1


@dataclass(frozen=True)
class Image:
    """A picture file (PNG, JPEG or SVG) drawn into the box (x0, y0)-(x1, y1), which may reach
    into the bleed. `fit` "cover" fills the box, the overflow cut off at the box; "contain" shows
    the whole picture, centred. `matte` is the colour under the box: where a file may carry no
    transparency (the PDF/X-1a print-shop file), transparent pixels are composited onto it."""

    x0: float
    y0: float
    x1: float
    y1: float
    path: Path
    fit: str = "contain"
    matte: str = "#FFFFFF"

    def __post_init__(self) -> None:
        if self.fit not in FITS:
            raise ValueError(f"unknown fit '{self.fit}' (one of {', '.join(FITS)})")

    def files(self) -> tuple[Path, ...]:
        """The files drawing it reads: the picture."""
        return (Path(self.path),)

    def bbox(self) -> tuple[float, float, float, float]:
        return self.x0, self.y0, self.x1, self.y1

    def colours(self) -> tuple[str, ...]:
        """The colours the picture shows (a few for a photograph), for the palettes of the images."""
        return art.picture_colours(self.path)


FITS = ("cover", "contain")

Item = Union[Poly, Stroke, Text, Outline, Image]


@dataclass(frozen=True)
class Fitted:
    """How one text element of a face was set (not drawn; the print rules read it): the element's
    name, the smallest size its text prints at, and whether the text fits the element's box at
    that size (a text held at its element's `min_size` may not: it would run out of its box)."""

    element: str
    size: float
    fits: bool = True


@dataclass(frozen=True)
class Face:
    """Everything printed on one side of one card type; `fitted`, how each of its text elements
    was set (products/printable.py checks the sizes and fits; nothing draws it)."""

    key: str  #: card code, or "back"
    items: tuple[Item, ...]
    fitted: tuple[Fitted, ...] = ()

    def texts(self) -> list[Text]:
        return [i for i in self.items if isinstance(i, Text)]

    def images(self) -> list[Image]:
        return [i for i in self.items if isinstance(i, Image)]

    def files(self) -> tuple[Path, ...]:
        """Every file drawing the face reads (an item with a `files()` method names its own: a
        text its font), sorted: their bytes are part of the face's cache key."""
        return tuple(sorted({f for item in self.items if hasattr(item, "files") for f in item.files()}))

    def colours(self) -> list[str]:
        """Every colour the face uses (the PNG palette is built from them): the colours it draws,
        first use first, then the few its pictures show."""
        seen = dict.fromkeys(self.drawn_colours())
        for image in self.images():
            seen.update(dict.fromkeys(image.colours()))
        return list(seen)

    def drawn_colours(self) -> list[str]:
        """The colours of the items it draws, first use first: these print exactly in every image."""
        seen: dict[str, None] = {}
        for item in self.items:
            for c in (getattr(item, "fill", ""), getattr(item, "colour", ""), getattr(item, "stroke_colour", "")):
                if c:
                    seen.setdefault(c)
        return list(seen)


# --- geometry -----------------------------------------------------------------------------

def rect(x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


@lru_cache(maxsize=None)
def rounded_rect(x0: float, y0: float, x1: float, y1: float, r: float, steps: int = 7) -> tuple[Point, ...]:
    pts: list[Point] = []
    for cx, cy, start in ((x1 - r, y0 + r, -90), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, 90), (x0 + r, y0 + r, 180)):
        for i in range(steps + 1):
            a = math.radians(start + 90 * i / steps)
            pts.append((round(cx + r * math.cos(a), 2), round(cy + r * math.sin(a), 2)))
    return tuple(pts)


@lru_cache(maxsize=None)
def shape_points(shape: str, cx: float, cy: float, r: float) -> tuple[Point, ...]:
    """A colour's shape, fitting a circle of radius `r` around (cx, cy)."""
    def ring(n: int, radius: float, phase: float) -> list[Point]:
        return [(cx + radius * math.cos(phase + 2 * math.pi * k / n), cy + radius * math.sin(phase + 2 * math.pi * k / n))
                for k in range(n)]

    up = -math.pi / 2
    if shape == "triangle":
        pts = [(cx, cy - r), (cx + r, cy + 0.8 * r), (cx - r, cy + 0.8 * r)]
    elif shape == "square":
        s = r * 0.86
        pts = list(rect(cx - s, cy - s, cx + s, cy + s))
    elif shape == "diamond":
        pts = [(cx, cy - r), (cx + 0.8 * r, cy), (cx, cy + r), (cx - 0.8 * r, cy)]
    elif shape == "star":
        outer, inner = ring(5, r, up), ring(5, r * 0.45, up + math.pi / 5)
        pts = [p for pair in zip(outer, inner) for p in pair]
    elif shape == "hexagon":
        pts = ring(6, r, 0.0)
    else:  # circle
        pts = ring(48, r, 0.0)
    return tuple((round(x, 2), round(y, 2)) for x, y in pts)


def clip(poly: tuple[Point, ...], a: float, b: float, c: float) -> tuple[Point, ...]:
    """The part of a convex polygon where a*x + b*y <= c (Sutherland-Hodgman, one edge)."""
    out: list[Point] = []
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        fp, fq = a * p[0] + b * p[1] - c, a * q[0] + b * q[1] - c
        if fp <= 0:
            out.append(p)
        if (fp < 0 < fq) or (fq < 0 < fp):
            t = fp / (fp - fq)
            out.append((round(p[0] + t * (q[0] - p[0]), 2), round(p[1] + t * (q[1] - p[1]), 2)))
    return tuple(out)


def rotate180(item: Item) -> Item:
    """The item turned half a turn about the card's centre."""
    if isinstance(item, Text):
        return Text(W - item.x, H - item.y, item.text, item.size, item.fill, item.bold, item.align,
                    not item.rot180, item.stroke, item.stroke_colour, item.font)
    if isinstance(item, Outline):
        return Outline(round(W - item.x1, 2), round(H - item.y1, 2), round(W - item.x0, 2), round(H - item.y0, 2),
                       item.path, item.fill, not item.rot180)
    if isinstance(item, Image):
        raise ValueError("a picture cannot be turned half a turn")
    pts = _turned(item.points)
    if isinstance(item, Poly):
        return Poly(pts, item.fill)
    return Stroke(pts, item.width, item.colour, item.closed)


@lru_cache(maxsize=4096)
def _turned(points: tuple[Point, ...]) -> tuple[Point, ...]:
    """Points turned half a turn about the card's centre (kept: every card of a colour turns the same shapes)."""
    return tuple((round(W - x, 2), round(H - y, 2)) for x, y in points)


def luminance(hex_rgb: str) -> float:
    def lin(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (int(hex_rgb[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast(a: str, b: str) -> float:
    lo, hi = sorted((luminance(a), luminance(b)))
    return (hi + 0.05) / (lo + 0.05)
