"""Pictures in the DriveThruCards file (PDF/X-1a) and SVG pictures staying vector, read back.

Faces are built by hand with a PNG that has transparency and colours far past the shop's ink
limit (a dark, saturated sweep) and an SVG of flat colours; the print-shop file made from their
CMYK forms is read back with pikepdf (and rendered by Ghostscript to CMYK where it is installed).
"""

from __future__ import annotations

import colorsys
import io
import subprocess
from pathlib import Path

import pikepdf
import pytest
from PIL import Image as PILImage
from PIL import ImageMath, ImageSequence

from generator.products.render import pdf
from generator.products.render.press.cmyk import INK_LIMIT, to_cmyk
from generator.products.render.items import Face, Image, Poly, rect
from generator.products.render.press.shops import shop
from generator.products.render.units import BLEED, TRIM_H, TRIM_W
from tests.ghostscript import need_ghostscript

BG = "#F4EEDC"
LOGO = """<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" width="200" height="100">
<rect x="0" y="0" width="200" height="100" fill="#1E3A8A"/>
<circle cx="50" cy="50" r="40" fill="#FACC15"/>
<path d="M110 90 L150 10 L190 90 Z" fill="#DC2626" stroke="#FFFFFF" stroke-width="4"/>
</svg>"""
RGB_OPERATORS = {"rg", "RG", "sc", "SC", "scn", "SCN", "cs", "CS"}


@pytest.fixture(scope="module")
def pictures(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("art")
    w, h = 180, 120
    im = PILImage.new("RGBA", (w, h))
    px = im.load()
    for y in range(h):
        for x in range(w):
            r, g, b = colorsys.hsv_to_rgb(x / w, 1.0, 1 - y / h)
            hole = (x - 140) ** 2 + (y - 30) ** 2 < 20 ** 2
            px[x, y] = (int(r * 255), int(g * 255), int(b * 255), 0 if hole else 255)
    im.save(folder / "sweep.png")
    (folder / "logo.svg").write_text(LOGO)
    return folder / "sweep.png", folder / "logo.svg"


def art_face(key: str, sweep: Path, logo: Path) -> Face:
    return Face(key, (Poly(rect(-BLEED, -BLEED, TRIM_W + BLEED, TRIM_H + BLEED), BG),
                      Image(-BLEED, -BLEED, TRIM_W + BLEED, 500, sweep, fit="cover", matte="#FFFFFF"),
                      Image(100, 600, 650, 900, logo, fit="contain")))


@pytest.fixture(scope="module")
def dtc(pictures) -> bytes:
    sweep, logo = pictures
    forms = pdf.format_forms(pdf.form_ops([art_face("a", sweep, logo), art_face("back", sweep, logo)], " abc", cmyk=True))
    data, pages = pdf.shop_pdf(forms, ["a", "a", "a"], shop("dtc"), "dtc.pdf", " abc")
    assert pages == 6
    return data


def every_stream(p: pikepdf.Pdf):
    yield from (page.obj for page in p.pages)
    yield from (o for o in p.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Form")


def test_raster_art_is_cmyk_within_the_ink_limit_without_transparency(dtc):
    with pikepdf.open(io.BytesIO(dtc)) as p:
        images = [o for o in p.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        assert len(images) == 1  # one picture for two faces and six pages
        (image,) = images
        assert image.ColorSpace == pikepdf.Name.DeviceCMYK and int(image.BitsPerComponent) == 8
        pixels = pikepdf.PdfImage(image).as_pil_image()
        assert pixels.mode == "CMYK"
        for obj in p.objects:
            if isinstance(obj, pikepdf.Dictionary):
                assert "/SMask" not in obj and obj.get("/S") != pikepdf.Name.Transparency
        (intent,) = p.Root.OutputIntents
        assert str(intent.OutputConditionIdentifier) == "CGATS TR 001"
        assert str(p.docinfo.GTS_PDFXVersion) == "PDF/X-1a:2003"
    c, m, y, k = (band.convert("I") for band in pixels.split())
    total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
    assert total.getextrema()[1] <= round(INK_LIMIT * 255)
    assert total.getextrema()[1] >= round(2.0 * 255)  # the dark end is dark: limited, not washed out
    # the transparent hole is composited onto the matte (white: no ink), the picture's middle is not
    sx, sy = pixels.width / 180, pixels.height / 120
    assert pixels.getpixel((int(140 * sx), int(30 * sy))) == (0, 0, 0, 0)
    assert sum(pixels.getpixel((int(60 * sx), int(60 * sy)))) > 100


def test_svg_art_stays_vector_with_cmyk_colours_only(dtc):
    with pikepdf.open(io.BytesIO(dtc)) as p:
        used, fills = set(), set()
        for obj in every_stream(p):
            for operands, op in pikepdf.parse_content_stream(obj):
                used.add(str(op))
                if str(op) == "k":
                    fills.add(tuple(round(float(v), 2) for v in operands))
    assert not used & RGB_OPERATORS, used & RGB_OPERATORS
    assert {"c", "f", "B"} <= used  # the circle's curves, filled, and the stroked triangle
    for colour in ("#1E3A8A", "#FACC15", "#DC2626"):
        assert tuple(round(v, 2) for v in to_cmyk(colour)) in fills


def test_svg_art_in_the_rgb_files_is_paths_not_pixels(pictures):
    sweep, logo = pictures
    face = Face("s", (Poly(rect(0, 0, TRIM_W, TRIM_H), BG), Image(100, 600, 650, 900, logo)))
    doc = pdf.faces_pdf([face], " abc")
    with pikepdf.open(io.BytesIO(doc)) as p:
        assert not [o for o in p.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        ops = {str(op) for obj in every_stream(p) for _, op in pikepdf.parse_content_stream(obj)}
    assert {"c", "f", "B", "rg"} <= ops
    from generator.products.pipeline.rasters import face_png

    png = PILImage.open(io.BytesIO(face_png(face, "tgc"))).convert("RGB")
    # the logo is 2:1 in a 550 × 300 box: 550 × 275, centred; its circle's centre at a quarter of its width
    x0, y0 = 100, 600 + (300 - 275) / 2
    at = lambda x, y: png.getpixel((round(x + BLEED), round(y + BLEED)))  # noqa: E731
    assert at(x0 + 550 * 0.25, y0 + 275 * 0.5) == (0xFA, 0xCC, 0x15)
    assert at(x0 + 550 * 0.05, y0 + 275 * 0.05) == (0x1E, 0x3A, 0x8A)


def test_ghostscript_prints_the_art_within_240_percent(dtc, tmp_path):
    need_ghostscript()
    (tmp_path / "dtc.pdf").write_bytes(dtc)
    tif = tmp_path / "dtc.tif"
    subprocess.run(["gs", "-q", "-dSAFER", "-o", str(tif), "-sDEVICE=tiff32nc", "-r100", str(tmp_path / "dtc.pdf")],
                   check=True, timeout=300)
    worst = 0
    with PILImage.open(tif) as im:
        for frame in ImageSequence.Iterator(im):
            c, m, y, k = (band.convert("I") for band in frame.split())
            total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
            worst = max(worst, total.getextrema()[1])
    assert round(2.0 * 255) <= worst <= round(INK_LIMIT * 255)
