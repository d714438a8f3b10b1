"""output/tts/: the Tabletop Simulator export, deck sheets and a saved object holding the whole deck.

TTS reads a custom deck from sheets of at most 10×7 card images; the last slot of each sheet
shows a card hidden in another player's hand, so it holds the back and a sheet carries at
most 69 faces. Sheets stay within 4096 px, the widest texture TTS loads everywhere.
"""

from __future__ import annotations

import hashlib
import io
import math
from dataclasses import dataclass
from typing import Any

from PIL import Image

from generator.deck.model import Deck
from generator.products.context import BuildContext
from generator.products.face_cache import key
from generator.products.outputs import Artifact, json_bytes, write_artifact
from generator.products.png import encode, palette_for
from generator.products.rendered import cache, deck_colours, images, run_jobs
from generator.products.units import TRIM_H, TRIM_W

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


# --- the product -----------------------------------------------------------------------------

def _cell(png: bytes, colours: tuple[str, ...]) -> bytes:
    """Worker: a TTS cell from a print PNG: the trim reduced to the sheet's cell size, in the
    deck-wide palette, so cells paste into one palette sheet without another quantize."""
    im = Image.open(io.BytesIO(png)).convert("RGB")
    ox, oy = round((im.width - TRIM_W) / 2), round((im.height - TRIM_H) / 2)
    small = im.crop((ox, oy, ox + int(TRIM_W), oy + int(TRIM_H))).resize((CELL_W, CELL_H), Image.Resampling.BOX)
    return encode(small, palette_for(list(colours)), dpi=72, level=1)


def tts_cells(ctx: BuildContext) -> dict[str, bytes]:
    """Face key -> TTS cell, made from the card images, cached by their bytes."""
    rendered = images(ctx, "tgc")
    colours = deck_colours(ctx)
    store = cache(ctx)
    out: dict[str, bytes] = {}
    todo = []
    for face_key, png in rendered.items():
        k = key("tts-cell-1", hashlib.sha256(png).hexdigest(), colours)
        data = store.get("tts-cell", k)
        if data is None:
            todo.append((face_key, k, png))
        else:
            out[face_key] = data
    for (face_key, k, _), data in zip(todo, run_jobs(ctx, _cell, [(png, colours) for _, _, png in todo], "tts cells")):
        store.put("tts-cell", k, data)
        out[face_key] = data
    store.prune("tts-cell")
    return out


def _sheet_png(cells: list[bytes], sheet: Sheet, hidden: bytes) -> bytes:
    """Worker: one deck sheet. Cells share the deck palette, so the sheet is a palette image."""
    first = Image.open(io.BytesIO(hidden))
    im = Image.new("P", sheet.size, 0)
    im.putpalette(first.getpalette() or [])
    for slot, data in enumerate(cells):
        im.paste(Image.open(io.BytesIO(data)), sheet.cell(slot))
    im.paste(first, sheet.cell(sheet.hidden_slot))
    return encode(im, dpi=72)


def build_tts(ctx: BuildContext) -> list[Artifact]:
    """output/tts/: deck sheets, the back, and county-uppy.json (a TTS saved object)."""
    cells_by_key = tts_cells(ctx)
    keys = [c.code for c in ctx.deck.cards]
    sheets = layout(keys)
    store = cache(ctx)
    hidden = cells_by_key["back"]
    jobs, todo, arts = [], [], []
    done: dict[int, bytes] = {}
    for sheet in sheets:
        cells = [cells_by_key[k] for k in sheet.keys]
        k = key("tts-sheet-1", sheet, cells, hidden)
        data = store.get("tts-sheet", k)
        if data is None:
            jobs.append((cells, sheet, hidden))
            todo.append((sheet.number, k))
        else:
            done[sheet.number] = data
    for (number, k), data in zip(todo, run_jobs(ctx, _sheet_png, jobs, "tts sheets")):
        store.put("tts-sheet", k, data)
        done[number] = data
    store.prune("tts-sheet")
    for sheet in sheets:
        arts.append(write_artifact(ctx.out, f"tts/{sheet.filename}", done[sheet.number], "png", cards=len(sheet.keys)))
    arts.append(write_artifact(ctx.out, "tts/back.png", hidden, "png", cards=1))
    url = ctx.tts_url.rstrip("/") if ctx.tts_url else (ctx.target.resolve() / "tts").as_uri()
    obj = saved_object(ctx.deck, sheets, url)
    arts.append(write_artifact(ctx.out, "tts/county-uppy.json", json_bytes(obj), "tts", cards=ctx.deck.printed))
    return arts
