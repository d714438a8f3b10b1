"""The cards of a game as the page shows them (name, rules text, colours with their shapes, value),
and the quick reference's lines for the page's "how to play".

Public knowledge (the deck list), served once as /deck.json and embedded in a replay file, so
table messages carry card codes only.
"""

from __future__ import annotations

from typing import Any

from generator.deck.quickref import quick_reference
from generator.play.describe import SHAPES


def deck_json(game, images: set[str] | frozenset[str] = frozenset()) -> dict[str, Any]:
    """{"target", "cards": {code: {...}}} for every card the game can deal; `images`: codes with a card image."""
    cards = {}
    words = game.deck.words  # the table shows text: inline icons in words
    for code in game.codes:
        card = game.deck.card(code)
        colours = [game.deck.colour(c) for c in card.colours] if card.is_number else []
        cards[code] = {
            "name": words(card.name), "text": words(card.text or ""), "number": card.is_number,
            "value": card.value if card.is_number else None,
            "colours": [{"name": c.name, "rgb": c.rgb, "shape": SHAPES.get(c.shape, "?")} for c in colours],
            "image": code in images,
        }
    ref = quick_reference(game.deck)
    dealt = {game.codes[c] for c in game.edition_cards}
    rules = {"goal": ref.goal, "turn": list(ref.turn), "penalties": list(ref.penalties),
             "wilds": [{"name": words(w.name), "short": words(w.short)} for w in ref.wilds if w.code in dealt]}
    return {"name": game.deck.params.name, "target": game.target, "cards": cards, "rules": rules}
