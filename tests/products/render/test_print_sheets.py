"""Print-and-play files read back as a printer reads them: crop marks in the printable area,
print hints, the test page, and the build options (--duplex, --back-offset, --gutter)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pdfplumber
import pikepdf
import pypdfium2 as pdfium
import pytest

from generator.cli import main
from generator.products.render import sheets
from generator.products.render.units import PAPERS, mm
from tests.products.render.conftest import ROOT, run_build
from tests.ghostscript import need_ghostscript
from tests.products.render.test_pdf_geometry import CARD_H, CARD_W, trims_on

EDGE = mm(4.2)  #: home printers print nothing closer to the paper's edge
BASE14 = {"Courier", "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique", "Helvetica", "Helvetica-Bold",
          "Helvetica-Oblique", "Helvetica-BoldOblique", "Times-Roman", "Times-Bold", "Times-Italic",
          "Times-BoldItalic", "Symbol", "ZapfDingbats"}


def black_lines(page) -> list[tuple[float, float, float, float]]:
    """Black stroked straight lines (the crop marks), as PDF coordinates x0, y0, x1, y1."""
    h = page.height
    out = []
    for ln in page.lines:
        if tuple(ln.get("stroking_color") or ()) in ((0,), (0, 0, 0), (0.0, 0.0, 0.0)):
            out.append((ln["x0"], h - ln["bottom"], ln["x1"], h - ln["top"]))
    return out


def printable_length(mark, pw: float, ph: float) -> float:
    x0, y0, x1, y1 = mark
    if x0 == x1:
        return max(0.0, min(y1, ph - EDGE) - max(y0, EDGE))
    return max(0.0, min(x1, pw - EDGE) - max(x0, EDGE))


def crosses_a_card(mark, cards) -> bool:
    """Whether a mark enters a card's trim (its inside, or along one of its edges)."""
    x0, y0, x1, y1 = mark
    eps = 0.01
    for r in cards:
        if x0 == x1 and r[0] - eps <= x0 <= r[2] + eps and y0 < r[3] - eps and y1 > r[1] + eps:
            return True
        if y0 == y1 and r[1] - eps <= y0 <= r[3] + eps and x0 < r[2] - eps and x1 > r[0] + eps:
            return True
    return False


CUT_EDGE = mm(6.0)  #: every cut line keeps this far from every paper edge
END_MARK = mm(1.0)  #: the mark at each end of a cut line is at least this long where it prints
MARK_EDGE = mm(6.35)  #: every mark keeps 1/4 in from every paper edge
QUARTER_INCH = "Every crop mark stands at least 1/4 in (6.35 mm) from the paper's edges"


