"""deck.json: the deck as data for other tools, the product `deck` of the build."""

from __future__ import annotations

from typing import Any

from generator.deck.deck_json import deck_json
from generator.deck.model import Deck
from generator.engine import options
from generator.products.output.outputs import Artifact, json_bytes
from generator.products.pipeline.context import BuildContext

DECK_JSON = "deck.json"


def deck_document(deck: Deck) -> dict[str, Any]:
    """deck.json: the deck (deck_json), its game with every rule option as the deck's rulebook
    prints it and the engine plays it by default (the manifest's `game.options` over the
    engine's defaults), so a build made by a version of the engine with other defaults says so."""
    doc = deck_json(deck)
    doc["game"]["options"] = options.Options.for_deck(deck).to_dict(changed_only=False)
    return doc


def build_deck_json(ctx: BuildContext) -> list[Artifact]:
    deck = ctx.deck
    return [ctx.target.write(DECK_JSON, json_bytes(deck_document(deck)), "json", cards=deck.printed)]
