"""The card-count sheet: every card of the complete printed set with its copies, and how many of
them each edition takes, one table per set, to check a cut deck against and to sort it into
editions. Drawn in the cards' typeface on the print sheets' paper, inside the printable area.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.deck.model import Deck
from generator.products.render import sheets
from generator.products.render import typeface as tf
from generator.products.render.stamp import NONE, Stamp
from generator.products.render.units import PAPERS, mm

TITLE_SIZE = 14.0
TEXT_SIZE = 8.5
ROW_SIZE = 8.0
ROW_H = 10.0  #: points between two rows' baselines
MARGIN = sheets.PRINT_LIMIT + mm(8)
NONE_MARK = "\u2013"  #: an edition without the card: an en dash, not a 0 to misread
BOX = "\u2610"  #: a box to tick as the card is counted


@dataclass(frozen=True)
class Row:
    """One card type: its code, name, kind, printed copies and its copies in each edition."""

    code: str
    name: str
    kind: str
    copies: int
    editions: tuple[int, ...]


@dataclass(frozen=True)
class Table:
    """One set's rows, with its totals."""

    set: str
    name: str
    rows: tuple[Row, ...]

    @property
    def totals(self) -> tuple[int, tuple[int, ...]]:
        columns = zip(*(r.editions for r in self.rows)) if self.rows else ()
        return sum(r.copies for r in self.rows), tuple(sum(c) for c in columns)


def tables(deck: Deck) -> tuple[tuple[str, ...], tuple[Table, ...]]:
    """(edition names, a table per set in manifest order): what the sheet prints."""
    members = [set(deck.edition(e.key).codes) for e in deck.editions]
    out = []
    for s in deck.sets:
        rows = tuple(Row(c.code, c.name, c.kind, c.copies, tuple(c.copies if c.code in m else 0 for m in members))
                     for c in deck.cards if c.set == s.key)
        out.append(Table(s.key, s.name, rows))
    return tuple(e.name for e in deck.editions), tuple(out)


def _columns(width: float, editions: tuple[str, ...]) -> tuple[list[float], float]:
    """The x of each column (box, code, name, kind, all, each edition) and an edition column's width."""
    x = MARGIN
    fixed = [x, x + 14, x + 60, x + 190, x + 240]
    ed_w = max(34.0, min(64.0, (MARGIN + width - (x + 280)) / max(1, len(editions))))
    return fixed + [x + 280 + i * ed_w for i in range(len(editions))], ed_w


def _header(c, cols: list[float], ed_w: float, editions: tuple[str, ...], y: float) -> float:
    """The column heads from baseline `y` down; returns the first row's baseline."""
    c.setFont(tf.pdf_font(True), ROW_SIZE)
    lines = [tf.wrap(name, ROW_SIZE, ed_w - 4, bold=True) for name in editions]
    depth = max([1, *(len(ls) for ls in lines)])
    low = y - (depth - 1) * ROW_H
    for x, head in zip(cols[1:5], ("Code", "Card", "Kind", "Printed")):
        if head == "Printed":
            c.drawRightString(x + 30, low, head)
        else:
            c.drawString(x, low, head)
    for i, ls in enumerate(lines):
        for j, line in enumerate(ls):
            c.drawRightString(cols[5 + i] + ed_w - 6, low + (len(ls) - 1 - j) * ROW_H, line)
    c.setLineWidth(0.6)
    c.line(MARGIN, low - 4, cols[-1] + ed_w if editions else cols[4] + 34, low - 4)
    return low - ROW_H - 2


def _row(c, cols: list[float], ed_w: float, cells: tuple[str, str, str, str, tuple[str, ...]], y: float,
         bold: bool = False) -> None:
    code, name, kind, copies, per_edition = cells
    c.setFont(tf.pdf_font(bold), ROW_SIZE)
    if not bold:
        c.drawString(cols[0], y, BOX)
    c.drawString(cols[1], y, code)
    c.drawString(cols[2], y, _clipped(name, ROW_SIZE, cols[3] - cols[2] - 6, bold))
    c.drawString(cols[3], y, kind)
    c.drawRightString(cols[4] + 30, y, copies)
    for i, value in enumerate(per_edition):
        c.drawRightString(cols[5 + i] + ed_w - 6, y, value)


