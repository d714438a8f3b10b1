"""Pictures on faces (items.Image), read back from the PDFs and the card images drawn from them.

The faces are built by hand here (the manifest's art keys are the layout's), with pictures the
tests make with Pillow: where an image lands, what `cover` crops and `contain` keeps, and that a
picture shown on many faces is in a file once.
"""

from __future__ import annotations

import io
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pytest
from PIL import Image as PILImage

from generator.products.pipeline.rasters import face_png
from generator.products.render import pdf
from generator.products.render.items import Face, Image, Poly, rect
from generator.products.render.units import BLEED, TRIM_H, TRIM_W, dots_to_pt

RED, BLUE, BG = (220, 30, 30), (30, 60, 200), "#F0F0E0"
TOL = 0.05  # points


@pytest.fixture
def two_halves(tmp_path) -> Path:
    """A 400 × 200 picture: red left half, blue right half."""
    im = PILImage.new("RGB", (400, 200), RED)
    im.paste(BLUE, (200, 0, 400, 200))
    path = tmp_path / "halves.png"
    im.save(path)
    return path


def face_with(*items, key="t") -> Face:
    return Face(key, (Poly(rect(-BLEED, -BLEED, TRIM_W + BLEED, TRIM_H + BLEED), BG), *items))


def faces_doc(*faces: Face) -> bytes:
    return pdf.faces_pdf(list(faces), " abc")


def image_bounds(doc: bytes, page: int = 0) -> list[tuple[float, float, float, float]]:
    """Each image's (left, bottom, right, top) in its face's form: points from the trim's bottom-left."""
    pdf_ = pdfium.PdfDocument(doc)
    return [obj.get_bounds() for obj in pdf_[page].get_objects(max_depth=3) if obj.type == raw.FPDF_PAGEOBJ_IMAGE]


def box_points(x0, y0, x1, y1):
    return dots_to_pt(x0), dots_to_pt(TRIM_H - y1), dots_to_pt(x1), dots_to_pt(TRIM_H - y0)


def images_in(doc: bytes) -> list[pikepdf.Object]:
    with pikepdf.open(io.BytesIO(doc)) as p:
        return [(int(o.Width), int(o.Height), str(o.get("/ColorSpace")), "/SMask" in o)
                for o in p.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]


def test_contain_shows_the_whole_picture_centred_in_its_box(two_halves):
    box = (100, 150, 700, 750)  # 600 × 600 dots: the 2:1 picture is 600 × 300, centred
    doc = faces_doc(face_with(Image(*box, two_halves, fit="contain")))
    (left, bottom, right, top), = image_bounds(doc)
    bl, bb, br, bt = box_points(*box)
    assert (left, right) == pytest.approx((bl, br), abs=TOL)
    assert top - bottom == pytest.approx((br - bl) / 2, abs=TOL)
    assert (top + bottom) / 2 == pytest.approx((bt + bb) / 2, abs=TOL)
    assert images_in(doc) == [(400, 200, "/DeviceRGB", False)]  # all of it, as it is


def test_cover_fills_the_box_and_crops_what_overflows(two_halves):
    box = (100, 150, 400, 450)  # a square: the 2:1 picture's middle square shows
    doc = faces_doc(face_with(Image(*box, two_halves, fit="cover")))
    bounds, = image_bounds(doc)
    assert bounds == pytest.approx(box_points(*box), abs=TOL)
    (w, h, space, smask), = images_in(doc)
    assert (w, h) == (200, 200) and space == "/DeviceRGB" and not smask  # the middle 200 × 200 pixels


def test_the_card_image_shows_the_picture_where_its_box_is(two_halves):
    box = (100, 150, 700, 750)
    png = PILImage.open(io.BytesIO(face_png(face_with(Image(*box, two_halves, fit="contain")), "tgc"))).convert("RGB")
    at = lambda x, y: png.getpixel((round(x + BLEED), round(y + BLEED)))  # noqa: E731 -- trim dots to pixels
    assert at(250, 450) == RED  # the left half of the picture, centred vertically in the box
    assert at(550, 450) == BLUE
    assert at(400, 200) == (0xF0, 0xF0, 0xE0)  # in the box, above the picture: the face's own colour
    assert at(50, 450) == (0xF0, 0xF0, 0xE0)  # left of the box


