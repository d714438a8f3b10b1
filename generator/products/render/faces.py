"""What a card looks like: one definition per card kind, as a small display list.

A face is a tuple of drawing items (items.py) in *dots* (300 dpi pixels) measured from the
top-left of the trim, y downwards. The PDF backend (pdf.py, pdf_file.py) draws the items as vectors, and
every raster image of a face (png.py) is PDFium's rendering of that same PDF drawing, so the two
cannot drift. A face names the files it reads (`Face.files()`: the fonts of its texts), so the
face cache can key an image by what it draws and the bytes of what it reads (pipeline/keys.py).
The background extends past the trim far enough for any bleed a print profile asks for.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from generator.deck import look, wording
from generator.deck.effects import CATALOGUE, wild_entry
from generator.deck.icons import Mark
from generator.deck.icons import escape as icons_escape
from generator.deck.icons import parse as marks_parse
from generator.deck.look import Element, Layout, Look
from generator.deck.model import CardType, Deck, portable
from generator.deck.quickref import quick_reference, shows_wilds, wilds_on
from generator.products.render import inline
from generator.products.render import typeface as tf
from generator.products.render.inline import NO_ICONS, Icons
from generator.products.render.items import (H, W, Face, Fitted, Image, Item, Poly, Stroke, Text, clip, contrast, rect,
                                             rotate180, rounded_rect, shape_points)
from generator.products.render.units import BLEED, SAFE, pt_to_dots

#: A miscut the print rules allow for: 1/16 in.
MISCUT = BLEED / 2

#: Backgrounds reach exactly the 1/8 in bleed (every print profile fits inside it).
OVERSCAN = BLEED
#: Interior colour -> (background, ink).
INTERIORS = {"white": ("#FFFFFF", "#1A1A1A"), "black": ("#121212", "#FFFFFF")}
#: The same for the ink-saver print sheets: a dark interior turns light grey with dark ink (still
#: unlike the white base cards at a glance), and a dark band inside the frame marks it as well.
LIGHT_INTERIORS = {"white": ("#FFFFFF", "#1A1A1A"), "black": ("#D2D2D2", "#121212")}
LIGHT_BACK_BG = "#FFFFFF"
NEUTRAL_FRAME = "#6B6B78"
BACK_INK = "#F4F1E8"
#: No text prints smaller than 6.5 pt. Fitting may shrink text below it (down to an element's
#: `min_size`), so that the size a text *needs* is known: products/printable.py reports such a
#: card as an error at its line, and the build refuses it.
MIN_TEXT = pt_to_dots(6.5)
FIT_FLOOR = look.FIT_FLOOR
#: Where everything on a face stands is the layout's (deck/look.py: DEFAULTS, and the manifest's
#: `look:`); what is left here is how each element draws.
#: A text's cap height, as a fraction of its size (the big value is centred on it).
CAP_HEIGHT = 0.73
#: The big value is outlined in the ink when its colour stands out this little from the interior.
LOW_CONTRAST = 4.5
#: An index's 6 and 9 are underlined: this far under the baseline, this thick (fractions of the size).
UNDERLINE_GAP, UNDERLINE_WIDTH = 0.1, 0.075
#: The ink-saver ring inside a dark set's frame: its inset from the interior's edge, and width.
LIGHT_RING_INSET, LIGHT_RING_WIDTH = 5.0, 12.0

def number_text(value: int) -> str:
    """A printed number; negatives carry a true minus sign, wider than a hyphen."""
    return f"\u2212{-value}" if value < 0 else str(value)


# --- building blocks ----------------------------------------------------------------------

def _font(el: Element | str) -> dict:
    """The keyword naming an element's font file for the typeface's measures and a Text (none
    for the built-in typeface, so a default face's display list is what it always was)."""
    font = el if isinstance(el, str) else el.font
    return {"font": font} if font else {}


def label(el: Element, x: float, y: float, text: str, size: float, fill: str, **kw) -> Text:
    """One line of an element's text, in its font."""
    return Text(x, y, text, size, fill, **{"bold": el.bold, **kw, **_font(el)})


def top_line(el: Element) -> float:
    """The baseline of a one-line text whose top (its font's ascent, at the element's size)
    stands at the top of the element's box."""
    return el.y + (tf.extent(el.font)[0] if el.font else tf.ASCENT) * el.size


def background(colour: str) -> Poly:
    return Poly(rect(-OVERSCAN, -OVERSCAN, W + OVERSCAN, H + OVERSCAN), colour)


def frame(colours: list[str], el: Element) -> list[Item]:
    """A frame through the bleed (the element's box): one band per colour along the diagonal."""
    outer = rect(el.x, el.y, el.x1, el.y1)
    items: list[Item] = []
    n = len(colours)
    for i, colour in enumerate(colours):
        band = outer
        # t = x/W + y/H runs 0..2 from the top-left corner to the bottom-right one.
        if i > 0:
            band = clip(band, -1 / W, -1 / H, -2 * i / n)
        if i < n - 1:
            band = clip(band, 1 / W, 1 / H, 2 * (i + 1) / n)
        items.append(Poly(band, el.colour or colour))
    return items


def box(el: Element, fill: str) -> Poly:
    """An element's box filled, its corners rounded by its radius (the interior)."""
    if el.radius:
        return Poly(rounded_rect(el.x, el.y, el.x1, el.y1, el.radius), fill)
    return Poly(rect(el.x, el.y, el.x1, el.y1), fill)


def outline(el: Element, colour: str) -> Stroke:
    """An element's box drawn as a line of its width (the back's border, a blank's boxes)."""
    return Stroke(rounded_rect(el.x, el.y, el.x1, el.y1, el.radius), el.line, el.colour or colour, True)


def art_box(el: Element) -> tuple[float, float, float, float]:
    """Where a picture element draws: its box, and with `bleed` each side that reaches the trim,
    or comes within 1/16 in of it, run on through the bleed."""
    x0, y0, x1, y1 = el.x, el.y, el.x1, el.y1
    if el.bleed:
        x0, y0 = (-BLEED if x0 <= MISCUT else x0), (-BLEED if y0 <= MISCUT else y0)
        x1, y1 = (W + BLEED if x1 >= W - MISCUT else x1), (H + BLEED if y1 >= H - MISCUT else y1)
    return x0, y0, x1, y1


def picture(el: Element, matte: str) -> list[Item]:
    """The art box's picture (none without a file), in its box (`art_box`)."""
    if el.file is None or el.hidden:
        return []
    return [Image(*art_box(el), Path(el.file), el.fit if el.fit in look.ART_FITS else "contain", matte)]


def shape(kind: str, cx: float, cy: float, r: float, fill: str, outline: str) -> list[Item]:
    pts = shape_points(kind, cx, cy, r)
    return [Poly(pts, fill), Stroke(pts, max(2.0, r * 0.08), outline, closed=True)]


def shape_row(colours: list, el: Element, ink: str) -> list[Item]:
    """The colours' shapes in a row centred in the element's box, `spacing` apart."""
    items: list[Item] = []
    n = len(colours)
    for k, c in enumerate(colours):
        items += shape(c.shape, el.cx + (k - (n - 1) / 2) * el.spacing, el.cy, el.size / 2, c.rgb, el.colour or ink)
    return items


def underline(text: Text) -> Poly:
    left, _, right, _ = replace(text, stroke=0.0, stroke_colour="", rot180=False).bbox()
    y0 = text.y + UNDERLINE_GAP * text.size
    return Poly(rect(left, y0, right, y0 + UNDERLINE_WIDTH * text.size), text.fill)


def corner(items: list[Item]) -> list[Item]:
    """The top-left index and the same index turned to the bottom-right (a picture in it, an
    inline icon, moves there upright: pictures are not turned)."""
    return items + [_upright_turned(i) if isinstance(i, Image) else rotate180(i) for i in items]


def _upright_turned(image: Image) -> Image:
    return replace(image, x0=round(W - image.x1, 2), y0=round(H - image.y1, 2), x1=round(W - image.x0, 2),
                   y1=round(H - image.y0, 2))


def needs_underline(value: int) -> bool:
    return abs(value) in (6, 9)


def added(layout: Layout, ink: str, matte: str, icons: Icons = NO_ICONS, fitted: list[Fitted] | None = None) -> list[Item]:
    """The layout's added elements: a text (one line shrunk to its width, or wrapped in its box;
    its icons inline) or a picture. How each text was set goes into `fitted`."""
    items: list[Item] = []
    for el in layout.added:
        if el.hidden:
            continue
        if el.file is not None:
            items += picture(el, matte)
            continue
        if el.fit == "wrap":
            drawn, fits = _paragraph(el.text, el.x, el.y, el.x1, el.y1, el.size, el.colour or ink, el.min_size,
                                     icons=icons, bold=el.bold, align=el.align, font=el.font)
        else:
            fit = inline.fit_size(el.text, el.width, el.size, el.bold, icons, el.font)
            drawn, fits = one_line(el, el.text, el.colour or ink, icons), fit >= el.min_size - 1e-6
        note(fitted, el.name, drawn, fits)
        items += drawn
    return items


def note(fitted: list[Fitted] | None, name: str, items: list[Item], fits: bool = True) -> None:
    """Record how element `name`'s text was set: the smallest size of its texts, and whether it fits."""
    sizes = [t.size for t in items if isinstance(t, Text)]
    if fitted is not None and sizes:
        fitted.append(Fitted(name, min(sizes), fits))


def one_line(el: Element, text: str, ink: str, icons: Icons = NO_ICONS) -> list[Item]:
    """A marked text on one line in an element's box: its top at the box's top (its baseline
    `ASCENT` of its size below), shrunk to the box's width, at the element's alignment."""
    size = max(inline.fit_size(text, el.width, el.size, el.bold, icons, el.font), el.min_size)
    return inline.line(text, el.anchor(), top_line(el), size, ink, el.bold, el.align, icons, el.font)


# --- faces by kind ------------------------------------------------------------------------

def layout(card: CardType, deck: Deck) -> Layout:
    """The card's elements: its kind's, with its set's and its own changes, and its art."""
    return deck.look.layout(card.kind, card.set, card.code, card.art or deck.card_set(card.set).art)


def interior(card: CardType, deck: Deck, light: bool = False) -> tuple[str, str]:
    """(background, ink) of a card's interior; `light` for the ink-saver sheets."""
    return (LIGHT_INTERIORS if light else INTERIORS)[deck.card_set(card.set).interior]


def dark_set(card: CardType, deck: Deck) -> bool:
    return deck.card_set(card.set).interior == "black"


def light_marker(card: CardType, deck: Deck, light: bool, el: Element) -> list[Item]:
    """On an ink-saver face of a dark set, a black ring inside the frame: chaos at a glance."""
    if not (light and dark_set(card, deck)):
        return []
    d = LIGHT_RING_INSET
    return [Stroke(rounded_rect(el.x + d, el.y + d, el.x1 - d, el.y1 - d, el.radius), LIGHT_RING_WIDTH, "#121212", True)]


def ground(card: CardType, deck: Deck, light: bool, frame_colours: list[str], lay: Layout) -> tuple[list[Item], str, str]:
    """What every card face starts with: the interior colour through the bleed, the frame, the
    interior, the picture; and the face's (background, ink)."""
    bg, ink = interior(card, deck, light)
    inner = lay["interior"]
    if inner.colour and not light:
        bg = inner.colour
    items: list[Item] = [background(bg)]
    if not lay["frame"].hidden:
        items += frame(frame_colours, lay["frame"])
    if not inner.hidden:
        items.append(box(inner, bg))
    items += picture(lay["art"], bg)
    items += light_marker(card, deck, light, inner)
    return items, bg, ink


def number_face(card: CardType, deck: Deck, light: bool = False) -> Face:
    lay = layout(card, deck)
    colours = [deck.colour(c) for c in card.colours]
    items, bg, ink = ground(card, deck, light, [c.rgb for c in colours], lay)
    label_text = number_text(card.value or 0)
    fitted: list[Fitted] = []

    # Corner index: the number, then the shape of each colour under it.
    index: list[Item] = []
    if (el := lay.shown("corner")) is not None:
        size = tf.fit_size(label_text, el.width, el.size, el.bold, **_font(el))
        idx = label(el, el.anchor(), top_line(el), label_text, size, el.colour or ink, align=el.align)
        index.append(idx)
        note(fitted, "corner", [idx])
        if needs_underline(card.value or 0):
            index.append(underline(idx))
    if (el := lay.shown("corner_shapes")) is not None:
        y = el.y + el.size / 2
        for c in colours:
            index += shape(c.shape, el.cx, y, el.size / 2, c.rgb, el.colour or ink)
            y += el.spacing
    items += corner(index)

    # Centre: the shapes, the big number, the colour names.
    n = len(colours)
    if (el := lay.shown("shapes")) is not None:
        items += shape_row(colours, el, ink)
    if (el := lay.shown("value")) is not None:
        big_size = tf.fit_size(label_text, el.width, el.size, el.bold, **_font(el))
        fill = el.colour or (colours[0].rgb if n == 1 else ink)
        stroke = el.line if n == 1 and contrast(fill, bg) < LOW_CONTRAST else 0.0
        big = label(el, el.anchor(), el.cy + CAP_HEIGHT * big_size / 2, label_text, big_size, fill, align=el.align,
                    stroke=stroke, stroke_colour=ink)
        items.append(big)
        note(fitted, "value", [big])
        if needs_underline(card.value or 0):
            items.append(underline(replace(big, fill=ink)))
    if (el := lay.shown("name")) is not None:
        names = " / ".join(c.name.upper() for c in colours)
        items.append(label(el, el.anchor(), top_line(el), names,
                           tf.fit_size(names, el.width, el.size, el.bold, **_font(el)), el.colour or ink, align=el.align))
        note(fitted, "name", items[-1:])
    items += added(lay, ink, bg, fitted=fitted)
    return Face(card.code, tuple(items), tuple(fitted))


def paragraph(text: str, x0: float, y0: float, x1: float, y1: float, max_size: float, ink: str,
              min_size: float = FIT_FLOOR, icons: Icons = NO_ICONS, bold: bool = False, align: str = "m",
              font: str = "") -> list[Item]:
    """A marked text (its icons inline) wrapped and shrunk to fit the box, lines centred (or set
    left or right: `align`), in `font` (a font file; "" the built-in typeface)."""
    return _paragraph(text, x0, y0, x1, y1, max_size, ink, min_size, icons, bold, align, font)[0]


def _paragraph(text: str, x0: float, y0: float, x1: float, y1: float, max_size: float, ink: str,
               min_size: float = FIT_FLOOR, icons: Icons = NO_ICONS, bold: bool = False, align: str = "m",
               font: str = "") -> tuple[list[Item], bool]:
    """`paragraph`'s items, and whether they fit the box (held at `min_size`, they may not)."""
    size, lines = inline.fit_paragraph(text, x1 - x0, y1 - y0, max_size, min_size, bold=bold, icons=icons, font=font)
    lead = size * 1.22
    top = y0 + (y1 - y0 - lead * len(lines)) / 2
    x = {"l": x0, "m": (x0 + x1) / 2, "r": x1}[align]
    return [item for k, line in enumerate(lines)
            for item in inline.line(line, x, round(top + tf.ASCENT * size + k * lead + (lead - size) / 2, 2),
                                    size, ink, bold, align, icons, font)], \
        _fits(lines, size, 1.22, x1 - x0, y1 - y0, bold, icons, font)


def _fits(lines: list[str], size: float, leading: float, box_w: float, box_h: float, bold: bool, icons: Icons,
          font: str) -> bool:
    """Whether wrapped lines at `size` fit a box (typeface.shrink_to_fit's own test)."""
    widest = max((inline.width(line, size, bold, icons, font) for line in lines), default=0.0)
    return len(lines) * size * leading <= box_h + 1e-6 and widest <= box_w + 1e-6


def wild_glyph(card: CardType, icons: Icons = NO_ICONS) -> str:
    """The wild's glyph (the catalogue's, or one made from its steps), its parameters filled in (`×{factor}` gives ×2), as
    a marked text: when the layout declares a picture for the effect (`look: icons:`), the
    picture stands for the glyph's sign and the parameters follow it as text (`{icon:multiply}2`).

    The catalogue test checks that the typeface draws every glyph, so there is no fallback.
    """
    assert card.effect is not None
    name, glyph = card.effect.name or card.code.lower(), wild_entry(card.effect).glyph  # a wild of steps: its code names its picture
    if name in icons.pictures:
        params = dict(card.effect.params)
        return Mark(name, False).source + "".join(
            icons_escape(wording.fill("{" + field + "}", params)) for field in wording.fields(glyph))
    return icons_escape(wording.fill(glyph, dict(card.effect.params)))


#: Words a shortened corner label does not end on.
_SMALL_WORDS = {"a", "an", "the", "of", "to", "and", "or", "in", "on", "your"}
#: How far the glyph moves down into the name's place when the face drops the name.
GLYPH_DROP = 45.0


def corner_text(text: str, glyph: str, el: Element, icons: Icons = NO_ICONS) -> str:
    """A wild's corner label, on one line at the corner's own size (every wild's the same): the
    text (the card's `corner:`, else its name) when it fits the box, else its first words that
    do (not ending on a small word: "Steal a Card" gives "Steal"), else the glyph, else as many of
    its letters as fit, with a full stop."""
    def fits(label: str) -> bool:
        return inline.width(label, el.size, el.bold, icons, el.font) <= el.width + 1e-6

    if fits(text):
        return text
    words = text.split()
    for n in range(len(words) - 1, 0, -1):
        kept = words[:n]
        while len(kept) > 1 and kept[-1].lower() in _SMALL_WORDS:
            kept.pop()
        if fits(" ".join(kept)):
            return " ".join(kept)
    if fits(glyph):
        return glyph
    plain = "".join(r for r in marks_parse(text) if isinstance(r, str))
    for n in range(len(plain) - 1, 0, -1):
        if fits(icons_escape(plain[:n].rstrip()) + "."):
            return icons_escape(plain[:n].rstrip()) + "."
    return icons_escape(plain[:1])


def _signs(marked: str) -> str:
    """A marked text's printed characters, as the signs they show: a wild effect's icon as the
    sign of the effect's glyph it draws (the shipped icons are those signs), the letter x before a
    digit as the sign ×, +/- as ±, a hyphen as a minus, spaces and case dropped (other pictures
    drop out)."""
    def shown(run) -> str:
        if isinstance(run, str):
            return run
        effect = None if run.colour else CATALOGUE.get(run.name)
        return re.sub(r"\{[^{}]*\}", "", getattr(effect, "glyph", "") or "") if effect is not None else ""
    plain = "".join(shown(r) for r in marks_parse(marked)).casefold()
    plain = plain.replace("+/-", "±").replace("+-", "±").replace("-", "−")
    return "".join("×" if ch == "x" and plain[i + 1:i + 2].isdigit() else ch for i, ch in enumerate(plain)
                   if not ch.isspace())


def repeats_glyph(name: str, glyph: str) -> bool:
    """Whether a wild's name would print its glyph's signs again ("×2" over "x2", "+1" over "+1
    Card", "±" over "+/-"): then the face shows the glyph alone. A glyph that is a picture alone
    repeats nothing; its parameters (the 2 of {icon:multiply}2) count."""
    signs = _signs(glyph)
    return bool(signs) and signs in _signs(name)


def wild_face(card: CardType, deck: Deck, light: bool = False) -> Face:
    lay = layout(card, deck)
    items, bg, ink = ground(card, deck, light, [c.rgb for c in deck.colours], lay)
    icons = icons_of(deck).on(bg)
    glyph = wild_glyph(card, icons)
    fitted: list[Fitted] = []
    if (el := lay.shown("corner")) is not None:
        # a name that says just what the glyph does ("x2" beside ×2) prints the glyph's signs there too
        said = glyph if not card.corner and _signs(card.name) == _signs(glyph) else card.corner or card.name
        label_text = corner_text(said, glyph, el, icons)
        corner_label = inline.line(label_text, el.anchor(), top_line(el), el.size, el.colour or ink, el.bold, el.align,
                                   icons, el.font)
        note(fitted, "corner", corner_label)
        items += corner(corner_label)
    # the glyph and the name never print the same signs twice: the glyph alone, in the name's place
    named = lay.shown("name") is not None and not (lay.shown("glyph") is not None and repeats_glyph(card.name, glyph))
    if (el := lay.shown("glyph")) is not None:
        if not named and lay.shown("name") is not None:
            el = replace(el, y=el.y + GLYPH_DROP)
        gsize = inline.fit_size(glyph, el.width, el.size, el.bold, icons, el.font)
        drawn = inline.line(glyph, el.anchor(), top_line(el), gsize, el.colour or ink, el.bold, el.align, icons, el.font)
        note(fitted, "glyph", drawn)
        items += drawn
    if (el := lay.shown("name")) is not None and named:
        base = top_line(el)
        tsize = inline.fit_size(card.name, el.width, el.size, el.bold, icons, el.font)
        if tsize >= MIN_TEXT or " " not in card.name:
            drawn, fits = inline.line(card.name, el.anchor(), base, tsize, el.colour or ink, el.bold, el.align, icons,
                                      el.font), True
        else:  # too long for one legible line: two lines, ending on the same baseline
            size, lines = inline.fit_paragraph(card.name, el.width, el.height, el.size, el.min_size, leading=1.15,
                                               bold=el.bold, icons=icons, font=el.font)
            drawn = [item for k, line in enumerate(lines)
                     for item in inline.line(line, el.anchor(), round(base - (len(lines) - 1 - k) * size * 1.15, 2), size,
                                             el.colour or ink, el.bold, el.align, icons, el.font)]
            fits = _fits(lines, size, 1.15, el.width, el.height, el.bold, icons, el.font)
        note(fitted, "name", drawn, fits)
        items += drawn
    if (el := lay.shown("divider")) is not None:
        items.append(Poly(rect(el.x, el.y, el.x1, el.y1), el.colour or ink))
    if (el := lay.shown("text")) is not None:
        drawn, fits = _paragraph(card.text, el.x, el.y, el.x1, el.y1, el.size, el.colour or ink, el.min_size,
                                 icons=icons, bold=el.bold, align=el.align, font=el.font)
        note(fitted, "text", drawn, fits)
        items += drawn
    items += added(lay, ink, bg, icons, fitted)
    return Face(card.code, tuple(items), tuple(fitted))


def icons_of(deck: Deck) -> Icons:
    """The deck's inline icons, read once per deck (the pictures' files with it)."""
    drawn = _drawn(deck)
    if "icons" not in drawn:
        drawn["icons"] = inline.icons_of(deck)
    return drawn["icons"]


def reference_face(card: CardType, deck: Deck, light: bool = False) -> Face:
    """A quick-reference card: the half of the summary quickref.shows_wilds gives it, so every
    line stays legible at REF_MIN_TEXT (7 pt) or more."""
    lay = layout(card, deck)
    items, bg, ink = ground(card, deck, light, [NEUTRAL_FRAME], lay)
    icons = icons_of(deck).on(bg)
    ref = quick_reference(deck)
    fitted: list[Fitted] = []
    if (el := lay.shown("title")) is not None:
        drawn = inline.line(card.name, el.anchor(), top_line(el),
                            inline.fit_size(card.name, el.width, el.size, el.bold, icons, el.font), el.colour or ink,
                            el.bold, el.align, icons, el.font)
        note(fitted, "title", drawn)
        items += drawn
    if not shows_wilds(deck, card):
        blocks: list[tuple[str, list[tuple[str, str]]]] = [
            ("", [("", ref.goal)]),
            ("Your turn", [(f"{k}.", step) for k, step in enumerate(ref.turn, 1)]),
            ("Penalties", [("•", p) for p in ref.penalties]),
        ]
    else:
        names = {s.key: s.name for s in deck.sets}
        wilds = wilds_on(deck, card, ref.wilds)
        blocks = [(f"{names[key]} wilds", [(w.name, w.short) for w in wilds if w.set == key])
                  for key in dict.fromkeys(w.set for w in wilds)] or [("Wilds", [("", "This deck has no wilds.")])]
    if (el := lay.shown("body")) is not None:
        drawn, fits = rich_blocks(blocks, el.x, el.y, el.x1, el.y1, el.colour or ink, icons, el.size, el.min_size,
                                   el.font, _bold_font(deck.look, el))
        note(fitted, "body", drawn, fits)
        items += drawn
    items += added(lay, ink, bg, icons, fitted)
    return Face(card.code, tuple(items), tuple(fitted))


#: The quick reference's body prints at no less than this (its entries wrap onto more lines first).
REF_MIN_TEXT = pt_to_dots(7.0)


def _bold_font(deck_look: Look, el: Element) -> str:
    """The font of an element's bold runs (the quick reference's headings and leads): its own
    `font:` when it names one, else the deck's bold font (`fonts: bold:`, or the built-in bold)."""
    regular = deck_look.font(False)
    if el.font and el.font != (str(regular) if regular is not None else ""):
        return el.font
    bold = deck_look.font(True)
    return str(bold) if bold is not None else ""


def rich_blocks(blocks: list[tuple[str, list[tuple[str, str]]]], x0: float, y0: float, x1: float, y1: float,
                ink: str, icons: Icons = NO_ICONS, max_size: float = 44.0, min_size: float = REF_MIN_TEXT,
                font: str = "", bold_font: str | None = None) -> tuple[list[Item], bool]:
    """Headed lists of (bold lead, text) entries, shrunk from `max_size` until they fit the box,
    but never below `min_size` (REF_MIN_TEXT): a quick reference whose entries do not fit at that
    size has too many entries; and whether they fit the box (held at `min_size`, they may not).
    Leads and texts are marked texts: their icons are measured and drawn inline."""
    size = max_size
    while True:
        items, y = _lay_blocks(blocks, x0, y0, x1, size, ink, icons, font, font if bold_font is None else bold_font)
        smaller = round(size * 0.96, 2)
        if y <= y1 or smaller < min_size:  # held at min_size: does the last line still end in the box?
            return items, y <= y1 or max((t.bbox()[3] for t in items if isinstance(t, Text)), default=y0) <= y1 + 1e-6
        size = smaller


def balanced_wrap(text: str, size: float, box_w: float, icons: Icons = NO_ICONS, font: str = "") -> list[str]:
    """Word wrap in which no line after the first holds a single word (a widow): a text that
    would end on one word is wrapped narrower, so the lines even out, in as many lines. The text
    is marked: an icon is measured with the word it touches."""
    lines = inline.wrap(text, size, box_w, icons=icons, font=font)
    if len(lines) < 2 or len(lines[-1].split()) > 1 or len(text.split()) < 4:
        return lines
    w = box_w
    while w > box_w * 0.55:
        w *= 0.97
        trial = inline.wrap(text, size, w, icons=icons, font=font)
        if len(trial) > len(lines):
            break
        if all(len(line.split()) > 1 for line in trial[1:]):
            return trial
    more = inline.wrap(text, size, box_w * 0.8, icons=icons, font=font)  # one line more, none of them a lone word
    return more if all(len(line.split()) > 1 for line in more[1:]) else lines


#: The quick reference: at least 2 mm between a term (a wild's name) and its definition.
TERM_GAP = 2.0 * 300 / 25.4


def _lay_blocks(blocks, x0: float, y0: float, x1: float, size: float, ink: str,
                icons: Icons = NO_ICONS, font: str = "", bold_font: str = "") -> tuple[list[Item], float]:
    """Each entry's bold lead in a column as wide as the widest lead (a wild's name) and TERM_GAP,
    its text in the column beside it, wrapped by balanced_wrap; a lead wider than 40% of the box stands on
    its own line, with the text below it."""
    lead = size * 1.18
    items: list[Item] = []
    y = y0
    leads = [inline.width(lead_text, size, True, icons, bold_font) + TERM_GAP for _, entries in blocks
             for lead_text, _ in entries if lead_text]
    column = max((w for w in leads if w <= (x1 - x0) * 0.4), default=0.0)
    for head, entries in blocks:
        if head:
            y += size * 0.5
            items.append(Text(x0, round(y + tf.ASCENT * size * 1.1, 2), head.upper(), round(size * 1.1, 2), ink,
                              bold=True, align="l", **_font(bold_font)))
            y += size * 1.1 * 1.25
        for lead_text, text in entries:
            indent = x0
            if lead_text:
                items += inline.line(lead_text, x0, round(y + tf.ASCENT * size, 2), size, ink, True, "l", icons, bold_font)
                if inline.width(lead_text, size, True, icons, bold_font) + TERM_GAP <= column + 1e-6:
                    indent = x0 + column
                else:
                    y += lead
                    indent = x0 + column
            for line in balanced_wrap(text, size, x1 - indent, icons, font):
                items += inline.line(line, round(indent, 2), round(y + tf.ASCENT * size, 2), size, ink, False, "l", icons,
                                     font)
                y += lead
        y += size * 0.25
    return items, y


def blank_face(card: CardType, deck: Deck, light: bool = False) -> Face:
    lay = layout(card, deck)
    items, bg, ink = ground(card, deck, light, [NEUTRAL_FRAME], lay)
    if (el := lay.shown("corner")) is not None:
        items += corner([outline(el, ink)])
    if (el := lay.shown("art")) is not None and el.file is None:  # where a picture would go
        items.append(outline(el, ink))
    if (el := lay.shown("divider")) is not None:
        items.append(Stroke(((el.x, el.y), (el.x1, el.y)), el.line, el.colour or ink))
    if (el := lay.shown("text")) is not None:
        count = int(el.height // el.spacing) + 1 if el.spacing > 0 else 1
        for k in range(count):
            y = el.y + k * el.spacing
            end = el.x1 - look.BLANK_LAST_LINE_SHORT if k == count - 1 and count > 1 else el.x1
            items.append(Stroke(((el.x, y), (end, y)), el.line, el.colour or ink))
    fitted: list[Fitted] = []
    items += added(lay, ink, bg, fitted=fitted)
    return Face(card.code, tuple(items), tuple(fitted))


def back_face(deck: Deck, light: bool = False) -> Face:
    """The one back; `light` (ink-saver) draws it as outlines on white in the same navy."""
    return _back_face(deck.colours, deck.params, deck.look, light)


@lru_cache(maxsize=16)
def _back_face(colours: tuple, params, deck_look: Look, light: bool) -> Face:
    lay = deck_look.layout("back")
    dark = lay["interior"].colour
    bg, ink = (LIGHT_BACK_BG, dark) if light else (dark, BACK_INK)
    items: list[Item] = [background(bg)]
    fitted: list[Fitted] = []
    items += picture(lay["art"], bg)
    for name in ("frame", "inner_frame"):
        if (el := lay.shown(name)) is not None:
            items.append(outline(el, ink))
    if (el := lay.shown("title")) is not None:
        words = params.name.split() or [params.name]
        size = min(tf.fit_size(w, el.width, el.size, el.bold, **_font(el)) for w in words)
        lead = size * 1.1
        top = el.cy - lead * len(words) / 2
        for k, word in enumerate(words):
            items.append(label(el, el.anchor(), round(top + k * lead + tf.ASCENT * size + (lead - size) / 2, 2), word,
                               size, el.colour or ink, align=el.align))
        note(fitted, "title", items[-len(words):])
    if (el := lay.shown("shapes")) is not None:
        row = shape_row(list(colours), el, ink)
        items += row + [rotate180(i) for i in row]
    items += added(lay, ink, bg, fitted=fitted)
    return Face("back", tuple(items), tuple(fitted))


FACES = {"number": number_face, "dual": number_face, "wild": wild_face, "reference": reference_face,
         "blank": blank_face}


def charset(deck: Deck) -> str:
    """Every character a face of this deck can print, sorted (fixes the PDF font encoding): those
    of everything the deck and its quick reference hold (model.portable: the files it names by
    their names, so the same manifest in a folder named `Café` encodes what it does anywhere)."""
    chars = {chr(i) for i in range(32, 127)} | set(repr(portable(deck))) | set(repr(portable(quick_reference(deck))))
    chars |= set("".join(e.glyph for e in CATALOGUE.values())) | set("\u2212•·×±")
    chars |= {ch for c in deck.cards if c.effect for ch in wild_glyph(c)}
    return "".join(sorted(c for c in chars if c.isprintable()))


def face(card: CardType, deck: Deck, light: bool = False) -> Face:
    """The face of one card type; `light` for the ink-saver print sheets.

    Drawn once per deck and process: the check that every text fits before a build, the build's
    keys and PDFs and its forked workers share one drawing. (Kept by the deck object itself,
    which cannot change, so no deck is hashed whole per face; an edited deck is a new object,
    drawn afresh, a few milliseconds for every face.)"""
    drawn = _drawn(deck)
    k = (card, light)
    if k not in drawn:
        drawn[k] = FACES[card.kind](card, deck, light)
    return drawn[k]


#: The faces drawn per deck, the most recent decks last: id(deck) -> (deck, (card, light) -> face).
#: The deck is held, so its id cannot pass to another object while it is here.
_DRAWN: dict[int, tuple[Deck, dict]] = {}
KEPT_DECKS = 4


def _drawn(deck: Deck) -> dict:
    entry = _DRAWN.pop(id(deck), None)
    if entry is None or entry[0] is not deck:
        entry = (deck, {})
        while len(_DRAWN) >= KEPT_DECKS:
            del _DRAWN[next(iter(_DRAWN))]
    _DRAWN[id(deck)] = entry
    return entry[1]


def forget() -> None:
    """Forget every face drawn (a benchmark's cold build)."""
    _DRAWN.clear()
    _back_face.cache_clear()


def all_faces(deck: Deck) -> list[Face]:
    """Every distinct face in manifest order, then the back."""
    return [face(c, deck) for c in deck.cards] + [back_face(deck)]


def safe_box() -> tuple[float, float, float, float]:
    """Where text may go: the trim less the safe margin."""
    return SAFE, SAFE, W - SAFE, H - SAFE
