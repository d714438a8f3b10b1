"""The DriveThruCards file read back as a print shop's preflight reads it: PDF/X-1a output
intent, CMYK colour operators only, boxes on every page, total ink measured with Ghostscript."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from PIL import Image, ImageMath, ImageSequence

from generator.products.render.cmyk import INK_LIMIT, RICH_BLACK, to_cmyk, total_ink
from generator.products.render.units import inch

DTC = Path("pod") / "county-uppy-drivethrucards.pdf"
RGB_OPERATORS = {"rg", "RG", "sc", "SC", "scn", "SCN", "cs", "CS"}


def streams(pdf: pikepdf.Pdf):
    """Every content stream: each page's and each form XObject's it draws."""
    seen: set = set()
    for page in pdf.pages:
        yield page.obj
        for xobj in (page.obj.Resources.get("/XObject") or {}).values():
            if xobj.objgen not in seen:
                seen.add(xobj.objgen)
                yield xobj


def test_colours_are_cmyk_only(built):
    with pikepdf.open(built / DTC) as pdf:
        used: set[str] = set()
        for obj in streams(pdf):
            for _, op in pikepdf.parse_content_stream(obj):
                used.add(str(op))
        assert not used & RGB_OPERATORS, used & RGB_OPERATORS
        assert {"k", "K"} <= used


def test_pdfx_output_intent_boxes_and_no_transparency(built, deck):
    with pikepdf.open(built / DTC) as pdf:
        (intent,) = pdf.Root.OutputIntents
        assert intent.S == pikepdf.Name.GTS_PDFX
        assert str(intent.OutputConditionIdentifier) == "CGATS TR 001"
        assert str(intent.RegistryName) == "http://www.color.org"
        assert str(pdf.docinfo.GTS_PDFXVersion) == "PDF/X-1a:2003"
        assert str(pdf.docinfo.Trapped) == "/False"
        assert len(pdf.pages) == 1 + deck.printed
        bleed = inch(0.125)
        for page in pdf.pages:
            media = [float(v) for v in page.MediaBox]
            assert [float(v) for v in page.BleedBox] == media
            assert [float(v) for v in page.TrimBox] == pytest.approx(
                [media[0] + bleed, media[1] + bleed, media[2] - bleed, media[3] - bleed])
            assert media[2] - media[0] == pytest.approx(inch(2.75)) and media[3] - media[1] == pytest.approx(inch(3.75))
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary):
                assert "/SMask" not in obj
                assert obj.get("/S") != pikepdf.Name.Transparency
                for key in ("/CA", "/ca"):
                    assert float(obj.get(key, 1)) == 1


def test_page_order_back_first_then_every_front(built, deck):
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(built / DTC)
    texts = [doc[i].get_textpage().get_text_range() for i in range(4)]
    doc.close()
    assert "County" in texts[0] and "Uppy" in texts[0]  # the back
    first = deck.cards[0]
    assert first.name.upper() not in texts[0]
    assert all("County" not in t for t in texts[1:])


@pytest.mark.skipif(shutil.which("gs") is None, reason="needs Ghostscript (apt-get install ghostscript)")
def test_total_ink_at_most_240_percent_everywhere(built, tmp_path):
    """Ghostscript renders every page to CMYK (tiff32nc, DeviceCMYK passed through, no
    anti-aliasing), and no pixel's C+M+Y+K exceeds 240%."""
    tif = tmp_path / "dtc.tif"
    subprocess.run(["gs", "-q", "-dSAFER", "-o", str(tif), "-sDEVICE=tiff32nc", "-r60", str(built / DTC)], check=True,
                   timeout=600)
    worst, pages, rich = 0, 0, False
    with Image.open(tif) as im:
        for frame in ImageSequence.Iterator(im):
            assert frame.mode == "CMYK"
            c, m, y, k = (band.convert("I") for band in frame.split())
            total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
            worst = max(worst, total.getextrema()[1])
            rich = rich or frame.getpixel((frame.width // 2, frame.height // 3))[3] == 255
            pages += 1
    assert pages > 200
    assert worst <= round(INK_LIMIT * 255), worst / 255
    assert worst >= round(1.5 * 255)  # the dark colours really are there (rich black, navy back)
    assert rich  # a chaos card's interior prints on the black plate, as a rich black


def test_conversion_stays_under_the_limit_for_any_colour():
    rng = random.Random(11)
    for _ in range(2000):
        colour = "#" + "".join(f"{rng.randrange(256):02X}" for _ in range(3))
        assert total_ink(colour) <= 2.31, colour
        assert all(0 <= v <= 1 for v in to_cmyk(colour))
    assert to_cmyk("#121212") == RICH_BLACK and sum(RICH_BLACK) <= INK_LIMIT
    assert to_cmyk("#FFFFFF") == (0, 0, 0, 0)
    assert to_cmyk("#1A1A1A") == (0, 0, 0, 0.9)  # dark text: black plate only
    assert to_cmyk("#00A3D9") == (1.0, 0.24, 0.0, 0.15)
    assert to_cmyk("#500720") == (0.0, 0.91, 0.6, 0.69)  # 220%: kept
    assert to_cmyk("#3F0000") == (0.0, 0.77, 0.77, 0.75)  # 275% scaled under 230%