def check_marks(path: Path, paper: str, skip: int, step: int = 1) -> int:
    """Every cut line of every card page keeps at least 6 mm from every paper edge and has a mark
    at both ends, beyond every card (below and above them for a vertical line, left and right of
    them for a horizontal one), each at least 1 mm long inside the printable area and outside
    every card's trim; no mark comes nearer than 1/4 in (6.35 mm) to any paper edge. So once a
    margin strip is cut off, every line still has its other end marked, on a printer that
    leaves 1/4 in blank all round too. Returns the number of cut lines checked."""
    pw, ph = PAPERS[paper]
    doc, plumb = pdfium.PdfDocument(path), pdfplumber.open(path)
    checked = 0
    try:
        for i in range(skip, len(doc), step):
            cards = [r for r, _ in trims_on(doc[i])]
            marks = black_lines(plumb.pages[i])
            assert marks, i
            for m in marks:
                assert min(m[0], m[2]) >= MARK_EDGE - 0.01 and max(m[0], m[2]) <= pw - MARK_EDGE + 0.01, \
                    (path.name, i, m, "mark within 1/4 in of a side")
                assert min(m[1], m[3]) >= MARK_EDGE - 0.01 and max(m[1], m[3]) <= ph - MARK_EDGE + 0.01, \
                    (path.name, i, m, "mark within 1/4 in of the top or bottom")
                assert not crosses_a_card(m, cards), (i, m)
            xs = {round(v, 2) for r in cards for v in (r[0], r[2])}
            ys = {round(v, 2) for r in cards for v in (r[1], r[3])}
            low_x, high_x = min(r[0] for r in cards), max(r[2] for r in cards)
            low_y, high_y = min(r[1] for r in cards), max(r[3] for r in cards)
            for x in xs:
                assert CUT_EDGE - 0.01 <= x <= pw - CUT_EDGE + 0.01, (path.name, i, "x", x)
                on = [m for m in marks if m[0] == m[2] and abs(m[0] - x) < 0.02 and printable_length(m, pw, ph) >= END_MARK]
                assert any(max(m[1], m[3]) <= low_y + 0.01 for m in on), (path.name, i, "no mark below x", x)
                assert any(min(m[1], m[3]) >= high_y - 0.01 for m in on), (path.name, i, "no mark above x", x)
            for y in ys:
                assert CUT_EDGE - 0.01 <= y <= ph - CUT_EDGE + 0.01, (path.name, i, "y", y)
                on = [m for m in marks if m[1] == m[3] and abs(m[1] - y) < 0.02 and printable_length(m, pw, ph) >= END_MARK]
                assert any(max(m[0], m[2]) <= low_x + 0.01 for m in on), (path.name, i, "no mark left of y", y)
                assert any(min(m[0], m[2]) >= high_x - 0.01 for m in on), (path.name, i, "no mark right of y", y)
            checked += len(xs) + len(ys)
    finally:
        doc.close()
        plumb.close()
    return checked


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("tail,skip", [("", 2), ("-fronts", 1), ("-backs", 1), ("-gutterfold", 1),
                                       ("-keep-it-simple", 2)])
def test_every_cut_line_is_marked_where_a_home_printer_prints(built, paper, tail, skip):
    assert check_marks(built / "print" / f"county-uppy-{paper}{tail}.pdf", paper, skip) > 0


def test_every_mark_of_every_file_keeps_a_quarter_inch_from_every_edge(built):
    """Every print-and-play file of both papers and both layouts, every page but the test page:
    the mark nearest each paper edge stands 1/4 in (6.35 mm) or more from it, read from the files,
    and the file's test page says so."""
    paths = sorted(p for p in (built / "print").glob("*.pdf") if not p.stem.endswith("-card-count"))
    assert len(paths) == 2 * 2 * 4  # two papers, two sets (all, an edition): duplex, -fronts, -backs, -gutterfold
    for path in paths:
        pw, ph = PAPERS[path.stem.split("-")[2]]
        with pdfplumber.open(path) as pdf:
            first = " ".join(pdf.pages[0].extract_text().split())
            skip = 1 if path.stem.endswith(("-fronts", "-backs", "-gutterfold")) else 2
            marks = [m for page in pdf.pages[skip:] for m in black_lines(page)]
        if not path.stem.endswith("-backs"):
            assert QUARTER_INCH in first, path.name
        nearest = {"left": min(min(m[0], m[2]) for m in marks), "bottom": min(min(m[1], m[3]) for m in marks),
                   "right": pw - max(max(m[0], m[2]) for m in marks), "top": ph - max(max(m[1], m[3]) for m in marks)}
        assert all(d >= MARK_EDGE - 0.01 for d in nearest.values()), (path.name, {k: v / mm(1) for k, v in nearest.items()})


def ink_near_the_edge(path: Path, pages: list[int], dpi: int = 150) -> list[tuple[int, tuple[int, int]]]:
    """(page, pixel) of every non-white pixel of `pages` within 4.2 mm of the paper's edge (less a
    pixel for anti-aliasing), rendered as a printer would."""
    doc = pdfium.PdfDocument(path)
    found = []
    try:
        for n in pages:
            image = doc[n].render(scale=dpi / 72).to_pil().convert("L")
            w, h = image.size
            band = int(EDGE * dpi / 72) - 1
            px = image.load()
            for y in range(h):
                xs = range(w) if y < band or y >= h - band else [*range(band), *range(w - band, w)]
                found += [(n, (x, y)) for x in xs if px[x, y] < 255]
                if len(found) > 20:
                    return found
    finally:
        doc.close()
    return found


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("tail", ["", "-gutterfold"])
def test_nothing_prints_in_the_edge_a_home_printer_leaves(built, paper, tail):
    """Cards, bleed, marks, fold line and footer, fronts and backs: nothing within 4.2 mm of the
    paper's edge (read from the rendered pages of each set's first sheets, and the last)."""
    path = built / "print" / f"county-uppy-{paper}{tail}.pdf"
    doc = pdfium.PdfDocument(path)
    n = len(doc)
    doc.close()
    assert ink_near_the_edge(path, sorted({0, 1, 2, 3, n - 2, n - 1})) == []


