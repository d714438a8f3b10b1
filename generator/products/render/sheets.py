"""Imposition: where each card goes on a sheet, crop marks, and which cards share a page.

A card's position is computed here and nowhere else. Two layouts:

- duplex (the default): 3×3 upright cards a side where the paper's margins hold the marks (A4),
  else 2×4 cards turned on their side (Letter: three rows of upright cards leave only 1/4 in above
  and below them, no room for a mark outside 1/4 in); backs use the same function, mirrored the
  way the paper turns over (columns for a long-edge flip, rows for a short-edge flip) and shifted
  by the back offset, so printed duplex each back lands behind its front (turned cards' backs turn
  so that each back's top stands behind its front's top, as on a real card);
- gutterfold: one-sided, four cards a sheet turned on their side, fronts in the left column and
  their backs in the right one, the fold line in the middle: folded along it, each back lands
  behind its front (the backs turn the other way, so both read the same way up).

All values are PDF points, origin at the page's bottom-left.

Home printers leave about 4.2 mm at every paper edge unprinted (HP and Canon's usual minimum;
some leave 5 mm at the bottom, some 1/4 in). Every cut line has a mark at both ends, in the
margins, outside every card's trim, so cutting a strip off leaves the other end of every line
marked; a gutter wide enough holds marks too. Every mark keeps MARK_LIMIT (1/4 in) from every
paper edge, so the grid is centred with margins of at least MARGIN_MIN: room for a mark of
MARK_MIN between MARK_LIMIT and the trim. A gutter a direction has no room for leaves the cards
butted that way (gutter_note says so). Nothing is drawn outside the printable area: a card's
bleed on an outer edge stops at it (only a back offset brings a card that near). Marks may run
over the bleed (it is cut away); they are drawn with a white halo so they show on dark bleed too.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from generator.deck.model import CardType, Deck
from generator.products.render.units import BLEED_IN, LAYOUTS, PAPERS, TRIM_H_IN, TRIM_W_IN, inch, mm

CARD_W, CARD_H = inch(TRIM_W_IN), inch(TRIM_H_IN)
BLEED = inch(BLEED_IN)
#: Nothing is printed closer than this to a paper edge (4.2 mm, plus half a point to spare).
PRINT_LIMIT = mm(4.2) + 0.5
#: Crop marks keep this far from every paper edge: 1/4 in, the widest margin home printers
#: commonly leave blank (a tenth of a point inside it).
MARK_LIMIT = mm(6.35) + 0.1
MARK_MIN = mm(1.0)  #: the mark at each end of a cut line is at least this long
GUTTER_MARK_MIN = mm(1.0)  #: a gutter holds marks when they can be this long
MARK_MAX = mm(4.0)  #: marks in the margins are at most this long
MARK_GAP = 1.5  #: marks start this far outside the trim
#: Every cut line keeps at least this far from every paper edge (7.9 mm): its marks fit outside 1/4 in.
MARGIN_MIN = MARK_LIMIT + MARK_MIN + MARK_GAP
MARK_WIDTH = 0.5
FOOTER_SIZE = 6.5  #: points; the footer sits in the widest free margin
DUPLEX = ("long", "short")
#: gutterfold: from each card's trim to the fold line
FOLD_SPACE = mm(8.0)
#: The thinnest bleed kept on an outer edge the printable area cuts short (0 means butted).
MIN_BLEED = 0.05


class LayoutError(ValueError):
    """The options ask for a sheet the paper has no room for."""


@dataclass(frozen=True)
class Slot:
    """One card's place on a page: its trim rectangle and how much bleed shows on each edge.

    A bleed of 0 means a card is butted against this edge (the two share the cut). `rot`: the
    card turned counter-clockwise by 0, 90 or 270 degrees (gutterfold and Letter's duplex sheets
    lay them on their side); x, y, w, h are the turned trim on the page.
    """

    x: float
    y: float
    w: float
    h: float
    bleed: tuple[float, float, float, float]  #: left, bottom, right, top
    rot: int = 0


@dataclass(frozen=True)
class Grid:
    """The grid of one layout on one paper with the build's print options."""

    paper: str
    x0: float  #: left trim of the first column (front side)
    y0: float  #: bottom trim of the bottom row (front side)
    gutter: tuple[float, float]  #: space between columns, between rows
    duplex: str = "long"  #: the paper's edge it turns over for the backs
    offset: tuple[float, float] = (0.0, 0.0)  #: the backs' shift, as seen on the back
    layout: str = "duplex"
    turned: bool = False  #: duplex: the cards lie on their side, 2×4 (the paper's margins need it)

    @property
    def size(self) -> tuple[float, float]:
        return PAPERS[self.paper]

    @property
    def upright(self) -> bool:
        """The cards stand upright (3×3 duplex); else they lie on their side."""
        return self.layout == "duplex" and not self.turned

    @property
    def cols(self) -> int:
        return 3 if self.upright else 2

    @property
    def rows(self) -> int:
        return 3 if self.upright else 4

    @property
    def per_page(self) -> int:
        """Cards (with their backs) on one page: 9 or 8 a side duplex, 4 gutterfold."""
        return self.cols * self.rows if self.layout == "duplex" else self.rows

    @property
    def cell(self) -> tuple[float, float]:
        """A card's trim as laid on the page: upright, or on its side."""
        return (CARD_W, CARD_H) if self.upright else (CARD_H, CARD_W)

    def fold(self) -> float | None:
        """gutterfold: the x of the fold line (the paper's middle); None for duplex."""
        return self.size[0] / 2 if self.layout == "gutterfold" else None

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
         back_offset_mm: tuple[float, float] = (0.0, 0.0), layout: str = "duplex") -> Grid:
    """The grid for these options; raises LayoutError for a duplex edge or layout it does not know.

    duplex: 3×3 upright cards where the paper's margins hold them with their marks (A4), else
    2×4 on their side (Letter). A gutter a direction has no room for leaves the cards butted that
    way: see gutter_note(). gutterfold takes the gutter between its rows only (its columns are
    spaced by the fold) and turns nothing over, so duplex and the back offset do not apply to it.
    """
    if duplex not in DUPLEX:
        raise LayoutError(f"duplex must be one of {', '.join(DUPLEX)}")
    if layout not in LAYOUTS:
        raise LayoutError(f"layout must be one of {', '.join(LAYOUTS)}")
    pw, ph = PAPERS[paper]
    g = mm(gutter_mm)
    if layout == "gutterfold":
        x0 = _place(pw, CARD_H, 2, 2 * FOLD_SPACE)
        rows = _axis(ph, CARD_W, 4, g)
        assert x0 is not None and rows is not None
        return Grid(paper, x0, rows[1], (2 * FOLD_SPACE, rows[0]), layout=layout)
    offset = (mm(back_offset_mm[0]), mm(back_offset_mm[1]))
    for turned in (False, True):
        probe = Grid(paper, 0.0, 0.0, (0.0, 0.0), turned=turned)
        (w, h), cols, rows = probe.cell, probe.cols, probe.rows
        across, up = _axis(pw, w, cols, g), _axis(ph, h, rows, g)
        if across is not None and up is not None:
            return Grid(paper, across[1], up[1], (across[0], up[0]), duplex, offset, turned=turned)
    raise LayoutError(f"{paper} holds no grid of cards with their crop marks")


