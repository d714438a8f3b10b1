"""Runs of text and icons: measuring, wrapping, fitting and drawing a marked text (deck/icons.py).

A marked text names icons inline (`{cyan}`, `{icon:skip}`, `{icon:NAME}`). Here each icon is an
inline box at the text's size: it stands on the baseline, its advance follows its picture's
aspect, and wrapping and shrink-to-fit measure it like a word's letters. A text without marks
takes the plain path (typeface.py) unchanged, item for item, so faces without icons stay as
they were.

What an icon draws (`Icons`, one per deck):
- a colour's shape (`{cyan}`): the colour's shape in its colour, outlined in the text's ink, as on
  the corner index (Poly and Stroke items);
- a picture the layout declares (`look: icons:`), the effect's glyph included: an SVG drawn in
  `currentColor` becomes vector outlines in the text's ink (so it follows a dark interior's light
  ink, as the glyph it replaces does); any other picture is drawn as it is (an Image item);
- an effect's glyph with no picture declared: the catalogue glyph in the typeface, without its
  parameters (`{icon:multiply}` draws ×; the wild's own big glyph adds the factor as text).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Mapping

from generator.deck import icons as marks
from generator.deck.effects import CATALOGUE
from generator.deck.icons import Mark
from generator.products.render import typeface as tf
from generator.products.render.assets.icon_files import Picture, picture
from generator.products.render.items import Item, Outline, Poly, Stroke, Text, shape_points

#: A colour's shape inline: its radius and advance as fractions of the text's size. The shape
#: sits on the baseline (its lowest point a hair above it), as tall as a capital letter.
SHAPE_RADIUS = 0.37
SHAPE_ADVANCE = 0.96
#: An icon picture's box: one em tall, from the font's ascent above the baseline to its descent
#: below, so a picture made from a glyph's outline over that box (tools: icon files) lands where
#: the glyph would.
ICON_TOP = tf.ASCENT
ICON_BOTTOM = tf.DESCENT


def glyph_sign(effect: str) -> str:
    """An effect's glyph without its parameters: `×{factor}` gives ×, `⊘` stays ⊘."""
    return re.sub(r"\{[^{}]*\}", "", CATALOGUE[effect].glyph) or CATALOGUE[effect].glyph


@dataclass(frozen=True)
class Icons:
    """What each icon of a deck draws: colour key -> (shape, rgb); declared pictures by name."""

    colours: Mapping[str, tuple[str, str]]
    pictures: Mapping[str, Picture] = field(default_factory=dict)
    #: the colour under a picture drawn as it is (the face's interior): the print-shop file, which
    #: may carry no transparency, composites the picture's transparent pixels onto it
    matte: str = "#FFFFFF"

    def on(self, matte: str) -> "Icons":
        """The same icons over an interior of colour `matte`."""
        return self if matte == self.matte or not self.pictures else replace(self, matte=matte)

    def advance(self, mark: Mark, size: float, bold: bool = False) -> float:
        if mark.colour:
            return SHAPE_ADVANCE * size
        picture = self.pictures.get(mark.name)
        if picture is not None:
            return picture.aspect * size
        return tf.width(self.sign(mark), size, bold)

    @staticmethod
    def sign(mark: Mark) -> str:
        return glyph_sign(mark.name) if mark.name in CATALOGUE else mark.name

    def draw(self, mark: Mark, x: float, baseline: float, size: float, ink: str, bold: bool = False) -> list[Item]:
        """The icon's items, its box's left edge at x, standing on `baseline`."""
        if mark.colour:
            shape, rgb = self.colours.get(mark.name, ("circle", ink))
            r = SHAPE_RADIUS * size
            pts = shape_points(shape, round(x + SHAPE_ADVANCE * size / 2, 2), round(baseline - r * 1.02, 2), round(r, 2))
            return [Poly(pts, rgb), Stroke(pts, max(1.5, r * 0.1), ink, closed=True)]
        picture = self.pictures.get(mark.name)
        if picture is None:
            return [Text(round(x, 2), baseline, self.sign(mark), size, ink, bold, align="l")]
        top = baseline - ICON_TOP * size
        box = (round(x, 2), round(top, 2), round(x + picture.aspect * size, 2), round(top + size, 2))
        if picture.tinted:
            return [Outline(*box, picture.path, ink)]
        from generator.products.render.items import Image  # lazy: pictures in their own colours only
        return [Image(*box, picture.path, "contain", self.matte)]


