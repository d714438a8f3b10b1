"""output/tts/: the Tabletop Simulator export, deck sheets and a saved object holding the whole deck.

TTS reads a custom deck from sheets of at most 10×7 card images; the last slot of each sheet
shows a card hidden in another player's hand, so it holds the back and a sheet carries at
most 69 faces. Sheets stay within 4096 px, the widest texture TTS loads everywhere.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from generator.deck.model import Deck
from generator.products.render import png_bands
from generator.products.pipeline.context import BuildContext
from generator.products.pipeline.keys import code_version, key
from generator.products.output.outputs import Artifact, json_bytes
from generator.products.render import palette
from generator.products.render.assets import art
from generator.products.render.profiles import TTS, TTS_COLUMNS, TTS_MAX_WIDTH
from generator.products.pipeline.rasters import image_keys, images
from generator.products.pipeline.rendered import background, cache, face_keys, face_of

if TYPE_CHECKING:
    from PIL import Image

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
    """A TTS saved object (Objects/Saved Objects/*.json): one deck per edition, ready to shuffle
    and deal, and beside them the quick-reference cards and the blank cards, each a deck of its
    own; every card named (nickname) and described (its text) as printed.

    `url` is prefixed to each sheet's file name; it must be where TTS can load the images.
    """
    where = {key: (s.number, i) for s in sheets for i, key in enumerate(s.keys)}
    custom = {
        str(s.number): {"FaceURL": f"{url}/{s.filename}", "BackURL": f"{url}/back.png", "NumWidth": s.cols,
                        "NumHeight": s.rows, "BackIsHidden": True, "UniqueBack": False, "Type": 0}
        for s in sheets
    }

    def card_object(card, x: float) -> dict[str, Any]:
        number, slot = where[card.code]
        return {"Name": "Card", "Nickname": deck.words(card.name, card), "Description": deck.words(card.text, card), "GMNotes": card.code,
                "CardID": number * 100 + slot, "CustomDeck": {str(number): custom[str(number)]},
                "Transform": _transform(x), "Hands": True, "SidewaysCard": False}

    def pile(name: str, description: str, cards: list, x: float) -> dict[str, Any]:
        objects = [card_object(card, x) for card in cards for _ in range(card.copies)]
        if len(objects) == 1:  # TTS holds a single card as a card, not a deck
            return objects[0]
        used = {str(o["CardID"] // 100) for o in objects}
        return {"Name": "DeckCustom", "Nickname": name, "Description": f"{description} ({len(objects)} cards)".strip(),
                "Transform": _transform(x), "Hands": False, "SidewaysCard": False,
                "DeckIDs": [o["CardID"] for o in objects], "CustomDeck": {n: custom[n] for n in sorted(used, key=int)},
                "ContainedObjects": objects}

    by_code = {c.code: c for c in deck.cards}
    piles = [(e.name, e.description, [by_code[code] for code in e.codes]) for e in deck.editions]
    piles += [(name, what, cards) for name, what, kind in (
        ("Quick reference", "one for each player", "reference"), ("Blank cards", "write your own", "blank"))
        if (cards := [c for c in deck.cards if c.kind == kind])]
    return {
        "SaveName": deck.params.name, "GameMode": "", "Date": "", "Gravity": 0.5, "PlayArea": 0.5,
        "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
        "ObjectStates": [pile(name, what, cards, PILE_SPACING * i) for i, (name, what, cards) in enumerate(piles)],
        "TabStates": {}, "VersionNumber": "",
    }


#: TTS units between neighbouring piles on the table (a card is about 2.2 wide).
PILE_SPACING = 3.0


def _transform(x: float = 0.0) -> dict[str, float]:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
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


@dataclass(frozen=True)
class SheetColours:
    """The one palette of the deck sheets (768 bytes), and the entries each face's cell is matched
    to (None: every entry).

    A deck without pictures: its colours and their blends (deck_colours), every cell matched to
    all of them. A deck with pictures: the colours the faces draw and their blends, then each
    picture's colours in entries of their own (palette.slotted, in the order the faces first show
    the pictures, by file), a cell matched to the drawn colours and its own pictures' entries
    only. A picture file edited then changes its own entries and the bands that show it, not the
    rest: the other bands' pixels are as they were, and the sheets get the new palette. Where the
    pictures' colours leave no room for the drawn ones, the deck-wide way."""

    palette: bytes
    own: dict[str, tuple[int, ...]] | None
    colours: tuple[str, ...]  #: the deck-wide way's colours (deck_colours), () for slots


def sheet_colours(ctx: BuildContext) -> SheetColours:
    """The deck sheets' palette and each cell's entries (SheetColours)."""
    slots: dict[str, tuple[str, ...]] = {}  # picture file -> its colours, as many as PICTURE_COLOURS at least
    shown: dict[str, list[str]] = {}  # face code -> its pictures' files
    drawn: dict[str, None] = {}
    pairs: dict[tuple[str, str], None] = {}  # the drawn colours that meet on a face: its edges blend them
    for code in face_keys(ctx):
        face = face_of(ctx, code)
        own = face.drawn_colours()
        drawn.update(dict.fromkeys(own))
        pairs.update(dict.fromkeys(tuple(sorted((a, b))) for i, a in enumerate(own) for b in own[i + 1:]))
        for item in face.images():
            path = str(item.path)
            if path not in slots:
                colours = tuple(item.colours()) or ("#000000",)
                slots[path] = colours + colours[-1:] * (art.PICTURE_COLOURS - len(colours))
            shown.setdefault(code, []).append(path)
    made = palette.slotted(tuple(drawn), tuple(pairs), tuple(slots.values())) if slots else None
    if made is None:
        colours = deck_colours(ctx)
        return SheetColours(palette.palette_bytes(list(colours)), None, colours)
    flat, shared = made
    first, at = {}, shared
    for path, colours in slots.items():
        first[path] = at
        at += len(colours)
    own = {code: (*range(shared), *(i for path in dict.fromkeys(shown.get(code, ()))
                                    for i in range(first[path], first[path] + len(slots[path]))))
           for code in face_keys(ctx)}
    return SheetColours(flat, own, ())


def _in_palette(cell: Image.Image, palette: Image.Image, entries: tuple[int, ...] | None = None) -> Image.Image:
    """A palette image's pixels as indices into `palette`: each of its colours to the nearest there
    (`entries`: to the nearest of those entries of `palette`, as `palette` holds them in order).

    Only the cell's (at most 256) palette entries are matched, not its pixels: a sheet of 70
    cells costs 70 small look-ups instead of quantizing 16 million pixels."""
    from PIL import Image  # lazy: Pillow, only for a band to make

    colours = bytes(cell.getpalette() or [])
    swatch = Image.frombytes("RGB", (len(colours) // 3, 1), colours)
    # Pillow finds the nearest entry through a coarse colour cube, which takes a near entry for one
    # the palette holds exactly (white became #FDFDFB, the ink #191919): a colour the palette holds
    # is its own entry, the first that holds it; only the others go through Pillow
    wanted = len(entries) if entries is not None else len(palette.getpalette() or []) // 3
    held = bytes(palette.getpalette() or [])
    exact: dict[bytes, int] = {}
    for i in range(min(wanted, len(held) // 3)):
        exact.setdefault(held[3 * i:3 * i + 3], i)
    near = swatch.quantize(palette=palette, dither=Image.Dither.NONE).tobytes()
    lut = [exact.get(colours[3 * k:3 * k + 3], near[k]) for k in range(len(near))]
    if entries is not None:
        lut = [entries[i] if i < len(entries) else entries[0] for i in lut]  # the padding repeats the first
    return cell.point(lut + [0] * (256 - len(lut)))


def build_tts(ctx: BuildContext) -> Callable[[], list[Artifact]]:
    """output/tts/: deck sheets, the back, and county-uppy.json (a TTS saved object).

    A sheet is assembled from bands, one per row of cards (png_bands.py), each cached under the
    keys of its faces: a rebuild after editing a card compresses the one band that shows it.
    Many bands to make (a cold build) go to workers; the function returned waits for them."""
    cells_by_key = images(ctx, "tts")
    sheets = layout([c.code for c in ctx.deck.cards])
    store = cache(ctx)
    colours = sheet_colours(ctx)
    # a cell is its face's image in the TTS profile: that image's key stands for its pixels, and the
    # code that assembles a band (this module; png_bands.py is in render/) is in the band's key
    cell_keys = image_keys(ctx, "tts")
    here = code_version(Path(__file__).resolve())
    jobs: list[tuple] = []
    bands: dict[str, bytes] = {}
    wanted: list[tuple[Sheet, list[str]]] = []  # per sheet, its bands' cache keys, top to bottom
    for sheet in sheets:
        keys = []
        for row in range(sheet.rows):
            cells = _row_cells(sheet, row)
            if colours.own is None:  # every cell matched to the whole palette: the deck's colours make it
                k = key("tts-band", here, sheet.size[0], [(x, cell_keys[c]) for x, c in cells], colours.colours)
            else:  # each cell matched to its own entries: the band is made from those entries and their colours
                k = key("tts-band", here, sheet.size[0], [(x, cell_keys[c], _slice(colours, c)) for x, c in cells])
            keys.append(k)
            if k in bands:
                continue
            data = store.get("tts-band", k)
            if data is None:
                own = colours.own
                jobs.append((k, [(x, cells_by_key[c], None if own is None else own[c]) for x, c in cells],
                             sheet.size[0], colours.palette))
                data = b""  # made below
            bands[k] = data
        wanted.append((sheet, keys))
    if len(jobs) > FEW_BANDS:
        pending = background(ctx, _band_job, jobs, "tts sheets")
    else:
        made = [_band_job(*job) for job in jobs]
        pending = lambda: made  # noqa: E731
    back_key = key("tts-back", here, cell_keys["back"])
    back_png = store.get("tts-band", back_key)
    if back_png is None:
        from generator.products.render.png import encode, unpack_pixels  # lazy: Pillow, only for an image to make

        back_png = encode(unpack_pixels(cells_by_key["back"], TTS.size), dpi=TTS.dpi)
        store.put("tts-band", back_key, back_png)
    arts = [ctx.target.write("tts/back.png", back_png, "png", cards=1)]
    url = ctx.request.tts_url.rstrip("/") if ctx.request.tts_url else (ctx.out.resolve() / "tts").as_uri()
    if not ctx.request.tts_url:
        ctx.notes.append(f"tts/county-uppy.json loads its card sheets from {url}, on this machine only: to share the "
                         "deck, put tts/ on the web and build with --tts-url URL (docs/commands.md)")
    obj = saved_object(ctx.deck, sheets, url)
    arts.append(ctx.target.write("tts/county-uppy.json", json_bytes(obj, indent=None), "tts", cards=ctx.deck.printed))

    def finish() -> list[Artifact]:
        for (k, *_), data in zip(jobs, pending()):
            store.put("tts-band", k, data)
            bands[k] = data
        store.prune("tts-band")
        for sheet, keys in wanted:
            data = png_bands.png(sheet.size, colours.palette, [bands[k] for k in keys], dpi=72)
            arts.append(ctx.target.write(f"tts/{sheet.filename}", data, "png", cards=len(sheet.keys)))
        return arts
    return finish


#: So few bands to compress (a rebuild's: a few milliseconds each) that they are made here.
FEW_BANDS = 2


def _row_cells(sheet: Sheet, row: int) -> list[tuple[int, str]]:
    """The cells of one row of a sheet: (x, face code), the hidden slot showing the back."""
    out = []
    for slot in range(row * sheet.cols, (row + 1) * sheet.cols):
        code = "back" if slot == sheet.hidden_slot else sheet.keys[slot] if slot < len(sheet.keys) else None
        if code is not None:
            out.append((sheet.cell(slot)[0], code))
    return out


def _slice(colours: SheetColours, code: str) -> tuple[tuple[int, bytes], ...]:
    """The entries a face's cell is matched to, each with its colour."""
    return tuple((i, colours.palette[3 * i:3 * i + 3]) for i in colours.own[code])


def _band_job(k: str, cells: list[tuple[int, bytes, tuple[int, ...] | None]], width: int, plte: bytes) -> bytes:
    """Worker: one row of cards of a sheet, in the sheets' palette (768 bytes), as a PNG band; each
    cell comes in its face's own palette and is matched to the sheets' entries it names (None:
    every entry)."""
    # lazy: Pillow, only for a band to make
    from PIL import Image

    from generator.products.render.png import unpack_pixels

    whole = Image.new("P", (1, 1))
    whole.putpalette(plte)
    im = Image.new("P", (width, CELL_H), 0)
    im.putpalette(plte)
    for x, data, entries in cells:
        if entries is None:
            matched = _in_palette(unpack_pixels(data, TTS.size), whole)
        else:
            own = Image.new("P", (1, 1))  # its entries, then the first again: no black that is not in them
            own.putpalette(b"".join(plte[3 * i:3 * i + 3] for i in (*entries, *[entries[0]] * (256 - len(entries)))))
            matched = _in_palette(unpack_pixels(data, TTS.size), own, entries)
        im.paste(matched, (x, 0))
    return png_bands.band(im)
