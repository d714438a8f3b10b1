"""Golden images of a few faces, compared with a pixel tolerance.

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


@pytest.mark.parametrize("code", CODES)
def test_face_matches_golden(built, deck, code):
    name = "back.png" if code == "back" else file_names(deck)[code]
    got = Image.open(built / "cards" / name).convert("RGB")
    golden = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(parents=True, exist_ok=True)
        golden.write_bytes((built / "cards" / name).read_bytes())
    assert golden.exists(), f"no golden image {golden}; run with UPDATE_GOLDEN=1"
    want = Image.open(golden).convert("RGB")
    assert got.size == want.size
    diff = ImageChops.difference(got, want).convert("L").point(lambda v: 255 if v > LEVEL else 0)
    bad = diff.histogram()[255] / (got.width * got.height)
    assert bad <= SHARE, f"{code}: {bad:.2%} of pixels differ (run with UPDATE_GOLDEN=1 after an intended change)"