def test_print_hints_in_every_file(built):
    for path in sorted((built / "print").glob("*.pdf")):
        with pikepdf.open(path) as pdf:
            prefs = pdf.Root.ViewerPreferences
            assert prefs.PrintScaling == pikepdf.Name("/None"), path.name
            simplex = path.stem.endswith(("-fronts", "-backs", "-gutterfold", "-card-count"))
            assert prefs.Duplex == (pikepdf.Name.Simplex if simplex else pikepdf.Name.DuplexFlipLongEdge), path.name
        doc = pdfium.PdfDocument(path)
        first = doc[0].get_textpage().get_text_range()
        doc.close()
        assert "Print at 100% / Actual size" in first, path.name
        if not path.stem.endswith(("-fronts", "-backs", "-gutterfold", "-card-count")):
            assert "Print double-sided (duplex), flip on the long edge" in first


def fonts_of(pdf: pikepdf.Pdf):
    for page in pdf.pages:
        stack = [page.obj]
        seen: set = set()
        while stack:
            obj = stack.pop()
            res = obj.get("/Resources")
            if res is None:
                continue
            for font in (res.get("/Font") or {}).values():
                yield font
            for xobj in (res.get("/XObject") or {}).values():
                if xobj.objgen not in seen:
                    seen.add(xobj.objgen)
                    stack.append(xobj)


def test_every_font_embedded_and_no_base14_font_in_any_pdf(built):
    paths = sorted(built.rglob("*.pdf"))
    assert len(paths) >= 7
    for path in paths:
        with pikepdf.open(path) as pdf:
            n = 0
            for font in fonts_of(pdf):
                n += 1
                assert str(font.BaseFont).lstrip("/").split("+")[-1] not in BASE14, path.name
                desc = font.DescendantFonts[0].FontDescriptor if "/DescendantFonts" in font else font.get("/FontDescriptor")
                assert desc is not None and ("/FontFile2" in desc or "/FontFile" in desc or "/FontFile3" in desc), \
                    (path.name, font.BaseFont)
            assert n > 0, path.name
        assert b"/Helvetica" not in path.read_bytes(), path.name


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_test_page_rulers_and_registration(built, paper):
    pw, ph = PAPERS[paper]
    with pdfplumber.open(built / "print" / f"county-uppy-{paper}.pdf") as pdf:
        front, back = pdf.pages[0], pdf.pages[1]
        lengths = [ln["x1"] - ln["x0"] for ln in front.lines if ln["top"] == ln["bottom"]]
        assert any(abs(v - mm(50)) < 0.05 for v in lengths)
        assert any(abs(v - 72 * 2) < 0.05 for v in lengths)
        # front crosses: 8 mm long, centred on a registration point
        def centres(page, length):
            hs = [ln for ln in page.lines if ln["top"] == ln["bottom"] and abs(ln["x1"] - ln["x0"] - length) < 0.05]
            return sorted((round((ln["x0"] + ln["x1"]) / 2, 2), round(ph - ln["top"], 2)) for ln in hs)
        fronts = centres(front, mm(8))
        backs = centres(back, mm(10))
        assert len(fronts) == len(backs) == 5
        # long-edge duplex: the scale behind each cross is at the mirrored point
        mirrored = sorted((round(pw - x, 2), y) for x, y in fronts)
        assert all(abs(a - b) <= 0.02 for m, k in zip(mirrored, backs) for a, b in zip(m, k)), (mirrored, backs)
        text = front.extract_text()
        assert "50 mm" in text and "2 in" in text and "--back-offset" in text
        # advice for someone holding only the PDF: print at 100%, and what to do about drift
        flat = " ".join(text.split())
        assert "Print at 100%" in flat and "printer dialog" in flat and "move the backs by X,Y as read" in flat
        assert "-X" not in flat and "-Y" not in flat  # one rule: the dialog and --back-offset move the same way


