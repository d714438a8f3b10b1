"""output/tts/: the Tabletop Simulator export, deck sheets and a saved object holding the whole deck.

TTS reads a custom deck from sheets of at most 10×7 card images; the last slot of each sheet
shows a card hidden in another player's hand, so it holds the back and a sheet carries at
most 69 faces. Sheets stay within 4096 px, the widest texture TTS loads everywhere.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

from PIL import Image

from generator.deck.model import Deck
from generator.products.context import BuildContext
from generator.products.face_cache import key
from generator.products.outputs import Artifact, json_bytes, write_artifact
from generator.products.png import RENDERER_VERSION, encode, palette_for, unpack_pixels
from generator.products.profiles import TTS, TTS_COLUMNS, TTS_MAX_WIDTH
from generator.products.rasters import images
from generator.products.rendered import background, cache, face_keys, face_of

MAX_COLS, MAX_ROWS = TTS_COLUMNS, 7
MAX_WIDTH = TTS_MAX_WIDTH
CELL_W, CELL_H = TTS.size  # 409×573


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

def deck_colours(ctx: BuildContext) -> tuple[str, ...]:
    """Every colour any face uses, in first-use order: the palette of the deck sheets.

    (The faces were drawn once already, by the check that their texts fit: faces.face keeps them.)
    """
    seen: dict[str, None] = {}
    for code in face_keys(ctx):
        seen.update(dict.fromkeys(face_of(ctx, code).colours()))
    return tuple(seen)


def _sheet_png(cells: list[bytes], sheet: Sheet, hidden: bytes, colours: tuple[str, ...]) -> bytes:
    """Worker: one deck sheet in the deck-wide palette; each cell PNG comes in its face's own."""
    palette = palette_for(list(colours))
    im = Image.new("P", sheet.size, 0)
    im.putpalette(palette.getpalette() or [])
    for slot, data in enumerate([*cells, hidden]):
        im.paste(_in_palette(unpack_pixels(data, TTS.size), palette),
                 sheet.cell(sheet.hidden_slot if slot == len(cells) else slot))
    return encode(im, dpi=72)


def _in_palette(cell: Image.Image, palette: Image.Image) -> Image.Image:
    """A palette image's pixels as indices into `palette`: each of its colours to the nearest there.

    Only the cell's (at most 256) palette entries are matched, not its pixels: a sheet of 70
    cells costs 70 small look-ups instead of quantizing 16 million pixels."""
    entries = bytes(cell.getpalette() or [])
    swatch = Image.frombytes("RGB", (len(entries) // 3, 1), entries)
    lut = list(swatch.quantize(palette=palette, dither=Image.Dither.NONE).tobytes())
    return cell.point(lut + [0] * (256 - len(lut)))


def build_tts(ctx: BuildContext) -> Callable[[], list[Artifact]]:
    """output/tts/: deck sheets, the back, and county-uppy.json (a TTS saved object); the sheets
    the cache lacks are made by workers, and the function returned waits for them."""
    cells_by_key = images(ctx, "tts")
    keys = [c.code for c in ctx.deck.cards]
    sheets = layout(keys)
    store = cache(ctx)
    colours = deck_colours(ctx)
    hidden = cells_by_key["back"]
    jobs, todo, arts = [], [], []
    done: dict[int, bytes] = {}
    faces = face_keys(ctx)  # a cell is its face drawn in the TTS profile (rasters.py): its key stands for its pixels
    for sheet in sheets:
        cells = [cells_by_key[k] for k in sheet.keys]
        k = key("tts-sheet-4", sheet, RENDERER_VERSION, TTS, [faces[c] for c in sheet.keys], faces["back"], colours)
        data = store.get("tts-sheet", k)
        if data is None:
            jobs.append((cells, sheet, hidden, colours))
            todo.append((sheet.number, k))
        else:
            done[sheet.number] = data
    pending = background(ctx, _sheet_png, jobs, "tts sheets")
    back_png = encode(unpack_pixels(hidden, TTS.size), dpi=TTS.dpi)
    arts.append(write_artifact(ctx.out, "tts/back.png", back_png, "png", cards=1))
    url = ctx.tts_url.rstrip("/") if ctx.tts_url else (ctx.target.resolve() / "tts").as_uri()
    obj = saved_object(ctx.deck, sheets, url)
    arts.append(write_artifact(ctx.out, "tts/county-uppy.json", json_bytes(obj, indent=None), "tts", cards=ctx.deck.printed))

    def finish() -> list[Artifact]:
        for (number, k), data in zip(todo, pending()):
            store.put("tts-sheet", k, data)
            done[number] = data
        store.prune("tts-sheet")
        return arts + [write_artifact(ctx.out, f"tts/{sheet.filename}", done[sheet.number], "png",
                                      cards=len(sheet.keys)) for sheet in sheets]
    return finish
