"""Card images read back: a 1/16 in miscut changes no face at its edge, shapes are anti-aliased,
and each PNG is its PDF face (rasterized by pypdfium2) within a stated tolerance."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops

from generator.products.render import pdf
from generator.products.cards import file_names
from generator.products.render.faces import all_faces, charset
from generator.products.render.units import BLEED, DPI

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
    from generator.products.render.faces import BACK_INK, INTERIORS

    def rgb(hex_: str) -> tuple[int, ...]:
        return tuple(int(hex_[i:i + 2], 16) for i in (1, 3, 5))

    lo, hi = round(BLEED - MISCUT), round(BLEED + MISCUT)
    for card in [*deck.cards, None]:
        code = card.code if card else "back"
        if card is not None and card.kind == "reference":
            continue  # its interior runs through the bleed: no frame, one colour at every edge (below)
        inside = [rgb(BACK_INK)] if card is None else [rgb(c) for c in INTERIORS[deck.card_set(card.set).interior]]
        im = png_of(built, deck, code)
        w, h = im.size
        zone = im.crop((lo, lo, w - lo, h - lo))
        zone.paste((1, 2, 3), (hi - lo + 1, hi - lo + 1, zone.width - (hi - lo + 1), zone.height - (hi - lo + 1)))
        for (count, colour) in zone.getcolors(1 << 16):
            if colour != (1, 2, 3):
                assert all(max(abs(a - b) for a, b in zip(colour, c)) > 40 for c in inside), (code, colour, count)


def border_widths(im: Image.Image, inside: list[tuple[int, ...]]) -> dict[str, list[float]]:
    """Per side of the trim, at a quarter, half and three quarters along it: how far in from the
    trim (px, at 300 dpi) the border ends, where the first pixel of an `inside` colour begins (the
    interior; on the back, its ink), to a tenth of a pixel: the blended pixel before it says how
    much of it is inside colour. 0 where the trim itself is inside colour (a face through the
    bleed: no border)."""
    w, h = im.size
    px = im.load()

    def near(colour) -> bool:
        return any(max(abs(a - c) for a, c in zip(colour, want)) <= 40 for want in inside)

    def scan(points: list[tuple[int, int]], trim: float, step: int) -> float:
        for n, (x, y) in enumerate(points):
            if not near(px[x, y]):
                continue
            if n < 2:
                return 0.0
            here, blend, out = px[x, y], px[points[n - 1]], px[points[n - 2]]
            channel = max(range(3), key=lambda c: abs(here[c] - out[c]))
            t = (blend[channel] - out[channel]) / (here[channel] - out[channel])  # the inside share of it
            at = (x, y)[0 if points[0][1] == points[-1][1] else 1] - step  # the blended pixel's index
            boundary = at + 1 - t if step > 0 else at + t
            return abs(boundary - trim)
        return float("inf")
    first_x, first_y = int(BLEED), int(BLEED)  # the pixels the trim runs through
    out: dict[str, list[float]] = {"left": [], "right": [], "top": [], "bottom": []}
    for f in (0.25, 0.5, 0.75):
        x, y = round(BLEED + f * (w - 2 * BLEED)), round(BLEED + f * (h - 2 * BLEED))
        out["left"].append(scan([(first_x + k, y) for k in range(w // 2)], BLEED, 1))
        out["right"].append(scan([(w - 1 - first_x - k, y) for k in range(w // 2)], w - BLEED, -1))
        out["top"].append(scan([(x, first_y + k) for k in range(h // 2)], BLEED, 1))
        out["bottom"].append(scan([(x, h - 1 - first_y - k) for k in range(h // 2)], h - BLEED, -1))
    return out


def test_a_miscut_leaves_opposite_borders_within_one_and_a_half_to_one(built, deck):
    """Every face and the back, read from the card images: cut 1/16 in off in any direction, the
    border on one side and the border opposite differ by at most 1.5:1, or the face has no border
    (its interior runs through the trim). The old 4 mm frame went 2.3:1, the back's 1.56:1."""
    from generator.products.render.faces import BACK_INK, INTERIORS

    def rgb(hex_: str) -> tuple[int, ...]:
        return tuple(int(hex_[i:i + 2], 16) for i in (1, 3, 5))

    worst = 0.0
    for card in [*deck.cards, None]:
        code = card.code if card else "back"
        inside = [rgb(BACK_INK)] if card is None else [rgb(c) for c in INTERIORS[deck.card_set(card.set).interior]]
        widths = border_widths(png_of(built, deck, code), inside)
        for a, b in (("left", "right"), ("top", "bottom")):
            for da, db in zip(widths[a], widths[b]):
                if da == db == 0:
                    continue  # no border: the interior runs out through the bleed
                assert min(da, db) > MISCUT, (code, a, da, b, db)
                ratio = max((da + MISCUT) / (db - MISCUT), (db + MISCUT) / (da - MISCUT))
                worst = max(worst, ratio)
                assert ratio <= 1.5, (code, a, da, b, db, round(ratio, 3))
    assert worst > 1.0  # borders were found and measured


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
    doc = pdfium.PdfDocument(pdf.faces_pdf([faces[code]], cs))
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


