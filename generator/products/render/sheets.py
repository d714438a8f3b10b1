"""Imposition: where each card goes on a sheet, crop marks, and which cards share a page.

A card's position is computed here and nowhere else; backs use the same function, mirrored
the way the paper turns over (columns for a long-edge flip, rows for a short-edge flip) and
shifted by the back offset, so printed duplex each back lands behind its front.
All values are PDF points, origin at the page's bottom-left.

Home printers leave about 4.2 mm at every paper edge unprinted (HP and Canon's usual
minimum; Letter's 3×3 grid leaves only 12.7 mm of height to spare). So the card trims stay
inside that zone, and every cut line gets a mark at least MARK_MIN long inside it and outside
every card's trim. Marks may run over the bleed (it is cut away); they are drawn with a white
halo so they show on dark bleed too.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from generator.deck.model import CardType, Deck
from generator.products.render.units import BLEED_IN, PAPERS, TRIM_H_IN, TRIM_W_IN, inch, mm

COLS, ROWS = 3, 3
PER_PAGE = COLS * ROWS
CARD_W, CARD_H = inch(TRIM_W_IN), inch(TRIM_H_IN)
BLEED = inch(BLEED_IN)
#: Nothing is printed closer than this to a paper edge (4.2 mm, plus half a point to spare).
PRINT_LIMIT = mm(4.2) + 0.5
MARK_MIN = mm(3.0)  #: every cut line has a mark at least this long
GUTTER_MARK_MIN = mm(1.0)  #: a gutter too narrow for a full mark still gets a short one
MARK_MAX = mm(4.0)  #: marks in the margins are at most this long
MARK_GAP = 1.5  #: marks start this far outside the trim
MARK_WIDTH = 0.5
FOOTER_SIZE = 6.5  #: points; the footer sits in the widest free margin
DUPLEX = ("long", "short")


class LayoutError(ValueError):
    """The options ask for a sheet the paper has no room for."""


@dataclass(frozen=True)
class Slot:
    """One card's place on a page: its trim rectangle and how much bleed shows on each edge.

    A bleed of 0 means a card is butted against this edge (the two share the cut).
    """

    x: float
    y: float
    w: float
    h: float
    bleed: tuple[float, float, float, float]  #: left, bottom, right, top


@dataclass(frozen=True)
class Grid:
    """The 3×3 grid on one paper with the build's print options."""

    paper: str
    x0: float  #: left trim of the first column (front side)
    y0: float  #: bottom trim of the bottom row (front side)
    gutter: tuple[float, float]  #: space between columns, between rows
    duplex: str = "long"  #: the paper's edge it turns over for the backs
    offset: tuple[float, float] = (0.0, 0.0)  #: the backs' shift, as seen on the back

    @property
    def size(self) -> tuple[float, float]:
        return PAPERS[self.paper]

    def mirror(self, x: float, y: float) -> tuple[float, float]:
        """The point on the back side behind front point (x, y), offset included."""
        pw, ph = self.size
        if self.duplex == "long":
            x = pw - x
        else:
            y = ph - y
        return x + self.offset[0], y + self.offset[1]


@lru_cache(maxsize=None)
def grid(paper: str, gutter_mm: float = 0.0, duplex: str = "long",
         back_offset_mm: tuple[float, float] = (0.0, 0.0)) -> Grid:
    """The grid for these options; raises LayoutError when the paper has no room for them.

    A gutter the paper has no room for between rows (Letter is 12.7 mm taller than three
    cards) leaves the rows butted: see gutter_note().
    """
    if duplex not in DUPLEX:
        raise LayoutError(f"duplex must be one of {', '.join(DUPLEX)}")
    pw, ph = PAPERS[paper]
    g = mm(gutter_mm)
    x0 = _place(pw, CARD_W, g)
    if x0 is None:
        most = _most_gutter(pw, CARD_W)
        raise LayoutError(f"--gutter {gutter_mm:g} mm does not fit three cards across {paper} "
                          f"(at most {most:.1f} mm)")
    gy = g
    y0 = _place(ph, CARD_H, gy)
    if y0 is None:
        gy, y0 = 0.0, _place(ph, CARD_H, 0.0)
    assert y0 is not None
    out = Grid(paper, x0, y0, (g, gy), duplex, (mm(back_offset_mm[0]), mm(back_offset_mm[1])))
    # Sheets are cut along the fronts' marks; the backs' marks are a help that a back offset
    # may push partly into the unprintable edge.
    for back in ((False, True) if out.offset == (0.0, 0.0) else (False,)):
        missing = unmarked_lines(out, back)
        if missing:
            side = "back" if back else "front"
            raise LayoutError(f"--back-offset {back_offset_mm[0]:g},{back_offset_mm[1]:g} mm pushes the {paper} "
                              f"{side} cut marks into the edge a home printer cannot print")
    return out


def gutter_note(paper: str, gutter_mm: float) -> str:
    """A line for the user when the rows of `paper` could not take the gutter, else ''."""
    if gutter_mm <= 0:
        return ""
    g = grid(paper, gutter_mm)
    if g.gutter[1] == g.gutter[0]:
        return ""
    return f"{paper}: no room for a {gutter_mm:g} mm gutter between rows; the rows stay butted (columns have it)"