def registration(path: Path, drift_mm: tuple[float, float] = (0.0, 0.0)) -> list[tuple[float, float]]:
    """What a user reads off the test page of `path` printed long-edge duplex by a printer that
    puts the back side `drift_mm` off (right and up as seen on the back): for each front cross
    (seen through the paper from the back) where it falls on the scales behind it, in mm as seen
    on the back, + right and up."""
    with pdfplumber.open(path) as pdf:
        front, back = pdf.pages[0], pdf.pages[1]
        pw, ph = front.width, front.height

        def centres(page, length):
            hs = [ln for ln in page.lines if ln["top"] == ln["bottom"] and abs(ln["x1"] - ln["x0"] - length) < 0.05]
            vs = [ln for ln in page.lines if ln["x0"] == ln["x1"] and abs(ln["bottom"] - ln["top"] - length) < 0.05]
            assert len(hs) == len(vs) == 5
            return sorted(((h["x0"] + h["x1"]) / 2, ph - h["top"]) for h in hs)
        crosses = sorted((pw - x, y) for x, y in centres(front, mm(8)))  # turned over the long edge
        scales = [(x + mm(drift_mm[0]), y + mm(drift_mm[1])) for x, y in centres(back, mm(10))]
    return [(round((c[0] - s[0]) / mm(1), 2), round((c[1] - s[1]) / mm(1), 2)) for c, s in zip(crosses, scales)]