#: A small picture vs the print image scaled down: mean grey-level difference (small text is
#: hinted at its own size, so the densest face, the quick reference, differs by about 7)
SMALL_LEVEL = 8


def _trim_of(im: Image.Image, size: tuple[int, int]) -> Image.Image:
    """The card image's trim (bleed cut off), scaled to `size` with a good filter: what a small
    picture of the same face should look like."""
    b = round(BLEED)
    return im.crop((b, b, im.width - b, im.height - b)).resize(size, Image.Resampling.LANCZOS)


def _mean_difference(a: Image.Image, b: Image.Image) -> float:
    hist = ImageChops.difference(a.convert("L"), b.convert("L")).histogram()
    return sum(level * n for level, n in enumerate(hist)) / (a.width * a.height)


def test_tts_cells_are_the_faces_drawn_small_and_smooth(built, deck):
    """Each TTS sheet cell is its card's face at 409×573 (drawn by PDFium at that size, not a
    resized copy): it matches the print image scaled down, and its edges are anti-aliased."""
    from generator.products.tts import CELL_H, CELL_W, layout

    sheet = layout([c.code for c in deck.cards])[0]
    with Image.open(built / "tts" / sheet.filename) as im:
        sheet_rgb = im.convert("RGB")
    for slot, code in enumerate(sheet.keys[:12]):
        x, y = sheet.cell(slot)
        cell = sheet_rgb.crop((x, y, x + CELL_W, y + CELL_H))
        assert _mean_difference(cell, _trim_of(png_of(built, deck, code), cell.size)) < SMALL_LEVEL, code
    c5 = sheet.cell(sheet.keys.index("C5"))
    cell = sheet_rgb.crop((c5[0], c5[1], c5[0] + CELL_W, c5[1] + CELL_H))
    scale = CELL_W / 750  # the centre circle, as in test_shapes_are_anti_aliased, in cell pixels
    cx, cy, r = 375 * scale, 300 * scale, 58 * scale
    assert edge_levels(cell, (round(cx + r - 6), round(cy - 15), round(cx + r + 6), round(cy + 15))) >= 6


def test_tts_cells_print_the_faces_colours_exactly(built, deck):
    """A colour a face draws is its own palette entry in the TTS sheets: Pillow's palette matching
    went through a coarse colour cube and took a near entry (the white interior printed #FDFDFB,
    the ink #191919)."""
    from generator.products.render import faces
    from generator.products.tts import CELL_H, CELL_W, layout

    sheet = layout([c.code for c in deck.cards])[0]
    with Image.open(built / "tts" / sheet.filename) as im:
        sheet_rgb = im.convert("RGB")
    for code in ("C5", "G-2", "REF"):
        x, y = sheet.cell(sheet.keys.index(code))
        seen = {c for _, c in sheet_rgb.crop((x, y, x + CELL_W, y + CELL_H)).getcolors(CELL_W * CELL_H)}
        drawn = {tuple(int(h[i:i + 2], 16) for i in (1, 3, 5)) for h in faces.face(deck.card(code), deck).drawn_colours()}
        assert (255, 255, 255) in seen and (0x1A, 0x1A, 0x1A) in seen, code
        assert len(drawn & seen) >= len(drawn) - 1, (code, drawn - seen)  # (a hairline colour may not fill a pixel)


