"""The README's first picture, docs/cards.png, made from a build's card images: seven faces that
show the deck (a number, two duals, two wilds, the quick reference and the back), each cut at
its trim with rounded corners, as a player holds them. tests/test_readme.py compares it with the
file; `UPDATE_GOLDEN=1` rewrites it after an intended change to how the cards look."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import ROOT

PICTURE = ROOT / "docs" / "cards.png"
#: The cards shown, left to right: cyan 5, the 6 and the -4 of the chaos duals, x2 and Skip, the
#: quick reference, the back.
CODES = ("C5.png", "GM6.png", "MC-4.png", "x2.png", "SKIP.png", "REF.png", "back.png")
HEIGHT = 300  #: each card's trim, in pixels
GAP = 12
RADIUS = 3.0 / 88.9  #: a poker card's rounded corner (3 mm), as a share of its height


def picture(cards: Path):
    """The picture from a build's cards/ folder."""
    from PIL import Image, ImageDraw

    from generator.products.render.units import BLEED

    b = round(BLEED)
    faces = []
    for name in CODES:
        im = Image.open(cards / name).convert("RGB")
        trim = im.crop((b, b, im.width - b, im.height - b))
        faces.append(trim.resize((round(trim.width * HEIGHT / trim.height), HEIGHT), Image.Resampling.LANCZOS))
    width = sum(f.width for f in faces) + GAP * (len(faces) + 1)
    out = Image.new("RGBA", (width, HEIGHT + 2 * GAP), (0, 0, 0, 0))
    x = GAP
    for face in faces:
        mask = Image.new("L", face.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, face.width - 1, face.height - 1), round(RADIUS * HEIGHT), fill=255)
        out.paste(face, (x, GAP), mask)
        x += face.width + GAP
    return out
