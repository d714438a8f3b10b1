"""Thumbnails of the print sheets: drawn once per PDF version, the page as it prints, small."""

from __future__ import annotations

import io
import json
import threading
import time

import pytest
from PIL import Image

from generator.preview import thumbnails
from generator.preview.thumbnails import WIDTH, NoSuchPage, cache_name, file_sha256, prune, thumbnail


@pytest.fixture()
def sheet(built):
    record = json.loads((built / "build.json").read_text())["artifacts"]
    entry = next(a for a in record if a["path"] == "print/county-uppy-letter.pdf")
    return built / entry["path"], entry


def inked(png: bytes) -> float:
    """The share of a thumbnail's pixels that are ink, not paper."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = image.getcolors(maxcolors=image.width * image.height)
    return sum(n for n, rgb in colours if min(rgb) < 200) / (image.width * image.height)


def test_a_thumbnail_is_the_page_small(sheet, tmp_path):
    pdf, entry = sheet
    png = thumbnail(pdf, 2, tmp_path)
    image = Image.open(io.BytesIO(png))
    assert image.width == WIDTH
    assert image.height == pytest.approx(WIDTH * 11 / 8.5, abs=2)  # a Letter page
    assert inked(png) > 0.3, "page 3 holds nine card fronts in their bleed: most of it is ink"
    assert inked(thumbnail(pdf, 0, tmp_path)) < 0.1, "page 1 is the test page: mostly paper"


def test_a_thumbnail_is_kept_by_the_pdfs_sha256(sheet, tmp_path):
    pdf, entry = sheet
    assert file_sha256(pdf) == entry["sha256"]
    first = thumbnail(pdf, 0, tmp_path)
    kept = tmp_path / cache_name(entry["sha256"], 0)
    assert kept.read_bytes() == first
    kept.write_bytes(b"kept")  # a second request reads the cache, not the PDF
    assert thumbnail(pdf, 0, tmp_path) == b"kept"


def test_a_page_the_pdf_lacks_is_refused(sheet, tmp_path):
    pdf, entry = sheet
    with pytest.raises(NoSuchPage):
        thumbnail(pdf, entry["pages"], tmp_path)
    with pytest.raises(NoSuchPage):
        thumbnail(pdf, -1, tmp_path)


def test_a_thumbnail_waits_for_a_running_build(sheet, tmp_path):
    pdf, _ = sheet
    with thumbnails.PDFIUM:  # as the watch loop holds it while a build draws faces
        started = time.monotonic()
        with pytest.raises(TimeoutError):
            thumbnail(pdf, 0, tmp_path, wait=5)
        assert time.monotonic() - started < 1  # answered at once: it holds none of the browser's connections
    assert thumbnail(pdf, 0, tmp_path)[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_build_waits_for_one_thumbnail_at_most(sheet, tmp_path):
    """A build asking for PDFium goes before every thumbnail not yet begun: those answer at once
    (TimeoutError: the page gets a blank pixel and asks again after the build)."""
    pdf, _ = sheet
    thumbnails.PDFIUM.acquire(timeout=1)  # a thumbnail being drawn
    entered = threading.Event()

    def build() -> None:
        with thumbnails.PDFIUM:
            entered.set()
            time.sleep(0.3)

    builder = threading.Thread(target=build, daemon=True)
    builder.start()
    time.sleep(0.1)  # the build is waiting now
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        thumbnail(pdf, 0, tmp_path, wait=5)  # not queued behind the drawing one for 5 s
    assert time.monotonic() - started < 1
    thumbnails.PDFIUM.release()
    assert entered.wait(5)  # the build has it
    with pytest.raises(TimeoutError):
        thumbnail(pdf, 0, tmp_path, wait=0.05)
    builder.join(5)
    assert thumbnail(pdf, 0, tmp_path)[:8] == b"\x89PNG\r\n\x1a\n"


def test_prune_keeps_only_the_sheets_on_show(tmp_path):
    for name in (cache_name("a" * 64, 0), cache_name("a" * 64, 1), cache_name("b" * 64, 0)):
        (tmp_path / name).write_bytes(b"x")
    prune(tmp_path, {"a" * 64})
    assert sorted(p.name for p in tmp_path.iterdir()) == [cache_name("a" * 64, 0), cache_name("a" * 64, 1)]


@pytest.mark.parametrize("planted", ["preview", ".cache"])
def test_prune_and_thumbnails_never_follow_a_symlink_out_of_the_folder(sheet, tmp_path, planted):
    """A symlinked OUT/.cache/preview (or OUT/.cache) leads elsewhere: watch neither removes the
    PNGs there nor reads or writes thumbnails through it."""
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    out.mkdir()
    elsewhere.mkdir()
    outside = {cache_name("b" * 64, 0): b"someone's", "holiday.png": b"photo"}
    for name, data in outside.items():
        (elsewhere / name).write_bytes(data)
    if planted == "preview":
        (out / ".cache").mkdir()
        (out / ".cache" / "preview").symlink_to(elsewhere, target_is_directory=True)
    else:
        (out / ".cache").symlink_to(elsewhere, target_is_directory=True)
        (elsewhere / "preview").mkdir()
    cache = out / ".cache" / "preview"
    prune(cache, {"a" * 64}, root=out)
    pdf, _ = sheet
    planted_png = elsewhere / cache_name(file_sha256(pdf), 0)
    planted_png.write_bytes(b"not a thumbnail")  # what a link would serve, were it followed
    outside[planted_png.name] = b"not a thumbnail"
    png = thumbnail(pdf, 0, cache, root=out)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"  # drawn, not read through the link
    assert {p.name: p.read_bytes() for p in elsewhere.iterdir() if p.is_file()} == outside
    if planted == ".cache":
        assert not any((elsewhere / "preview").iterdir()), "a thumbnail was written through the link"