def _clipped(text: str, size: float, width: float, bold: bool) -> str:
    """`text`, shortened with an ellipsis where it is wider than `width`."""
    if tf.width(text, size, bold) <= width:
        return text
    while text and tf.width(text + "\u2026", size, bold) > width:
        text = text[:-1]
    return text + "\u2026"


def _count(n: int) -> str:
    return str(n) if n else NONE_MARK


def card_count_pdf(editions: tuple[str, ...], tables_: tuple[Table, ...], paper: str, filename: str, chars: str,
                   stamp: Stamp = NONE) -> tuple[bytes, int]:
    """The sheet as a PDF on `paper`: a page per set (more when a set's rows need them), each with
    its totals; the last page adds the whole printed set's. Returns (bytes, pages)."""
    from generator.products.render.pdf import info_entries, viewer  # lazy: reportlab, only for a file the cache lacks
    from generator.products.render.pdf_file import PdfFile  # lazy: as above

    pw, ph = PAPERS[paper]
    width = pw - 2 * MARGIN
    f = PdfFile(chars, (pw, ph))
    cols, ed_w = _columns(width, editions)
    contents: list[str] = []
    grand = (sum(t.totals[0] for t in tables_),
             tuple(sum(t.totals[1][i] for t in tables_) for i in range(len(editions))))
    for t_index, table in enumerate(tables_):
        rows = list(table.rows)
        part = 0
        while rows or part == 0:
            part += 1

            def draw(c, rows=rows, part=part, t_index=t_index, table=table) -> None:
                y = ph - MARGIN - TITLE_SIZE
                c.setFont(tf.pdf_font(True), TITLE_SIZE)
                title = f"County Uppy: card count \u00b7 {table.name}" + (f" (continued, {part})" if part > 1 else "")
                c.drawString(MARGIN, y, title)
                y -= TEXT_SIZE * 2
                c.setFont(tf.pdf_font(False), TEXT_SIZE)
                for line in tf.wrap("Every card of the complete printed set, its copies, and how many of them each "
                                    f"edition takes ({NONE_MARK}: none). Tick each card as you count it. "
                                    "Print at 100% / Actual size.",
                                    TEXT_SIZE, width):
                    c.drawString(MARGIN, y, line)
                    y -= TEXT_SIZE * 1.3
                y = _header(c, cols, ed_w, editions, y - TEXT_SIZE)
                bottom = MARGIN + 2 * ROW_H  # the totals fit below
                while rows and y >= bottom:
                    r = rows.pop(0)
                    _row(c, cols, ed_w, (r.code, r.name, r.kind, str(r.copies), tuple(_count(n) for n in r.editions)), y)
                    y -= ROW_H
                if not rows:
                    c.setLineWidth(0.4)
                    c.line(MARGIN, y + ROW_H - 3, cols[-1] + ed_w if editions else cols[4] + 34, y + ROW_H - 3)
                    total, per = table.totals
                    _row(c, cols, ed_w, ("", f"{table.name}: total", "", str(total), tuple(map(str, per))), y, bold=True)
                    if t_index == len(tables_) - 1 and len(tables_) > 1:
                        y -= ROW_H
                        _row(c, cols, ed_w, ("", "All sets", "", str(grand[0]), tuple(map(str, grand[1]))), y, bold=True)
                c.setFont(tf.pdf_font(False), 6.5)
                c.drawString(MARGIN, sheets.PRINT_LIMIT + mm(3), f"{filename} \u00b7 {stamp.line}" if stamp.version else filename)
            contents.append(f.drawn(draw))
            if not rows:
                break
    tree = f.page_tree([c.encode("latin-1") for c in contents], (pw, ph), f.resources({}))
    info = info_entries(filename, "County Uppy card count: every card and its copies in each edition", stamp)
    return f.finish(tree, info, viewer("")), len(contents)
