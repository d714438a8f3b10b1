"""Card pictures for the rulebook, drawn by the same face code as output/cards/*.png.

The rulebook draws its own small copies from `faces.face` (the one definition of every card)
instead of reading output/cards/: so `build --only rulebook` works, a stale PNG left from an
earlier manifest can never be embedded, and the pictures cannot differ from the printed cards
except in size. Cropped at the trim (no bleed), as a player sees the card.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

from generator.deck.model import Deck
from generator.products import faces, png
from generator.products.units import TRIM_H, TRIM_W

#: Pixels per dot (a dot is 1/300 in): 0.4 makes a 300 x 420 px card, sharp at 2.5x on a
#: screen 120 px wide and at over 250 dpi on paper.
SCALE = 0.4


@dataclass(frozen=True)
class CardImage:
    """A card picture as a data: URI, with its pixel size for the <img> tag."""

    src: str
    width: int
    height: int


def card_image(deck: Deck, code: str, scale: float = SCALE) -> CardImage:
    """The face of card `code` (or "back") as a small PNG data: URI. Same deck, same bytes."""
    face = faces.back_face(deck) if code == "back" else faces.face(deck.card(code), deck)
    size = (round(TRIM_W * scale), round(TRIM_H * scale))
    im = png.rasterize(face, size, scale)
    data = png.encode(im, png.palette_for(face.colours()), dpi=round(png.DPI * scale))
    return CardImage("data:image/png;base64," + base64.b64encode(data).decode("ascii"), size[0], size[1])


def card_images(deck: Deck, codes: list[str], scale: float = SCALE) -> dict[str, CardImage]:
    return {code: card_image(deck, code, scale) for code in codes}
