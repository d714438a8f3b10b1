"""The card-count sheet (print/county-uppy-PAPER-card-count.pdf), read back from its text: every
card with its printed copies and its copies in each edition, checked against the manifest."""

from __future__ import annotations

import pdfplumber
import pypdfium2 as pdfium
import pytest

from generator.products.render.units import PAPERS
from tests.products.render.test_print_sheets import ink_near_the_edge

DASH = "\u2013"


def rows_of(path, n_editions: int) -> tuple[dict[str, tuple[str, int, tuple[int, ...]]], dict[str, tuple[int, ...]]]:
    """code -> (kind, printed, per edition) for every row, and label -> counts for the totals rows."""
    rows, totals = {}, {}
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            for line in page.extract_text().splitlines():
                words = line.split()
                numbers = words[-(n_editions + 1):]
                if len(words) < n_editions + 2 or not all(w.isdigit() or w == DASH for w in numbers):
                    continue
                counts = tuple(0 if w == DASH else int(w) for w in numbers)
                if words[0] == "\u2610":
                    rows[words[1]] = (words[-(n_editions + 2)], counts[0], counts[1:])
                else:
                    totals[" ".join(words[:-(n_editions + 1)])] = counts
    return rows, totals


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_every_card_with_its_copies_in_each_edition(built, deck, paper):
    path = built / "print" / f"county-uppy-{paper}-card-count.pdf"
    rows, totals = rows_of(path, len(deck.editions))
    assert sorted(rows) == sorted(c.code for c in deck.cards)
    members = [set(deck.edition(e.key).codes) for e in deck.editions]
    for card in deck.cards:
        kind, printed, per_edition = rows[card.code]
        assert (kind, printed) == (card.kind, card.copies), card.code
        assert per_edition == tuple(card.copies if card.code in m else 0 for m in members), card.code
    for s in deck.sets:
        total = totals[f"{s.name}: total"]
        assert total[0] == deck.set_totals()[s.key]
    assert totals["All sets"] == (deck.printed, *(deck.edition_count(e.key) for e in deck.editions))
    with pdfplumber.open(path) as pdf:
        heads = " ".join(pdf.pages[0].extract_text().split())
        assert all(e.name.split()[0] in heads for e in deck.editions)
        assert all(page.width == pytest.approx(PAPERS[paper][0], abs=0.01) for page in pdf.pages)


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_the_sheet_prints_inside_the_printable_area(built, paper):
    path = built / "print" / f"county-uppy-{paper}-card-count.pdf"
    doc = pdfium.PdfDocument(path)
    n = len(doc)
    doc.close()
    assert n >= 2  # a page per set at least
    assert ink_near_the_edge(path, list(range(n))) == []