def gutter_gap(width: float) -> float:
    """How far a mark in a gutter `width` wide keeps from the two trims beside it.

    MARK_GAP where the gutter holds a full MARK_MIN mark with it (or cannot hold one at all:
    a short mark then keeps the whole gap); in between, the gap shrinks just enough for the
    mark to reach MARK_MIN. So every gutter from MARK_MIN wide up holds a full mark, and the
    gutters a paper accepts run without a hole from 0 to its widest (see _place).
    """
    if width >= MARK_MIN + 2 * MARK_GAP or width < MARK_MIN - 1e-3:
        return MARK_GAP
    return max(0.0, (width - MARK_MIN) / 2)


def _full_gutter_mark(gutter: float) -> bool:
    """Whether a gutter this wide holds a mark of at least MARK_MIN on each cut line across it."""
    return gutter > 0 and gutter - 2 * gutter_gap(gutter) >= MARK_MIN - 1e-6


def _place(length: float, card: float, gutter: float) -> float | None:
    """Where the first card's trim starts along one axis, or None when it does not fit.

    Each cut line across this axis needs one mark of at least MARK_MIN: in the margins (the
    grid centred when both have room, else pushed to the low edge so the far margin holds
    them all) or in the gutters between the cards.
    """
    lo, hi = PRINT_LIMIT, length - PRINT_LIMIT
    total = 3 * card + 2 * gutter
    room = hi - lo - total
    need = MARK_MIN + MARK_GAP  # a margin mark starts MARK_GAP outside the trim
    if room < 0:
        return None
    if room / 2 >= need or _full_gutter_mark(gutter):
        return (length - total) / 2
    if room >= need:
        return lo  # marks on one side only: the far one
    return None


def _most_gutter(length: float, card: float) -> float:
    best, g = 0.0, 0.0
    while g < mm(40):
        if _place(length, card, g) is not None:
            best = g
        g += mm(0.1)
    return best / mm(1)


def _front_rect(g: Grid, index: int) -> tuple[float, float]:
    row, col = divmod(index, COLS)
    x = g.x0 + col * (CARD_W + g.gutter[0])
    y = g.y0 + (ROWS - 1 - row) * (CARD_H + g.gutter[1])
    return x, y


@lru_cache(maxsize=4096)
def slot(g: Grid, index: int, back: bool = False, filled: int = PER_PAGE) -> Slot:
    """Slot `index` (0..8, reading order) of a page holding `filled` cards; `back` for the
    other side of the sheet. An edge with no card beside it gets the full bleed; between two
    cards each fills half the gutter (or none, butted)."""
    row, col = divmod(index, COLS)
    has = {
        "l": col > 0,
        "r": col < COLS - 1 and index + 1 < filled,
        "b": row < ROWS - 1 and index + COLS < filled,
        "t": row > 0,
    }
    half = (min(BLEED, g.gutter[0] / 2), min(BLEED, g.gutter[1] / 2))
    left, right = (half[0] if has["l"] else BLEED), (half[0] if has["r"] else BLEED)
    bottom, top = (half[1] if has["b"] else BLEED), (half[1] if has["t"] else BLEED)
    x, y = _front_rect(g, index)
    if not back:
        return Slot(x, y, CARD_W, CARD_H, (left, bottom, right, top))
    mx, my = g.mirror(x, y)
    if g.duplex == "long":
        return Slot(mx - CARD_W, my, CARD_W, CARD_H, (right, bottom, left, top))
    return Slot(mx, my - CARD_H, CARD_W, CARD_H, (left, top, right, bottom))


def _rects(g: Grid, back: bool) -> list[tuple[float, float, float, float]]:
    out = []
    for i in range(PER_PAGE):
        s = slot(g, i, back)
        out.append((s.x, s.y, s.x + s.w, s.y + s.h))
    return out


def _free(line: float, rects: list[tuple[float, float, float, float]], axis: int, lo: float,
          hi: float) -> list[tuple[float, float, bool, bool]]:
    """Stretches of a cut line inside [lo, hi] that no card covers: (start, end, card at start,
    card at end). `axis` 0: a vertical line x = line; 1: a horizontal line y = line."""
    eps = 0.01
    spans = sorted((r[1], r[3]) if axis == 0 else (r[0], r[2]) for r in rects
                   if (r[0] - eps <= line <= r[2] + eps if axis == 0 else r[1] - eps <= line <= r[3] + eps))
    out, at, card_at = [], lo, False
    for a, b in spans:
        if a > at:
            out.append((at, min(a, hi), card_at, a <= hi))
        at, card_at = max(at, b), True
    if at < hi:
        out.append((at, hi, card_at, False))
    return out


def _lines(g: Grid, back: bool) -> tuple[list[float], list[float]]:
    rects = _rects(g, back)
    xs = sorted({round(v, 3) for r in rects for v in (r[0], r[2])})
    ys = sorted({round(v, 3) for r in rects for v in (r[1], r[3])})
    return xs, ys


