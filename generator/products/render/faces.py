"""What a card looks like: one definition per card kind, as a small display list.

A face is a tuple of drawing items (items.py) in *dots* (300 dpi pixels) measured from the
top-left of the trim, y downwards. The PDF backend (pdf.py, pdf_file.py) draws the items as vectors, and
every raster image of a face (png.py) is PDFium's rendering of that same PDF drawing, so the two
cannot drift. A face names the files it reads (`Face.files()`: the fonts of its texts), so the
face cache can key an image by what it draws and the bytes of what it reads (pipeline/keys.py).
The background extends past the trim far enough for any bleed a print profile asks for.
"""

from __future__ import annotations

from functools import lru_cache

from generator.deck import wording
from generator.deck.icons import Mark
from generator.deck.icons import escape as icons_escape
from generator.deck.effects import CATALOGUE
from generator.deck.model import CardType, Deck
from generator.deck.quickref import quick_reference
from generator.products.render import inline
from generator.products.render import typeface as tf
from generator.products.render.inline import NO_ICONS, Icons
from generator.products.render.items import (H, W, Face, Item, Poly, Stroke, Text, clip, contrast, rect,
                                             rotate180, rounded_rect, shape_points)
from generator.products.render.units import BLEED, SAFE, pt_to_dots

#: Backgrounds reach exactly the 1/8 in bleed (every print profile fits inside it).
OVERSCAN = BLEED
#: Interior colour -> (background, ink).
INTERIORS = {"white": ("#FFFFFF", "#1A1A1A"), "black": ("#121212", "#FFFFFF")}
#: The same for the ink-saver print sheets: a dark interior turns light grey with dark ink (still
#: unlike the white base cards at a glance), and a dark band inside the frame marks it as well.
LIGHT_INTERIORS = {"white": ("#FFFFFF", "#1A1A1A"), "black": ("#D2D2D2", "#121212")}
LIGHT_BACK_BG = "#FFFFFF"
NEUTRAL_FRAME = "#6B6B78"
BACK_BG = "#23233A"
BACK_INK = "#F4F1E8"
#: The back's border, dots from the trim to the middle of its 8-dot line: its outer edge stands
#: 86 dots (7.3 mm, over 1/4 in) inside the cut, so a 1/16 in miscut changes one side's gap by
#: under a third and backs cut from different sheets cannot be told apart by their borders.
BACK_BORDER_INSET = 90.0

#: The coloured frame runs from the interior's edge, FRAME_INSET + FRAME_WIDTH (4 mm) inside the
#: trim, out through the whole 1/8 in bleed: a cut up to 1/16 in off in any direction still
#: leaves frame colour at every edge (2.5 mm of it at least), so no face looks different.
FRAME_INSET = 14.0
FRAME_WIDTH = 34.0
FRAME_RADIUS = 44.0
#: No text prints smaller than 6.5 pt. Fitting may shrink text below it (down to FIT_FLOOR), so
#: that the size a text *needs* is known: products/printable.py reports such a card as an error
#: at its line, and the build refuses it.
MIN_TEXT = pt_to_dots(6.5)
FIT_FLOOR = 4.0
INDEX_CX = 130.0  # centre of the corner index column (keeps 17 dots clear of the frame)
INDEX_TOP = 62.0

def number_text(value: int) -> str:
    """A printed number; negatives carry a true minus sign, wider than a hyphen."""
    return f"\u2212{-value}" if value < 0 else str(value)


# --- building blocks ----------------------------------------------------------------------

def background(colour: str) -> Poly:
    return Poly(rect(-OVERSCAN, -OVERSCAN, W + OVERSCAN, H + OVERSCAN), colour)


def frame(colours: list[str], interior: str) -> list[Item]:
    """A frame through the bleed: one band per colour along the diagonal, then the interior."""
    outer = rect(-OVERSCAN, -OVERSCAN, W + OVERSCAN, H + OVERSCAN)
    items: list[Item] = []
    n = len(colours)
    for i, colour in enumerate(colours):
        band = outer
        # t = x/W + y/H runs 0..2 from the top-left corner to the bottom-right one.
        if i > 0:
            band = clip(band, -1 / W, -1 / H, -2 * i / n)
        if i < n - 1:
            band = clip(band, 1 / W, 1 / H, 2 * (i + 1) / n)
        items.append(Poly(band, colour))
    inner = FRAME_INSET + FRAME_WIDTH
    items.append(Poly(rounded_rect(inner, inner, W - inner, H - inner, FRAME_RADIUS - FRAME_WIDTH / 2), interior))
    return items