def test_cover_in_the_card_image_keeps_the_middle(two_halves):
    box = (100, 150, 400, 450)
    png = PILImage.open(io.BytesIO(face_png(face_with(Image(*box, two_halves, fit="cover")), "tgc"))).convert("RGB")
    at = lambda x, y: png.getpixel((round(x + BLEED), round(y + BLEED)))  # noqa: E731
    assert at(200, 300) == RED and at(300, 300) == BLUE  # the square around the seam
    assert at(90, 300) == (0xF0, 0xF0, 0xE0) and at(410, 300) == (0xF0, 0xF0, 0xE0)  # nothing past the box


def test_a_picture_on_many_faces_is_in_the_file_once(two_halves):
    item = Image(100, 150, 700, 750, two_halves)
    doc = faces_doc(face_with(item, key="a"), face_with(item, key="b"), face_with(item, key="c"))
    assert len(images_in(doc)) == 1
    assert len(image_bounds(doc, 2)) == 1


def test_transparency_is_an_smask_in_the_rgb_files(tmp_path):
    im = PILImage.new("RGBA", (50, 50), (0, 0, 0, 0))
    im.paste((10, 200, 10, 255), (10, 10, 40, 40))
    im.save(tmp_path / "dot.png")
    doc = faces_doc(face_with(Image(0, 0, 300, 300, tmp_path / "dot.png")))
    assert sorted(images_in(doc)) == [(50, 50, "/DeviceGray", False), (50, 50, "/DeviceRGB", True)]


def test_a_face_without_pictures_is_formatted_as_before():
    face = face_with(key="plain")
    formatted = pdf.format_forms(pdf.form_ops([face], " abc"))["plain"]
    assert formatted.startswith(b"<< /Filter /FlateDecode /Type /XObject /Subtype /Form")
    assert b"/Resources << /Font 1 0 R /ProcSet [ /PDF /Text ] >>" in formatted


def test_an_unknown_fit_is_refused(two_halves):
    with pytest.raises(ValueError, match="unknown fit 'stretch'"):
        Image(0, 0, 10, 10, two_halves, fit="stretch")


def test_a_face_lists_its_pictures_colours_for_the_shared_palettes(two_halves, tmp_path):
    """The TTS sheets share one palette for all faces: a picture's colours must be in it."""
    (tmp_path / "logo.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 2">'
                                       '<rect width="2" height="2" fill="#1E3A8A"/><rect x="2" width="2" height="2" '
                                       'style="fill: gold; stroke: none"/></svg>')
    face = face_with(Image(0, 0, 300, 300, two_halves), Image(0, 400, 300, 600, tmp_path / "logo.svg"))
    colours = face.colours()
    assert colours[0] == BG and {"#DC1E1E", "#1E3CC8", "#1E3A8A", "#FFD700"} <= set(colours)


def test_a_jpeg_is_placed_upright_as_its_exif_says_and_decoded_no_larger_than_it_prints(tmp_path):
    im = PILImage.new("RGB", (1600, 800), RED)
    im.paste(BLUE, (800, 0, 1600, 800))
    exif = im.getexif()
    exif[0x0112] = 6  # shown turned a quarter clockwise: 800 wide, 1600 tall, red on top
    im.save(tmp_path / "turned.jpg", exif=exif, quality=95)
    box = (100, 100, 300, 500)  # 200 × 400 dots: the upright picture fills it exactly
    doc = faces_doc(face_with(Image(*box, tmp_path / "turned.jpg")))
    bounds, = image_bounds(doc)
    assert bounds == pytest.approx(box_points(*box), abs=TOL)
    (w, h, space, _), = images_in(doc)
    assert space == "/DeviceRGB" and w * 2 == h and h <= 400 / 300 * 450 + 1  # at most 450 ppi where it prints
    png = PILImage.open(io.BytesIO(face_png(face_with(Image(*box, tmp_path / "turned.jpg")), "tgc"))).convert("RGB")
    top, bottom = png.getpixel((round(200 + BLEED), round(150 + BLEED))), png.getpixel((round(200 + BLEED), round(450 + BLEED)))
    assert top[0] > 180 and top[2] < 80 and bottom[2] > 150 and bottom[0] < 80  # red above, blue below


