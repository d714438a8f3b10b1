"""Every PDF the build writes, read back as a strict reader would: qpdf finds no syntax
problem and repairs nothing, the cross-reference table points at every object exactly, and
the trailer carries the file identifier PDF/X asks for."""

from __future__ import annotations

import io
import re

import pikepdf
import pytest

from generator.products.render.pdf_file import PdfFile, form_body, text_string


def _xref_offsets_are_exact(data: bytes) -> None:
    start = int(re.search(rb"startxref\n(\d+)\n%%EOF\n$", data).group(1))
    assert data[start:start + 5] == b"xref\n"
    head = re.match(rb"xref\n0 (\d+)\n", data[start:])
    count = int(head.group(1))
    rows = data[start + head.end():].split(b"\n")[:count]
    assert rows[0] == b"0000000000 65535 f "
    for number, row in enumerate(rows[1:], 1):
        offset, generation, kind = row.split()
        assert (generation, kind) == (b"00000", b"n")
        assert data[int(offset):].startswith(b"%d 0 obj\n" % number), number
    trailer = data[start + head.end():].split(b"trailer\n", 1)[1]
    assert re.search(rb"/Size %d /Root \d+ 0 R /Info \d+ 0 R /ID \[ <([0-9A-F]{32})> <\1> \]" % count, trailer)


def test_every_pdf_of_a_build_reads_back_clean(built):
    files = sorted(built.rglob("*.pdf"))
    assert len(files) >= 9  # two papers × three modes, an edition's, the DriveThruCards file
    for path in files:
        data = path.read_bytes()
        assert re.match(rb"%PDF-1\.[4-7]\n", data), path.name
        _xref_offsets_are_exact(data)
        with pikepdf.open(path) as pdf:
            assert pdf.check_pdf_syntax() == [] and pdf.get_warnings() == [], path.name
            assert len(pdf.pages) >= 2
            # the declared version is the one its keys need: /Duplex is PDF 1.7, /PrintScaling 1.6
            prefs = pdf.Root.get("/ViewerPreferences", {})
            needed = "1.7" if "/Duplex" in prefs else "1.6" if "/PrintScaling" in prefs else "1.4"
            assert pdf.pdf_version == needed, (path.name, pdf.pdf_version, needed)
            if path.parent.name == "print" and "card-count" not in path.name:
                assert needed == "1.7", path.name  # the print-and-play files ask for 100% and their duplex flip


def test_a_small_file_written_by_hand_is_what_its_parts_say():
    f = PdfFile("ab")
    form = f.add(form_body("0 0 1 rg 0 0 10 10 re f", (0, 0, 10, 10)))
    tree = f.page_tree([b"/Fm0 Do", b"/Fm0 Do"], (20.0, 30.0), f.resources({"Fm0": form}), "/TrimBox [ 1 1 19 29 ] ")
    data = f.finish(tree, {"Title": text_string("Caf\u00e9 \u2212 (test)")})
    _xref_offsets_are_exact(data)
    with pikepdf.open(io.BytesIO(data)) as pdf:
        assert pdf.check_pdf_syntax() == [] and pdf.get_warnings() == []
        assert [list(p.mediabox) for p in pdf.pages] == [[0, 0, 20, 30]] * 2
        assert list(pdf.pages[1].trimbox) == [1, 1, 19, 29]
        assert str(pdf.docinfo["/Title"]) == "Caf\u00e9 \u2212 (test)"
        assert pdf.pages[0].Resources.XObject.Fm0.read_bytes() == b"0 0 1 rg 0 0 10 10 re f"
        fonts = pdf.pages[0].Resources.Font  # both faces, as subsets of the characters asked for
        names = sorted(str(v.BaseFont) for v in fonts.values())
        assert [n.split("+")[1] for n in names] == ["DejaVuSans", "DejaVuSans-Bold"]
        tags = [n[1:].split("+")[0] for n in names]  # six capitals, distinct per subset (ISO 32000 9.6.4)
        assert len(set(tags)) == 2 and all(len(tag) == 6 and tag.isalpha() and tag.isupper() for tag in tags)
        assert all(v.FontDescriptor.FontFile2.read_bytes()[:4] == b"\x00\x01\x00\x00" for v in fonts.values())


@pytest.mark.parametrize("value", ["plain", "with (parens) and \\", "\u00fcnicode \u2192"])
def test_text_strings_round_trip(value):
    f = PdfFile("")
    tree = f.page_tree([b""], (10.0, 10.0), f.resources({}))
    with pikepdf.open(io.BytesIO(f.finish(tree, {"Subject": text_string(value)}))) as pdf:
        assert str(pdf.docinfo["/Subject"]) == value