def shape(kind: str, cx: float, cy: float, r: float, fill: str, outline: str) -> list[Item]:
    pts = shape_points(kind, cx, cy, r)
    return [Poly(pts, fill), Stroke(pts, max(2.0, r * 0.08), outline, closed=True)]


def underline(text: Text) -> Poly:
    left, _, right, _ = Text(text.x, text.y, text.text, text.size, text.fill, text.bold, text.align).bbox()
    y0 = text.y + 0.1 * text.size
    return Poly(rect(left, y0, right, y0 + 0.075 * text.size), text.fill)


def corner(items: list[Item]) -> list[Item]:
    """The top-left index and the same index turned to the bottom-right."""
    return items + [rotate180(i) for i in items]


def needs_underline(value: int) -> bool:
    return abs(value) in (6, 9)


# --- faces by kind ------------------------------------------------------------------------

def interior(card: CardType, deck: Deck, light: bool = False) -> tuple[str, str]:
    """(background, ink) of a card's interior; `light` for the ink-saver sheets."""
    return (LIGHT_INTERIORS if light else INTERIORS)[deck.card_set(card.set).interior]


def dark_set(card: CardType, deck: Deck) -> bool:
    return deck.card_set(card.set).interior == "black"


def light_marker(card: CardType, deck: Deck, light: bool) -> list[Item]:
    """On an ink-saver face of a dark set, a black ring inside the frame: chaos at a glance."""
    if not (light and dark_set(card, deck)):
        return []
    inner = FRAME_INSET + FRAME_WIDTH
    return [Stroke(rounded_rect(inner + 5, inner + 5, W - inner - 5, H - inner - 5, FRAME_RADIUS - FRAME_WIDTH / 2),
                   12.0, "#121212", True)]


def number_face(card: CardType, deck: Deck, light: bool = False) -> Face:
    bg, ink = interior(card, deck, light)
    colours = [deck.colour(c) for c in card.colours]
    items: list[Item] = [background(bg), *frame([c.rgb for c in colours], bg), *light_marker(card, deck, light)]
    label = number_text(card.value or 0)

    # Corner index: the number, then the shape of each colour under it.
    size = tf.fit_size(label, 130, 84, bold=True)
    idx = Text(INDEX_CX, INDEX_TOP + tf.ASCENT * 84, label, size, ink, bold=True)
    index: list[Item] = [idx]
    if needs_underline(card.value or 0):
        index.append(underline(idx))
    y = INDEX_TOP + 84 + 46
    for c in colours:
        index += shape(c.shape, INDEX_CX, y, 27, c.rgb, ink)
        y += 64
    items += corner(index)

    # Centre: the shapes, the big number, the colour names.
    n = len(colours)
    for k, c in enumerate(colours):
        items += shape(c.shape, W / 2 + (k - (n - 1) / 2) * 150, 300, 58, c.rgb, ink)
    big_size = tf.fit_size(label, 470, 330, bold=True)
    fill = colours[0].rgb if n == 1 else ink
    stroke = 7.0 if n == 1 and contrast(fill, bg) < 4.5 else 0.0
    big = Text(W / 2, 525 + 0.73 * big_size / 2, label, big_size, fill, bold=True, stroke=stroke, stroke_colour=ink)
    items.append(big)
    if needs_underline(card.value or 0):
        items.append(underline(Text(big.x, big.y, label, big_size, ink, bold=True)))
    names = " / ".join(c.name.upper() for c in colours)
    items.append(Text(W / 2, 800, names, tf.fit_size(names, 400, 44, bold=True), ink, bold=True))
    return Face(card.code, tuple(items))