def test_a_photograph_beside_white_leaves_the_white_exact(tmp_path):
    """A picture full of near-whites (a sky, paper) must not shift the face's own white: the card
    image's white stays (255, 255, 255) and its other flat colours stay exact too."""
    im = PILImage.new("RGB", (256, 64))
    im.putdata([(255 - x % 12, 255 - y % 9, 250 - (x + y) % 7) for y in range(64) for x in range(256)])
    path = tmp_path / "paper.png"
    im.save(path)
    face = Face("t", (Poly(rect(-BLEED, -BLEED, TRIM_W + BLEED, TRIM_H + BLEED), "#FFFFFF"),
                      Poly(rect(600, 900, 700, 1000), "#1A1A1A"), Image(100, 150, 700, 450, path, fit="cover")))
    png = PILImage.open(io.BytesIO(face_png(face, "tgc"))).convert("RGB")
    at = lambda x, y: png.getpixel((round(x + BLEED), round(y + BLEED)))  # noqa: E731
    assert at(400, 700) == (255, 255, 255) and at(50, 50) == (255, 255, 255)
    assert at(650, 950) == (0x1A, 0x1A, 0x1A)


def test_a_photograph_keeps_its_shades_in_the_card_image(tmp_path):
    """A face with a photograph gets a palette of its own, chosen from a sample of the render's
    pixels (png.PALETTE_SAMPLE), and is dithered: the card image looks as PDFium drew the face,
    pixel by pixel within a level or two, and within a fraction of a level seen from afar (blurred)."""
    import math
    import random

    from PIL import ImageChops, ImageFilter, ImageStat

    from generator.products.render import png as png_module

    rng = random.Random(5)
    im = PILImage.new("RGB", (240, 240))
    im.putdata([tuple(max(0, min(255, int(v + rng.gauss(0, 12)))) for v in (
        128 + 100 * math.sin(x / 19) * math.cos(y / 33), 128 + 90 * math.sin((x + y) / 24),
        128 + 110 * math.cos(math.hypot(x - 120, y - 100) / 16))) for y in range(240) for x in range(240)])
    im.save(tmp_path / "photo.png")
    face = face_with(Poly(rect(600, 900, 700, 1000), "#1A1A1A"), Image(100, 150, 700, 750, tmp_path / "photo.png"))
    page = pdfium.PdfDocument(faces_doc(face))[0]
    exact = page.render(scale=300 / 72).to_pil().convert("RGB").crop((0, 0, 825, 1125))
    card = PILImage.open(io.BytesIO(face_png(face, "tgc"))).convert("RGB")
    assert card.size == exact.size
    assert png_module.PALETTE_SAMPLE < card.width * card.height  # the palette came from a sample
    near = ImageStat.Stat(ImageChops.difference(card, exact)).mean
    afar = ImageStat.Stat(ImageChops.difference(card.filter(ImageFilter.BoxBlur(3)), exact.filter(ImageFilter.BoxBlur(3)))).mean
    assert max(near) < 6.5 and max(afar) < 2.0, (near, afar)
    at = lambda x, y: card.getpixel((round(x + BLEED), round(y + BLEED)))  # noqa: E731
    assert at(650, 950) == (0x1A, 0x1A, 0x1A) and at(50, 50) == (0xF0, 0xF0, 0xE0)


def test_a_face_with_pictures_is_dithered_around_its_pictures_only(two_halves):
    """PictureColours dithers the pictures' box (and a margin of png.DITHER_MARGIN) of each
    render, wherever the render's top left is in face dots and however many pixels a dot is: the
    300 dpi card with its bleed, the TTS cell and the rulebook picture of the trim."""
    import math

    from generator.products.render import png as png_module
    from generator.products.render.profiles import RULEBOOK, TTS

    face = face_with(Image(100, 150, 700, 750, two_halves), Image(400, 900, 500, 1000, two_halves))
    drawn, box = png_module.picture_palette(face)
    assert drawn == 1 and box == (100, 150, 700, 1000)
    colours = png_module.PictureColours(face.colours(), drawn, box)
    m = png_module.DITHER_MARGIN
    assert colours.region((825, 1125), (-BLEED, -BLEED, 1.0)) == (
        math.floor(100 + BLEED) - m, math.floor(150 + BLEED) - m, math.ceil(700 + BLEED) + m, math.ceil(1000 + BLEED) + m)
    for profile in (TTS, RULEBOOK):
        k = profile.size[0] / TRIM_W
        x0, y0, x1, y1 = colours.region(profile.size, (0.0, 0.0, k))
        assert abs(x0 - (100 * k - m)) <= 1 and abs(y0 - (150 * k - m)) <= 1
        assert abs(x1 - (700 * k + m)) <= 1 and abs(y1 - (1000 * k + m)) <= 1
    assert colours.region((10, 10), None) == (0, 0, 10, 10)  # no place given: the whole image
    assert png_module.picture_palette(face_with()) is None
