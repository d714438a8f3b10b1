"""Tabletop Simulator export: deck sheets and a saved object holding the whole deck.

TTS reads a custom deck from sheets of at most 10×7 card images; the last slot of each sheet
shows a card hidden in another player's hand, so it holds the back and a sheet carries at
most 69 faces. Sheets stay within 4096 px, the widest texture TTS loads everywhere.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from generator.model import Deck
from generator.units import TRIM_H, TRIM_W

MAX_COLS, MAX_ROWS = 10, 7
MAX_WIDTH = 4096
CELL_W = MAX_WIDTH // MAX_COLS  # 409
CELL_H = round(CELL_W * TRIM_H / TRIM_W)  # 573


@dataclass(frozen=True)
class Sheet:
    """One deck sheet: the faces it shows, in slot order, and its grid."""

    number: int  #: 1-based; also the TTS CustomDeck id
    keys: tuple[str, ...]
    cols: int
    rows: int

    @property
    def hidden_slot(self) -> int:
        return self.cols * self.rows - 1

    @property
    def size(self) -> tuple[int, int]:
        return self.cols * CELL_W, self.rows * CELL_H

    def cell(self, slot: int) -> tuple[int, int]:
        row, col = divmod(slot, self.cols)
        return col * CELL_W, row * CELL_H

    @property
    def filename(self) -> str:
        return f"sheet-{self.number}.png"


def layout(keys: list[str]) -> list[Sheet]:
    """Faces on sheets of at most 10×7, keeping the last slot of each for the hidden card."""
    per = MAX_COLS * MAX_ROWS - 1
    sheets = []
    for n, start in enumerate(range(0, len(keys), per), 1):
        chunk = tuple(keys[start:start + per])
        cols = min(MAX_COLS, len(chunk) + 1)
        rows = math.ceil((len(chunk) + 1) / cols)
        sheets.append(Sheet(n, chunk, cols, rows))
    return sheets


def saved_object(deck: Deck, sheets: list[Sheet], url: str) -> dict[str, Any]:
    """A TTS saved object (Objects/Saved Objects/*.json): one custom deck of every printed card.

    `url` is prefixed to each sheet's file name; it must be where TTS can load the images.
    """
    where = {key: (s.number, i) for s in sheets for i, key in enumerate(s.keys)}
    custom = {
        str(s.number): {"FaceURL": f"{url}/{s.filename}", "BackURL": f"{url}/back.png", "NumWidth": s.cols,
                        "NumHeight": s.rows, "BackIsHidden": True, "UniqueBack": False, "Type": 0}
        for s in sheets
    }
    cards, ids = [], []
    for card in deck.cards:
        number, slot = where[card.code]
        card_id = number * 100 + slot
        for _ in range(card.copies):
            ids.append(card_id)
            cards.append({
                "Name": "Card", "Nickname": card.name, "Description": card.text, "GMNotes": card.code,
                "CardID": card_id, "CustomDeck": {str(number): custom[str(number)]},
                "Transform": _transform(), "Hands": True, "SidewaysCard": False,
            })
    return {
        "SaveName": deck.params.name, "GameMode": "", "Date": "", "Gravity": 0.5, "PlayArea": 0.5,
        "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
        "ObjectStates": [{
            "Name": "DeckCustom", "Nickname": deck.params.name, "Description": f"{len(ids)} cards",
            "Transform": _transform(), "Hands": False, "SidewaysCard": False,
            "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": cards,
        }],
        "TabStates": {}, "VersionNumber": "",
    }


def _transform() -> dict[str, float]:
    return {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}
