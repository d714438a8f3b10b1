"""The picture checks (render/assets/art.py): what `validate` and the build say of an art file."""

from __future__ import annotations

import os
import struct
import time
import zlib
from pathlib import Path

import pytest
from PIL import Image as PILImage

from generator.products.render.assets import art
from generator.products.render.assets.art import ArtError, PictureInfo, dpi_warning, effective_dpi, inspect, picture_size


def png_claiming(path: Path, w: int, h: int) -> Path:
    """A PNG of a few hundred bytes whose header says w × h pixels (a decompression bomb's shape)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    row = b"\0" + b"\0" * w
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(row[:1000])) + chunk(b"IEND", b""))
    return path


def test_png_jpeg_and_svg_are_told_apart_with_their_sizes(tmp_path):
    PILImage.new("RGB", (30, 20), "red").save(tmp_path / "a.png")
    PILImage.new("RGB", (40, 10), "blue").save(tmp_path / "b.jpg")
    (tmp_path / "c.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 150"><rect width="9" height="9"/></svg>')
    (tmp_path / "d.svg").write_text('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="2in" '
                                    'height="1in" viewBox="0 0 10 5"/>')
    assert inspect(tmp_path / "a.png") == PictureInfo("png", 30, 20)
    assert inspect(tmp_path / "b.jpg") == PictureInfo("jpeg", 40, 10)
    assert inspect(tmp_path / "c.svg") == PictureInfo("svg", 300, 150)
    assert inspect(tmp_path / "d.svg") == PictureInfo("svg", 192, 96)


def test_a_jpeg_turned_by_its_exif_reports_its_upright_size(tmp_path):
    im = PILImage.new("RGB", (40, 10), "blue")
    exif = im.getexif()
    exif[0x0112] = 6  # shown turned a quarter clockwise
    im.save(tmp_path / "turned.jpg", exif=exif)
    assert inspect(tmp_path / "turned.jpg") == PictureInfo("jpeg", 10, 40)


def test_missing_unreadable_and_not_a_picture_are_named(tmp_path):
    with pytest.raises(ArtError, match=r"steal\.png: no such picture file"):
        inspect(tmp_path / "steal.png")
    (tmp_path / "notes.png").write_text("hello")
    with pytest.raises(ArtError, match="notes.png: not a PNG, JPEG or SVG picture"):
        inspect(tmp_path / "notes.png")
    PILImage.new("RGB", (300, 300), "red").save(tmp_path / "whole.png")
    (tmp_path / "cut.png").write_bytes((tmp_path / "whole.png").read_bytes()[:60])
    with pytest.raises(ArtError, match="cut.png: not a readable PNG or JPEG picture"):
        inspect(tmp_path / "cut.png")
    # a PNG header of 0 x 0 pixels: Pillow's words named its buffer by its memory address, different every run
    png_claiming(tmp_path / "none.png", 0, 0)
    with pytest.raises(ArtError) as err:
        inspect(tmp_path / "none.png")
    assert str(err.value) == "none.png: not a readable PNG or JPEG picture (cannot identify image file)"
    PILImage.new("RGB", (8, 8)).save(tmp_path / "pic.gif")
    with pytest.raises(ArtError, match="not a PNG, JPEG or SVG"):
        inspect(tmp_path / "pic.gif")
    (tmp_path / "empty.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'><rect")
    with pytest.raises(ArtError, match="empty.svg: not a readable SVG picture"):
        inspect(tmp_path / "empty.svg")
    (tmp_path / "folder.png").mkdir()
    with pytest.raises(ArtError, match="not a file"):
        inspect(tmp_path / "folder.png")


def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path):
    os.mkfifo(tmp_path / "steal.png")
    with pytest.raises(ArtError, match=r"steal\.png: not a file .*a FIFO"):
        inspect(tmp_path / "steal.png")


def test_a_file_over_the_size_limit_is_refused(tmp_path, monkeypatch):
    PILImage.new("RGB", (200, 200), "red").save(tmp_path / "big.png")
    monkeypatch.setattr(art, "MAX_BYTES", 100)
    with pytest.raises(ArtError, match=r"big.png: the picture file is .* over the limit of"):
        inspect(tmp_path / "big.png")


def test_a_decompression_bomb_is_refused_before_its_pixels_are_read(tmp_path):
    bomb = png_claiming(tmp_path / "bomb.png", 60000, 60000)
    assert bomb.stat().st_size < 2000
    start = time.perf_counter()
    with pytest.raises(ArtError, match=r"bomb.png: the picture is (60000 × 60000 pixels|too large to open safely)"):
        inspect(bomb)
    assert time.perf_counter() - start < 2  # nothing was decompressed
    with pytest.raises(ArtError, match=r"over the limit of 12000 pixels on a side"):
        inspect(png_claiming(tmp_path / "wide.png", 12001, 10))


@pytest.mark.parametrize("body, words", [
    ('<text x="1" y="9">Hi</text>', "text"),
    ('<linearGradient id="g"/><rect width="9" height="9" fill="url(#g)"/>', "a gradient"),
    ('<rect width="9" height="9" opacity="0.5"/>', 'transparency (opacity="0.5")'),
    ('<rect width="9" height="9" style="fill:red;fill-opacity:40%"/>', "transparency (fill-opacity:40%)"),
    ('<style>rect { opacity: .3 }</style><rect width="9" height="9"/>', "transparency (opacity: .3)"),
    ('<image href="photo.png" width="9" height="9"/>', "an embedded or linked picture"),
    ('<use href="other.svg#x"/>', "links another file"),
])
def test_an_svg_that_cannot_stay_flat_vector_art_is_refused(tmp_path, body, words):
    path = tmp_path / "art.svg"
    path.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">\n{body}\n</svg>')
    with pytest.raises(ArtError, match="art.svg: the SVG (has|links) ") as err:
        inspect(path)
    assert words in str(err.value) and "(line 2)" in str(err.value)


# Each of these passed the check and then failed the build with an internal error (exit 3): reportlab
# writes no number past 1e20, and svglib splits a style declaration at every ':'.
@pytest.mark.parametrize("svg, words", [
    ('width="1e308" height="1e308" viewBox="0 0 1e308 1e308"', "the SVG's width holds the number 1e308 (line 1)"),
    ('viewBox="0 0 1e-300 1e-300"', "the SVG's viewBox is 1e-300 × 1e-300"),
    ('viewBox="0 0 10 10"><g transform="scale(1e308)"', "the SVG's transform holds the number 1e308 (line 1)"),
    ('viewBox="0 0 10 10"><g stroke="#000" stroke-width="1e300"', "the SVG's stroke-width holds the number 1e300"),
    ('viewBox="0 0 10 10"><svg viewBox="0 0 1e-300 1e-300"', "the SVG's viewBox '0 0 1e-300 1e-300' (line 1) is under"),
    ('viewBox="0 0 10 10"><g style="fill:url(file:///etc/passwd)"', "the SVG links another file ('file:///etc/passwd') (line 1)"),
    ('viewBox="0 0 10 10"><style>@import url(/etc/passwd);</style><g', "links another file ('/etc/passwd')"),
    ('viewBox="0 0 10 10"><g style="fill:red:blue"', "the SVG's style holds 'fill:red:blue' (line 1), which is not one"),
])
def test_an_svg_the_pdfs_cannot_write_is_refused_by_the_check(tmp_path, svg, words):
    path = tmp_path / "art.svg"
    path.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" {svg}>\n<path d="M0 0L9 9L0 9Z"/>'
                    + ("</g>" if "<g" in svg else "</svg>" if "<svg" in svg else "") + "</svg>")
    with pytest.raises(ArtError) as err:
        inspect(path)
    assert str(err.value).startswith("art.svg: ") and words in str(err.value)


# svglib skips a <use> that repeats an element holding it ("Circular <use> reference detected") and
# stops after 10,000 expansions: validate passed, and the build drew another picture, saying so unlocated.
@pytest.mark.parametrize("body, words", [
    ('<g id="a"><use href="#a"/></g>', "the SVG's <use> of '#a' (line 1) repeats an element that holds it"),
    ('<defs><g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g></defs><use href="#a"/>', "repeats an element that holds it"),
    ('<defs><path id="a0" d="M0 0L1 1Z"/>' + "".join(f'<g id="a{i + 1}">' + f'<use href="#a{i}"/>' * 10 + "</g>" for i in range(5))
     + '</defs><use href="#a5"/>', "the SVG draws more than 5,000 elements (counting what <use> repeats"),
    ('<defs><path id="a0" d="M0 0L1 1Z"/>' + "".join(f'<use id="a{i + 1}" href="#a{i}"/>' for i in range(60))
     + '</defs><use href="#a60"/>', "the SVG's <use> elements reach more than 50 deep"),
])
def test_an_svg_whose_uses_the_drawing_would_cut_short_is_refused(tmp_path, body, words):
    path = tmp_path / "art.svg"
    path.write_text(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">{body}</svg>')
    with pytest.raises(ArtError) as err:
        inspect(path)
    assert words in str(err.value)


def test_uses_within_the_limits_are_taken(tmp_path):
    path = tmp_path / "tiles.svg"
    row = '<g id="row">' + '<use href="#p"/>' * 20 + "</g>"
    path.write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs><path id="p" d="M0 0L1 1Z"/>'
                    f'{row}<g id="loop"><use href="#loop"/></g></defs>' + '<use href="#row"/>' * 20 + "</svg>")
    assert inspect(path) == PictureInfo("svg", 10, 10)  # 420 expansions; a loop in <defs> that nothing draws


def test_an_svg_within_the_limits_draws(tmp_path):
    from generator.products.render import pdf_pictures

    path = tmp_path / "ok.svg"
    path.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="1e6" height="0.001" viewBox="0 0 1000 0.001">'
                    '<g transform="scale(1000000)" style="fill:#1e1e1e; stroke:url(#none)"><path d="M0 0L1e-9 1e-9Z"/></g>'
                    '</svg>')
    assert inspect(path) == PictureInfo("svg", 1e6, 0.001)
    picture, size = pdf_pictures._svg(str(path), art.digest(path), None)
    assert size == pytest.approx((750000.0, 0.00075)) and picture.body


def test_an_svg_with_entities_is_not_expanded(tmp_path):
    laughs = ('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">'
              '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>'
              '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><desc>&c;</desc></svg>')
    (tmp_path / "lol.svg").write_text(laughs)
    assert inspect(tmp_path / "lol.svg") == PictureInfo("svg", 1, 1)


def test_effective_dpi_at_the_printed_box_and_its_warning():
    card = (750, 1050)  # the whole trim, in dots (300 to the inch)
    assert effective_dpi(PictureInfo("png", 750, 1050), *card) == pytest.approx(300)
    assert effective_dpi(PictureInfo("png", 375, 525), *card) == pytest.approx(150)
    # cover scales to the larger ratio: a wide picture is cut at the sides and prints coarser
    assert effective_dpi(PictureInfo("png", 1500, 1050), *card, fit="cover") == pytest.approx(300)
    assert effective_dpi(PictureInfo("png", 1500, 1050), *card, fit="contain") == pytest.approx(600)
    assert effective_dpi(PictureInfo("svg", 10, 14), *card) is None
    assert dpi_warning("steal.png", PictureInfo("png", 750, 1050), *card) is None
    warning = dpi_warning("steal.png", PictureInfo("png", 375, 525), *card)
    assert warning.startswith("steal.png: 150 dpi at its printed size (2.50 × 3.50 in), below the 300 dpi")
    assert "750 × 1050 pixels" in warning


def test_picture_size_follows_the_file_content(tmp_path):
    path = tmp_path / "art.png"
    PILImage.new("RGB", (30, 20)).save(path)
    assert picture_size(path) == (30, 20)
    PILImage.new("RGB", (64, 48)).save(path)
    stat = path.stat()
    import os

    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert picture_size(path) == (64, 48)


def test_a_picture_refused_then_mended_in_place_is_read_again(tmp_path):
    """`watch` keeps running while the designer fixes a file: a refusal is not remembered."""
    path = tmp_path / "steal.png"
    path.write_text("not yet a picture")
    with pytest.raises(ArtError, match="not a PNG, JPEG or SVG"):
        picture_size(path)
    PILImage.new("RGB", (30, 20), "red").save(path)
    os.utime(path, ns=(1, 1))  # even with a stamp the first one could have had
    assert picture_size(path) == (30, 20)


def test_a_picture_within_the_limits_is_opened_without_pillows_own_warning(tmp_path, monkeypatch):
    """A PNG of 90-100 million pixels is within MAX_PIXELS but over Pillow's default (89 million):
    the build printed Pillow's DecompressionBombWarning, with its source line, from the workers.
    Here Pillow's default is scaled down to a small picture instead of drawing a large one."""
    import warnings

    from generator.products.render import pdf_pictures

    monkeypatch.setattr(PILImage, "MAX_IMAGE_PIXELS", 6000)
    path = tmp_path / "big.png"
    PILImage.new("RGB", (100, 100), "teal").save(path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert inspect(path) == PictureInfo("png", 100, 100)
        assert art.picture_colours(path)
        im, _ = pdf_pictures._open(str(path), art.digest(path), (100, 100))
    assert im.size == (100, 100)
