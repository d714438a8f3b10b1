"""The fonts cut down for printing the rulebook (generator/products/rulebook/print_fonts.py: the
cards' typeface, and DejaVu Sans Mono for code) are the whole fonts' own glyphs for every
character they keep, and a page with a character they do not keep is printed with the whole fonts."""

from __future__ import annotations

import pytest
from fontTools.ttLib import TTFont
from fontTools.unicodedata import mirrored

from generator.products.render.font_metrics import FILES
from generator.products.rulebook.pdf import fonts_for
from generator.products.rulebook.print_fonts import PRINT_FILES, RANGES, WHOLE, covers


def test_the_text_is_printed_in_the_cards_typeface_and_code_in_a_shipped_monospace_font():
    assert WHOLE[("text", False)] == FILES[False] and WHOLE[("text", True)] == FILES[True]
    for bold in (False, True):
        font = TTFont(str(WHOLE[("code", bold)]))
        assert font["name"].getDebugName(1) == "DejaVu Sans Mono"
        assert font["post"].isFixedPitch and bool(font["head"].macStyle & 1) == bold
    # shipped beside their licence, as the cards' typeface is
    assert (WHOLE[("code", False)].parent / "LICENSE-DejaVu.txt").read_bytes() == (FILES[False].parent / "LICENSE-DejaVu.txt").read_bytes()


@pytest.mark.parametrize("face", sorted(PRINT_FILES), ids=lambda face: f"{face[0]}{'-bold' if face[1] else ''}")
def test_the_cut_down_font_draws_every_kept_character_as_the_whole_font_does(face):
    whole, cut = TTFont(str(WHOLE[face])), TTFont(str(PRINT_FILES[face]))
    kept = {c for c in whole.getBestCmap() if any(lo <= c <= hi for lo, hi in RANGES)}
    assert len(kept) > 1000
    # every character of the ranges the font has; another only as the mirror image of a kept one,
    # for right-to-left text (DejaVu Sans Mono's ⟜ for ⊸), which covers() does not count as kept
    whole_cmap, cut_cmap = whole.getBestCmap(), cut.getBestCmap()
    assert set(cut_cmap) >= kept
    assert set(cut_cmap) - kept <= {mirrored(c) for c in kept}
    assert not any(covers(chr(c)) for c in set(cut_cmap) - kept)
    whole_glyphs, cut_glyphs = whole.getGlyphSet(), cut.getGlyphSet()
    for c in sorted(cut_cmap):
        a, b = whole.getBestCmap()[c], cut.getBestCmap()[c]
        assert whole_glyphs[a].width == cut_glyphs[b].width, hex(c)
        wa, wb = whole["glyf"][a], cut["glyf"][b]
        if wa.isComposite():
            wa, wb = wa.getCoordinates(whole["glyf"]), wb.getCoordinates(cut["glyf"])
            assert list(wa[0]) == list(wb[0]) and list(wa[1]) == list(wb[1]), hex(c)
        else:
            assert wa.getCoordinates(whole["glyf"])[0] == wb.getCoordinates(cut["glyf"])[0], hex(c)
    # the pairs the whole font kerns are kerned alike (GPOS kept; the monospace font kerns none)
    def features(font):
        return {f.FeatureTag for f in font["GPOS"].table.FeatureList.FeatureRecord} if "GPOS" in font else set()
    assert ("kern" in features(cut)) == ("kern" in features(whole)) == (face[0] == "text")
    assert cut["name"].getDebugName(1) == whole["name"].getDebugName(1)


def test_a_page_is_printed_with_the_cut_down_fonts_only_when_they_hold_every_character():
    page = "<p>Play to exactly 16 — “Skip” ×2 −1 ± ≤ ✓ ☐ ▲ café Ærøskøbing Łódź Ωμέγα</p>".encode("utf-8")
    assert covers(page.decode()) and fonts_for(page) == PRINT_FILES
    for other in ("日本", "Привет", "&#x1F600;", "שלום"):
        assert fonts_for(page + other.encode("utf-8")) == WHOLE, other
