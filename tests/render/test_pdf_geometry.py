"""Print sheets read back from the PDF files: page size, card positions, crop marks, duplex."""

from __future__ import annotations

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest

from generator.products import sheets
from generator.products.units import BLEED_IN, PAPERS, TRIM_H_IN, TRIM_W_IN, inch, mm

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


def paths_on(page) -> list[tuple[float, float, float, float]]:
    return [obj.get_bounds() for obj in page.get_objects(max_depth=0) if obj.type == raw.FPDF_PAGEOBJ_PATH]


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_nine_cards_at_exact_trim_positions(built, paper):
    pdf = pdfium.PdfDocument(built / "print" / f"county-uppy-{paper}-fronts.pdf")
    pw, ph = PAPERS[paper]
    page = pdf[0]
    assert page.get_size() == pytest.approx((pw, ph), abs=TOL)
    rects = cards_on(page)
    assert len(rects) == 9
    gx, gy = (pw - 3 * CARD_W) / 2, (ph - 3 * CARD_H) / 2
    expected = sorted(((gx + c * CARD_W, gy + r * CARD_H, gx + (c + 1) * CARD_W, gy + (r + 1) * CARD_H)
                       for r in range(3) for c in range(3)), key=lambda r: (-r[1], r[0]))
    for got, want in zip(rects, expected):
        assert got == pytest.approx(want, abs=TOL)
    if paper == "letter":  # known numbers, not only the formula
        assert rects[0][:2] == pytest.approx((inch(0.5), inch(0.25) + 2 * CARD_H), abs=TOL)
    pdf.close()


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_crop_marks_on_every_trim_line_outside_the_cards(built, paper):
    pdf = pdfium.PdfDocument(built / "print" / f"county-uppy-{paper}.pdf")
    page = pdf[0]
    pw, ph = PAPERS[paper]
    cards = cards_on(page)
    left, bottom = min(r[0] for r in cards), min(r[1] for r in cards)
    right, top = max(r[2] for r in cards), max(r[3] for r in cards)
    marks = paths_on(page)
    xs = sorted({round(left + c * CARD_W, 2) for c in range(4)})
    ys = sorted({round(bottom + r * CARD_H, 2) for r in range(4)})
    for x in xs:
        hits = [m for m in marks if abs((m[0] + m[2]) / 2 - x) < 0.01 and m[3] - m[1] > 3]
        assert len(hits) == 2, (x, hits)
    for y in ys:
        hits = [m for m in marks if abs((m[1] + m[3]) / 2 - y) < 0.01 and m[2] - m[0] > 3]
        assert len(hits) == 2, (y, hits)
    printed = (left - BLEED, bottom - BLEED, right + BLEED, top + BLEED)
    for m in marks:
        # every mark lies outside the printed area (cards and bleed) and on the page
        outside = m[2] <= printed[0] or m[0] >= printed[2] or m[3] <= printed[1] or m[1] >= printed[3]
        assert outside, m
        assert 0 <= m[0] and m[2] <= pw and 0 <= m[1] and m[3] <= ph
    pdf.close()


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_duplex_backs_mirror_their_fronts(built, paper):
    pdf = pdfium.PdfDocument(built / "print" / f"county-uppy-{paper}.pdf")
    pw, _ = PAPERS[paper]
    assert len(pdf) % 2 == 0
    for i in range(0, len(pdf), 2):
        fronts, backs = cards_on(pdf[i]), cards_on(pdf[i + 1])
        assert len(fronts) == len(backs)
        mirrored = sorted(((pw - r[2], r[1], pw - r[0], r[3]) for r in fronts), key=lambda r: (-r[1], r[0]))
        for want, got in zip(mirrored, backs):
            assert max(abs(a - b) for a, b in zip(want, got)) <= mm(0.5)
    pdf.close()


def test_duplex_alternates_fronts_and_backs_and_sets_do_not_mix(built, deck):
    pdf = pdfium.PdfDocument(built / "print" / "county-uppy-letter.pdf")
    fronts = pdfium.PdfDocument(built / "print" / "county-uppy-letter-fronts.pdf")
    backs = pdfium.PdfDocument(built / "print" / "county-uppy-letter-backs.pdf")
    base, chaos = deck.set_totals()["base"], deck.set_totals()["chaos"]
    pages = -(-base // 9) + -(-chaos // 9)
    assert len(fronts) == len(backs) == pages and len(pdf) == 2 * pages
    assert sum(len(cards_on(fronts[i])) for i in range(len(fronts))) == deck.printed
    texts = [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    assert all("fronts" in t for t in texts[0::2]) and all("backs" in t for t in texts[1::2])
    assert "county-uppy-letter.pdf" in texts[0] and "page 1 of" in texts[0]
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
        pw, _ = PAPERS[paper]
        for i in range(9):
            front, back = sheets.slot(paper, i), sheets.slot(paper, i, mirrored=True)
            assert back.x == pytest.approx(pw - front.x - front.w)
            assert back.y == front.y


def test_drivethrucards_pdf_one_card_per_page(built, deck):
    pdf = pdfium.PdfDocument(built / "pod" / "county-uppy-drivethrucards.pdf")
    assert len(pdf) == 2 * deck.printed
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
    # a page with two cards: the second has no card to its right or below it
    assert sheets.slot("letter", 1, filled=2).outer == (False, True, True, True)
    assert sheets.slot("letter", 1, mirrored=True, filled=2).outer == (True, True, False, True)
    assert sheets.slot("letter", 4).outer == (False, False, False, False)
