"""The cards' typeface cut down for printing the rulebook (generator/products/rulebook/print_fonts.py)
is the whole fonts' own glyphs for every character it keeps, and a page with a character it
does not keep is printed with the whole fonts."""

from __future__ import annotations

import pytest
from fontTools.ttLib import TTFont

from generator.products.render.font_metrics import FILES
from generator.products.rulebook.pdf import fonts_for
from generator.products.rulebook.print_fonts import PRINT_FILES, RANGES, covers


@pytest.mark.parametrize("bold", [False, True])
def test_the_cut_down_font_draws_every_kept_character_as_the_whole_font_does(bold):
    whole, cut = TTFont(str(FILES[bold])), TTFont(str(PRINT_FILES[bold]))
    kept = {c for c in whole.getBestCmap() if any(lo <= c <= hi for lo, hi in RANGES)}
    assert len(kept) > 1500
    assert set(cut.getBestCmap()) == kept  # every character of the ranges the font has, and no other
    whole_glyphs, cut_glyphs = whole.getGlyphSet(), cut.getGlyphSet()
    for c in sorted(kept):
        a, b = whole.getBestCmap()[c], cut.getBestCmap()[c]
        assert whole_glyphs[a].width == cut_glyphs[b].width, hex(c)
        wa, wb = whole["glyf"][a], cut["glyf"][b]
        if wa.isComposite():
            wa, wb = wa.getCoordinates(whole["glyf"]), wb.getCoordinates(cut["glyf"])
            assert list(wa[0]) == list(wb[0]) and list(wa[1]) == list(wb[1]), hex(c)
        else:
            assert wa.getCoordinates(whole["glyf"])[0] == wb.getCoordinates(cut["glyf"])[0], hex(c)
    # the pairs the whole font kerns are kerned alike (GPOS kept)
    assert "GPOS" in cut and "kern" in {f.FeatureTag for f in cut["GPOS"].table.FeatureList.FeatureRecord}
    assert cut["name"].getDebugName(1) == whole["name"].getDebugName(1)


def test_a_page_is_printed_with_the_cut_down_fonts_only_when_they_hold_every_character():
    page = "<p>Play to exactly 16 — “Skip” ×2 −1 ± ≤ ✓ ☐ ▲ café Ærøskøbing Łódź Ωμέγα</p>".encode("utf-8")
    assert covers(page.decode()) and fonts_for(page) == PRINT_FILES
    for other in ("日本", "Привет", "&#x1F600;", "שלום"):
        assert fonts_for(page + other.encode("utf-8")) == FILES, other
