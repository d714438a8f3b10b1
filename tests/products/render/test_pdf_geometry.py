"""Print sheets read back from the PDF files: page size, card positions, crop marks, duplex."""

from __future__ import annotations

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from generator.products.render import sheets
from generator.products.render.units import BLEED_IN, PAPERS, TRIM_H_IN, TRIM_W_IN, inch, mm

CARD_W, CARD_H, BLEED = inch(TRIM_W_IN), inch(TRIM_H_IN), inch(BLEED_IN)
TOL = 0.01  # points


def cards_on(page) -> list[tuple[float, float, float, float]]:
    """Trim rectangles (left, bottom, right, top) of the card forms placed on a page."""
    rects = []
    for obj in page.get_objects(max_depth=0):
        if obj.type == raw.FPDF_PAGEOBJ_FORM:
            left, bottom, right, top = obj.get_bounds()
            m = obj.get_matrix()
            rects.append((m.e, m.f, m.e + CARD_W, m.f + CARD_H))
            # the drawn background is the card plus its bleed, no more
            assert right - left == pytest.approx(CARD_W + 2 * BLEED, abs=TOL)
            assert top - bottom == pytest.approx(CARD_H + 2 * BLEED, abs=TOL)
            assert m.e - left == pytest.approx(BLEED, abs=TOL)
    return sorted(rects, key=lambda r: (-r[1], r[0]))


def trims_on(page) -> list[tuple[tuple[float, float, float, float], int]]:
    """(trim rectangle, rotation in degrees counter-clockwise) of every card form on a page,
    upright or turned on its side: the form's drawn box less its bleed, the turn read off its
    matrix."""
    out = []
    for obj in page.get_objects(max_depth=0):
        if obj.type == raw.FPDF_PAGEOBJ_FORM:
            left, bottom, right, top = obj.get_bounds()
            m = obj.get_matrix()
            rot = {(1, 0): 0, (0, 1): 90, (-1, 0): 180, (0, -1): 270}[(round(m.a), round(m.b))]
            out.append(((left + BLEED, bottom + BLEED, right - BLEED, top - BLEED), rot))
    return sorted(out, key=lambda t: (-t[0][1], t[0][0]))


def paths_on(page) -> list[tuple[float, float, float, float]]:
    return [obj.get_bounds() for obj in page.get_objects(max_depth=0) if obj.type == raw.FPDF_PAGEOBJ_PATH]


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_cards_at_exact_trim_positions(built, paper):
    """A4: nine cards upright, 3×3. Letter: eight on their side, 2×4 (three upright rows would
    leave 1/4 in above and below, no room for a mark outside 1/4 in), turned a quarter left."""
    pdf = pdfium.PdfDocument(built / "print" / f"county-uppy-{paper}-fronts.pdf")
    pw, ph = PAPERS[paper]
    page = pdf[1]  # page 1 is the test page
    assert page.get_size() == pytest.approx((pw, ph), abs=TOL)
    placed = trims_on(page)
    rects = [r for r, _ in placed]
    (w, h), n, rot = ((CARD_H, CARD_W), 8, 90) if paper == "letter" else ((CARD_W, CARD_H), 9, 0)
    assert len(rects) == n and {r for _, r in placed} == {rot}
    assert all((r[2] - r[0], r[3] - r[1]) == pytest.approx((w, h), abs=TOL) for r in rects)
    # butted edge to edge, the grid centred inside the printable area
    xs, ys = sorted({round(r[0], 3) for r in rects}), sorted({round(r[1], 3) for r in rects})
    assert [b - a for a, b in zip(xs, xs[1:])] == pytest.approx([w] * (len(xs) - 1), abs=TOL)
    assert [b - a for a, b in zip(ys, ys[1:])] == pytest.approx([h] * (len(ys) - 1), abs=TOL)
    assert (len(xs), len(ys)) == ((2, 4) if paper == "letter" else (3, 3))
    assert xs[0] == pytest.approx(pw - xs[-1] - w, abs=TOL) and ys[0] == pytest.approx(ph - ys[-1] - h, abs=TOL)
    # known numbers: Letter 3/4 in across and 1/2 in at top and bottom; A4 9.75 mm and 15.15 mm
    assert (xs[0], ys[0]) == pytest.approx((inch(0.75), inch(0.5)) if paper == "letter" else (mm(9.75), mm(15.15)),
                                           abs=TOL)
    pdf.close()


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_duplex_backs_mirror_their_fronts(built, paper):
    """Turned over the long edge, each back lies behind its front; a card on its side (Letter) has
    its back turned the other way, so the back's top stands behind the front's top."""
    pdf = pdfium.PdfDocument(built / "print" / f"county-uppy-{paper}.pdf")
    pw, _ = PAPERS[paper]
    assert len(pdf) % 2 == 0
    for i in range(2, len(pdf), 2):
        fronts, backs = trims_on(pdf[i]), trims_on(pdf[i + 1])
        assert len(fronts) == len(backs)
        mirrored = sorted(((pw - r[2], r[1], pw - r[0], r[3]), (360 - rot) % 360) for r, rot in fronts)
        for (want, want_rot), (got, got_rot) in zip(mirrored, sorted(backs)):
            assert max(abs(a - b) for a, b in zip(want, got)) <= TOL and want_rot == got_rot, (i, want, got)
    pdf.close()