def gutter_note(paper: str, gutter_mm: float, layout: str = "duplex") -> str:
    """A line for the user when the columns or the rows of `paper` could not take the gutter, else ''."""
    if gutter_mm <= 0:
        return ""
    g = grid(paper, gutter_mm, layout=layout)
    if layout == "gutterfold":
        return "" if g.gutter[1] > 0 else \
            f"{paper} gutterfold: no room for a {gutter_mm:g} mm gutter between rows; the rows stay butted"
    if g.gutter[0] > 0 and g.gutter[1] > 0:
        return ""
    if g.gutter[0] > 0:
        return f"{paper}: no room for a {gutter_mm:g} mm gutter between rows; the rows stay butted (columns have it)"
    if g.gutter[1] > 0:
        return f"{paper}: no room for a {gutter_mm:g} mm gutter between columns; the columns stay butted (rows have it)"
    return f"{paper}: no room for a {gutter_mm:g} mm gutter; the cards stay butted"


def _place(length: float, card: float, n: int, gutter: float) -> float | None:
    """Where the first of `n` cards' trim starts along one axis (centred), or None when the
    margins left would be narrower than MARGIN_MIN (no room for a mark outside 1/4 in)."""
    total = n * card + (n - 1) * gutter
    margin = (length - total) / 2
    return margin if margin >= MARGIN_MIN - 1e-6 else None


def _axis(length: float, card: float, n: int, gutter: float) -> tuple[float, float] | None:
    """(the gutter used, where the first card starts) along one axis: the gutter asked for where
    it fits, else butted cards; None when not even those fit."""
    start = _place(length, card, n, gutter)
    if start is not None:
        return gutter, start
    start = _place(length, card, n, 0.0)
    return None if start is None else (0.0, start)


