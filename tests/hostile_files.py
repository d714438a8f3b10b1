"""Designer files that once passed `validate` and broke the build, or broke `validate` itself
(issue 36): SVGs with numbers a drawing cannot take, pictures cut short, fonts whose glyphs loop.
Made here, byte by byte, for the file-check tests and the fuzz target of art, icons and fonts."""

from __future__ import annotations

import io
from pathlib import Path

SVG_NS = 'xmlns="http://www.w3.org/2000/svg"'


def svg(body: str, root: str = 'viewBox="0 0 10 10"') -> str:
    """An SVG of `body` (elements) under an <svg> with the attributes `root`."""
    return f'<svg {SVG_NS} {root}>{body}</svg>'


def shape(attrs: str = 'd="M1 1 L9 1 L9 9 Z"', tag: str = "path", fill: str = "currentColor") -> str:
    return f'<{tag} {attrs} fill="{fill}"/>'


#: name -> an SVG (one-colour, so it is also a one-colour icon) that a drawing cannot take
BROKEN_SVGS = {
    "rotate(inf)": svg(f'<g transform="rotate(inf)">{shape()}</g>'),
    "scale(nan)": svg(f'<g transform="scale(nan)">{shape()}</g>'),
    "a NaN width": svg(shape('x="1" y="1" width="NaN" height="5"', "rect")),
    "an infinite width": svg(shape(), 'viewBox="0 0 10 10" width="inf" height="10"'),
    "an infinite radius": svg(shape('cx="5" cy="5" r="Infinity"', "circle")),
    "L garbage": svg(shape('d="M1 1 L garbage Z"')),
    "a curve short of numbers": svg(shape('d="M1 1 C 1 2 3 Z"')),
    "an arc command arb": svg(shape('d="M1 1 arb 1 2 Z"')),
    "an arc flag of 2": svg(shape('d="M1 1 A 2 2 0 2 1 5 5 Z"')),
    "a stroke width of inf": svg(shape('d="M1 1 L9 1 L9 9 Z" stroke-width="inf"')),
    'width="1x2"': svg(shape(), 'viewBox="0 0 10 10" width="1x2" height="10"'),
    'width="+"': svg(shape(), 'width="+" height="10"'),
    'a rect width="5q"': svg(shape('x="1" y="1" width="5q" height="5"', "rect")),
    "polygon points of letters": svg(shape('points="1,1 a,b 5,5"', "polygon")),
}


def png(width: int = 300, height: int = 200, colour: str = "orange", mode: str = "RGB") -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new(mode, (width, height), colour).save(buf, "PNG")
    return buf.getvalue()


def jpeg(width: int = 600, height: int = 400) -> bytes:
    from PIL import Image

    im = Image.radial_gradient("L").resize((width, height)).convert("RGB")
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=90)
    return buf.getvalue()


