"""Card images read back: a 1/16 in miscut changes no face at its edge, shapes are anti-aliased,
and each PNG is its PDF face (rasterized by pypdfium2) within a stated tolerance."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops

from generator.products import pdf
from generator.products.cards import file_names
from generator.products.faces import all_faces, charset
from generator.products.units import BLEED, DPI

MISCUT = DPI / 16  #: 1/16 in, in px
#: PNG vs PDF render: at most this share of pixels may differ by more than LEVEL in a channel
SHARE, LEVEL = 0.001, 24


def png_of(built, deck, code: str) -> Image.Image:
    name = "back.png" if code == "back" else file_names(deck)[code]
    return Image.open(built / "cards" / name).convert("RGB")


def test_a_miscut_of_a_sixteenth_changes_no_edge(built, deck):
    """Across the zone a cut can land in (trim ± 1/16 in), no pixel shows what lies inside the
    frame (the interior's colour; on the back, its ink): wherever the cut falls, the edge is
    frame. (Where two frame bands meet on the diagonal the boundary moves along the edge with
    the cut, as it must; single-colour edges are checked pixel for pixel below.)"""
    from generator.products.faces import BACK_INK, INTERIORS

    def rgb(hex_: str) -> tuple[int, ...]:
        return tuple(int(hex_[i:i + 2], 16) for i in (1, 3, 5))

    lo, hi = round(BLEED - MISCUT), round(BLEED + MISCUT)
    for card in [*deck.cards, None]:
        code = card.code if card else "back"
        inside = [rgb(BACK_INK)] if card is None else [rgb(c) for c in INTERIORS[deck.card_set(card.set).interior]]
        im = png_of(built, deck, code)
        w, h = im.size
        zone = im.crop((lo, lo, w - lo, h - lo))
        zone.paste((1, 2, 3), (hi - lo + 1, hi - lo + 1, zone.width - (hi - lo + 1), zone.height - (hi - lo + 1)))
        for (count, colour) in zone.getcolors(1 << 16):
            if colour != (1, 2, 3):
                assert all(max(abs(a - b) for a, b in zip(colour, c)) > 40 for c in inside), (code, colour, count)


def test_the_edge_is_one_colour_on_single_colour_cards(built, deck):
    for code in ("C5", "M9", "BLANK", "REF", "back"):
        im = png_of(built, deck, code)
        lo, hi = round(BLEED - MISCUT), round(BLEED + MISCUT)
        zone = [im.getpixel((x, y)) for x in range(lo, im.width - lo, 3) for y in range(lo, hi + 1)]
        zone += [im.getpixel((x, y)) for y in range(lo, im.height - lo, 3) for x in range(lo, hi + 1)]
        assert len(set(zone)) == 1, (code, set(zone))


def edge_levels(im: Image.Image, box: tuple[int, int, int, int]) -> int:
    """How many distinct grey levels a region holds (a hard edge has 2, a smooth one many)."""
    return len(im.convert("L").crop(box).getcolors(256) or [])


def test_shapes_are_anti_aliased(built, deck):
    im = png_of(built, deck, "C5")  # the centre circle: cyan on white, outlined in dark ink
    cx, cy, r = 375 + round(BLEED), 300 + round(BLEED), 58
    box = (cx + r - 12, cy - 30, cx + r + 12, cy + 30)  # across the circle's right edge
    assert edge_levels(im, box) >= 8
    # a curve: along a diagonal of the circle no pixel jumps straight from fill to background
    ring = im.convert("L").crop((cx + 30, cy - 60, cx + 60, cy - 30))
    assert len(ring.getcolors(256)) >= 8


@pytest.mark.parametrize("code", ["C6", "GM-4", "x2", "REF", "REFW", "BLANK", "back"])
def test_png_is_its_pdf_face(built, deck, code):
    faces = {f.key: f for f in all_faces(deck)}
    cs = charset(deck)
    forms = pdf.format_forms(pdf.form_ops([faces[code]], cs), cs)
    doc = pdfium.PdfDocument(pdf.faces_pdf(forms, cs))
    page = doc[0]
    want = page.render(scale=DPI / 72).to_pil().convert("RGB").crop((0, 0, 825, 1125))
    doc.close()
    got = png_of(built, deck, code)
    assert got.size == want.size == (825, 1125)
    diff = ImageChops.difference(got, want).convert("L").point(lambda v: 255 if v > LEVEL else 0)
    share = diff.histogram()[255] / (825 * 1125)
    assert share <= SHARE, f"{code}: {share:.3%} of pixels differ by more than {LEVEL}"


def test_makeplayingcards_image_is_cropped_from_the_same_render(built, deck):
    tgc = png_of(built, deck, "x2")
    mpc = Image.open(built / "pod" / "mpc" / file_names(deck)["x2"]).convert("RGB")
    assert mpc.size == (822, 1122)
    assert ImageChops.difference(tgc.crop((1, 1, 823, 1123)), mpc).getbbox() is None