def _front_rect(g: Grid, index: int, col: int | None = None) -> tuple[float, float]:
    if g.layout == "gutterfold":
        row = index
        col = col or 0
    else:
        row, col = divmod(index, g.cols)
    w, h = g.cell
    x = g.x0 + col * (w + g.gutter[0])
    y = g.y0 + (g.rows - 1 - row) * (h + g.gutter[1])
    return x, y


def _clip(g: Grid, x: float, y: float, w: float, h: float, bleed: tuple[float, float, float, float],
          rot: int = 0) -> Slot:
    """The slot with its bleed cut back to the printable area (butted edges stay 0)."""
    pw, ph = g.size
    room = (x - PRINT_LIMIT, y - PRINT_LIMIT, pw - PRINT_LIMIT - x - w, ph - PRINT_LIMIT - y - h)
    kept = tuple(b if b == 0 else max(MIN_BLEED, min(b, r)) for b, r in zip(bleed, room))
    return Slot(x, y, w, h, kept, rot)  # type: ignore[arg-type]


@lru_cache(maxsize=4096)
def slot(g: Grid, index: int, back: bool = False, filled: int | None = None) -> Slot:
    """Slot `index` (reading order) of a page holding `filled` cards (default: full); `back`
    for the other side of the sheet (gutterfold: the right column, the same side). Turned
    duplex cards lie like the gutterfold's: a front turned 90°, its back 270° (long edge) or 90°
    (short edge). An edge
    with no card beside it gets the full bleed, as far as the printable area allows; between
    two cards each fills half the gutter (or none, butted)."""
    filled = g.per_page if filled is None else filled
    if g.layout == "gutterfold":
        return _fold_slot(g, index, back, filled)
    cols, rows = g.cols, g.rows
    row, col = divmod(index, cols)
    has = {
        "l": col > 0,
        "r": col < cols - 1 and index + 1 < filled,
        "b": row < rows - 1 and index + cols < filled,
        "t": row > 0,
    }
    half = (min(BLEED, g.gutter[0] / 2), min(BLEED, g.gutter[1] / 2))
    left, right = (half[0] if has["l"] else BLEED), (half[0] if has["r"] else BLEED)
    bottom, top = (half[1] if has["b"] else BLEED), (half[1] if has["t"] else BLEED)
    x, y = _front_rect(g, index)
    w, h = g.cell
    if not back:
        return _clip(g, x, y, w, h, (left, bottom, right, top), 0 if g.upright else 90)
    mx, my = g.mirror(x, y)
    # A turned front's top points left. Turned over the long edge, the card's top points right
    # as seen on the back, so the back turns the other way (270°); over the short edge it still
    # points left (90°): either way each back's top stands behind its front's top.
    if g.duplex == "long":
        return _clip(g, mx - w, my, w, h, (right, bottom, left, top), 0 if g.upright else 270)
    return _clip(g, mx, my - h, w, h, (left, top, right, bottom), 0 if g.upright else 90)


def _fold_slot(g: Grid, index: int, back: bool, filled: int) -> Slot:
    """gutterfold: card `index` (its row) in the fronts' column, or its back in the other one.
    The front lies on its side with its top to the outer (left) edge, turned 90°; the back
    turns the other way (270°), so folded over the middle line it stands behind its front the
    way a card's back does (the front's right edge behind the back's left)."""
    w, h = g.cell
    x, y = _front_rect(g, index, 1 if back else 0)
    half = min(BLEED, g.gutter[1] / 2)
    bottom = half if index + 1 < filled else BLEED
    top = half if index > 0 else BLEED
    return _clip(g, x, y, w, h, (BLEED, bottom, BLEED, top), 270 if back else 90)


def _rects(g: Grid, back: bool) -> list[tuple[float, float, float, float]]:
    out = []
    sides = (False, True) if g.layout == "gutterfold" else (back,)
    for side in sides:
        for i in range(g.per_page):
            s = slot(g, i, side)
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
    """Every mark: (axis 'v' or 'h', line, start, end, where), where is a margin ('left',
    'right', 'top', 'bottom': the line's two ends) or 'gutter' (between two cards; a
    gutterfold's fold gutter holds one on each side of the fold)."""
    pw, ph = g.size
    rects = _rects(g, back)
    xs, ys = _lines(g, back)
    fold = g.fold()
    out = []
    for axis, lines, length, across in (("v", xs, ph, pw), ("h", ys, pw, ph)):
        lo, hi = MARK_LIMIT, length - MARK_LIMIT  # a margin's mark keeps 1/4 in from the paper's edge
        for line in lines:
            if not MARK_LIMIT <= line <= across - MARK_LIMIT:  # a back offset took the line that near
                continue
            for a, b, card_a, card_b in _free(line, rects, 0 if axis == "v" else 1, lo, hi):
                if card_a and card_b:
                    if axis == "h" and fold is not None and a < fold < b:
                        out.append((axis, line, a + MARK_GAP, min(a + MARK_GAP + MARK_MAX, fold - MARK_GAP), "gutter"))
                        out.append((axis, line, max(b - MARK_GAP - MARK_MAX, fold + MARK_GAP), b - MARK_GAP, "gutter"))
                        continue
                    start, end, where = a + MARK_GAP, b - MARK_GAP, "gutter"
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


