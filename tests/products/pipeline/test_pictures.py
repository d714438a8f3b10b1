"""Pictures (`art:`) are prepared once for each form they are drawn in, kept in the face cache by
what makes them, on the workers a build starts: a cold build makes each variant of each file
(its RGB object and its print-shop CMYK one) once and none in the main process; a rebuild after
a picture file changed redraws only the faces that show it and prepares only that picture; a
rebuild that redraws a face takes its unchanged picture from the cache. Every time, the files
are those of a cold build, sha256 for sha256.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from generator.deck.manifest import load
from generator.products.build import BuildRequest, build
from generator.products.pipeline import pictures
from generator.products.pipeline.face_cache import CACHE_DIR, PACK, RenderCache
from generator.products.render import faces, pdf_pictures
from generator.products.render.assets import art
from tests.conftest import ROOT

PRODUCTS = ("deck", "cards", "print", "pod")
ABOUT_THE_BUILD = {"changes.json", "build.json"}


def picture(path: Path, seed: int, size: tuple[int, int] = (300, 240)) -> None:
    """A PNG of coloured ellipses, different for every seed."""
    rng = random.Random(seed)
    im = Image.new("RGB", size, tuple(rng.randrange(256) for _ in range(3)))
    draw = ImageDraw.Draw(im)
    for _ in range(8):
        x, y = rng.randrange(size[0] - 40), rng.randrange(size[1] - 40)
        draw.ellipse((x, y, x + 60, y + 50), fill=tuple(rng.randrange(256) for _ in range(3)))
    im.save(path)


@pytest.fixture
def manifest(tmp_path) -> Path:
    """The shipped manifest (with the icon files its look names) with a picture on Steal and on
    Trade, and one on the back."""
    folder = tmp_path / "deck"
    shutil.copytree(ROOT / "art", folder / "art")
    for i, name in enumerate(("steal", "trade", "back")):
        picture(folder / "art" / f"{name}.png", i)
    text = (ROOT / "cards.yaml").read_text(encoding="utf-8")
    text = text.replace("    code: STEAL\n", "    code: STEAL\n    art: art/steal.png\n", 1)
    text = text.replace("    code: TRADE\n", "    code: TRADE\n    art: {file: art/trade.png, fit: cover}\n", 1)
    assert text.count("\nlook:\n") == 1
    text = text.replace("\nlook:\n", "\nlook:\n  back:\n    art: {file: art/back.png, fit: contain}\n", 1)
    (folder / "cards.yaml").write_text(text, encoding="utf-8")
    return folder / "cards.yaml"


def run(manifest: Path, out: Path, jobs: int = 1):
    faces.forget()  # as a new process: no face kept from an earlier build
    return build(load(manifest), BuildRequest(manifest, out, only=PRODUCTS, jobs=jobs,
                                              tts_url="https://example.invalid/x"))


def digests(out: Path) -> dict[str, str]:
    return {p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file() and CACHE_DIR not in p.relative_to(out).parts
            and p.relative_to(out).as_posix() not in ABOUT_THE_BUILD}


@pytest.fixture
def made(monkeypatch) -> list[tuple[str, bool]]:
    """Every picture object made in this process: (file name, CMYK or not)."""
    calls: list[tuple[str, bool]] = []
    real = pdf_pictures._make

    def counted(item, cmyk):
        calls.append((Path(item.path).name, cmyk is not None))
        return real(item, cmyk)

    monkeypatch.setattr(pdf_pictures, "_make", counted)
    pdf_pictures.forget()
    art.remember_colours({})  # nothing remembered matters: the files are new
    yield calls
    pdf_pictures.forget()


def test_a_cold_build_makes_each_picture_once_for_each_form_it_is_drawn_in(manifest, tmp_path, made):
    run(manifest, tmp_path / "out")
    # the RGB object (card images, print sheets) and DriveThruCards' CMYK one, of each file, once
    assert sorted(made) == sorted((f"{n}.png", cmyk) for n in ("steal", "trade", "back") for cmyk in (False, True))
    kept = RenderCache(tmp_path / "out")
    assert len(kept._pack(pictures.AREA).index) == 6 and len(kept._pack(pictures.COLOURS).index) == 3  # for the next build
    kept.close()


def test_a_cold_build_prepares_the_pictures_on_workers_not_here(manifest, tmp_path, made):
    if not hasattr(os, "fork"):
        pytest.skip("workers inherit the pictures where they are forked")
    run(manifest, tmp_path / "out", jobs=2)
    assert made == []  # every picture object came from the workers that prepared them
    cold = tmp_path / "cold-one-process"
    run(manifest, cold)
    assert digests(tmp_path / "out") == digests(cold)


def test_an_art_file_edit_redraws_its_faces_only_and_prepares_its_picture_only(manifest, tmp_path, made):
    out = tmp_path / "out"
    run(manifest, out)
    before = digests(out)
    made.clear()
    picture(manifest.parent / "art" / "trade.png", 99)
    built = run(manifest, out)
    assert built.redrawn["tgc"] == ["TRADE"]
    assert sorted(made) == [("trade.png", False), ("trade.png", True)]
    after = digests(out)
    assert after["cards/TRADE.png"] != before["cards/TRADE.png"] and after["cards/STEAL.png"] == before["cards/STEAL.png"]
    cold = tmp_path / "cold"
    run(manifest, cold)
    assert after == digests(cold)


def test_a_face_redrawn_for_its_text_takes_its_picture_from_the_cache(manifest, tmp_path, made):
    out = tmp_path / "out"
    run(manifest, out)
    made.clear()
    pdf_pictures.forget()  # as a new process: nothing remembered
    text = manifest.read_text(encoding="utf-8")
    old = "text: Take a card from a player of your choice."
    assert text.count(old) == 1
    manifest.write_text(text.replace(old, "text: Take any card from a player of your choice."), encoding="utf-8")
    built = run(manifest, out)
    assert built.redrawn["tgc"] == ["STEAL"]
    assert made == []  # its RGB and CMYK pictures came from the face cache
    cold = tmp_path / "cold"
    run(manifest, cold)
    assert digests(out) == digests(cold)


def test_a_rebuild_with_nothing_changed_reads_no_picture(manifest, tmp_path, made, monkeypatch):
    out = tmp_path / "out"
    run(manifest, out)
    made.clear()
    pdf_pictures.forget()
    loaded = []
    monkeypatch.setattr(pdf_pictures, "load", lambda data: loaded.append(data) or pdf_pictures.load(data))
    before = (out / CACHE_DIR / f"{pictures.AREA}{PACK}").read_bytes()
    built = run(manifest, out)
    assert built.redrawn["tgc"] == [] and made == [] and loaded == []
    # and the cache still holds every picture (kept, unread), for the next edit
    assert (out / CACHE_DIR / f"{pictures.AREA}{PACK}").read_bytes() == before


def test_a_picture_object_survives_the_cache_as_bytes(manifest):
    deck = load(manifest)
    item, = faces.face(deck.card("STEAL"), deck).images()
    for ink in (None, True):
        pic, rect = pdf_pictures._make(item, pdf_pictures.DEFAULT if ink else None)
        assert pdf_pictures.load(pdf_pictures.dump((pic, rect))) == (pic, rect)
    with pytest.raises(ValueError):
        pdf_pictures.load(b'["P0",[1,2,3,4],10,null]\nshort')


def test_an_art_file_edit_makes_only_the_tts_band_that_shows_it(manifest, tmp_path, monkeypatch):
    """The TTS sheets share one palette; each picture's colours have entries of their own in it
    (tts.SheetColours), and a cell is matched to the drawn colours and its own pictures' entries:
    a picture file changed re-compresses the one band (row of cards) that shows it, and the sheets
    are a cold build's."""
    from generator.products.render import png_bands

    made: list[int] = []
    band = png_bands.band
    monkeypatch.setattr(png_bands, "band", lambda im: made.append(im.height) or band(im))
    out, only = tmp_path / "out", ("deck", "tts")

    def build_tts(folder: Path):
        faces.forget()
        return build(load(manifest), BuildRequest(manifest, folder, only=only, jobs=1, tts_url="https://example.invalid/x"))

    build_tts(out)
    cold = len(made)
    before = digests(out)
    picture(manifest.parent / "art" / "trade.png", 99)
    build_tts(out)
    assert cold >= 8 and len(made) == cold + 1
    after = digests(out)
    # every sheet carries the new palette; the pixels of one band only were made again
    assert {p for p in after if after[p] != before[p]} == {p for p in after if p.startswith("tts/sheet-")}
    build_tts(tmp_path / "cold")
    assert after == digests(tmp_path / "cold")


