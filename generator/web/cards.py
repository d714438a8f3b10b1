"""The cards of a game as the page shows them (name, rules text, colours with their shapes, value),
and the quick reference's lines for the page's "how to play".

Public knowledge (the deck list), served once as /deck.json and embedded in a replay file, so
table messages carry card codes only.
"""

from __future__ import annotations

from dataclasses import asdict
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
            "name": words(card.name, card), "text": words(card.text or "", card), "number": card.is_number,
            "value": card.value if card.is_number else None,
            "colours": [{"name": c.name, "rgb": c.rgb, "shape": SHAPES.get(c.shape, "?")} for c in colours],
            "image": code in images,
        }
    ref = quick_reference(game.deck, asdict(game.options))
    dealt = {game.codes[c] for c in game.edition_cards}
    rules = {"goal": ref.goal, "turn": list(ref.turn), "penalties": list(ref.penalties),
             "wilds": [{"name": words(w.name), "short": words(w.short)} for w in ref.wilds if w.code in dealt],
             "variants": variant_lines(game)}
    return {"name": game.deck.params.name, "target": game.target, "cards": cards, "rules": rules}


def variant_lines(game) -> list[str]:
    """How to play the variants in force (docs/rules.md R7), for the page's "how to play"."""
    o = game.options
    lines = []
    if o.teams:
        evens = ", ".join(str(s) for s in range(0, game.players, 2))
        odds = ", ".join(str(s) for s in range(1, game.players, 2))
        hit = ("only the other team's players owe a discard" if o.sixteen_hits == "opponents"
               else "every other player owes a discard, your teammates too")
        lines += [f"Teams: seats {evens} are team 0, seats {odds} team 1.",
                  "Before the first card of your turn a teammate still in may give you one card of their "
                  "choice; at most one card a turn, never between the two plays of a Play 2.",
                  f"When a card makes exactly {game.target}, {hit}.",
                  "A team wins when every player of the other team is out, even if some of its own are out too."]
    if o.speed_seconds:
        lines += [f"SPEED: you have {o.speed_seconds:g} s for each play, shown as a clock. Late costs one discard, "
                  "then you still play, with a new clock. A card played cannot be taken back; bots are never late."]
    return lines
