"""How the cards look, as data: the layout of every kind of face and of the back.

A face is made of named elements (the corner index, the big value, the colour shapes, the
name, the text box, the art box, the frame, the interior, and the kind's own: a wild's glyph
and divider, the quick reference's title and body, the back's border). Each element has a box
on the card in *dots* (300 dpi, measured from the top-left of the trim, y down; the manifest
writes lengths as `3mm`, `0.125in`, `12pt` or `37.5dots`, converted by `length`), a size, a
font, a colour, an alignment, a way of fitting its text and whether it is hidden.

`DEFAULTS` is the layout the cards have when the manifest has no `look:` section: every number
that places something on a face is here, once (render/faces.py reads them). A manifest's
`look:` changes elements of a kind of face, of one set's faces of a kind, or of one card, and
adds texts and pictures (`Look.layout` resolves them, most specific last).

This module knows nothing of YAML or drawing: deck/manifest.py builds a `Look` from the checked
`look:` section, and the faces read it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

#: The faces a layout describes: every kind of card, and the back.
FACE_KINDS = ("number", "dual", "wild", "reference", "blank", "back")
#: Length units and their size in dots (1/300 in).
UNITS = {"mm": 300 / 25.4, "in": 300.0, "pt": 300 / 72, "dots": 1.0}
LENGTH = r"-?(?:\d+(?:\.\d*)?|\.\d+)(?:mm|in|pt|dots)"
_LENGTH = re.compile(r"(-?(?:\d+(?:\.\d*)?|\.\d+))(mm|in|pt|dots)")
ALIGNS = {"left": "l", "centre": "m", "center": "m", "right": "r"}
TEXT_FITS = ("shrink", "wrap")
ART_FITS = ("cover", "contain")
#: The smallest size a text may be shrunk to while it is fitted, unless its element says
#: `min_size`: far below print size, so that the size a text *needs* is known (the print
#: rules report a text under 6.5 pt at its card's line).
FIT_FLOOR = 4.0

W, H = 750.0, 1050.0  # the trim in dots (render/units.py: 2.5 x 3.5 in at 300 dpi)
BLEED = 37.5


def length(text: str) -> float:
    """`3mm`, `0.125in`, `12pt` or `37.5dots` in dots."""
    m = _LENGTH.fullmatch(text.strip())
    if not m:
        raise ValueError(f"not a length: {text!r}")
    value, unit = float(m.group(1)), m.group(2)
    return value if unit == "dots" else round(value * UNITS[unit], 4)


@dataclass(frozen=True)
class Art:
    """A picture on a card type, a set's cards or the back: its file (absolute, inside the
    manifest's folder), how it fits its box (cover: fill and clip; contain: whole, centred) and
    whether its box reaches through the bleed where it touches the trim."""

    path: Path
    fit: str = "contain"
    bleed: bool = False
    origin: Any = field(default=None, compare=False, repr=False)
    #: the keys the manifest wrote (a bare path writes neither fit nor bleed): only these override
    #: what the layout's art box says
    written: tuple[str, ...] = ("fit", "bleed")


@dataclass(frozen=True)
class Element:
    """One element of a face, resolved: its box in dots from the trim, and how it draws.

    `size`: the largest font size (a text), or a shape's diameter (a row of colour shapes);
    `min_size`: the smallest a fitted text may shrink to; `spacing`: from one shape (or ruled
    line) to the next; `radius`: a box's rounded corners; `line`: a stroke's width (the big
    value's outline); `colour`: "" for the face's own (the ink, the set's interior); `font`:
    a font file, "" for the built-in typeface; `align`: l, m or r; `fit`: shrink or wrap for
    text, cover or contain for a picture; `hidden`: None means shown, except an element a
    picture replaces (the wild's glyph, the back's title) on a face that has one; `text` and
    `file`: what an added element shows."""

    name: str
    x: float
    y: float
    width: float
    height: float
    size: float = 0.0
    min_size: float = FIT_FLOOR
    spacing: float = 0.0
    radius: float = 0.0
    line: float = 0.0
    colour: str = ""
    font: str = ""
    bold: bool = False
    align: str = "m"
    fit: str = "shrink"
    hidden: bool | None = None
    text: str = ""
    file: Path | None = None
    bleed: bool = False
    origin: Any = field(default=None, compare=False, repr=False)

    @property
    def x1(self) -> float:
        return self.x + self.width

    @property
    def y1(self) -> float:
        return self.y + self.height

    @property
    def cx(self) -> float:
        return self.x + self.width / 2

    @property
    def cy(self) -> float:
        return self.y + self.height / 2

    def anchor(self) -> float:
        """The x of a one-line text at its alignment: the box's left, middle or right."""
        return {"l": self.x, "m": self.cx, "r": self.x1}[self.align]


#: The keys an element takes in the manifest, as the Element's fields (lengths in dots).
LENGTH_KEYS = {"x": "x", "y": "y", "width": "width", "height": "height", "size": "size", "min_size": "min_size",
               "spacing": "spacing", "radius": "radius", "line": "line"}
OTHER_KEYS = ("colour", "font", "bold", "align", "fit", "hidden", "file", "bleed")


def _e(name: str, x: float, y: float, w: float, h: float, **kw: Any) -> Element:
    return Element(name, x, y, w, h, **kw)


_OVERSCAN = (-BLEED, -BLEED, W + 2 * BLEED, H + 2 * BLEED)
#: How far a border may come to the trim: a 1/16 in (18.75 dots) miscut makes a border of d
#: dots d - 18.75 on one side and d + 18.75 on the other, at most 1.5:1 from d = 5 × 18.75 on.
BORDER_MIN = 5 * BLEED / 2
#: The interior inside the frame: the frame runs 97 dots (8.2 mm) in from the trim, and out
#: through the whole bleed, so a cut up to 1/16 in off leaves frame colour at every edge, and the
#: frame's widths on opposite sides within 1.5:1 (1.48:1, room for a pixel's rounding in an
#: image; a 4 mm frame went 2.3:1).
_INTERIOR = (97.0, 97.0, 556.0, 856.0)
_FACE = (_e("frame", *_OVERSCAN), _e("interior", *_INTERIOR, radius=27.0))
_NUMBER = _FACE + (
    _e("art", *_INTERIOR, fit="contain"),
    # the corner index: the number (its top at y, shrunk to the width) ...
    _e("corner", 112.0, 110.0, 130.0, 84.0, size=84.0, bold=True),
    # ... and each colour's shape under it, in a column
    _e("corner_shapes", 150.0, 213.0, 54.0, 182.0, size=54.0, spacing=64.0),
    # the centre: a row of the colours' shapes, the big value (centred in its box), the names
    _e("shapes", 0.0, 242.0, W, 116.0, size=116.0, spacing=150.0),
    _e("value", 140.0, 360.0, 470.0, 330.0, size=330.0, bold=True, line=7.0),
    _e("name", 225.0, 766.56, 300.0, 44.0, size=44.0, bold=True),
)
_WILD = _FACE + (
    _e("art", 215.0, 200.0, 320.0, 245.0, fit="contain"),
    # the corner index: the name (or its `corner:` text) on one line, one size for every wild
    _e("corner", 112.0, 112.0, 300.0, 70.0, size=56.0, bold=True, align="l"),
    _e("glyph", 225.0, 250.6, 300.0, 190.0, size=190.0, bold=True),
    _e("name", 120.0, 454.84, 510.0, 2.3 * 66, size=66.0, bold=True),
    _e("divider", 255.0, 530.0, 240.0, 4.0),
    # the text keeps 2 mm (24 dots) below the divider, however long it is
    _e("text", 120.0, 558.0, 510.0, 247.0, size=46.0, fit="wrap"),
)
#: The quick reference runs its interior through the bleed: no border near the trim for a miscut
#: to make lopsided, and the whole safe area for its text.
_REFERENCE = (_e("frame", *_OVERSCAN), _e("interior", *_OVERSCAN)) + (
    _e("art", *_OVERSCAN, fit="contain"),
    _e("title", 70.0, 80.0, 610.0, 56.0, size=56.0, bold=True),
    _e("body", 65.0, 160.0, 620.0, 845.0, size=44.0, min_size=7 * 300 / 72, fit="wrap"),
)
_FAINT = "#9A9AA6"
_BLANK = _FACE + (
    _e("art", 265.0, 130.0, 280.0, 270.0, radius=24.0, line=4.0, colour=_FAINT, fit="contain"),
    _e("corner", 115.0, 115.0, 124.0, 170.0, radius=14.0, line=4.0, colour=_FAINT),
    _e("divider", 130.0, 470.0, 490.0, 0.0, line=4.0, colour=_FAINT),
    # ruled lines for a text, `spacing` apart; the last stops short, as a paragraph does
    _e("text", 130.0, 560.0, 490.0, 248.0, spacing=62.0, line=3.0, colour=_FAINT),
)
_BACK = (
    _e("interior", *_OVERSCAN, colour="#23233A"),
    # the border: its outer edge 98 dots (8.3 mm) inside the cut, so a 1/16 in miscut leaves
    # the gaps on opposite sides within 1.5:1 and backs cut apart look alike
    _e("frame", 102.0, 102.0, 546.0, 846.0, radius=36.0, line=8.0),
    _e("inner_frame", 122.0, 122.0, 506.0, 806.0, radius=24.0, line=3.0),
    _e("art", 125.0, 325.0, 500.0, 400.0, fit="contain"),
    # the game's name, a word a line, centred in the box
    _e("title", 125.0, 375.0, 500.0, 300.0, size=150.0, bold=True),
    # a row of the colours' shapes, and the same row turned to the bottom
    _e("shapes", 0.0, 208.0, W, 84.0, size=84.0, spacing=120.0),
)
#: The layout of every kind of face and of the back when the manifest says nothing: today's look.
DEFAULTS: dict[str, tuple[Element, ...]] = {
    "number": _NUMBER, "dual": _NUMBER, "wild": _WILD, "reference": _REFERENCE, "blank": _BLANK, "back": _BACK,
}
#: The elements of each kind of face, in drawing order.
ELEMENTS: dict[str, tuple[str, ...]] = {kind: tuple(e.name for e in els) for kind, els in DEFAULTS.items()}
#: Every element name any face has.
ALL_ELEMENTS: tuple[str, ...] = tuple(dict.fromkeys(n for names in ELEMENTS.values() for n in names))
#: Elements a picture takes the place of, unless the layout says `hidden: false` for them.
REPLACED_BY_ART = {"wild": ("glyph",), "back": ("title",)}
#: Elements that must be read (the print rules keep them inside the safe zone).
READ = ("corner", "value", "name", "glyph", "text", "title", "body")
#: Elements whose edges are printed areas (a frame, a picture): the print rules keep their
#: edges off the band a 1/16 in miscut moves.
EDGED = ("frame", "interior", "art")
#: The blank card's last ruled line stops this far short of the others.
BLANK_LAST_LINE_SHORT = 120.0


Change = tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Layer:
    """What one part of `look:` changes: for `scope` "kind" every face of `kind`, for "set"
    the faces of `kind` in set `key`, for "card" the face of card `key`. `changes` are
    (element, ((field, value), ...)) with the element's origin; `added` are extra elements."""

    scope: str
    key: str
    kind: str
    changes: tuple[tuple[str, Change], ...] = ()
    added: tuple[Element, ...] = ()
    origins: tuple[tuple[str, Any], ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class Layout:
    """One face's elements, resolved: `elements` by name in drawing order, then `added`."""

    kind: str
    elements: tuple[Element, ...]
    added: tuple[Element, ...] = ()

    def __getitem__(self, name: str) -> Element:
        for e in self.elements:
            if e.name == name:
                return e
        raise KeyError(name)

    def shown(self, name: str) -> Element | None:
        """The element, or None when it is hidden."""
        e = self[name]
        return None if e.hidden else e


@dataclass(frozen=True)
class Look:
    """The deck's look: deck-wide fonts, declared icons, and the layers of `look:`; with none
    of them, the default look (`DEFAULTS`)."""

    fonts: tuple[tuple[str, Path | None], ...] = (("regular", None), ("bold", None))
    icons: tuple[tuple[str, Path], ...] = ()
    layers: tuple[Layer, ...] = ()
    origin: Any = field(default=None, compare=False, repr=False)
    #: where `fonts:` and `icons:` were written (`.of("regular")`, `.of(NAME)`), for located messages
    fonts_origin: Any = field(default=None, compare=False, repr=False)
    icons_origin: Any = field(default=None, compare=False, repr=False)

    @property
    def is_default(self) -> bool:
        return self == DEFAULT_LOOK

    def font(self, bold: bool) -> Path | None:
        return dict(self.fonts)["bold" if bold else "regular"]

    def icon(self, name: str) -> Path | None:
        return dict(self.icons).get(name)

    def layout(self, kind: str, set_key: str = "", code: str = "", art: Art | None = None) -> Layout:
        """The elements of one face: the default for `kind`, then `look:`'s changes for the
        kind (a dual card first takes the number cards'), its set's and its card's, most
        specific last. `art` (the card's own, or its set's) fills the art box."""
        return _resolve(self, kind, set_key, code, art)


DEFAULT_LOOK = Look()


@lru_cache(maxsize=1024)
def _resolve(look: Look, kind: str, set_key: str, code: str, art: Art | None) -> Layout:
    kinds = ("number", "dual") if kind == "dual" else (kind,)
    wanted = [("kind", "", k) for k in kinds] + [("set", set_key, k) for k in kinds] + [("card", code, kind)]
    current = {e.name: e for e in DEFAULTS[kind]}
    added: list[Element] = []
    for scope, key, k in wanted:
        for layer in look.layers:
            if (layer.scope, layer.key if scope != "kind" else "", layer.kind) != (scope, key, k):
                continue
            origins = dict(layer.origins)
            for name, change in layer.changes:
                if name in current:
                    current[name] = replace(current[name], **dict(change), origin=origins.get(name))
            added += layer.added
    if kind != "back" and art is not None:
        box = current["art"].origin  # where the layout placed the art box, if it did
        origin = art.origin if box is None or art.origin is None else \
            type(box)(box.at, tuple((k, p) for k, p in box.fields if k not in ("file", "fit", "bleed"))
                      + (("file", art.origin.at),))
        given = {k: getattr(art, k) for k in ("fit", "bleed") if k in art.written}
        current["art"] = replace(current["art"], file=art.path, **given, origin=origin)
    pictured = current["art"].file is not None
    for name in REPLACED_BY_ART.get(kind, ()):
        if current[name].hidden is None and pictured:
            current[name] = replace(current[name], hidden=True)
    if current["art"].file is None and kind != "blank":
        current["art"] = replace(current["art"], hidden=True)  # an art box with no picture draws nothing
    fonts = dict(look.fonts)
    out = []
    for e in current.values():
        if not e.font and fonts["bold" if e.bold else "regular"] is not None:
            e = replace(e, font=str(fonts["bold" if e.bold else "regular"]))
        out.append(e)
    added_out = tuple(replace(a, font=str(fonts["bold" if a.bold else "regular"]))
                      if not a.font and fonts["bold" if a.bold else "regular"] is not None else a for a in added)
    return Layout(kind, tuple(out), added_out)


def element_fields() -> tuple[str, ...]:
    return tuple(f.name for f in fields(Element))


def _show(value: float) -> str:
    return f"{value:g}"


def default_table() -> list[str]:
    """The default layout as the Markdown table of docs/formats.md (a test keeps the two equal):
    each kind's elements with their box and size in dots."""
    rows = ["| face | element | x | y | width | height | size | other |", "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for kind in ("number", "wild", "reference", "blank", "back"):
        for e in DEFAULTS[kind]:
            other = [f"{k} {_show(getattr(e, k))}" for k in ("min_size", "spacing", "radius", "line")
                     if getattr(e, k) != getattr(Element, k, None) and not (k == "min_size" and e.min_size == FIT_FLOOR)]
            other += [f"colour {e.colour}"] if e.colour else []
            other += ["bold"] if e.bold else []
            other += [f"fit {e.fit}"] if e.fit != "shrink" else []
            rows.append(f"| {kind if kind != 'number' else 'number, dual'} | `{e.name}` | {_show(e.x)} | {_show(e.y)} | "
                        f"{_show(e.width)} | {_show(e.height)} | {_show(e.size) if e.size else ''} | {', '.join(other)} |")
    return rows


if __name__ == "__main__":  # python -m generator.deck.look: the table of docs/formats.md
    print("\n".join(default_table()))


#: Keys whose text value names a file beside the manifest (`art: path`, `file:`, `font:`), and
#: mappings whose every value does (`fonts:`, `icons:`).
FILE_KEYS = ("art", "file", "font")
FILE_MAPS = ("fonts", "icons")


def named_files(data: Any, folder: Path) -> tuple[Path, ...]:
    """Every file a manifest's data names as a picture or a font, inside `folder` (the manifest's),
    whether or not it exists yet and whether or not the manifest is valid: what `watch` watches
    besides the manifest."""
    found: list[Path] = []

    def walk(value: Any, key: Any = None, parent: Any = None) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k, key)
        elif isinstance(value, list):
            for v in value:
                walk(v, key, parent)
        elif isinstance(value, str) and (key in FILE_KEYS or parent in FILE_MAPS) and value.strip() and "\0" not in value:
            # (a NUL names no file: the manifest's check says so at its line)
            try:
                path = (folder / value).resolve()
            except (RuntimeError, OSError):  # a loop of symbolic links: the manifest's check says so at its line
                return
            if path.is_relative_to(folder):
                found.append(path)

    walk(data)
    return tuple(sorted(set(found)))
