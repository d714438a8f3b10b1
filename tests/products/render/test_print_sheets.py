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
from tests.products.render.test_pdf_geometry import CARD_H, CARD_W, cards_on, trims_on

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
MARK_EDGE = mm(6.35)  #: marks keep 1/4 in from every paper edge, unless the test page says otherwise
ASSUMED = re.compile(r"The marks of the (\w+) cuts stand ([\d.]+) mm from the (\w+) and (\w+) edges")


def assumed_margins(path: Path) -> dict[str, float]:
    """The edges whose marks the file's test page says come nearer than 1/4 in, and how near
    (points, less the rounding of the printed figure); every other edge keeps 1/4 in."""
    with pdfplumber.open(path) as pdf:
        text = " ".join(pdf.pages[0].extract_text().split())
    found = ASSUMED.search(text)
    if not found:
        assert "Every crop mark stands at least 1/4 in (6.35 mm) from the paper's edges" in text, path.name
        return {}
    return {found[3]: mm(float(found[2]) - 0.05), found[4]: mm(float(found[2]) - 0.05)}


def check_marks(path: Path, paper: str, skip: int, step: int = 1, assumed: dict[str, float] | None = None) -> int:
    """Every cut line of every card page keeps at least 6 mm from every paper edge and has a mark
    at both ends, beyond every card (below and above them for a vertical line, left and right of
    them for a horizontal one), each at least 1 mm long inside the printable area and outside
    every card's trim; no mark comes nearer than 1/4 in (6.35 mm) to the paper's edge, but at an
    edge the file's test page names (`assumed`, read from it by default), and none nearer than
    4.2 mm. So once a margin strip is cut off, every line still has its other end marked."""
    pw, ph = PAPERS[paper]
    assumed = assumed_margins(path) if assumed is None else assumed
    limit = {side: assumed.get(side, MARK_EDGE) for side in ("left", "bottom", "right", "top")}
    doc, plumb = pdfium.PdfDocument(path), pdfplumber.open(path)
    checked = 0
    try:
        for i in range(skip, len(doc), step):
            cards = [r for r, _ in trims_on(doc[i])]
            marks = black_lines(plumb.pages[i])
            assert marks, i
            for m in marks:
                assert min(m[0], m[2]) >= EDGE - 0.01 and max(m[0], m[2]) <= pw - EDGE + 0.01, (i, m)
                assert min(m[1], m[3]) >= EDGE - 0.01 and max(m[1], m[3]) <= ph - EDGE + 0.01, (i, m)
                assert min(m[0], m[2]) >= limit["left"] - 0.01 and max(m[0], m[2]) <= pw - limit["right"] + 0.01, \
                    (path.name, i, m, "mark within 1/4 in of a side")
                assert min(m[1], m[3]) >= limit["bottom"] - 0.01 and max(m[1], m[3]) <= ph - limit["top"] + 0.01, \
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
@pytest.mark.parametrize("tail,skip", [("", 2), ("-fronts", 1), ("-backs", 1), ("-gutterfold", 1)])
def test_every_cut_line_is_marked_where_a_home_printer_prints(built, paper, tail, skip):
    main_file = built / "print" / f"county-uppy-{paper}{'-gutterfold' if tail == '-gutterfold' else ''}.pdf"
    assert check_marks(built / "print" / f"county-uppy-{paper}{tail}.pdf", paper, skip,
                       assumed=assumed_margins(main_file)) > 0