def paragraph(text: str, x0: float, y0: float, x1: float, y1: float, max_size: float, ink: str,
              min_size: float = FIT_FLOOR, icons: Icons = NO_ICONS) -> list[Item]:
    """A marked text (its icons inline) wrapped and shrunk to fit the box, lines centred."""
    size, lines = inline.fit_paragraph(text, x1 - x0, y1 - y0, max_size, min_size, icons=icons)
    lead = size * 1.22
    top = y0 + (y1 - y0 - lead * len(lines)) / 2
    return [item for k, line in enumerate(lines)
            for item in inline.line(line, (x0 + x1) / 2, round(top + tf.ASCENT * size + k * lead + (lead - size) / 2, 2),
                                    size, ink, icons=icons)]


def fitted_lines(text: str, box_w: float, box_h: float, max_size: float, cx: float, top: float, ink: str,
                 bold: bool = True, icons: Icons = NO_ICONS) -> list[Item]:
    """A short marked label (a wild's name in the corner): one line if it fits, else wrapped."""
    one = inline.fit_size(text, box_w, max_size, bold, icons)
    if one >= max_size * 0.55 or " " not in text:
        size, lines = min(one, box_h / 1.1), [text]
    else:
        size, lines = inline.fit_paragraph(text, box_w, box_h, max_size, FIT_FLOOR, leading=1.1, bold=bold, icons=icons)
    return [item for k, line in enumerate(lines)
            for item in inline.line(line, cx, round(top + tf.ASCENT * size + k * size * 1.1, 2), size, ink, bold, icons=icons)]


def wild_glyph(card: CardType, icons: Icons = NO_ICONS) -> str:
    """The effect's glyph from the catalogue, its parameters filled in (`×{factor}` gives ×2), as
    a marked text: when the layout declares a picture for the effect (`look: icons:`), the
    picture stands for the glyph's sign and the parameters follow it as text (`{icon:multiply}2`).

    The catalogue test checks that the typeface draws every glyph, so there is no fallback.
    """
    assert card.effect is not None
    name = card.effect.name
    if name in icons.pictures:
        params = dict(card.effect.params)
        return Mark(name, False).source + "".join(
            icons_escape(wording.fill("{" + field + "}", params)) for field in wording.fields(CATALOGUE[name].glyph))
    return icons_escape(wording.fill(CATALOGUE[name].glyph, dict(card.effect.params)))


def _sizes(items: list[Item]) -> list[float]:
    """The text sizes of a label's items (an icon-only label has its icons' text size in none: 0 stands for it)."""
    return [t.size for t in items if isinstance(t, Text)] or [0.0]


def wild_face(card: CardType, deck: Deck, light: bool = False) -> Face:
    bg, ink = interior(card, deck, light)
    icons = icons_of(deck).on(bg)
    items: list[Item] = [background(bg), *frame([c.rgb for c in deck.colours], bg), *light_marker(card, deck, light)]
    glyph = wild_glyph(card, icons)
    label = fitted_lines(card.name, 210, 130, 84, 175, INDEX_TOP, ink, icons=icons)
    if min(_sizes(label)) < MIN_TEXT:  # a long name: the corner shows the glyph instead
        short = fitted_lines(glyph, 210, 130, 84, 175, INDEX_TOP, ink, icons=icons)
        label = short if min(_sizes(short)) >= MIN_TEXT else label
    items += corner(label)
    gsize = inline.fit_size(glyph, 300, 190, True, icons)
    items += inline.line(glyph, W / 2, 395, gsize, ink, True, icons=icons)
    tsize = inline.fit_size(card.name, 560, 66, True, icons)
    if tsize >= MIN_TEXT or " " not in card.name:
        items += inline.line(card.name, W / 2, 505, tsize, ink, True, icons=icons)
    else:  # too long for one legible line: two lines, ending on the same baseline
        size, lines = inline.fit_paragraph(card.name, 560, 2.3 * 66, 66, FIT_FLOOR, leading=1.15, bold=True, icons=icons)
        items += [item for k, line in enumerate(lines)
                  for item in inline.line(line, W / 2, round(505 - (len(lines) - 1 - k) * size * 1.15, 2), size, ink, True,
                                          icons=icons)]
    items.append(Poly(rect(W / 2 - 120, 530, W / 2 + 120, 534), ink))
    items += paragraph(card.text, 95, 550, W - 95, 805, 46, ink, icons=icons)
    return Face(card.code, tuple(items))


