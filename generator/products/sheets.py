"""Imposition: where each card goes on a sheet, crop marks, and which cards share a page.

A card's position is computed here and nowhere else; backs use the same function with the
columns reversed, so printed long-edge duplex each back lands behind its front.
All values are PDF points, origin at the page's bottom-left.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.deck.model import CardType, Deck
from generator.products.units import BLEED_IN, PAPERS, TRIM_H_IN, TRIM_W_IN, inch

COLS, ROWS = 3, 3
PER_PAGE = COLS * ROWS
CARD_W, CARD_H = inch(TRIM_W_IN), inch(TRIM_H_IN)
BLEED = inch(BLEED_IN)
MARK_GAP = 2.0  #: crop marks start this far outside the bleed
MARK_LEN = 18.0  #: and are at most this long
MARK_WIDTH = 0.5


@dataclass(frozen=True)
class Slot:
    """One card's place on a page: its trim rectangle and which edges face the outside."""

    x: float
    y: float
    w: float
    h: float
    outer: tuple[bool, bool, bool, bool]  #: left, bottom, right, top lie on the grid's outside


def grid_origin(paper: str) -> tuple[float, float]:
    """Bottom-left corner of the 3×3 grid, centred on the page."""
    pw, ph = PAPERS[paper]
    return (pw - COLS * CARD_W) / 2, (ph - ROWS * CARD_H) / 2


def slot(paper: str, index: int, mirrored: bool = False, filled: int = PER_PAGE) -> Slot:
    """Slot `index` (0..8, reading order) of a page holding `filled` cards; `mirrored` for the
    back of the sheet. An edge with no card beside it gets bleed."""
    row, col = divmod(index, COLS)
    left, right = col == 0, col == COLS - 1 or index + 1 >= filled
    bottom, top = row == ROWS - 1 or index + COLS >= filled, row == 0
    if mirrored:
        col = COLS - 1 - col
        left, right = right, left
    gx, gy = grid_origin(paper)
    x = gx + col * CARD_W
    y = gy + (ROWS - 1 - row) * CARD_H
    return Slot(x, y, CARD_W, CARD_H, (left, bottom, right, top))


def crop_marks(paper: str) -> list[tuple[float, float, float, float]]:
    """Line segments (x0, y0, x1, y1) on every trim line, outside the printed area."""
    pw, ph = PAPERS[paper]
    gx, gy = grid_origin(paper)
    gx1, gy1 = gx + COLS * CARD_W, gy + ROWS * CARD_H
    marks = []
    for c in range(COLS + 1):
        x = gx + c * CARD_W
        top0, bottom0 = gy1 + BLEED + MARK_GAP, gy - BLEED - MARK_GAP
        marks.append((x, top0, x, min(top0 + MARK_LEN, ph - 1)))
        marks.append((x, bottom0, x, max(bottom0 - MARK_LEN, 1)))
    for r in range(ROWS + 1):
        y = gy + r * CARD_H
        left0, right0 = gx - BLEED - MARK_GAP, gx1 + BLEED + MARK_GAP
        marks.append((left0, y, max(left0 - MARK_LEN, 1), y))
        marks.append((right0, y, min(right0 + MARK_LEN, pw - 1), y))
    return marks


def footer_place(paper: str) -> tuple[float, float, int]:
    """Where the footer goes: (x, y, rotation). The wider free margin wins."""
    pw, ph = PAPERS[paper]
    gx, gy = grid_origin(paper)
    if gy >= gx:  # bottom margin
        return pw / 2, (gy - BLEED) / 2 - 2, 0
    return (gx - BLEED) / 2 + 2, ph / 2, 90


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
