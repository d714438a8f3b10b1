"""The README's "Changing how the cards look" builds what its picture shows, and every product
shows the walk-through's pictures and fonts, read back from the files."""

from __future__ import annotations

import os
import re
import shutil

import pytest
from PIL import Image, ImageChops

from generator.cli import main
from tests import look_walkthrough
from tests.conftest import MANIFEST

#: as the golden faces: at most this share of pixels may differ by more than LEVEL
SHARE, LEVEL = 0.002, 48


@pytest.fixture(scope="module")
def walked(tmp_path_factory):
    folder = tmp_path_factory.mktemp("look")
    shutil.copy(MANIFEST, folder / "cards.yaml")
    look_walkthrough.apply(folder)
    assert main(["build", "--manifest", str(folder / "cards.yaml"), "--out", str(folder / "output"),
                 "--only", "cards", "--only", "pod", "--pod", "dtc"]) == 0
    return folder / "output"


def test_the_readme_picture_is_what_the_walk_through_builds(walked, built_once):
    got = look_walkthrough.before_after(built_once("cards") / "cards", walked / "cards")
    if os.environ.get("UPDATE_GOLDEN") == "1":
        got.save(look_walkthrough.PICTURE, optimize=True)
    want = Image.open(look_walkthrough.PICTURE).convert("RGB")
    assert got.size == want.size
    diff = ImageChops.difference(got, want).convert("L").point(lambda v: 255 if v > LEVEL else 0)
    assert diff.histogram()[255] / (got.width * got.height) <= SHARE, "run with UPDATE_GOLDEN=1 after an intended change"


def test_the_walk_through_changes_only_what_it_says(walked, built_once):
    before = built_once("cards") / "cards"
    changed = {p.name for p in (walked / "cards").glob("*.png") if (before / p.name).read_bytes() != p.read_bytes()}
    numbers = {p.name for p in before.glob("*.png") if re.fullmatch(r"[CGMY]+-?\d+\.png", p.name)}
    assert numbers and numbers <= changed  # the corner moved on every number and dual card
    assert {"STEAL.png", "back.png"} <= changed
    wild_texts = {"SKIP.png", "REV.png"}
    assert wild_texts <= changed  # the wilds' text font
    assert not changed & {"REF.png", "REFW.png", "BLANK.png"}  # the rest is as it was


def test_the_print_shop_file_embeds_the_fonts_and_places_the_pictures(walked):
    pdf = (walked / "pod" / "county-uppy-drivethrucards.pdf").read_bytes()
    fonts = {name.split(b"+")[-1] for name in re.findall(rb"/BaseFont\s*/([A-Za-z0-9+-]+)", pdf)}
    # the designer's fonts, embedded as subsets (a six-letter tag before each name), beside the built-in face
    assert {b"BitstreamVeraSans-Oblique", b"BitstreamVeraSans-BoldOblique", b"DejaVuSans"} <= fonts
    assert re.search(rb"/BaseFont\s*/[A-Z]{6}\+BitstreamVeraSans-Oblique", pdf)
    assert pdf.count(b"/Subtype /Image") == 1  # the Steal picture, once however many copies show it
    assert b"/DeviceCMYK" in pdf and b"/DeviceRGB" not in pdf  # CMYK only in the print-shop file
