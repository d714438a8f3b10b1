"""Card pictures for the rulebook: which faces it shows, and each as a data: URI.

The pictures are the rulebook profile of the build's one PDFium pass over the faces
(rendered.py, profiles.RULEBOOK): drawn from `faces.face`, the one definition of every card,
so `build --only rulebook` works, a stale PNG left from an earlier manifest can never be
embedded, and a picture cannot differ from the printed card except in size. Cropped at the
trim (no bleed), as a player sees the card.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass

from generator.deck.model import CardType, Deck
from generator.products.render.profiles import RULEBOOK


@dataclass(frozen=True)
class CardImage:
    """A card picture as a data: URI, with its pixel size for the <img> tag."""

    src: str
    width: int
    height: int


def sample_cards(deck: Deck) -> list[CardType]:
    """The cards the introduction shows: the first number card and the first dual-colour card."""
    firsts = (next((c for c in deck.cards if c.kind == kind), None) for kind in ("number", "dual"))
    return [c for c in firsts if c is not None]


def box_cards(deck: Deck) -> list[CardType]:
    """The cards "what's in the box" pictures: the first of each group it lists (a set's number
    cards of one colour, its dual cards of two, its wilds) and every reference and blank card."""
    seen: set[tuple] = set()
    out = []
    for c in deck.cards:
        group = (c.set, c.kind, c.colours if c.is_number else c.code if c.kind in ("reference", "blank") else ())
        if group not in seen:
            seen.add(group)
            out.append(c)
    return out


def rulebook_codes(deck: Deck) -> list[str]:
    """The faces the rulebook pictures: every wild, the quick-reference cards, the samples, the
    box's cards (box_cards), the back."""
    codes = [c.code for c in deck.cards if c.kind in ("wild", "reference")] + [c.code for c in sample_cards(deck)]
    return [*dict.fromkeys(codes + [c.code for c in box_cards(deck)]), "back"]


def rulebook_faces(ctx) -> list[str]:
    """The product record's `image_faces` (BuildContext -> codes): the faces the build's rulebook pictures."""
    return rulebook_codes(ctx.deck)


def card_image(png: bytes) -> CardImage:
    """A rulebook-profile PNG as an <img> source."""
    w, h = RULEBOOK.size
    return CardImage("data:image/png;base64," + base64.b64encode(png).decode("ascii"), w, h)