@pytest.mark.parametrize("paper", ["letter", "a4"])
@pytest.mark.parametrize("tail", ["", "-gutterfold"])
def test_marks_keep_a_quarter_inch_from_the_edges_or_the_test_page_says_how_near(built, paper, tail):
    """A printer that leaves 1/4 in blank keeps every mark: on A4 (both layouts) and Letter's
    gutterfold sheets every mark stands 6.35 mm or more from every edge. Letter's three rows
    leave exactly 1/4 in above and below, so no mark of a vertical cut fits there: its test page
    says how near the edge those marks come, and the figure is the files' own."""
    path = built / "print" / f"county-uppy-{paper}{tail}.pdf"
    assumed = assumed_margins(path)
    assert sorted(assumed) == (["bottom", "top"] if (paper, tail) == ("letter", "") else [])
    pw, ph = PAPERS[paper]
    with pdfplumber.open(path) as pdf:
        marks = [m for page in pdf.pages[1:] for m in black_lines(page)]
    nearest = {"left": min(min(m[0], m[2]) for m in marks), "bottom": min(min(m[1], m[3]) for m in marks),
               "right": pw - max(max(m[0], m[2]) for m in marks), "top": ph - max(max(m[1], m[3]) for m in marks)}
    for side, d in nearest.items():
        if side in assumed:  # the figure printed, to its 0.1 mm
            assert abs(d - assumed[side] - mm(0.05)) <= mm(0.05) + 0.01, (side, d / mm(1))
        else:
            assert d >= MARK_EDGE - 0.01, (side, d / mm(1))


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
        for i in range(2, len(doc), 2):
            fronts = sorted((round(pw - r[2], 2), round(r[1], 2)) for r in cards_on(doc[i]))
            backs = sorted((round(r[0] + mm(drift[0]), 2), round(r[1] + mm(drift[1]), 2)) for r in cards_on(doc[i + 1]))
            assert fronts == backs, i
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
        fronts, backs = cards_on(doc[i]), cards_on(doc[i + 1])
        # turned over the short edge: rows mirror, columns stay; then shifted 1.5 mm right, 1 mm down
        want = sorted(((r[0] + mm(1.5), ph - r[3] - mm(1.0)) for r in fronts))
        got = sorted((r[0], r[1]) for r in backs)
        assert len(got) == len(want)
        assert all(abs(a - b) <= 0.01 for w, g in zip(want, got) for a, b in zip(w, g)), (want, got)
    doc.close()
    assert check_marks(path, paper, 2, step=2) > 0  # the fronts, cut along their marks


def test_gutter_spaces_the_cards_with_marks_in_the_gutters(optioned):
    path = optioned / "print" / "county-uppy-a4-fronts.pdf"
    doc = pdfium.PdfDocument(path)
    rects = cards_on(doc[1])
    doc.close()
    xs, ys = sorted({round(r[0], 3) for r in rects}), sorted({round(r[1], 3) for r in rects})
    assert [b - a for a, b in zip(xs, xs[1:])] == pytest.approx([CARD_W + mm(3)] * 2, abs=0.01)
    assert [b - a for a, b in zip(ys, ys[1:])] == pytest.approx([CARD_H + mm(3)] * 2, abs=0.01)
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[1]
        marks = black_lines(page)
    # a gutter between two columns holds a mark on each horizontal cut line
    gutter = (xs[0] + CARD_W, xs[1])
    inside = [m for m in marks if m[1] == m[3] and m[0] >= gutter[0] and m[2] <= gutter[1]]
    assert len({round(m[1], 2) for m in inside}) == 6
    # Letter is too short for a gutter between rows: the columns take it, the rows stay butted
    doc = pdfium.PdfDocument(optioned / "print" / "county-uppy-letter-fronts.pdf")
    rects = cards_on(doc[1])
    doc.close()
    xs, ys = sorted({round(r[0], 3) for r in rects}), sorted({round(r[1], 3) for r in rects})
    assert xs[1] - xs[0] == pytest.approx(CARD_W + mm(3), abs=0.01)
    assert ys[1] - ys[0] == pytest.approx(CARD_H, abs=0.01)
    assert check_marks(optioned / "print" / "county-uppy-a4-fronts.pdf", "a4", 1) > 0


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_gutters_a_paper_takes_run_from_0_to_the_widest_it_names(paper):
    """Every gutter from 0 mm to the paper's widest is accepted, every cut line at least 6 mm from
    the paper's edges and marked at both ends, marks outside every trim and inside the printable
    area; every wider one is refused with a message naming that widest."""
    pw, ph = PAPERS[paper]
    accepted, refused = [], []
    for tenths in range(0, 201):
        gutter = tenths / 10
        try:
            g = sheets.grid(paper, gutter)
        except sheets.LayoutError as exc:
            refused.append((gutter, str(exc)))
            continue
        accepted.append(gutter)
        for back in (False, True):
            assert sheets.unmarked_lines(g, back) == [], (gutter, back)
            trims = [sheets.slot(g, i, back) for i in range(sheets.PER_PAGE)]
            for s in trims:
                assert min(s.x, s.y, pw - s.x - s.w, ph - s.y - s.h) >= mm(6) - 0.01, (gutter, back, s)
            for x0, y0, x1, y1 in sheets.crop_marks(g, back):
                assert min(x0, x1) >= sheets.PRINT_LIMIT - 0.01 and max(x0, x1) <= pw - sheets.PRINT_LIMIT + 0.01
                assert min(y0, y1) >= sheets.PRINT_LIMIT - 0.01 and max(y0, y1) <= ph - sheets.PRINT_LIMIT + 0.01
                for s in trims:  # a mark may touch a trim's edge line, never run inside it
                    inside_x = min(x0, x1) < s.x + s.w - 0.01 and max(x0, x1) > s.x + 0.01
                    inside_y = min(y0, y1) < s.y + s.h - 0.01 and max(y0, y1) > s.y + 0.01
                    assert not (inside_x and inside_y), (gutter, back, (x0, y0, x1, y1))
    widest = accepted[-1]
    assert accepted == [t / 10 for t in range(0, round(widest * 10) + 1)], f"a hole in {paper}'s gutters"
    assert widest == {"letter": 6.7, "a4": 3.7}[paper]
    assert refused and all(gutter > widest for gutter, _ in refused)
    for gutter, message in refused:
        assert message == f"--gutter {gutter:g} mm does not fit three cards across {paper} (at most {widest:.1f} mm)"


