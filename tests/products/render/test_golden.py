"""Golden images of a few faces, compared with a pixel tolerance: the shipped manifest without
its `look:` section (the built-in layout and glyphs) and the shipped manifest itself (its wild
glyphs drawn from the icon files beside it); and the two builds compared face by face.

After an intended change to how cards look, regenerate them with UPDATE_GOLDEN=1.
"""

from __future__ import annotations

import os

import pytest
from PIL import Image, ImageChops

from generator.products.cards import file_names
from tests.conftest import ROOT

GOLDEN = ROOT / "tests" / "golden" / "faces"
CODES = ["C6", "GM-4", "x2", "PLAY2", "REF", "REFW", "BLANK", "back"]
#: at most this share of pixels may differ by more than LEVEL in some channel
SHARE, LEVEL = 0.002, 48


@pytest.mark.parametrize("look", ["without look", "shipped"])
@pytest.mark.parametrize("code", CODES)
def test_face_matches_golden(request, deck, code, look):
    built = request.getfixturevalue("built_without_look" if look == "without look" else "built")
    name = "back.png" if code == "back" else file_names(deck)[code]
    got = Image.open(built / "cards" / name).convert("RGB")
    golden = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN") == "1" and look == "without look":
        GOLDEN.mkdir(parents=True, exist_ok=True)
        golden.write_bytes((built / "cards" / name).read_bytes())
    assert golden.exists(), f"no golden image {golden}; run with UPDATE_GOLDEN=1"
    want = Image.open(golden).convert("RGB")
    assert got.size == want.size
    diff = ImageChops.difference(got, want).convert("L").point(lambda v: 255 if v > LEVEL else 0)
    bad = diff.histogram()[255] / (got.width * got.height)
    assert bad <= SHARE, f"{code}: {bad:.2%} of pixels differ (run with UPDATE_GOLDEN=1 after an intended change)"


#: How far a face of the shipped manifest (wild glyphs from art/icons/) may differ from the same
#: face without its `look:` section (glyphs from the typeface): no channel of any pixel by more
#: than ICON_MAX of 255, at most ICON_SHARE of the face's pixels by more than ICON_EDGE (a glyph's
#: edge anti-aliased a pixel over: the icon is a path, the glyph text, and a parameter after an
#: icon starts at a rounded position). Measured: at most 57 of 255, at most 274 pixels of 928,125
#: (0.03%, on +1) over 32.
ICON_MAX, ICON_EDGE, ICON_SHARE = 80, 32, 0.001


def test_the_icon_files_give_the_same_faces(built, built_without_look, deck):
    """Every card image of the shipped manifest against the same manifest without `look:`: the
    faces without a wild glyph byte for byte, the wilds within the stated tolerance."""
    names = file_names(deck)
    wilds = {names[c.code] for c in deck.cards if c.kind == "wild"}
    pngs = sorted(p.name for p in (built_without_look / "cards").glob("*.png"))
    assert pngs == sorted(p.name for p in (built / "cards").glob("*.png")) and len(pngs) == len(names) + 1
    for name in pngs:
        a, b = (built_without_look / "cards" / name).read_bytes(), (built / "cards" / name).read_bytes()
        if name not in wilds:
            assert a == b, name
            continue
        got, want = Image.open(built / "cards" / name).convert("RGB"), Image.open(built_without_look / "cards" / name).convert("RGB")
        red, green, blue = ImageChops.difference(got, want).split()
        off = ImageChops.lighter(red, ImageChops.lighter(green, blue)).histogram()  # each pixel's worst channel
        worst, share = max(v for v in range(256) if off[v]), sum(off[ICON_EDGE + 1:]) / (got.width * got.height)
        assert worst <= ICON_MAX and share <= ICON_SHARE, (name, worst, share)
        assert worst > 0, name  # the wild's glyph is drawn from its icon file, not the typeface
