"""What a printer takes from the rulebook PDF, read back from the files of one build: glyphs at
their font's advances (and kerning), pictures at 300 ppi or better at their printed size, and
rulebook-booklet.pdf, the pages imposed for a folded booklet in the right order."""

from __future__ import annotations

import statistics
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest

from generator.products.rulebook import booklet
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