#: name -> JPEG bytes whose pixels cannot all be read
def broken_jpegs() -> dict[str, bytes]:
    whole = jpeg()
    return {"cut in half": whole[:len(whole) // 2], "without its end marker": whole[:-2],
            "cut after its header": whole[:700]}


# --- fonts ----------------------------------------------------------------------------------

def _square(advance: int):
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    pen = TTGlyphPen(None)
    pen.moveTo((50, 0)); pen.lineTo((50, 700)); pen.lineTo((advance - 50, 700)); pen.lineTo((advance - 50, 0))
    pen.closePath()
    return pen.glyph()


def font(chars: str, flaw: str = "", advance: int = 500) -> bytes:
    """A TrueType font drawing every character of `chars` as one square glyph `box` (or, for the CFF
    flaws, an OpenType CFF font), with `flaw`:
    - "self composite": `box` is a composite glyph of itself;
    - "composite loop": `box` is made of `loop1`, which is made of `box`;
    - "deep composite": `box` is the end of a chain of 2,000 composite glyphs;
    - "cff subroutine loop": a CFF font whose `box` calls a subroutine that calls itself;
    - "units per em 0": the head table's unitsPerEm is 0;
    - "cmap past the last glyph": the character map names glyph ids past the font's last glyph;
    - "": none (a good font)."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.ttLib import TTFont
    from fontTools.ttLib.tables._g_l_y_f import Glyph, GlyphComponent

    chars = "".join(dict.fromkeys(chars))
    cff = flaw.startswith("cff")
    deep = 2000 if flaw == "deep composite" else 1 if flaw == "composite loop" else 0
    order = [".notdef", "box"] + [f"link{i}" for i in range(deep)]
    fb = FontBuilder(1000, isTTF=not cff)
    fb.setupGlyphOrder(order)
    fb.setupCharacterMap({ord(c): "box" for c in chars})
    if cff:
        from fontTools.pens.t2CharStringPen import T2CharStringPen

        strings = {}
        for name in order:
            pen = T2CharStringPen(advance, None)
            pen.moveTo((50, 0)); pen.lineTo((50, 700)); pen.lineTo((advance - 50, 700)); pen.closePath()
            strings[name] = pen.getCharString()
        fb.setupCFF("Loop-Regular", {"FullName": "Loop"}, strings, {})
    else:
        fb.setupGlyf({name: _square(advance) for name in order})
    fb.setupHorizontalMetrics({name: (advance, 50) for name in order})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Hostile", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    font = fb.font

    def composite(*parts: str):
        glyph = Glyph()
        glyph.numberOfContours = -1
        glyph.components = []
        for part in parts:
            c = GlyphComponent()
            c.glyphName, c.x, c.y, c.flags = part, 0, 0, 0x4  # ROUND_XY_TO_GRID
            glyph.components.append(c)
        glyph.xMin = glyph.yMin = 0
        glyph.xMax, glyph.yMax = advance, 700
        return glyph

    if flaw == "self composite":
        font["glyf"]["box"] = composite("box")
    elif flaw in ("composite loop", "deep composite"):
        chain = ["box"] + order[2:]
        for here, there in zip(chain, chain[1:]):
            font["glyf"][here] = composite(there)
        end = composite("box") if flaw == "composite loop" else _square(advance)
        if flaw == "deep composite":
            end.recalcBounds(font["glyf"])
        font["glyf"][chain[-1]] = end
    elif flaw == "cff subroutine loop":
        from fontTools.misc.psCharStrings import T2CharString

        top = font["CFF "].cff.topDictIndex[0]
        private = top.Private
        from fontTools.cffLib import SubrsIndex

        subrs = SubrsIndex()
        bias = 107
        subrs.append(T2CharString(program=[0 - bias, "callsubr", "return"]))
        private.Subrs = subrs
        box = top.CharStrings["box"]
        box.program = [advance, 50, 0, "rmoveto", 0 - bias, "callsubr", "endchar"]
        box.private = private
        subrs[0].private = private
    elif flaw == "units per em 0":
        font["head"].unitsPerEm = 0
    font.recalcBBoxes = False  # a loop's bounds cannot be worked out: the file says what it says
    out = io.BytesIO()
    font.save(out, reorderTables=False)
    data = out.getvalue()
    if flaw == "cmap past the last glyph":
        # the character map names glyph id 900 of a 2-glyph font (fontTools reads it as "glyph00900")
        from fontTools.ttLib.tables.DefaultTable import DefaultTable

        reread = TTFont(io.BytesIO(data))
        table = reread["cmap"]
        for sub in table.tables:
            sub.cmap = {code: "glyph00900" for code in sub.cmap}
        reread.setGlyphOrder(order + [f"glyph{i:05d}" for i in range(len(order), 901)])
        raw = DefaultTable("cmap")
        raw.data = table.compile(reread)
        reread.setGlyphOrder(order)
        reread["cmap"] = raw
        out = io.BytesIO()
        reread.save(out)
        data = out.getvalue()
    return data


FONT_FLAWS = ("self composite", "composite loop", "deep composite", "cff subroutine loop", "units per em 0",
              "cmap past the last glyph")
