"""The test page that leads every print-and-play file: how to print it, two rulers to check the
scale, and duplex registration marks to measure a printer's front-to-back drift (a gutterfold
file, printed one-sided, has no registration marks: its test page says how to fold instead).

The front carries crosses; the back carries a millimetre scale behind each cross (placed by
the same mirror as the card backs, offset included). Held up to a light, each front cross
falls on its scale at the correction to pass to --back-offset, so measuring needs no ruler.
"""

from __future__ import annotations

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from generator.products.render import sheets
from generator.products.render import typeface as tf
from generator.products.render.stamp import NONE, Stamp
from generator.products.render.units import inch, mm

INK = HexColor("#000000")
SOFT = HexColor("#555555")
TEXT_SIZE = 9.0
SMALL = 6.5
SCALE_MM = 5  #: the back's scales run -5..+5 mm
CROSS_MM = 4.0


def registration_points(g: sheets.Grid) -> list[tuple[str, float, float]]:
    """(label, x, y) of each front cross: four around the sheet and one in the middle."""
    pw, ph = g.size
    return [("A", 0.22 * pw, 0.12 * ph), ("B", 0.78 * pw, 0.12 * ph), ("C", 0.5 * pw, 0.32 * ph),
            ("D", 0.22 * pw, 0.52 * ph), ("E", 0.78 * pw, 0.52 * ph)]


def instructions(g: sheets.Grid, mode: str, filename: str) -> list[str]:
    """The lines at the top of the front: how to print this file."""
    edge = "long" if g.duplex == "long" else "short"
    lines = ["Print at 100% / Actual size: turn off \u201cFit to page\u201d and \u201cShrink oversized pages\u201d."]
    if mode == "gutterfold":
        lines += ["Print one-sided: no duplex needed. Each sheet holds four cards on their side, the fronts on the left "
                  "and each one's back beside it on the right.",
                  "Fold each sheet along the dashed middle line, printed side out, and glue or tape the halves "
                  "together. Then cut through both layers along the crop marks; the fold edge is cut away too."]
    elif mode == "duplex":
        lines.append(f"Print double-sided (duplex), flip on the {edge} edge. Then cut along the crop marks.")
    elif mode == "fronts":
        lines.append(f"One-sided: print this file, turn the stack over (flip on the {edge} edge) and print the "
                     "-backs file on the other side.")
    else:
        lines.append("Print on the back of the sheets printed from the -fronts file (this page goes on the "
                     "back of the fronts' test page).")
    lines.append("Check: the upper ruler measures exactly 50 mm and the lower exactly 2 in. If not, the printer "
                 "scaled the page.")
    if mode != "backs":
        lines.append(layout_line(g))
    return lines


def layout_line(g: sheets.Grid) -> str:
    """What the sheets hold and where the crop marks stand (every mark keeps 1/4 in from the edges)."""
    held = ""
    if g.layout == "duplex":
        held = (f"Each sheet holds {g.per_page} cards a side, "
                + ("upright. " if g.upright else f"turned on their side ({g.cols} across, {g.rows} down), so that "
                   "every crop mark fits outside 1/4 in; each back is turned with its front. "))
    return (f"{held}Every crop mark stands at least 1/4 in (6.35 mm) from the paper's edges, so a printer that leaves "
            "that much blank still prints them all.")


#: The worked example of the test page: a cross read at +1.5 across and -0.5 up-down.
EXAMPLE = (1.5, -0.5)


def reading_lines(g: sheets.Grid) -> list[str]:
    """How to read the registration scales, and the one correction rule: move the backs by what
    was read (a printer that puts the backs d mm off shows every cross at -d on its scales)."""
    ox, oy = (round(v / mm(1), 2) for v in g.offset)
    ex, ey = EXAMPLE
    return [
        "Duplex check: hold the printed sheet up to a light, this side away from you. Each cross on the front "
        "falls on the two scales printed behind it; read where it falls, in mm as seen on the back: X on the "
        "across scale (+ is to the right), Y on the up-down scale (+ is up). 0,0 means the backs line up with "
        "the fronts.",
        "To correct: move the backs by X,Y as read, X mm right and Y mm up as seen on the back (negative: left, "
        f"down). Build again with --back-offset X,Y added to the {ox:g},{oy:g} this page was printed with; or, "
        "with only this PDF, set the printer dialog's back-side offset (image shift) to that move, and print this "
        "page again to check which way your printer calls positive.",
        f"Example: the crosses fall at {ex:+g} across and {ey:+g} up-down: build with --back-offset "
        f"{ox + ex:g},{oy + ey:g}, or shift the back side {abs(ex):g} mm {'right' if ex > 0 else 'left'} and "
        f"{abs(ey):g} mm {'up' if ey > 0 else 'down'} as seen on the back.",
    ]


def draw(c: Canvas, g: sheets.Grid, back: bool, mode: str, filename: str, stamp: Stamp = NONE) -> None:
    """One side of the test page, with the version and manifest that made it (`stamp`) at its foot."""
    if back:
        _back(c, g, mode, filename)
    else:
        _front(c, g, mode, filename)
    if stamp.version:
        c.setFont(tf.pdf_font(False), SMALL)
        c.setFillColor(SOFT)
        c.drawString(sheets.PRINT_LIMIT + mm(10), sheets.PRINT_LIMIT + mm(4), f"{filename} \u00b7 {stamp.line}")
        c.setFillColor(INK)


def _wrapped(c: Canvas, text: str, x: float, y: float, width: float, size: float) -> float:
    """Left-aligned wrapped text from baseline y downwards; returns the next baseline."""
    font = tf.pdf_font(False)
    c.setFont(font, size)
    for line in tf.wrap(text, size, width):
        c.drawString(x, y, line)
        y -= size * 1.3
    return y


