"""The rulebook's pictures put into its PDF as they are (print_pictures.py): the page printed
with stand-ins, each then replaced by its picture's own PNG data, gives a file that shows the
same pixels as Chromium's print of the page itself; pictures that cannot go in as they are stay
Chromium's, and a print whose stand-in is not found whole is not used."""

from __future__ import annotations

import base64
import re
import io
import struct
import zlib

import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops
from pikepdf import PdfImage

from generator.products.render.png import encode
from generator.products.rulebook import chromium
from generator.products.rulebook.pdf import for_print
from generator.products.rulebook.print_pictures import StandIns, stand_ins
from tests.browser import chromium_path
from tests.conftest import MANIFEST
from tests.products.rulebook.test_pdf import build, chromium as counted  # noqa: F401 -- the fixture


def picture(mode: str, size=(90, 126), **save) -> bytes:
    im = Image.new("RGB", size, (20, 120, 200))
    for x in range(size[0]):  # a stripe of colours, so a picture moved or mixed up shows
        for y in range(0, size[1], 3):
            im.putpixel((x, y), (x * 2 % 256, 200, 40 + y))
    if mode == "P":
        return encode(im.quantize(64), 300)
    buf = io.BytesIO()
    im.convert(mode).save(buf, "PNG", **save)
    return buf.getvalue()


def uri(png: bytes) -> bytes:
    return b"data:image/png;base64," + base64.b64encode(png)


def page(*pngs: bytes, style: bytes = b"") -> bytes:
    imgs = b"".join(b'<p><img src="%s" style="width:30mm;%s"></p>' % (uri(p), style) for p in pngs)
    return for_print(b'<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body>'
                     b"<h1>Pictures</h1>" + imgs + b"</body></html>")


def printed(*pages: bytes) -> list[bytes]:
    browser = chromium.Browser(chromium_path())
    try:
        out = browser.print_pages({str(i): p for i, p in enumerate(pages)})
    finally:
        browser.close()
    return [out[str(i)] for i in range(len(pages))]


def shown(pdf: bytes) -> list[Image.Image]:
    doc = pdfium.PdfDocument(pdf)
    try:
        return [doc[i].render(scale=2).to_pil().convert("RGB") for i in range(len(doc))]
    finally:
        doc.close()