def test_a_gutter_wide_enough_holds_marks_between_the_cards(deck, tmp_path):
    """--gutter 2.5 on A4: besides the marks at both ends of every line, a mark of at least 1 mm
    in every gutter on each line crossing it, read back from the PDF."""
    out = tmp_path / "out"
    run_build(deck, out, only=("print",), papers=("a4",), gutter=2.5)
    path = out / "print" / "county-uppy-a4-fronts.pdf"
    assert check_marks(path, "a4", 1) > 0
    doc = pdfium.PdfDocument(path)
    rects = cards_on(doc[1])
    doc.close()
    xs = sorted({round(r[0], 3) for r in rects})
    assert [b - a for a, b in zip(xs, xs[1:])] == pytest.approx([CARD_W + mm(2.5)] * 2, abs=0.01)
    with pdfplumber.open(path) as pdf:
        marks = black_lines(pdf.pages[1])
    for left in xs[:2]:
        gap = (left + CARD_W, left + CARD_W + mm(2.5))
        inside = [m for m in marks if m[1] == m[3] and m[0] >= gap[0] and m[2] <= gap[1] and m[2] - m[0] >= mm(1)]
        assert len({round(m[1], 2) for m in inside}) == 6  # three rows, two cut lines each


@pytest.mark.parametrize("args,message", [
    (["--back-offset", "1"], "--back-offset needs two numbers in mm"),
    (["--back-offset", "x,2"], "--back-offset needs two numbers in mm"),
    (["--back-offset", "11,0"], "--back-offset is at most 10 mm"),
    (["--gutter", "-1"], "--gutter must be 0..20 mm"),
    (["--gutter", "12"], "--gutter 12 mm does not fit three cards across letter"),
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


def test_grid_refuses_what_does_not_fit():
    with pytest.raises(sheets.LayoutError):
        sheets.grid("a4", 9.0)


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
        (left, bottom, right, top) = cards_on(page)[0]
        h = page.get_size()[1]
        # a point inside the interior, between the frame and the big number
        return image.getpixel((round((left + 32) * scale), round((h - top + 110) * scale)))

    base_px, chaos_px = interior(base), interior(chaos)
    doc.close()
    assert base_px == (255, 255, 255)
    assert all(150 <= v <= 230 for v in chaos_px), chaos_px  # light grey: little ink, unlike white at a glance