def icons_of(deck: Deck) -> Icons:
    """The deck's inline icons, read once per deck (the pictures' files with it)."""
    drawn = _drawn(deck)
    if "icons" not in drawn:
        drawn["icons"] = inline.icons_of(deck)
    return drawn["icons"]


def reference_face(card: CardType, deck: Deck, light: bool = False) -> Face:
    """A quick-reference card. The summary is two faces: the first reference card type of the
    manifest shows the goal, the turn and the penalties; the second the wilds (a third the
    first again, and so on), so every line stays legible at REF_MIN_TEXT (7 pt) or more."""
    bg, ink = interior(card, deck, light)
    ref = quick_reference(deck)
    refs = [c.code for c in deck.cards if c.kind == "reference"]
    part = refs.index(card.code) % 2 if card.code in refs else 0
    icons = icons_of(deck).on(bg)
    items: list[Item] = [background(bg), *frame([NEUTRAL_FRAME], bg)]
    items += inline.line(card.name, W / 2, 130, inline.fit_size(card.name, 560, 56, True, icons), ink, True, icons=icons)
    if part == 0:
        blocks: list[tuple[str, list[tuple[str, str]]]] = [
            ("", [("", ref.goal)]),
            ("Your turn", [(f"{k}.", step) for k, step in enumerate(ref.turn, 1)]),
            ("Penalties", [("•", p) for p in ref.penalties]),
        ]
    else:
        names = {s.key: s.name for s in deck.sets}
        blocks = [(f"{names[key]} wilds", [(w.name, w.short) for w in ref.wilds if w.set == key])
                  for key in dict.fromkeys(w.set for w in ref.wilds)] or [("Wilds", [("", "This deck has no wilds.")])]
    items += rich_blocks(blocks, 80, 165, W - 80, H - 75, ink, icons)
    return Face(card.code, tuple(items))


#: The quick reference's body prints at no less than this (its entries wrap onto more lines first).
REF_MIN_TEXT = pt_to_dots(7.0)


def rich_blocks(blocks: list[tuple[str, list[tuple[str, str]]]], x0: float, y0: float, x1: float, y1: float,
                ink: str, icons: Icons = NO_ICONS) -> list[Item]:
    """Headed lists of (bold lead, text) entries, shrunk until they fit the box, but never below
    REF_MIN_TEXT: a quick reference whose entries do not fit at that size has too many entries.
    Leads and texts are marked texts: their icons are measured and drawn inline."""
    size = 44.0
    while True:
        items, y = _lay_blocks(blocks, x0, y0, x1, size, ink, icons)
        smaller = round(size * 0.96, 2)
        if y <= y1 or smaller < REF_MIN_TEXT:
            return items
        size = smaller


def balanced_wrap(text: str, size: float, box_w: float, icons: Icons = NO_ICONS) -> list[str]:
    """Word wrap in which no line after the first holds a single word (a widow): a text that
    would end on one word is wrapped narrower, so the lines even out, in as many lines. The text
    is marked: an icon is measured with the word it touches."""
    lines = inline.wrap(text, size, box_w, icons=icons)
    if len(lines) < 2 or len(lines[-1].split()) > 1 or len(text.split()) < 4:
        return lines
    w = box_w
    while w > box_w * 0.55:
        w *= 0.97
        trial = inline.wrap(text, size, w, icons=icons)
        if len(trial) > len(lines):
            break
        if all(len(line.split()) > 1 for line in trial[1:]):
            return trial
    more = inline.wrap(text, size, box_w * 0.8, icons=icons)  # one line more, none of them a lone word
    return more if all(len(line.split()) > 1 for line in more[1:]) else lines