def images(pdf: bytes) -> list[tuple[tuple[int, int], bytes]]:
    with pikepdf.open(io.BytesIO(pdf)) as doc:
        return sorted((im.size, im.convert("RGB").tobytes()) for im in
                      (PdfImage(obj).as_pil_image() for obj in doc.objects
                       if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image"))


def test_the_print_with_stand_ins_restored_shows_what_chromium_prints_of_the_page_itself():
    pngs = (picture("P"), picture("RGB"), picture("P", size=(64, 64)), picture("RGB", size=(40, 40)))
    whole = page(*pngs)
    standing_in, pictures = stand_ins(whole)
    assert len(pictures.pictures) == 4 and len(standing_in) < len(whole)
    from_stand_ins, from_page = printed(standing_in, whole)
    restored = pictures.restore(from_stand_ins)
    assert restored is not None and restored != from_stand_ins
    with pikepdf.open(io.BytesIO(restored)) as doc:
        assert len(doc.pages) == 1  # the cross-reference table moved with the objects: it opens unrepaired
    assert images(restored) == images(from_page) == sorted(
        (Image.open(io.BytesIO(p)).size, Image.open(io.BytesIO(p)).convert("RGB").tobytes()) for p in pngs)
    for a, b in zip(shown(restored), shown(from_page)):
        assert ImageChops.difference(a, b).getbbox() is None


def chunk_added(png: bytes, kind: bytes, data: bytes) -> bytes:
    """The PNG with a chunk put after its header."""
    crc = zlib.crc32(data, zlib.crc32(kind))
    return png[:33] + struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc) + png[33:]


def interlaced(png: bytes) -> bytes:
    """The PNG's header saying its rows are interlaced (Pillow writes none)."""
    head = png[16:28] + b"\x01"
    return png[:16] + head + struct.pack(">I", zlib.crc32(head, zlib.crc32(b"IHDR"))) + png[33:]


def test_what_cannot_go_in_as_it_is_is_left_to_chromium():
    kept = (picture("RGBA"), picture("L"), interlaced(picture("RGB")), picture("RGB", icc_profile=b"x" * 200),
            chunk_added(picture("RGB"), b"gAMA", struct.pack(">I", 45455)),
            chunk_added(picture("P"), b"tRNS", b"\x00"), picture("RGB")[:-30],
            picture("P", size=(997, 991)),  # a stand-in of its aspect ratio would be as large
            picture("P", size=(20000, 10)),  # longer than any picture put in as it is
            picture("P")[:-4] + b"\x00" * 4)  # IEND's checksum wrong
    whole = page(*kept, picture("P"))
    standing_in, pictures = stand_ins(whole)
    assert len(pictures.pictures) == 1
    for p in kept:
        assert uri(p) in standing_in
    assert uri(picture("P")) not in standing_in


def test_a_stand_in_chromium_draws_otherwise_makes_the_print_unused():
    """A picture drawn through a filter is not found whole in the print: restore says so, and the
    rulebook's printer prints the page itself instead."""
    whole = page(picture("P"), style=b"filter:blur(2px)")
    standing_in, pictures = stand_ins(whole)
    assert pictures.restore(printed(standing_in)[0]) is None


def test_a_pdf_not_laid_out_as_chromium_writes_it_is_not_touched():
    _, pictures = stand_ins(page(picture("P")))
    assert pictures.restore(b"%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n") is None


def written_as_chromium_writes(pictures: StandIns, listed: int = 5) -> bytes:
    """A PDF as Chromium writes one, holding the stand-in of `pictures`' one picture, then an
    object after it; its cross-reference table says it has `listed` entries."""
    (w, h, pixels), = pictures.pictures
    data = zlib.compress(pixels)
    objects = [b"1 0 obj\n<</Type /Catalog /Pages 4 0 R>>\nendobj\n",
               b"2 0 obj\n<</Type /XObject\n/Subtype /Image\n/Width %d\n/Height %d\n/ColorSpace /DeviceRGB\n"
               b"/BitsPerComponent 8\n/Filter /FlateDecode\n/Length %d>> stream\n" % (w, h, len(data))
               + data + b"\nendstream\nendobj\n",
               b"3 0 obj\n(after the picture)\nendobj\n", b"4 0 obj\n<</Type /Pages /Kids [] /Count 0>>\nendobj\n"]
    out, offsets = b"%PDF-1.4\n", []
    for obj in objects:
        offsets.append(len(out))
        out += obj
    at = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % listed + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    return out + b"trailer\n<</Size 5 /Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n" % at


def test_the_objects_after_a_picture_put_in_are_found_where_the_table_says():
    png = picture("P")
    _, pictures = stand_ins(page(png))
    restored = pictures.restore(written_as_chromium_writes(pictures))
    with pikepdf.open(io.BytesIO(restored), attempt_recovery=False) as doc:  # read by its table alone
        assert str(doc.get_object(3, 0)) == "after the picture"
        found = PdfImage(doc.get_object(2, 0)).as_pil_image().convert("RGB")
    assert found.tobytes() == Image.open(io.BytesIO(png)).convert("RGB").tobytes()
    table = re.search(rb"xref\n0 5\n((?:.{20}){5})", restored, re.S).group(1)
    for number in (1, 2, 3, 4):
        assert restored[int(table[20 * number:20 * number + 10]):].startswith(b"%d 0 obj" % number)
    assert pictures.restore(written_as_chromium_writes(pictures, listed=9)) is None  # fewer entries than it says
    assert stand_ins(b"<p>no pictures</p>")[1].restore(b"anything") == b"anything"


@pytest.mark.parametrize("restored", [True, False], ids=["stand-ins restored", "stand-ins not found"])
def test_the_built_rulebooks_card_pictures_are_the_pages_pixels(counted, tmp_path, monkeypatch, restored):
    """Every card picture of rulebook.html is in rulebook.pdf, pixel for pixel: put in as they
    are, or, when the print's stand-ins are not found, printed with the page itself."""
    if not restored:
        monkeypatch.setattr(StandIns, "restore", lambda self, pdf: None)
    out = tmp_path / "out"
    assert build(out, MANIFEST, "--only", "rulebook") == 0
    html = (out / "rulebook.html").read_bytes()
    pngs = {base64.b64decode(u[len(b"data:image/png;base64,"):]) for u in
            re.findall(rb"data:image/png;base64,[A-Za-z0-9+/=]+", html)}
    assert len(pngs) > 10
    expected = sorted((Image.open(io.BytesIO(p)).size, Image.open(io.BytesIO(p)).convert("RGB").tobytes()) for p in pngs)
    found = images((out / "rulebook.pdf").read_bytes())
    assert [e for e in expected if e not in found] == []