def test_rulebook_pictures_are_the_faces_drawn_small_and_smooth(built, deck):
    """The rulebook's card pictures (450×630, drawn by PDFium at that size) match the print
    images scaled down, and their text and frame edges blend."""
    import base64

    from generator.products.rulebook.page import card_images

    pictures = card_images(deck)
    assert {c.code for c in deck.cards if c.kind == "wild"} <= set(pictures)
    for code, picture in pictures.items():
        assert (picture.width, picture.height) == (450, 630)
        pic = Image.open(io.BytesIO(base64.b64decode(picture.src.split(",", 1)[1]))).convert("RGB")
        assert pic.size == (450, 630)
        assert _mean_difference(pic, _trim_of(png_of(built, deck, code), pic.size)) < SMALL_LEVEL, code
    other = Image.open(io.BytesIO(base64.b64decode(pictures["x2"].src.split(",", 1)[1]))).convert("RGB")
    assert _mean_difference(other, _trim_of(png_of(built, deck, "C5"), other.size)) > 2 * SMALL_LEVEL  # it tells faces apart
    x2 = Image.open(io.BytesIO(base64.b64decode(pictures["x2"].src.split(",", 1)[1])))
    assert len(x2.convert("L").getcolors(256)) >= 16  # text and frame edges blend, not two-tone


def test_quantizing_the_rgbx_render_equals_pillows_own_quantize(deck):
    """png._quantize reads PDFium's RGBX buffer as Pillow's RGB; it must give exactly the
    palette image Pillow's public quantize gives for the same pixels."""
    from generator.products.render import png
    from generator.products.render.faces import face

    f = face(deck.card("GM-4"), deck)
    doc = pdfium.PdfDocument(pdf.faces_pdf([f], charset(deck)))
    bitmap = doc[0].render(scale=DPI / 72, rev_byteorder=True, prefer_bgrx=True)
    rgbx = bitmap.to_pil()
    assert rgbx.mode == "RGBX"
    palette = png.palette_for(list(f.colours()))
    ours = png._quantize(rgbx, palette)
    theirs = rgbx.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE)
    assert ours.mode == theirs.mode == "P"
    assert ours.tobytes() == theirs.tobytes() and ours.getpalette() == theirs.getpalette()
    assert len(set(ours.tobytes())) > 10  # a real face, anti-aliased, not a blank page
    # and dithered, as a face with pictures is (png.PictureColours)
    ours = png._quantize(rgbx, palette, Image.Dither.FLOYDSTEINBERG)
    theirs = rgbx.convert("RGB").quantize(palette=palette, dither=Image.Dither.FLOYDSTEINBERG)
    assert ours.tobytes() == theirs.tobytes() and ours.getpalette() == theirs.getpalette()
    bitmap.close()
    doc.close()


def test_the_backs_border_stands_a_quarter_inch_inside_the_cut(built, deck):
    """The back has no border a 1/16 in miscut would make visibly uneven: from the cut to the
    first pixel of its ink, along the middle of each side, is at least 1/4 in, so the gaps of a
    miscut back differ by at most (1/4 + 1/16) / (1/4 - 1/16) and sheets cannot be told apart."""
    from generator.products.render.faces import BACK_INK

    ink = tuple(int(BACK_INK[i:i + 2], 16) for i in (1, 3, 5))
    im = png_of(built, deck, "back")
    w, h = im.size
    near = lambda px: max(abs(a - b) for a, b in zip(px, ink)) < 60  # noqa: E731
    b = round(BLEED)
    gaps = [next(i for i in range(b, w // 2) if near(im.getpixel((i, h // 2)))) - b,  # from the left cut
            next(i for i in range(b, w // 2) if near(im.getpixel((w - 1 - i, h // 2)))) - b,
            next(i for i in range(b, h // 2) if near(im.getpixel((w // 2, i)))) - b,
            next(i for i in range(b, h // 2) if near(im.getpixel((w // 2, h - 1 - i)))) - b]
    assert min(gaps) >= DPI / 4, gaps
    assert (min(gaps) + MISCUT) / (min(gaps) - MISCUT) < 1.7
