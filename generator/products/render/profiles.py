"""The raster images a build makes of each face: their pixel sizes, what they show, how they encode.

Every image of a face comes from one PDFium pass over the faces PDF (rendered.py, png.py), so
each is the vector drawing anti-aliased at its own size, never a resized copy of another.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.products.render.press.shops import shop
from generator.products.render.units import DPI, TRIM_H, TRIM_W


@dataclass(frozen=True)
class Profile:
    """One kind of face image."""

    name: str
    size: tuple[int, int]  #: pixels
    #: True: the trim only (no bleed), drawn at size; False: cut from the 300 dpi render of the
    #: face with its bleed, trim centred
    trim_only: bool
    dpi: int  #: written into the PNG
    #: True: kept as the palette and its compressed pixels (png.pack_pixels), not as a PNG: an
    #: image only ever pasted into another (a TTS cell), where decoding a PNG would cost more
    #: than pasting it
    raw: bool = False


#: The Game Crafter's poker template (output/cards): 825×1125 at 300 dpi, the trim and its bleed
#: (its record in shops.py).
TGC = Profile("tgc", shop("tgc").pixels, trim_only=False, dpi=shop("tgc").dpi)
#: MakePlayingCards (output/pod/mpc): 822×1122, cut from the same render.
MPC = Profile("mpc", shop("mpc").pixels, trim_only=False, dpi=shop("mpc").dpi)
assert TGC.size == (825, 1125) and MPC.size == (822, 1122) and TGC.dpi == MPC.dpi == DPI

#: Tabletop Simulator sheets hold at most 10 columns within 4096 px.
TTS_COLUMNS = 10
TTS_MAX_WIDTH = 4096
_CELL_W = TTS_MAX_WIDTH // TTS_COLUMNS  # 409
#: One TTS sheet cell: the trim at 409×573 (about 164 dpi).
TTS = Profile("tts", (_CELL_W, round(_CELL_W * TRIM_H / TRIM_W)), trim_only=True, dpi=72, raw=True)

#: Rulebook pictures: the trim at 0.6 px per dot, 450×630 px: sharp at 2.5× on a screen 180 px
#: wide, and at 300 ppi or more on paper up to 38.1 mm wide (templates/rulebook.css prints none wider).
RULEBOOK_SCALE = 0.6
RULEBOOK = Profile("rulebook", (round(TRIM_W * RULEBOOK_SCALE), round(TRIM_H * RULEBOOK_SCALE)), trim_only=True,
                   dpi=round(DPI * RULEBOOK_SCALE))

PROFILES = {p.name: p for p in (TGC, MPC, TTS, RULEBOOK)}
