"""output/cards/: one 825×1125 PNG per distinct face (The Game Crafter's poker template), back.png,
and index.json mapping card codes to file names."""

from __future__ import annotations

import re

from generator.deck.model import Deck
from generator.products.pipeline.context import BuildContext
from generator.products.output.outputs import Artifact, json_bytes
from generator.products.render.profiles import TGC
from generator.products.pipeline.rasters import images
from generator.products.render.units import BLEED

_WORDS = {"+": "plus", "-": "minus", "/": "slash", "=": "eq", "*": "times", ".": "dot", " ": "_"}


def safe_name(code: str) -> str:
    """A file name stem for a card code, the same on every system.

    Letters and digits stay; a minus sign before a digit stays (`C-2`); every other
    character becomes a word between underscores: `+/-` -> `plus_slash_minus`,
    `=15` -> `eq_15`, `+1` -> `plus_1`.
    """
    parts: list[str] = []
    for i, ch in enumerate(code):
        nxt = code[i + 1] if i + 1 < len(code) else ""
        if ch.isascii() and ch.isalnum():
            parts.append(ch)
        elif ch == "-" and nxt.isdigit() and i > 0:
            parts.append(ch)
        else:
            parts.append(f"_{_WORDS.get(ch, f'u{ord(ch):04x}')}_")
    return re.sub("_+", "_", "".join(parts)).strip("_") or "card"


def file_names(deck: Deck) -> dict[str, str]:
    """Card code -> image file name; names that would clash (case-insensitively) get a suffix."""
    names: dict[str, str] = {}
    taken = {"back"}
    for card in deck.cards:
        stem = safe_name(card.code)
        base, n = stem, 2
        while stem.lower() in taken:
            stem, n = f"{base}_{n}", n + 1
        taken.add(stem.lower())
        names[card.code] = f"{stem}.png"
    return names


def write_images(ctx: BuildContext, folder: str, profile: str) -> list[Artifact]:
    rendered = images(ctx, profile)
    names = file_names(ctx.deck)
    arts = [ctx.target.write(f"{folder}/{names[c.code]}", rendered[c.code], "png", cards=1)
            for c in ctx.deck.cards]
    arts.append(ctx.target.write(f"{folder}/back.png", rendered["back"], "png", cards=1))
    return arts


def build_cards(ctx: BuildContext) -> list[Artifact]:
    """output/cards/: one 825×1125 PNG per distinct face, back.png, and index.json (code -> file)."""
    arts = write_images(ctx, "cards", "tgc")
    names = file_names(ctx.deck)
    w, h = TGC.size
    index = {
        "size_px": [w, h], "dpi": 300, "bleed_px": round(BLEED, 1), "safe_px": round(BLEED, 1),
        "naming": "letters and digits kept; a minus before a digit kept (C-2); any other character "
                  "becomes a word between underscores: + plus, - minus, / slash, = eq (+/- -> plus_slash_minus)",
        "back": "back.png",
        "cards": {c.code: {"file": names[c.code], "name": c.name, "kind": c.kind, "set": c.set, "copies": c.copies}
                  for c in ctx.deck.cards},
    }
    arts.append(ctx.target.write("cards/index.json", json_bytes(index), "json", cards=len(ctx.deck.cards)))
    return arts
