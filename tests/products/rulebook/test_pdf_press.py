"""What a printer takes from the rulebook PDF, read back from the files of one build: glyphs at
their font's advances (and kerning), pictures at 300 ppi or better at their printed size, and
rulebook-booklet.pdf, the pages imposed for a folded booklet in the right order."""

from __future__ import annotations

import statistics
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from generator.products.rulebook import booklet, shop
from generator.products.rulebook.print_fonts import PRINT_FILES
from tests.conftest import MANIFEST
from tests.products.rulebook.glyph_positions import residuals
from tests.products.rulebook.test_pdf import build, chromium  # noqa: F401 -- the fixture

MM = 72 / 25.4


@pytest.fixture
def printed(chromium, tmp_path) -> Path:  # noqa: F811 -- the fixture imported above
    out = tmp_path / "out"
    assert build(out, MANIFEST) == 0
    return out


def test_glyphs_stand_at_their_fonts_advances(printed):
    """Each character stands where the font puts it after the one before (its advance and the
    pair's kerning): Chromium's hinting moved them by 27/1000 em in the median and +100/1000 em
    after every "t" ("t he"); unhinted, 96% of pairs are within 1/1000 em (the PDF's own
    rounding), the median well under it."""
    for path in (printed / "rulebook.pdf", printed / booklet.FILE):
        found = residuals(path, {"DejaVuSans": PRINT_FILES[("text", False)],
                                 "DejaVuSans-Bold": PRINT_FILES[("text", True)]})
        for name, pairs in found.items():
            assert len(pairs) > 1000, (path.name, name)
            off = [abs(v) for _, v in pairs]
            assert statistics.median(off) < 1.0, (path.name, name, statistics.median(off))
            assert sum(1 for v in off if v <= 1.5) / len(off) > 0.9, (path.name, name)
            after_t = [v for p, v in pairs if p[0] == "t" and p[1].isalpha()]
            assert abs(statistics.mean(after_t)) < 2.0, (path.name, name, statistics.mean(after_t))


def test_every_picture_prints_at_300_ppi_or_better(printed):
    for path in (printed / "rulebook.pdf", printed / booklet.FILE):
        doc = pdfium.PdfDocument(path)
        seen = 0
        try:
            for i in range(len(doc)):
                for obj in doc[i].get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=4):
                    left, bottom, right, top = obj.get_bounds()
                    px_w, px_h = obj.get_px_size()
                    ppi = min(px_w / ((right - left) / 72), px_h / ((top - bottom) / 72))
                    assert ppi >= 299.5, (path.name, i + 1, round(ppi))
                    seen += 1
        finally:
            doc.close()
        assert seen >= 10, path.name


def _half_text(page, left: bool) -> str:
    w, h = page.get_size()
    text = page.get_textpage().get_text_bounded(0 if left else w / 2, 0, w / 2 if left else w, h)
    return " ".join(text.split())


def test_the_booklet_folds_into_the_rulebooks_pages_in_order(printed):
    """Sheets of Letter's height by A4's (so each prints at 100% on both, centred), two pages
    each; the page count padded to a multiple of 4 with blank pages; printed duplex on the short
    edge and folded, the pages read 1, 2, 3...: read back from the page numbers printed in each
    half of each sheet."""
    doc = pdfium.PdfDocument(printed / booklet.FILE)
    try:
        sheets = len(doc)
        pages = 2 * sheets
        assert pages % 4 == 0
        halves = []
        for i in range(sheets):
            assert doc[i].get_size() == pytest.approx((279.4 * MM, 210 * MM), abs=0.5)
            halves += [_half_text(doc[i], True), _half_text(doc[i], False)]
    finally:
        doc.close()
    numbers = []
    for text in halves:
        if not text:
            numbers.append(None)
            continue
        at = text.rfind("page ")
        number, _, total = text[at + 5:].partition(" of ")
        numbers.append(int(number))
        count = int(total.split()[0])
    assert pages - 3 <= count <= pages
    # the first sheet's front: the last page (or a blank) on the left, page 1 on the right; its back: 2 and the last but one
    assert numbers[1] == 1 and numbers[2] == 2
    expected = [None if i is None else i + 1 for i in booklet.order(count)]
    assert numbers == expected
    # folded: the pages in reading order are 1..count, then the blanks
    reading = sorted(range(pages), key=lambda k: (numbers[k] is None, numbers[k] or 0))
    assert [numbers[k] for k in reading][:count] == list(range(1, count + 1))