def _front(c: Canvas, g: sheets.Grid, mode: str, filename: str) -> None:
    pw, ph = g.size
    left = sheets.PRINT_LIMIT + mm(10)
    width = pw - 2 * left
    c.setFillColor(INK)
    c.setFont(tf.pdf_font(True), 14)
    y = ph - sheets.PRINT_LIMIT - mm(12)
    c.drawString(left, y, "County Uppy: print test page")
    c.setFont(tf.pdf_font(False), SMALL)
    c.setFillColor(SOFT)
    c.drawString(left, y - 10, filename)
    c.setFillColor(INK)
    y -= 28
    for line in instructions(g, mode, filename):
        y = _wrapped(c, line, left, y, width, TEXT_SIZE) - 3
    y -= mm(8)
    _ruler(c, left, y, mm(50), [(mm(k), 4 if k % 5 else (7 if k % 10 else 10), str(k) if k % 10 == 0 else "")
                                for k in range(51)], "50 mm")
    y -= mm(18)
    _ruler(c, left, y, inch(2), [(inch(k / 8), 10 if k % 8 == 0 else (7 if k % 4 == 0 else 4),
                                  str(k // 8) if k % 8 == 0 else "") for k in range(17)], "2 in")
    y -= mm(12)
    if mode == "gutterfold":  # one-sided: nothing to register front to back
        return
    for line in reading_lines(g):
        y = _wrapped(c, line, left, y, width, TEXT_SIZE) - 3
    c.setStrokeColor(INK)
    for label, x, yy in registration_points(g):
        _cross(c, x, yy)
        c.setFont(tf.pdf_font(True), TEXT_SIZE)
        c.drawString(x + mm(CROSS_MM) + 3, yy + 3, label)


def _back(c: Canvas, g: sheets.Grid, mode: str, filename: str) -> None:
    pw, ph = g.size
    c.setFillColor(INK)
    c.setStrokeColor(INK)
    left = sheets.PRINT_LIMIT + mm(10)
    c.setFont(tf.pdf_font(True), 12)
    y = ph - sheets.PRINT_LIMIT - mm(12)
    c.drawString(left, y, "Test page, back: registration scales")
    y -= 18
    if mode == "backs":  # the first page of the file: say how to print it
        for line in instructions(g, mode, filename)[:2]:
            y = _wrapped(c, line, left, y, pw - 2 * left, TEXT_SIZE) - 3
    _wrapped(c, "Each front cross should fall on 0 of both scales behind it. Positive numbers are to the right and "
                "up as seen on this side. Where one falls elsewhere, move the backs by what it reads (the front says how).", left, y, pw - 2 * left, TEXT_SIZE)
    for label, x, y in registration_points(g):
        bx, by = g.mirror(x, y)
        _scales(c, bx, by)
        c.setFont(tf.pdf_font(True), TEXT_SIZE)
        c.drawString(bx + mm(SCALE_MM) + 4, by + 4, label)


def _ruler(c: Canvas, x: float, y: float, length: float, ticks: list[tuple[float, float, str]], name: str) -> None:
    c.setStrokeColor(INK)
    c.setLineWidth(0.4)
    c.line(x, y, x + length, y)
    c.setFont(tf.pdf_font(False), SMALL)
    for at, tall, label in ticks:
        c.line(x + at, y, x + at, y + tall)
        if label:
            c.drawCentredString(x + at, y + tall + 2, label)
    c.setFont(tf.pdf_font(True), TEXT_SIZE)
    c.drawString(x + length + 8, y, name)


def _cross(c: Canvas, x: float, y: float) -> None:
    r = mm(CROSS_MM)
    c.setLineWidth(0.35)
    c.line(x - r, y, x + r, y)
    c.line(x, y - r, x, y + r)
    c.circle(x, y, r * 0.5, stroke=1, fill=0)


def _scales(c: Canvas, x: float, y: float) -> None:
    """A horizontal and a vertical millimetre scale crossing at (x, y), numbered every 2 mm.

    The numbers carry no sign, so none is wider than the 2 mm between two of them: the sign
    stands at each end of a scale (+ right and up, as on the other side's words). They turn around
    the centre so no two meet: the across scale's numbers below its line on the + side and above
    it on the - side, the up-down scale's right of its line on the + side and left of it on the -
    side (each quarter around the centre holds one scale's numbers)."""
    c.setLineWidth(0.3)
    span = mm(SCALE_MM)
    c.line(x - span, y, x + span, y)
    c.line(x, y - span, x, y + span)
    c.setFont(tf.pdf_font(False), SMALL)
    for k in range(-SCALE_MM, SCALE_MM + 1):
        tall = 2.5 if k % 5 else 4.5
        c.line(x + mm(k), y - tall, x + mm(k), y + tall)
        c.line(x - tall, y + mm(k), x + tall, y + mm(k))
        if k and k % 2 == 0:
            label = str(abs(k))
            c.drawCentredString(x + mm(k), y - tall - SMALL if k > 0 else y + tall + 1, label)
            if k > 0:
                c.drawString(x + tall + 1, y + mm(k) - SMALL * 0.35, label)
            else:
                c.drawRightString(x - tall - 1, y + mm(k) - SMALL * 0.35, label)
    c.setFont(tf.pdf_font(True), SMALL)
    c.drawString(x + span + 1.5, y - SMALL * 0.35, "+")
    c.drawRightString(x - span - 1.5, y - SMALL * 0.35, "\u2212")
    c.drawCentredString(x, y + span + 1.5, "+")
    c.drawCentredString(x, y - span - 1.5 - SMALL * 0.7, "\u2212")
