"""A print shop's preflight, run on the faces before their file is written: what a shop's
checks would flag, measured on the display lists (render/items.py) against the shop's record
(render/press/shops.py): the smallest text, text within the safe zone, the total ink of every colour
the file prints, the resolution of every raster picture at its printed size, and the size of
card images.

Each finding is one line for the build's summary, naming the shop, the card and the measure,
so a designer sees it before the shop's preflight does.
"""

from __future__ import annotations

from pathlib import Path

from generator.products.render.press.cmyk import Ink, to_cmyk
from generator.products.render.assets import art
from generator.products.render.items import Face, Image
from generator.products.render.press.shops import MM_PER_IN, Shop
from generator.products.render.units import DPI, TRIM_H, TRIM_W, dots_to_pt


def measure(face: Face) -> dict:
    """What the preflight reads of one face, as JSON-able data (the face cache keeps it by the
    face's key, so a rebuild measures only the faces it redrew): its smallest text (pt), how near
    its text comes to each edge of the trim (dots: left, top, right, bottom), the (colour, text)
    pairs its CMYK form converts, and each raster picture's resolution where it prints."""
    from generator.products.render.pdf import cmyk_inks  # lazy: reportlab, only for a face the cache lacks

    texts = face.texts()
    boxes = [t.bbox() for t in texts]
    pictures = []
    for item in face.items:
        if isinstance(item, Image):
            dpi = art.effective_dpi(art.picture_info(item.path), item.x1 - item.x0, item.y1 - item.y0, item.fit)
            if dpi is not None:
                pictures.append([Path(item.path).name, dpi])
    return {
        "key": face.key,
        "pt": min((dots_to_pt(t.size) for t in texts), default=None),
        "margins": [min(b[0] for b in boxes), min(b[1] for b in boxes), min(TRIM_W - b[2] for b in boxes),
                    min(TRIM_H - b[3] for b in boxes)] if boxes else None,
        "inks": sorted([colour, text] for colour, text in cmyk_inks(face)),
        "pictures": pictures,
    }


def findings(shop: Shop, measures: list[dict], ink: Ink | None = None,
             pixels: tuple[int, int] | None = None) -> list[str]:
    """What shop `shop`'s preflight would flag in a file of the faces `measures` describes
    (measure(face) each; empty: nothing).

    `ink`: the file's CMYK conversion (CMYK files); `pixels`: the size of its card images (image files)."""
    out: list[str] = []
    to_dots = DPI / MM_PER_IN
    # the faces sit centred on the shop's trim: its cut is this far outside the faces' on each side
    dx, dy = ((shop.trim_mm[0] * to_dots - TRIM_W) / 2, (shop.trim_mm[1] * to_dots - TRIM_H) / 2)
    safe = shop.safe_mm * to_dots
    smallest: tuple[float, str] | None = None
    nearest: tuple[float, str] | None = None
    softest: tuple[float, str, str] | None = None
    printed: set[tuple[str, bool]] = set()
    for m in measures:
        if m["pt"] is not None and (smallest is None or m["pt"] < smallest[0]):
            smallest = (m["pt"], m["key"])
        if m["margins"] is not None:
            left, top, right, bottom = m["margins"]
            inside = min(left + dx, top + dy, right + dx, bottom + dy)
            if inside < safe - 1e-6 and (nearest is None or inside < nearest[0]):
                nearest = (inside, m["key"])
        for name, dpi in m["pictures"]:
            if dpi < shop.dpi - 0.5 and (softest is None or dpi < softest[0]):
                softest = (dpi, m["key"], name)
        printed.update((colour, bool(text)) for colour, text in m["inks"])
    if smallest is not None and smallest[0] < shop.min_text_pt - 1e-6:
        out.append(f"{shop.title}: text of '{smallest[1]}' prints at {smallest[0]:.1f} pt; the shop's smallest is "
                   f"{shop.min_text_pt:g} pt")
    if nearest is not None:
        out.append(f"{shop.title}: text of '{nearest[1]}' stands {nearest[0] / to_dots:.1f} mm inside the cut; the "
                   f"shop keeps text {shop.safe_mm:g} mm inside it")
    if ink is not None and shop.ink_limit is not None:
        worst = max(((round(sum(to_cmyk(colour, text, ink)) * 100), colour) for colour, text in printed), default=None)
        if worst is not None and worst[0] > shop.ink_limit:
            out.append(f"{shop.title}: {worst[1]} prints with {worst[0]}% ink, over the shop's {shop.ink_limit}%")
    if softest is not None:
        out.append(f"{shop.title}: the picture {softest[2]} on '{softest[1]}' prints at {softest[0]:.0f} dpi; the shop "
                   f"asks for {shop.dpi} dpi")
    if pixels is not None and pixels != shop.pixels:
        out.append(f"{shop.title}: card images are {pixels[0]}×{pixels[1]} px; the shop asks for "
                   f"{shop.pixels[0]}×{shop.pixels[1]} px at {shop.dpi} dpi")
    return out