def test_the_tts_sheets_of_a_deck_with_pictures_look_as_their_cells(manifest, tmp_path):
    """Each cell of a sheet, matched to the sheets' shared palette, stays within a level or two of
    the face's own TTS image (dithered in a palette of its own), seen from afar (blurred)."""
    from PIL import ImageChops, ImageFilter, ImageStat

    from generator.products import tts
    from generator.products.pipeline.rasters import standalone_images
    from generator.products.render.png import unpack_pixels
    from generator.products.render.profiles import TTS

    out = tmp_path / "out"
    faces.forget()
    deck = load(manifest)
    build(deck, BuildRequest(manifest, out, only=("tts",), jobs=1, tts_url="https://example.invalid/x"))
    cells = standalone_images(deck, "tts")
    errors = {}
    for sheet in tts.layout([c.code for c in deck.cards]):
        with Image.open(out / "tts" / sheet.filename) as im:
            drawn = im.convert("RGB")
        for slot, code in [*enumerate(sheet.keys), (sheet.hidden_slot, "back")]:
            x, y = sheet.cell(slot)
            cell = drawn.crop((x, y, x + tts.CELL_W, y + tts.CELL_H)).filter(ImageFilter.BoxBlur(2))
            own = unpack_pixels(cells[code], TTS.size).convert("RGB").filter(ImageFilter.BoxBlur(2))
            errors[code] = max(ImageStat.Stat(ImageChops.difference(cell, own)).mean)
    assert max(errors.values()) < 3.0 and sum(errors.values()) / len(errors) < 1.0, sorted(errors.items(), key=lambda e: -e[1])[:5]
    assert max(errors["STEAL"], errors["TRADE"], errors["back"]) < 3.0
