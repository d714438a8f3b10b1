"""The wild glyphs as icon files: each catalogue effect's sign, from the typeface's own outlines.

`python -m generator.products.render.assets.glyph_icons art/icons` writes `<effect>.svg` for every
effect of the catalogue (deck/effects.py): the sign of its glyph (`×{factor}` gives ×, the
parameter stays text on the card) in the bold typeface the faces draw glyphs with, as one path
filled with `currentColor`. The SVG's box is the glyph's advance wide and one em tall, the em's
top at the font's ascent above the baseline (inline.ICON_TOP), so a face drawing the icon where
it drew the glyph prints the same shape in the same place (render/assets/icon_files.py reads it back as
outlines in the text's ink). The shipped manifest declares these files (`look: icons:`); a
designer may replace any of them with a drawing of their own.
"""

from __future__ import annotations

import sys
from pathlib import Path

from generator.deck.effects import CATALOGUE
from generator.products.render.font_metrics import FILES
from generator.products.render.inline import ICON_TOP, glyph_sign


def glyph_svg(text: str, bold: bool = True) -> str:
    """The SVG of `text`'s glyphs, side by side by their advances, as one `currentColor` path."""
    from fontTools.pens.svgPathPen import SVGPathPen  # lazy: fontTools, only to make the icon files
    from fontTools.pens.transformPen import TransformPen  # lazy: as above
    from fontTools.ttLib import TTFont  # lazy: as above

    font = TTFont(str(FILES[bold]))
    upm = font["head"].unitsPerEm
    glyphs = font.getGlyphSet()
    cmap = font.getBestCmap()
    pen = SVGPathPen(glyphs, ntos=lambda v: f"{v:.2f}".rstrip("0").rstrip("."))
    x = 0.0
    for ch in text:
        name = cmap[ord(ch)]
        # font units, y up from the baseline -> SVG units, y down from the em box's top
        glyphs[name].draw(TransformPen(pen, (1, 0, 0, -1, x, ICON_TOP * upm)))
        x += glyphs[name].width
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {x:g} {upm}" width="{x / upm:.4g}em" height="1em">\n'
            f'<path fill="currentColor" d="{pen.getCommands()}"/>\n</svg>\n')


def write_icons(folder: Path) -> list[Path]:
    """`<effect>.svg` for every catalogue effect into `folder`; the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name in CATALOGUE:
        path = folder / f"{name}.svg"
        path.write_text(glyph_svg(glyph_sign(name)), encoding="utf-8")
        out.append(path)
    return out


if __name__ == "__main__":  # pragma: no cover (a maintainer's tool)
    for p in write_icons(Path(sys.argv[1] if len(sys.argv) > 1 else "art/icons")):
        print(p)