def _bands(g: Grid, back: bool) -> dict[str, float]:
    """Free room in each margin between the printable limit and whatever is nearer the edge:
    the bleed, or the marks (they reach MARK_GAP + MARK_MAX out from the trims)."""
    pw, ph = g.size
    rects = _rects(g, back)
    out = max(BLEED, MARK_GAP + MARK_MAX)
    return {
        "left": min(r[0] for r in rects) - out - PRINT_LIMIT,
        "right": pw - PRINT_LIMIT - max(r[2] for r in rects) - out,
        "bottom": min(r[1] for r in rects) - out - PRINT_LIMIT,
        "top": ph - PRINT_LIMIT - max(r[3] for r in rects) - out,
    }


def footer_side(g: Grid, back: bool = False) -> str:
    """The widest margin free of bleed and marks: the footer goes there (gutterfold: the bottom
    margin, under the fronts, so it never crosses the fold)."""
    if g.layout == "gutterfold":
        return "bottom"
    bands = _bands(g, back)
    return max(bands, key=lambda k: (round(bands[k], 3), k in ("bottom", "left")))


def crop_marks(g: Grid, back: bool = False) -> list[tuple[float, float, float, float]]:
    """Line segments (x0, y0, x1, y1): a mark at both ends of every cut line, in the margins,
    and in every gutter with room for one."""
    return sorted((line, a, line, b) if axis == "v" else (a, line, b, line)
                  for axis, line, a, b, _ in _candidates(g, back))


def fold_line(g: Grid) -> tuple[float, float, float, float] | None:
    """gutterfold: the fold line (x0, y0, x1, y1), dashed along the fold gutter from the
    bottom row's trim to the top row's, and on into the margins as far as the marks go."""
    fold = g.fold()
    if fold is None:
        return None
    rects = _rects(g, False)
    reach = MARK_GAP + MARK_MAX
    return (fold, min(r[1] for r in rects) - reach, fold, max(r[3] for r in rects) + reach)


@lru_cache(maxsize=256)
def footer_place(g: Grid, back: bool = False) -> tuple[float, float, int] | None:
    """Where the footer goes: (x, y of its baseline's middle, rotation); None when no margin
    has room for it: the test page still names the file. A gutterfold footer sits under the
    fronts' column."""
    pw, ph = g.size
    rects = _rects(g, back)
    side = footer_side(g, back)
    if _bands(g, back)[side] < FOOTER_SIZE * 1.2:
        return None
    lift = FOOTER_SIZE * 0.3  # centre the text's body, not its baseline
    out = max(BLEED, MARK_GAP + MARK_MAX)
    mid_x = pw / 2 if g.layout == "duplex" else g.x0 + g.cell[0] / 2
    if side == "bottom":
        return mid_x, (PRINT_LIMIT + min(r[1] for r in rects) - out) / 2 - lift, 0
    if side == "top":
        return mid_x, (ph - PRINT_LIMIT + max(r[3] for r in rects) + out) / 2 - lift, 0
    if side == "left":
        return (PRINT_LIMIT + min(r[0] for r in rects) - out) / 2 + lift, ph / 2, 90
    return (pw - PRINT_LIMIT + max(r[2] for r in rects) + out) / 2 - lift, ph / 2, 270


@dataclass(frozen=True)
class Page:
    """The cards of one page (nine or eight duplex, four gutterfold), all of one set."""

    set: str
    codes: tuple[str, ...]


def pages(deck: Deck, cards: list[CardType], per_page: int) -> list[Page]:
    """Card instances (copies expanded) on pages of `per_page`, each set on its own pages, sets in
    manifest order."""
    out: list[Page] = []
    for s in deck.sets:
        codes = [c.code for c in cards if c.set == s.key for _ in range(c.copies)]
        out += [Page(s.key, tuple(codes[i:i + per_page])) for i in range(0, len(codes), per_page)]
    return out