def _candidates(g: Grid, back: bool) -> list[tuple[str, float, float, float, str]]:
    """Every possible mark: (axis 'v' or 'h', line, start, end, where), where is a margin
    ('left', 'right', 'top', 'bottom') or 'gutter'."""
    pw, ph = g.size
    rects = _rects(g, back)
    xs, ys = _lines(g, back)
    out = []
    for axis, lines, length in (("v", xs, ph), ("h", ys, pw)):
        lo, hi = PRINT_LIMIT, length - PRINT_LIMIT
        for line in lines:
            for a, b, card_a, card_b in _free(line, rects, 0 if axis == "v" else 1, lo, hi):
                if card_a and card_b:
                    gap = gutter_gap(b - a)
                    start, end, where = a + gap, b - gap, "gutter"
                elif card_b:  # the low margin
                    end = b - MARK_GAP
                    start, where = max(a, end - MARK_MAX), ("bottom" if axis == "v" else "left")
                elif card_a:
                    start = a + MARK_GAP
                    end, where = min(b, start + MARK_MAX), ("top" if axis == "v" else "right")
                else:
                    continue
                if end - start >= (GUTTER_MARK_MIN if where == "gutter" else MARK_MIN) - 1e-6:
                    out.append((axis, line, start, end, where))
    return out


def unmarked_lines(g: Grid, back: bool = False) -> list[tuple[str, float]]:
    """Cut lines that no mark could serve (none for a grid that grid() returned)."""
    xs, ys = _lines(g, back)
    have = {(c[0], c[1]) for c in _candidates(g, back) if c[3] - c[2] >= MARK_MIN - 1e-6}
    return [(a, v) for a, vs in (("v", xs), ("h", ys)) for v in vs if (a, v) not in have]


def _bands(g: Grid, back: bool) -> dict[str, float]:
    """Free room in each margin, between the bleed and the printable limit."""
    pw, ph = g.size
    rects = _rects(g, back)
    return {
        "left": min(r[0] for r in rects) - BLEED - PRINT_LIMIT,
        "right": pw - PRINT_LIMIT - max(r[2] for r in rects) - BLEED,
        "bottom": min(r[1] for r in rects) - BLEED - PRINT_LIMIT,
        "top": ph - PRINT_LIMIT - max(r[3] for r in rects) - BLEED,
    }


def footer_side(g: Grid, back: bool = False) -> str:
    """The widest margin between the bleed and the printable limit: the footer goes there."""
    bands = _bands(g, back)
    return max(bands, key=lambda k: (round(bands[k], 3), k in ("bottom", "left")))


def crop_marks(g: Grid, back: bool = False) -> list[tuple[float, float, float, float]]:
    """Line segments (x0, y0, x1, y1): a mark on every cut line in every place there is room,
    except the footer's margin when the opposite margin marks the same lines."""
    cands = _candidates(g, back)
    foot = footer_side(g, back)
    opposite = {"left": "right", "right": "left", "top": "bottom", "bottom": "top"}[foot]
    served = {(c[0], c[1]) for c in cands if c[4] == opposite and c[3] - c[2] >= MARK_MIN - 1e-6}
    marks = []
    for axis, line, a, b, where in cands:
        if where == foot and (axis, line) in served:
            continue
        marks.append((line, a, line, b) if axis == "v" else (a, line, b, line))
    return sorted(marks)


@lru_cache(maxsize=256)
def footer_place(g: Grid, back: bool = False) -> tuple[float, float, int] | None:
    """Where the footer goes: (x, y of its baseline's middle, rotation); None when no margin
    has room for it (a wide gutter on Letter): the test page still names the file."""
    pw, ph = g.size
    rects = _rects(g, back)
    side = footer_side(g, back)
    if _bands(g, back)[side] < FOOTER_SIZE * 1.2:
        return None
    lift = FOOTER_SIZE * 0.3  # centre the text's body, not its baseline
    if side == "bottom":
        return pw / 2, (PRINT_LIMIT + min(r[1] for r in rects) - BLEED) / 2 - lift, 0
    if side == "top":
        return pw / 2, (ph - PRINT_LIMIT + max(r[3] for r in rects) + BLEED) / 2 - lift, 0
    if side == "left":
        return (PRINT_LIMIT + min(r[0] for r in rects) - BLEED) / 2 + lift, ph / 2, 90
    return (pw - PRINT_LIMIT + max(r[2] for r in rects) + BLEED) / 2 - lift, ph / 2, 270


@dataclass(frozen=True)
class Page:
    """Up to nine cards of one set."""

    set: str
    codes: tuple[str, ...]


def pages(deck: Deck, cards: list[CardType]) -> list[Page]:
    """Card instances (copies expanded) on pages, each set on its own pages, sets in manifest order."""
    out: list[Page] = []
    for s in deck.sets:
        codes = [c.code for c in cards if c.set == s.key for _ in range(c.copies)]
        out += [Page(s.key, tuple(codes[i:i + PER_PAGE])) for i in range(0, len(codes), PER_PAGE)]
    return out
