"""output/deck.json: the validated deck, every edition expanded to card instances, for other tools."""

from __future__ import annotations

from typing import Any

from generator.deck.model import CardType, Deck


def card_json(card: CardType, deck: Deck) -> dict[str, Any]:
    """A card for other tools: its name and text in plain words (inline icons said as words,
    deck/icons.py)."""
    out: dict[str, Any] = {"code": card.code, "kind": card.kind, "set": card.set, "name": deck.words(card.name),
                           "copies": card.copies}
    if card.colours:
        out["colours"] = list(card.colours)
    if card.value is not None:
        out["value"] = card.value
    if card.effect is not None:
        out["effect"] = {"name": card.effect.name, "params": dict(card.effect.params)}
    if card.text:
        out["text"] = deck.words(card.text)
    return out


def deck_json(deck: Deck) -> dict[str, Any]:
    p = deck.params
    return {
        "game": {"name": p.name, "target": p.target, "hand_size": p.hand_size, "players": {"min": p.min_players, "max": p.max_players}},
        "colours": [{"name": c.name, "code": c.letter, "print": c.rgb, "shape": c.shape,
                     **({"cmyk": list(c.cmyk)} if c.cmyk else {})} for c in deck.colours],
        "sets": [{"key": s.key, "name": s.name, "interior": s.interior, "printed": deck.set_totals()[s.key]} for s in deck.sets],
        "printed": deck.printed,
        "cards": [card_json(c, deck) for c in deck.cards],
        "editions": {
            e.key: {
                "name": e.name,
                "description": e.description,
                "count": deck.edition_count(e.key),
                "by_kind": deck.edition_breakdown(e.key),
                "cards": [c.code for c in deck.edition_cards(e.key)],
            }
            for e in deck.editions
        },
    }