def _lay_blocks(blocks, x0: float, y0: float, x1: float, size: float, ink: str,
                icons: Icons = NO_ICONS) -> tuple[list[Item], float]:
    """Each entry's bold lead in a column as wide as the widest lead (a wild's name), its text in
    the column beside it, wrapped by balanced_wrap; a lead wider than 40% of the box stands on
    its own line, with the text below it."""
    lead = size * 1.18
    items: list[Item] = []
    y = y0
    leads = [inline.width(lead_text + " ", size, True, icons) for _, entries in blocks for lead_text, _ in entries if lead_text]
    column = max((w for w in leads if w <= (x1 - x0) * 0.4), default=0.0)
    for head, entries in blocks:
        if head:
            y += size * 0.5
            items.append(Text(x0, round(y + tf.ASCENT * size * 1.1, 2), head.upper(), round(size * 1.1, 2), ink,
                              bold=True, align="l"))
            y += size * 1.1 * 1.25
        for lead_text, text in entries:
            indent = x0
            if lead_text:
                items += inline.line(lead_text, x0, round(y + tf.ASCENT * size, 2), size, ink, True, "l", icons)
                if inline.width(lead_text + " ", size, True, icons) <= column:
                    indent = x0 + column
                else:
                    y += lead
                    indent = x0 + column
            for line in balanced_wrap(text, size, x1 - indent, icons):
                items += inline.line(line, round(indent, 2), round(y + tf.ASCENT * size, 2), size, ink, False, "l", icons)
                y += lead
        y += size * 0.25
    return items, y


def blank_face(card: CardType, deck: Deck, light: bool = False) -> Face:
    bg, ink = interior(card, deck, light)
    faint = "#9A9AA6"
    items: list[Item] = [background(bg), *frame([NEUTRAL_FRAME], bg)]
    items += corner([Stroke(rounded_rect(INDEX_CX - 62, INDEX_TOP, INDEX_CX + 62, INDEX_TOP + 170, 14), 4, faint, True)])
    items.append(Stroke(rounded_rect(W / 2 - 150, 110, W / 2 + 150, 390, 24), 4, faint, True))
    items.append(Stroke(((110, 470), (W - 110, 470)), 4, faint))
    for k in range(5):
        y = 560 + k * 62
        items.append(Stroke(((110, y), (W - 110 if y < 780 else W - 230, y)), 3, faint))
    return Face(card.code, tuple(items))


def back_face(deck: Deck, light: bool = False) -> Face:
    """The one back; `light` (ink-saver) draws it as outlines on white in the same navy."""
    return _back_face(deck.colours, deck.params, light)


@lru_cache(maxsize=16)
def _back_face(colours: tuple, params, light: bool) -> Face:
    bg, ink = (LIGHT_BACK_BG, BACK_BG) if light else (BACK_BG, BACK_INK)
    items: list[Item] = [background(bg)]
    inset = BACK_BORDER_INSET
    items.append(Stroke(rounded_rect(inset, inset, W - inset, H - inset, 36), 8, ink, True))
    items.append(Stroke(rounded_rect(inset + 22, inset + 22, W - inset - 22, H - inset - 22, 24), 3, ink, True))
    words = params.name.split() or [params.name]
    size = min(tf.fit_size(w, 500, 150, bold=True) for w in words)
    lead = size * 1.1
    top = H / 2 - lead * len(words) / 2
    for k, word in enumerate(words):
        items.append(Text(W / 2, round(top + k * lead + tf.ASCENT * size + (lead - size) / 2, 2), word, size,
                          ink, bold=True))
    row: list[Item] = []
    n = len(colours)
    for k, c in enumerate(colours):
        row += shape(c.shape, W / 2 + (k - (n - 1) / 2) * 120, 250, 42, c.rgb, ink)
    items += row + [rotate180(i) for i in row]
    return Face("back", tuple(items))


FACES = {"number": number_face, "dual": number_face, "wild": wild_face, "reference": reference_face,
         "blank": blank_face}


def charset(deck: Deck) -> str:
    """Every character a face of this deck can print, sorted (fixes the PDF font encoding)."""
    chars = {chr(i) for i in range(32, 127)} | set(repr(deck)) | set(repr(quick_reference(deck)))
    chars |= set("".join(e.glyph for e in CATALOGUE.values())) | set("\u2212•·×±")
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
