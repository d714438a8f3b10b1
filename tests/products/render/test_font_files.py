"""A designer's font file: checked (inspect_font), measured for layout, embedded and subset in
the PDFs, read back with pikepdf and pdfplumber.

The fonts are the shipped DejaVu Sans copied under another name (so the designer's path measures
and draws it, and its widths can be compared with the built-in table's), and small fonts that
fontTools' FontBuilder makes here (a CFF one, one whose licence forbids embedding).
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pdfplumber
import pikepdf
import pytest

from generator.products.render.assets import font_files
from generator.products.render import pdf
from generator.products.render import typeface as tf
from generator.products.render.assets.font_files import FontError, inspect_font
from generator.products.render.items import Face, Text

WORDS = "Draw two, then play a card ±½"


@pytest.fixture
def dejavu(tmp_path) -> Path:
    path = tmp_path / "MySans.ttf"
    shutil.copyfile(tf.FILES[False], path)
    return path


def built_font(path: Path, cff: bool = False, fs_type: int = 0) -> Path:
    """A tiny font with glyphs for 'A' and 'B' (squares of two widths)."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    fb = FontBuilder(1000, isTTF=not cff)
    order = [".notdef", "A", "B"]
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({ord("A"): "A", ord("B"): "B"})
    advances = {".notdef": 500, "A": 600, "B": 800}
    if cff:
        charstrings = {}
        for name in order:
            pen = T2CharStringPen(advances[name], None)
            pen.moveTo((50, 0)); pen.lineTo((50, 700)); pen.lineTo((advances[name] - 50, 700)); pen.lineTo((advances[name] - 50, 0))
            pen.closePath()
            charstrings[name] = pen.getCharString()
        fb.setupCFF("TestCFF-Regular", {"FullName": "Test CFF"}, charstrings, {})
    else:
        glyphs = {}
        for name in order:
            pen = TTGlyphPen(None)
            pen.moveTo((50, 0)); pen.lineTo((50, 700)); pen.lineTo((advances[name] - 50, 700)); pen.lineTo((advances[name] - 50, 0))
            pen.closePath()
            glyphs[name] = pen.glyph()
        fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics({name: (advances[name], 50) for name in order})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Test", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200, fsType=fs_type)
    fb.setupPost()
    fb.save(str(path))
    return path


def test_a_designer_font_measures_as_the_built_in_table_does(dejavu):
    for size in (12.0, 46.0, 84.0):
        assert tf.width(WORDS, size, font=str(dejavu)) == pytest.approx(tf.width(WORDS, size), rel=1e-12)
    assert tf.has_glyph("½", font=str(dejavu)) and not tf.has_glyph("\u4e00", font=str(dejavu))
    size, lines = tf.fit_paragraph(WORDS * 3, 600, 200, 46, font=str(dejavu))
    assert (size, lines) == tf.fit_paragraph(WORDS * 3, 600, 200, 46)


def test_fit_and_coverage_use_the_font_chosen(tmp_path):
    font = str(built_font(tmp_path / "ab.ttf"))
    assert tf.width("AB", 10, font=font) == pytest.approx((600 + 800) / 1000 * 10)
    assert tf.fit_size("AB", 70, 100, font=font) == pytest.approx(50)
    assert tf.has_glyph("A", font=font) and not tf.has_glyph("C", font=font)
    assert tf.has_glyph("C")  # the built-in face has it


def face_text(font: Path, text: str = WORDS, key: str = "f") -> Face:
    return Face(key, (Text(100, 300, text, 46, "#202020", align="l", font=str(font)),
                      Text(100, 500, "built-in", 46, "#202020", align="l")))