@pytest.mark.parametrize("count, expected", [
    (1, [None, 0, None, None]),
    (4, [3, 0, 1, 2]),
    (6, [None, 0, 1, None, 5, 2, 3, 4]),
    (8, [7, 0, 1, 6, 5, 2, 3, 4]),
])
def test_booklet_order(count, expected):
    assert booklet.order(count) == expected


def test_the_shop_file_has_the_rulebooks_pages_with_a_bleed(printed):
    """rulebook-shop.pdf, for a print shop's saddle-stitched booklet: every page a sheet 3 mm larger
    on each side than rulebook.pdf's, its TrimBox exactly rulebook.pdf's page and its BleedBox the
    sheet, the page count a multiple of four (blank pages at the end); inside the trim the very
    page of rulebook.pdf, and the bleed the page's own ground (white) out to the sheet's edge, so
    nothing but the page's background is cut away or shows at a cut a little off."""
    import pikepdf

    with pikepdf.open(printed / "rulebook.pdf") as home, pikepdf.open(printed / shop.FILE) as sold:
        count = len(home.pages)
        assert len(sold.pages) == booklet.padded(count) and len(sold.pages) % 4 == 0
        w, h = (float(v) for v in home.pages[0].MediaBox[2:])
        b = shop.BLEED_MM * MM
        for page in sold.pages:
            boxes = {name: [float(v) for v in page[name]] for name in ("/MediaBox", "/BleedBox", "/TrimBox")}
            assert boxes["/MediaBox"] == pytest.approx([0, 0, w + 2 * b, h + 2 * b], abs=0.01)
            assert boxes["/BleedBox"] == pytest.approx(boxes["/MediaBox"], abs=0.01)
            assert boxes["/TrimBox"] == pytest.approx([b, b, b + w, b + h], abs=0.01)
    assert b == pytest.approx(8.504, abs=0.01)  # 3 mm
    # rendered at 2 px per mm (the bleed 6 px)
    scale = 2 * 25.4 / 72
    home_doc, shop_doc = pdfium.PdfDocument(printed / "rulebook.pdf"), pdfium.PdfDocument(printed / shop.FILE)
    try:
        for i in range(len(shop_doc)):
            sheet = shop_doc[i].render(scale=scale).to_pil().convert("RGB")
            px = round(shop.BLEED_MM * 2)
            strips = [(0, 0, sheet.width, px), (0, sheet.height - px, sheet.width, sheet.height),
                      (0, 0, px, sheet.height), (sheet.width - px, 0, sheet.width, sheet.height)]
            for strip in strips:  # the page's white ground reaches the sheet's edge all round
                assert sheet.crop(strip).getextrema() == ((255, 255),) * 3, (i + 1, strip)
            if i >= count:
                assert sheet.getextrema() == ((255, 255),) * 3, i + 1  # a blank page
                continue
            # the page moved by the bleed, nothing else: every character and picture where rulebook.pdf has it, plus 3 mm
            home_page, shop_page = home_doc[i], shop_doc[i]
            home_text, shop_text = home_page.get_textpage(), shop_page.get_textpage()
            assert shop_text.get_text_range() == home_text.get_text_range() != ""
            for k in range(home_text.count_chars()):
                moved = [v + b for v in home_text.get_charbox(k)]
                assert shop_text.get_charbox(k) == pytest.approx(moved, abs=0.01), (i + 1, k)
            pictures = [[obj.get_bounds() for obj in pg.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=4)]
                        for pg in (home_page, shop_page)]
            assert len(pictures[0]) == len(pictures[1])
            for home_box, shop_box in zip(*pictures):
                assert shop_box == pytest.approx([v + b for v in home_box], abs=0.01), i + 1
    finally:
        home_doc.close()
        shop_doc.close()