def test_the_test_page_correction_cancels_a_shifted_duplex(built, deck, tmp_path):
    """A printer that puts the backs 1.5 mm left and 0.5 mm up (as seen on the back) makes every
    cross of the test page read +1.5 across, -0.5 up-down: the test page's own example. Built
    again with the --back-offset the page says for that reading, and printed by the same printer,
    every cross reads 0,0 and every card's back lies exactly behind its front."""
    drift = (-1.5, 0.5)
    path = built / "print" / "county-uppy-letter.pdf"
    assert registration(path) == [(0.0, 0.0)] * 5
    readings = set(registration(path, drift))
    assert readings == {(1.5, -0.5)}
    with pdfplumber.open(path) as pdf:
        flat = " ".join(pdf.pages[0].extract_text().split())
    example = re.search(r"the crosses fall at ([+-][\d.]+) across and ([+-][\d.]+) up-down: build with "
                        r"--back-offset ([\d.-]+),([\d.-]+), or shift the back side ([\d.]+) mm (left|right) and "
                        r"([\d.]+) mm (up|down) as seen on the back", flat)
    assert example, flat
    read = (float(example[1]), float(example[2]))
    assert read == readings.pop()  # the example is this very drift
    offset = (float(example[3]), float(example[4]))
    assert offset == read
    assert (float(example[5]) * (1 if example[6] == "right" else -1),
            float(example[7]) * (1 if example[8] == "up" else -1)) == offset  # the dialog moves the same way
    out = tmp_path / "out"
    run_build(deck, out, only=("print",), papers=("letter",), back_offset=offset)
    fixed = out / "print" / "county-uppy-letter.pdf"
    assert set(registration(fixed, drift)) == {(0.0, 0.0)}
    with pdfplumber.open(fixed) as pdf:
        flat = " ".join(pdf.pages[0].extract_text().split())
    assert "added to the 1.5,-0.5 this page was printed with" in flat
    pw, _ = PAPERS["letter"]
    doc = pdfium.PdfDocument(fixed)
    try:
        for i in range(2, len(doc), 2):  # Letter's cards lie on their side: a back turned with its front
            fronts = sorted((round(pw - r[2], 2), round(r[1], 2), rot) for r, rot in trims_on(doc[i]))
            backs = sorted((round(r[0] + mm(drift[0]), 2), round(r[1] + mm(drift[1]), 2), (rot + 180) % 360)
                           for r, rot in trims_on(doc[i + 1]))
            assert fronts == backs and {f[2] for f in fronts} == {90}, i
    finally:
        doc.close()


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_test_page_labels_never_overlap(built, paper):
    """No two printed characters of the test page touch: each glyph's ink box (PDFium's tight box)
    stands clear of every other ("-2" and "2" once printed as "-22" where two scales' numbers met)."""
    doc = pdfium.PdfDocument(built / "print" / f"county-uppy-{paper}.pdf")
    try:
        for n in (0, 1):
            text = doc[n].get_textpage()
            boxes = [(text.get_charbox(i), text.get_text_range(i, 1)) for i in range(text.count_chars())]
            boxes = [(b, ch) for b, ch in boxes if ch.strip() and b[2] > b[0] and b[3] > b[1]]
            clashes = [(a[1], b[1], [round(v) for v in a[0]]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                       if a[0][0] < b[0][2] - 0.1 and b[0][0] < a[0][2] - 0.1 and a[0][1] < b[0][3] - 0.1
                       and b[0][1] < a[0][3] - 0.1]
            assert not clashes, (n, clashes[:5])
    finally:
        doc.close()


def test_test_page_names_the_version_and_the_manifest(built):
    import hashlib

    from generator import __version__

    fingerprint = hashlib.sha256((ROOT / "cards.yaml").read_bytes()).hexdigest()[:12]
    with pdfplumber.open(built / "print" / "county-uppy-letter.pdf") as pdf:
        for page in pdf.pages[:2]:
            text = " ".join(page.extract_text().split())
            assert f"county-uppy {__version__}" in text and f"manifest {fingerprint}" in text


# --- build options, read back from the files ---------------------------------------------

@pytest.fixture(scope="module")
def optioned(deck, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("options") / "out"
    run_build(deck, out, only=("print",), gutter=3.0, duplex="short", back_offset=(1.5, -1.0))
    return out


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_short_edge_duplex_with_back_offset(optioned, paper):
    pw, ph = PAPERS[paper]
    path = optioned / "print" / f"county-uppy-{paper}.pdf"
    with pikepdf.open(path) as pdf:
        assert pdf.Root.ViewerPreferences.Duplex == pikepdf.Name.DuplexFlipShortEdge
    doc = pdfium.PdfDocument(path)
    assert "flip on the short edge" in doc[0].get_textpage().get_text_range()
    for i in range(2, len(doc), 2):
        fronts, backs = trims_on(doc[i]), trims_on(doc[i + 1])
        # turned over the short edge: rows mirror, columns stay; then shifted 1.5 mm right, 1 mm down.
        # A card on its side (Letter) keeps its top to the left on both sides: its back's top is behind it.
        want = sorted((r[0] + mm(1.5), ph - r[3] - mm(1.0), rot) for r, rot in fronts)
        got = sorted((r[0], r[1], rot) for r, rot in backs)
        assert len(got) == len(want) and {w[2] for w in want} == {90 if paper == "letter" else 0}
        assert all(abs(a - b) <= 0.01 for w, g in zip(want, got) for a, b in zip(w, g)), (want, got)
    doc.close()
    assert check_marks(path, paper, 2, step=2) > 0  # the fronts, cut along their marks
    # the backs' marks move with them and still keep 1/4 in from every edge (Letter's 3 mm row
    # gutter leaves 8.2 mm margins: 1 mm down leaves no room for a mark on the backs' bottom)
    with pdfplumber.open(path) as pdf:
        marks = [m for page in pdf.pages[3::2] for m in black_lines(page)]
    assert marks and all(min(m[0], m[1], m[2], m[3], pw - max(m[0], m[2]), ph - max(m[1], m[3])) >= MARK_EDGE - 0.01
                         for m in marks)


def steps(values: list[float]) -> list[float]:
    return [b - a for a, b in zip(values, values[1:])]


def gutter_marks(marks, gaps: list[tuple[float, float]], axis: int) -> set[float]:
    """The cut lines (x of a vertical mark, y of a horizontal one) holding a mark of at least 1 mm
    inside one of the gaps: `axis` 0 for gaps between columns, 1 between rows."""
    out = set()
    for lo, hi in gaps:
        for m in marks:
            along = (m[0], m[2]) if axis == 0 else (m[1], m[3])
            if (m[1] == m[3] if axis == 0 else m[0] == m[2]) and lo <= min(along) and max(along) <= hi \
                    and max(along) - min(along) >= mm(1) - 0.01:
                out.add(round(m[1] if axis == 0 else m[0], 2))
    return out


def test_gutter_spaces_the_cards_with_marks_in_the_gutters(optioned):
    """--gutter 3: Letter's cards on their side take it both ways, with a mark in every gutter on
    each cut line crossing it; A4's three columns have no room for it with their marks 1/4 in from
    the edge, so they stay butted and its rows take it (the build says so)."""
    doc = pdfium.PdfDocument(optioned / "print" / "county-uppy-letter-fronts.pdf")
    rects = [r for r, _ in trims_on(doc[1])]
    doc.close()
    xs, ys = sorted({round(r[0], 3) for r in rects}), sorted({round(r[1], 3) for r in rects})
    assert steps(xs) == pytest.approx([CARD_H + mm(3)], abs=0.01)
    assert steps(ys) == pytest.approx([CARD_W + mm(3)] * 3, abs=0.01)
    with pdfplumber.open(optioned / "print" / "county-uppy-letter-fronts.pdf") as pdf:
        marks = black_lines(pdf.pages[1])
    assert len(gutter_marks(marks, [(xs[0] + CARD_H, xs[1])], 0)) == 8  # four rows, two cut lines each
    assert len(gutter_marks(marks, [(y + CARD_W, y + CARD_W + mm(3)) for y in ys[:3]], 1)) == 4  # two columns
    doc = pdfium.PdfDocument(optioned / "print" / "county-uppy-a4-fronts.pdf")
    rects = [r for r, _ in trims_on(doc[1])]
    doc.close()
    xs, ys = sorted({round(r[0], 3) for r in rects}), sorted({round(r[1], 3) for r in rects})
    assert steps(xs) == pytest.approx([CARD_W] * 2, abs=0.01)
    assert steps(ys) == pytest.approx([CARD_H + mm(3)] * 2, abs=0.01)
    with pdfplumber.open(optioned / "print" / "county-uppy-a4-fronts.pdf") as pdf:
        marks = black_lines(pdf.pages[1])
    assert len(gutter_marks(marks, [(y + CARD_H, y + CARD_H + mm(3)) for y in ys[:2]], 1)) == 4  # butted columns: 4 lines
    for paper in ("letter", "a4"):
        assert check_marks(optioned / "print" / f"county-uppy-{paper}-fronts.pdf", paper, 1) > 0
    assert sheets.gutter_note("a4", 3.0) == ("a4: no room for a 3 mm gutter between columns; the columns stay "
                                             "butted (rows have it)")
    assert sheets.gutter_note("letter", 3.0) == ""


def marked_at_both_ends(g: sheets.Grid, back: bool) -> list[str]:
    """What is wrong with the marks of one side of a grid: a cut line without a mark of at least
    1 mm beyond the cards at either end, a mark nearer than 1/4 in to an edge, or inside a trim."""
    pw, ph = g.size
    sides = (False, True) if g.layout == "gutterfold" else (back,)
    trims = [sheets.slot(g, i, side) for side in sides for i in range(g.per_page)]
    marks = sheets.crop_marks(g, back)
    wrong = []
    for x0, y0, x1, y1 in marks:
        if min(x0, x1, y0, y1, pw - max(x0, x1), ph - max(y0, y1)) < MARK_EDGE - 0.01:
            wrong.append(f"mark {(x0, y0, x1, y1)} within 1/4 in of an edge")
        for s in trims:  # a mark may touch a trim's edge line, never run inside it
            if min(x0, x1) < s.x + s.w - 0.01 and max(x0, x1) > s.x + 0.01 and \
                    min(y0, y1) < s.y + s.h - 0.01 and max(y0, y1) > s.y + 0.01:
                wrong.append(f"mark {(x0, y0, x1, y1)} inside a card")
    low_x, high_x = min(s.x for s in trims), max(s.x + s.w for s in trims)
    low_y, high_y = min(s.y for s in trims), max(s.y + s.h for s in trims)
    for x in {round(v, 3) for s in trims for v in (s.x, s.x + s.w)}:
        on = [m for m in marks if m[0] == m[2] and abs(m[0] - x) < 0.01 and m[3] - m[1] >= mm(1) - 0.01]
        if not (any(m[3] <= low_y for m in on) and any(m[1] >= high_y for m in on)):
            wrong.append(f"x={x} lacks a mark at an end")
    for y in {round(v, 3) for s in trims for v in (s.y, s.y + s.h)}:
        on = [m for m in marks if m[1] == m[3] and abs(m[1] - y) < 0.01 and m[2] - m[0] >= mm(1) - 0.01]
        if not (any(m[2] <= low_x for m in on) and any(m[0] >= high_x for m in on)):
            wrong.append(f"y={y} lacks a mark at an end")
    return wrong


#: The widest gutter each paper's columns and rows take (to 0.1 mm) with every mark 1/4 in from the edges.
WIDEST = {("letter", "duplex"): (20.0, 3.1), ("a4", "duplex"): (1.8, 7.2),
          ("letter", "gutterfold"): (None, 3.1), ("a4", "gutterfold"): (None, 9.0)}


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("layout", ["duplex", "gutterfold"])
def test_every_gutter_keeps_every_mark_a_quarter_inch_from_the_edges(paper, layout):
    """Every gutter --gutter accepts (0 to 20 mm), both duplex edges: each direction takes the
    gutter up to the paper's widest (WIDEST) and stays butted beyond it, and on both sides of the
    sheet every cut line keeps its marks at both ends, none nearer than 1/4 in to an edge and none
    inside a card. Letter's duplex cards lie on their side (eight a page), A4's stand (nine)."""
    widest = WIDEST[(paper, layout)]
    for tenths in range(0, 201):
        gutter = tenths / 10
        for duplex in (sheets.DUPLEX if layout == "duplex" else ("long",)):
            g = sheets.grid(paper, gutter, duplex, layout=layout)
            assert (g.per_page, g.upright) == ((8, False) if paper == "letter" else (9, True)) \
                if layout == "duplex" else (4, False)
            for axis, most in enumerate(widest):
                if most is not None:
                    assert g.gutter[axis] == pytest.approx(mm(gutter) if gutter <= most else 0.0), (gutter, axis)
            for back in (False, True):
                assert marked_at_both_ends(g, back) == [], (gutter, duplex, back)
            if layout == "duplex" and gutter > min(widest):
                assert "no room for a" in sheets.gutter_note(paper, gutter)


def test_a_back_offset_moves_the_backs_marks_never_nearer_than_a_quarter_inch():
    """--back-offset 4,4 on A4: the backs shift 4 mm towards a 9.75 mm margin, their bleed stops at
    the printable area, and no mark comes nearer than 1/4 in to an edge (a back's line whose end
    has no room left loses that mark: the sheets are cut along the fronts'); the fronts keep every mark."""
    g = sheets.grid("a4", 0, "long", (4.0, 4.0))
    pw, ph = g.size
    assert marked_at_both_ends(g, False) == []
    for x0, y0, x1, y1 in sheets.crop_marks(g, True):
        assert min(x0, x1, y0, y1, pw - max(x0, x1), ph - max(y0, y1)) >= MARK_EDGE - 0.01
    right = sheets.slot(g, 0, back=True)  # the front's top-left card, behind it on the back's right
    assert right.bleed[2] < sheets.BLEED
    assert right.x + right.w + right.bleed[2] == pytest.approx(pw - sheets.PRINT_LIMIT)


@pytest.mark.parametrize("args,message", [
    (["--back-offset", "1"], "--back-offset needs two numbers in mm"),
    (["--back-offset", "x,2"], "--back-offset needs two numbers in mm"),
    (["--back-offset", "11,0"], "--back-offset is at most 10 mm"),
    (["--gutter", "-1"], "--gutter must be 0..20 mm"),
    (["--duplex", "sideways"], "invalid choice"),
])
def test_bad_print_options_are_refused(tmp_path, capsys, args, message):
    code = main(["build", "--manifest", str(ROOT / "cards.yaml"), "--out", str(tmp_path / "o"), "--only", "print",
                 *args]) if args[0] != "--duplex" else _usage(args)
    assert code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def _usage(args: list[str]) -> int:
    try:
        return main(["build", *args])
    except SystemExit as exc:
        return int(exc.code or 0)


def test_grid_refuses_an_edge_or_layout_it_does_not_know():
    with pytest.raises(sheets.LayoutError, match="duplex must be one of long, short"):
        sheets.grid("a4", 0, "sideways")
    with pytest.raises(sheets.LayoutError, match="layout must be one of duplex, gutterfold"):
        sheets.grid("a4", layout="foldover")


# --- ink saver -----------------------------------------------------------------------------

def ink_per_page(path: Path, device: str = "inkcov") -> list[float]:
    """Ghostscript's measure per page, C+M+Y+K summed: `inkcov` the area (the share of the page
    each ink touches at all, 1.0 = the whole page), `ink_cov` the amount of ink (each ink's mean
    coverage, in percent: 100 = one ink solid over the whole page)."""
    need_ghostscript()
    res = subprocess.run(["gs", "-q", "-o", "-", f"-sDEVICE={device}", "-r72", str(path)], capture_output=True,
                         text=True, check=True, timeout=300)
    rows = [line.split()[:4] for line in res.stdout.splitlines() if line.strip()]
    return [sum(float(v) for v in row) for row in rows]


@pytest.fixture(scope="module")
def saver(deck, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("saver") / "out"
    run_build(deck, out, only=("print",), papers=("letter",), ink_saver=True)
    return out


def test_ink_saver_saves_most_of_the_ink(built, saver):
    """--ink-saver's figures in docs/printing.md are the files' own: the amount of ink (ink_cov)
    and the area it covers (inkcov), each within a point of what Ghostscript measures."""
    normal = ink_per_page(built / "print" / "county-uppy-letter.pdf")
    light = ink_per_page(saver / "print" / "county-uppy-letter.pdf")
    assert len(normal) == len(light)
    assert sum(light) <= 0.5 * sum(normal), (sum(light), sum(normal))
    backs_normal, backs_light = sum(normal[3::2]), sum(light[3::2])
    assert backs_light <= 0.2 * backs_normal  # the navy backs were most of it
    amount = (ink_per_page(built / "print" / "county-uppy-letter.pdf", "ink_cov"),
              ink_per_page(saver / "print" / "county-uppy-letter.pdf", "ink_cov"))
    doc = " ".join((ROOT / "docs" / "printing.md").read_text(encoding="utf-8").split())
    said = re.search(r"(\d+)% less ink .{0,300}?(\d+)% less area", doc)
    assert said, "docs/printing.md names the ink saver's figures"
    saved_ink = 100 * (1 - sum(amount[1]) / sum(amount[0]))
    saved_area = 100 * (1 - sum(light) / sum(normal))
    assert abs(saved_ink - int(said[1])) <= 1 and abs(saved_area - int(said[2])) <= 1, (saved_ink, saved_area)


def test_ink_saver_chaos_cards_stay_recognisable(saver, deck):
    doc = pdfium.PdfDocument(saver / "print" / "county-uppy-letter-fronts.pdf")
    texts = [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    base = next(i for i, t in enumerate(texts) if "· Base ·" in t)
    chaos = next(i for i, t in enumerate(texts) if "· Chaos ·" in t)

    def interior(i: int) -> tuple[int, int, int]:
        page = doc[i]
        scale = 100 / 72
        image = page.render(scale=scale).to_pil().convert("RGB")
        (left, bottom, right, top), rot = trims_on(page)[0]
        h = page.get_size()[1]
        # a point inside the interior, between the frame and the big number: 32 pt in from the
        # card's left edge, 110 pt down from its top (a card on its side has its top to the left)
        x, y = (left + 32, top - 110) if rot == 0 else (left + 110, bottom + 32)
        return image.getpixel((round(x * scale), round((h - y) * scale)))

    base_px, chaos_px = interior(base), interior(chaos)
    doc.close()
    assert base_px == (255, 255, 255)
    assert all(150 <= v <= 230 for v in chaos_px), chaos_px  # light grey: little ink, unlike white at a glance