def test_a_designer_font_is_embedded_as_a_subset_and_its_text_reads_back(dejavu):
    doc = pdf.faces_pdf([face_text(dejavu)], " abcdefghijklmnopqrstuvwxyz")
    with pikepdf.open(io.BytesIO(doc)) as p:
        type0 = [o for o in p.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Subtype") == "/Type0"]
        assert len(type0) == 1
        base = str(type0[0].BaseFont).lstrip("/")
        assert base[6] == "+" and base[:6].isupper() and base.endswith("DejaVuSans")
        descendant = type0[0].DescendantFonts[0]
        program = descendant.FontDescriptor.FontFile2.read_bytes()
    assert len(program) < tf.FILES[False].stat().st_size / 3  # a subset, not the whole font
    from fontTools.ttLib import TTFont

    glyphs = TTFont(io.BytesIO(program))["glyf"]
    drawn = {name for name in glyphs.keys() if glyphs[name].numberOfContours != 0}
    assert {"D", "r", "a", "w", "plusminus", "onehalf"} <= drawn and "Z" not in drawn
    with pdfplumber.open(io.BytesIO(doc)) as p:
        text = p.pages[0].extract_text()
    assert WORDS in text and "built-in" in text


def test_two_subsets_of_one_font_have_distinct_tags(dejavu):
    tags = set()
    for words in ("Alpha", "Beta"):
        doc = pdf.faces_pdf([face_text(dejavu, words)], " abc")
        with pikepdf.open(io.BytesIO(doc)) as p:
            tags |= {str(o.BaseFont).lstrip("/")[:6] for o in p.objects
                     if isinstance(o, pikepdf.Dictionary) and o.get("/Subtype") == "/Type0"}
    assert len(tags) == 2


def test_the_same_inputs_give_the_same_bytes(dejavu):
    assert pdf.faces_pdf([face_text(dejavu)], " abc") == pdf.faces_pdf([face_text(dejavu)], " abc")


def test_a_cff_font_is_converted_to_truetype_outlines(tmp_path):
    font = built_font(tmp_path / "cff.otf", cff=True)
    assert inspect_font(font).outlines == "cff"
    doc = pdf.faces_pdf([face_text(font, "ABBA")], " abc")
    with pikepdf.open(io.BytesIO(doc)) as p:
        (type0,) = [o for o in p.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Subtype") == "/Type0"]
        program = type0.DescendantFonts[0].FontDescriptor.FontFile2.read_bytes()
    from fontTools.ttLib import TTFont

    converted = TTFont(io.BytesIO(program))
    assert "glyf" in converted and "CFF " not in converted
    assert converted["glyf"]["B"].numberOfContours == 1


@pytest.mark.parametrize("fs_type, words", [(0x0002, "forbids embedding"), (0x0100, "forbids subsetting"),
                                            (0x0200, "bitmaps only")])
def test_a_font_whose_licence_forbids_what_the_pdfs_do_is_refused(tmp_path, fs_type, words):
    font = built_font(tmp_path / "locked.ttf", fs_type=fs_type)
    with pytest.raises(FontError, match=words):
        inspect_font(font)


def test_a_font_that_allows_print_and_preview_embedding_is_taken(tmp_path):
    assert inspect_font(built_font(tmp_path / "preview.ttf", fs_type=0x0004)).fs_type == 0x0004


def test_what_is_not_a_usable_font_is_named(tmp_path):
    with pytest.raises(FontError, match="no such font file"):
        inspect_font(tmp_path / "missing.ttf")
    (tmp_path / "notes.ttf").write_text("not a font")
    with pytest.raises(FontError, match="not a TrueType or OpenType font"):
        inspect_font(tmp_path / "notes.ttf")
    (tmp_path / "cut.ttf").write_bytes(tf.FILES[False].read_bytes()[:5000])
    with pytest.raises(FontError, match="not a readable TrueType or OpenType font"):
        inspect_font(tmp_path / "cut.ttf")
    (tmp_path / "web.woff2").write_bytes(b"wOF2" + b"\0" * 100)
    with pytest.raises(FontError, match="WOFF"):
        inspect_font(tmp_path / "web.woff2")


def test_a_font_over_the_size_limit_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(font_files, "MAX_BYTES", 1000)
    with pytest.raises(FontError, match="over the limit"):
        inspect_font(tf.FILES[False])


def test_a_font_refused_then_mended_in_place_is_measured(tmp_path):
    """`watch` keeps running while the designer fixes a file: a refusal is not remembered."""
    path = tmp_path / "Deck.ttf"
    path.write_bytes(b"not a font at all")
    for _ in range(2):  # asked again (the next rebuild), the same refusal
        with pytest.raises(FontError):
            font_files.metrics(str(path))
    shutil.copy(tf.FILES[False], path)
    assert font_files.metrics(str(path)) is not None
    assert tf.width("Skip", 100.0, font=str(path)) == pytest.approx(tf.width("Skip", 100.0))


def damaged(path: Path, tag: str, glyph: str = "") -> Path:
    """DejaVu Sans with 64 bytes of table `tag` (or the whole outline of `glyph`) overwritten."""
    import random

    from fontTools.ttLib import TTFont

    data = bytearray(tf.FILES[False].read_bytes())
    font = TTFont(io.BytesIO(bytes(data)))
    entry = font.reader.tables[tag]
    start, end = entry.offset, entry.offset + min(entry.length, 64)
    if glyph:
        gid = font.getGlyphID(font.getBestCmap()[ord(glyph)])
        start, end = entry.offset + font["loca"][gid], entry.offset + font["loca"][gid + 1]
    rng = random.Random(3)
    for i in range(start, end):
        data[i] = rng.randrange(256)
    path.write_bytes(bytes(data))
    return path


# Each passed the check's lazy read: the first two then made validate an internal error (exit 3),
# the others made the build's subsetting one, after validate had passed.
@pytest.mark.parametrize("tag, glyph", [("cmap", ""), ("OS/2", ""), ("glyf", "S"), ("loca", ""), ("GSUB", ""), ("GPOS", "")])
def test_a_damaged_table_or_glyph_is_not_a_readable_font(tmp_path, tag, glyph):
    path = damaged(tmp_path / "Damaged.ttf", tag, glyph)
    with pytest.raises(FontError) as err:
        inspect_font(path)
    assert str(err.value).startswith("Damaged.ttf: not a readable TrueType or OpenType font (")


def test_what_fonttools_mends_in_a_font_is_not_printed(tmp_path):
    """fontTools logged "'created' timestamp out of range" and the like on the terminal, unlocated
    (a new process: pytest's own log capture would hide it here)."""
    import subprocess
    import sys

    path = damaged(tmp_path / "Odd.ttf", "head")
    probe = ("import sys\nfrom generator.products.render.assets import font_files as f\n"
             "try:\n    f.inspect_font(sys.argv[1])\nexcept f.FontError:\n    pass\nf.metrics(sys.argv[1])\n")
    said = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, text=True, timeout=60)
    assert said.returncode == 0 and said.stderr == ""