NO_ICONS = Icons({})


def _font(font: str) -> dict:
    """The typeface's keyword for a font file ("" is the built-in typeface: no keyword at all)."""
    return {"font": font} if font else {}


def width(text: str, size: float, bold: bool = False, icons: Icons = NO_ICONS, font: str = "") -> float:
    """The advance of a marked text at `size`: its letters' (in `font`, a font file's path, ""
    for the built-in typeface) and its icons'."""
    if not marks.has_marks(text):
        return tf.width(text, size, bold, **_font(font))
    return sum(tf.width(r, size, bold, **_font(font)) if isinstance(r, str) else icons.advance(r, size, bold)
               for r in marks.parse(text))


def fit_size(text: str, box_w: float, max_size: float, bold: bool = False, icons: Icons = NO_ICONS,
             font: str = "") -> float:
    """The largest size up to `max_size` at which the marked text fits one line of `box_w`."""
    if not marks.has_marks(text):
        return tf.fit_size(text, box_w, max_size, bold, **_font(font))
    w = width(text, 1000.0, bold, icons, font) / 1000.0
    return max_size if w <= 0 else min(max_size, box_w / w)


def wrap(text: str, size: float, box_w: float, bold: bool = False, icons: Icons = NO_ICONS,
         font: str = "") -> list[str]:
    """Greedy word wrap of a marked text (an icon is part of the word it touches); the lines
    are marked texts."""
    if not marks.has_marks(text):
        return tf.wrap(text, size, box_w, bold, **_font(font))
    return tf.wrap_words(text, lambda line: width(line, size, bold, icons, font) > box_w)


def fit_paragraph(text: str, box_w: float, box_h: float, max_size: float, min_size: float = 1.0,
                  leading: float = 1.22, bold: bool = False, icons: Icons = NO_ICONS,
                  font: str = "") -> tuple[float, list[str]]:
    """Shrink from `max_size` until the wrapped marked text fits the box; return size and lines."""
    if not marks.has_marks(text):
        return tf.fit_paragraph(text, box_w, box_h, max_size, min_size, leading, bold, **_font(font))
    return tf.shrink_to_fit(lambda size: wrap(text, size, box_w, bold, icons, font),
                            lambda line, size: width(line, size, bold, icons, font), box_w, box_h, max_size, min_size,
                            leading)


def words_in(line: str) -> int:
    """Words of a marked line (an icon alone counts as a word)."""
    return len(line.split())


def line(text: str, x: float, y: float, size: float, fill: str, bold: bool = False, align: str = "m",
         icons: Icons = NO_ICONS, font: str = "") -> list[Item]:
    """One marked line on the baseline y, at x by `align` ("l", "m", "r"): a single Text when it
    names no icon, else its text runs and icons side by side."""
    runs = marks.parse(text) if marks.has_marks(text) else (text,)
    if all(isinstance(r, str) for r in runs):
        return [Text(x, y, "".join(runs), size, fill, bold, align, **_font(font))]  # type: ignore[arg-type]
    total = width(text, size, bold, icons, font)
    left = {"l": x, "m": x - total / 2, "r": x - total}[align]
    items: list[Item] = []
    for run in runs:
        if isinstance(run, str):
            if run.strip():
                items.append(Text(round(left, 2), y, run, size, fill, bold, "l", **_font(font)))
            left += tf.width(run, size, bold, **_font(font))
        else:
            items += icons.draw(run, left, y, size, fill, bold)
            left += icons.advance(run, size, bold)
    return items


def icons_of(deck) -> Icons:
    """The icons of a deck: its colours' shapes and the pictures its layout declares (read now:
    a picture is keyed by its file's bytes, so an edited icon is read afresh)."""
    declared = dict(getattr(getattr(deck, "look", None), "icons", None) or ())  # look.icons: (name, path) pairs
    colours = {c.name: (c.shape, c.rgb) for c in deck.colours}
    if not declared:
        return Icons(colours)
    return Icons(colours, {name: picture(Path(path)) for name, path in sorted(declared.items())})