@pytest.mark.parametrize("paper,per_page", [("letter", 8), ("a4", 9)])
def test_duplex_alternates_fronts_and_backs_and_sets_do_not_mix(built, deck, paper, per_page):
    pdf = pdfium.PdfDocument(built / "print" / f"county-uppy-{paper}.pdf")
    fronts = pdfium.PdfDocument(built / "print" / f"county-uppy-{paper}-fronts.pdf")
    backs = pdfium.PdfDocument(built / "print" / f"county-uppy-{paper}-backs.pdf")
    base, chaos = deck.set_totals()["base"], deck.set_totals()["chaos"]
    pages = -(-base // per_page) + -(-chaos // per_page)
    assert len(fronts) == len(backs) == pages + 1 and len(pdf) == 2 * (pages + 1)  # + the test page
    assert sum(len(trims_on(fronts[i])) for i in range(len(fronts))) == deck.printed
    assert max(len(trims_on(fronts[i])) for i in range(len(fronts))) == per_page
    texts = [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    assert "print test page" in texts[0] and "registration" in texts[1]
    texts = texts[2:]
    assert all("fronts" in t for t in texts[0::2]) and all("backs" in t for t in texts[1::2])
    assert f"county-uppy-{paper}.pdf" in texts[0] and "page 3 of" in texts[0]
    sets = ["Base" if "· Base ·" in t else "Chaos" for t in texts[0::2]]
    assert sets == sorted(sets, key=["Base", "Chaos"].index)  # base pages first, never mixed
    for doc in (pdf, fronts, backs):
        doc.close()


def test_edition_files(built, deck):
    pdf = pdfium.PdfDocument(built / "print" / "county-uppy-a4-keep-it-simple-fronts.pdf")
    n = sum(len(cards_on(pdf[i])) for i in range(len(pdf)))
    refs = sum(c.copies for c in deck.cards if c.kind == "reference")
    assert n == deck.edition_count("keep-it-simple") + refs
    pdf.close()


def test_grid_function_is_the_single_source():
    for paper in PAPERS:
        pw, ph = PAPERS[paper]
        for duplex in ("long", "short"):
            g = sheets.grid(paper, 0, duplex)
            for i in range(g.per_page):
                front, back = sheets.slot(g, i), sheets.slot(g, i, back=True)
                assert (back.w, back.h) == (front.w, front.h)
                if duplex == "long":
                    assert (back.x, back.y) == pytest.approx((pw - front.x - front.w, front.y))
                    assert back.rot == (360 - front.rot) % 360
                else:
                    assert (back.x, back.y) == pytest.approx((front.x, ph - front.y - front.h))
                    assert back.rot == front.rot


def test_drivethrucards_pdf_one_card_per_page(built, deck):
    pdf = pdfium.PdfDocument(built / "pod" / "county-uppy-drivethrucards.pdf")
    assert len(pdf) == 2 * deck.printed  # each card's back, then its front
    assert pdf[0].get_size() == pytest.approx((inch(2.75), inch(3.75)), abs=TOL)
    for i in (0, 1):
        (rect,) = cards_on(pdf[i])
        assert rect[:2] == pytest.approx((BLEED, BLEED), abs=TOL)
    pdf.close()


def test_every_pdf_opens_and_rasterizes(built):
    for path in sorted((built / "print").glob("*.pdf")) + sorted((built / "pod").glob("*.pdf")):
        pdf = pdfium.PdfDocument(path)
        image = pdf[0].render(scale=30 / 72).to_pil().convert("L")
        lo, hi = image.getextrema()
        assert hi - lo > 100, path.name  # something was drawn
        pdf.close()


def test_bleed_on_every_edge_without_a_neighbour():
    g = sheets.grid("a4")
    b = sheets.BLEED
    # a page with two cards: the second has no card to its right or below it
    assert sheets.slot(g, 1, filled=2).bleed == (0, b, b, b)
    assert sheets.slot(g, 1, back=True, filled=2).bleed == (b, b, 0, b)
    assert sheets.slot(g, 4).bleed == (0, 0, 0, 0)
    short = sheets.grid("a4", 0, "short")
    assert sheets.slot(short, 1, back=True, filled=2).bleed == (0, b, b, b)  # rows turn over, not columns


def test_every_outer_edge_keeps_its_full_bleed():
    """The margins that keep every crop mark 1/4 in from the edge (7.9 mm and more) also leave room
    for the full 1/8 in bleed inside the printable area on every paper and layout, fronts and backs."""
    for paper in PAPERS:
        for layout in ("duplex", "gutterfold"):
            g = sheets.grid(paper, layout=layout)
            for back in (False, True):
                for i in range(g.per_page):
                    assert all(b in (0, BLEED) for b in sheets.slot(g, i, back).bleed), (paper, layout, back, i)
