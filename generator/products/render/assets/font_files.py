"""A designer's font files (TTF or OTF): checked, measured for layout, and made ready to embed.

The built-in typeface is measured from its small table (font_metrics.py), for speed; a font the
manifest names is read with fontTools, once per file content. Layout measures a text as the PDF
draws it: the sum of its characters' advance widths (no kerning, no ligatures), a character the
font lacks drawn as its missing-glyph box (`has_glyph` says which; the manifest's checks refuse
such text).

What a font must be (`inspect_font` raises FontError saying which rule a file breaks):
- a readable file of at most MAX_BYTES, a TrueType or OpenType font (not a collection, not
  WOFF), with a Unicode character map and outlines;
- its licence bits (the OS/2 table's fsType) must allow embedding it in a document, and
  subsetting it: every PDF embeds only the glyphs it uses;
- an OpenType font with PostScript (CFF) outlines is converted to TrueType outlines (fontTools'
  cu2qu, within a thousandth of the em), as PDF/X-1a's PDF 1.4 and the PDF backend embed
  TrueType outlines; CFF2 (variable) fonts are refused.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from generator.deck.input_file import read_asset
from generator.products.render.assets.file_digests import Digests

MAX_BYTES = 20 << 20  #: a font file larger than this is refused (20 MB)
#: The em of a font in its own units (head.unitsPerEm), as OpenType allows it.
MIN_UNITS_PER_EM, MAX_UNITS_PER_EM = 16, 16384
#: How deep a TrueType composite glyph may nest its parts (fonts use 1 to 3).
MAX_COMPONENT_DEPTH = 16

#: OS/2 fsType bits (OpenType spec): what the font's licence lets a document do with it.
RESTRICTED = 0x0002  #: no embedding at all
NO_SUBSETTING = 0x0100
BITMAP_ONLY = 0x0200


class FontError(ValueError):
    """A font file that cannot be used, and why (the message names the file)."""


@dataclass(frozen=True)
class FontInfo:
    """What inspect_font found: the font's names, its outlines ("truetype" or "cff", converted
    when embedded), how many glyphs and characters it has, and its fsType bits."""

    family: str
    postscript_name: str
    outlines: str
    glyphs: int
    characters: int
    fs_type: int
    #: a variable font's axes, (tag, minimum, default, maximum) each: the faces print its default
    #: instance alone (print_rules.warnings says so)
    axes: tuple[tuple[str, float, float, float], ...] = ()


@dataclass(frozen=True)
class Metrics:
    """One font's measures, by the digest of its bytes."""

    sha256: str
    path: str
    units_per_em: int
    advances: dict  #: character -> advance in font units
    glyph_ids: dict  #: character -> glyph id
    missing_advance: int  #: the .notdef glyph's advance
    ascent: float  #: fractions of the size
    descent: float
    postscript_name: str

    def units(self, text: str) -> int:
        get, missing = self.advances.get, self.missing_advance
        return sum(get(ch, missing) for ch in text)


def inspect_font(path: Path | str) -> FontInfo:
    """Check a font file (module docstring); FontError says what is wrong with it. Checked once
    per content in a process (a watch session's rebuilds, validate's three checks)."""
    return _inspect(Path(path).name, _read(Path(path)))


@lru_cache(maxsize=16)
def _inspect(name: str, data: bytes) -> FontInfo:
    font = _parse(Path(name), data)
    try:  # every table and glyph in full, as the build's subsetting reads them: a damaged glyph,
        # loca or GSUB passed a lazy read and failed the build (0.3 s for DejaVu Sans' 6,000 glyphs)
        font.ensureDecompiled()
    except Exception as exc:  # noqa: BLE001 -- fontTools raises many kinds on a damaged file
        raise FontError(f"{name}: not a readable TrueType or OpenType font ({type(exc).__name__}: {exc})") from None
    if "CFF2" in font:
        raise FontError(f"{name}: a variable OpenType font with CFF2 outlines cannot be embedded; "
                        "use a static instance (TTF, or OTF with CFF outlines)")
    if "glyf" not in font and "CFF " not in font:
        raise FontError(f"{name}: the font has no outlines (TrueType or CFF)")
    upem = font["head"].unitsPerEm
    if not MIN_UNITS_PER_EM <= upem <= MAX_UNITS_PER_EM:
        raise FontError(f"{name}: the font's em is {upem} units (head.unitsPerEm), outside the {MIN_UNITS_PER_EM} to "
                        f"{MAX_UNITS_PER_EM} a font may have; the file is damaged or was not made as a font")
    cmap = font.getBestCmap() if "cmap" in font else None
    if not cmap:
        raise FontError(f"{name}: the font has no Unicode character map")
    _check_glyphs(name, font, cmap)
    fs_type = font["OS/2"].fsType if "OS/2" in font else 0
    if fs_type & RESTRICTED and not fs_type & 0x000C:
        raise FontError(f"{name}: the font's licence forbids embedding it in a document (OS/2 fsType "
                        f"{fs_type:#06x}: restricted licence embedding); choose a font whose licence allows embedding, "
                        "such as one under the SIL Open Font License")
    if fs_type & NO_SUBSETTING:
        raise FontError(f"{name}: the font's licence forbids subsetting it (OS/2 fsType {fs_type:#06x}), and every PDF "
                        "embeds only the glyphs it uses; choose a font whose licence allows subsetting")
    if fs_type & BITMAP_ONLY:
        raise FontError(f"{name}: the font's licence allows embedding its bitmaps only (OS/2 fsType {fs_type:#06x}), "
                        "not its outlines; choose another font")
    names = font["name"] if "name" in font else None
    family = (names.getBestFamilyName() if names else None) or Path(name).stem
    ps = (names.getDebugName(6) if names else None) or Path(name).stem
    axes = tuple((a.axisTag, a.minValue, a.defaultValue, a.maxValue) for a in font["fvar"].axes) if "fvar" in font else ()
    return FontInfo(family, ps, "cff" if "CFF " in font else "truetype", len(font.getGlyphOrder()), len(cmap), fs_type,
                    axes)


def _check_glyphs(name: str, font, cmap: dict[int, str]) -> None:
    """Every glyph the character map names is in the font, and every glyph can be drawn as the
    PDFs embed it: a TrueType composite glyph's parts form no loop and nest at most
    MAX_COMPONENT_DEPTH deep (the subsetter follows them); a CFF glyph is drawn whole (every one
    is converted to TrueType outlines), so a subroutine that calls itself is found here."""
    known = set(font.getGlyphOrder())
    for code, glyph in sorted(cmap.items()):
        if glyph not in known:
            raise FontError(f"{name}: the font's character map gives U+{code:04X} a glyph the font does not have "
                            f"({glyph}: it has {len(known):,} glyphs); the file is damaged")
    if "glyf" in font:
        _check_composites(name, font["glyf"], known)
    if "CFF " in font:
        from fontTools.pens.boundsPen import ControlBoundsPen  # lazy: with fontTools

        glyphs = font.getGlyphSet()
        for glyph in font.getGlyphOrder():
            try:
                glyphs[glyph].draw(ControlBoundsPen(glyphs))
            except RecursionError:
                raise FontError(f"{name}: glyph '{_short(glyph)}' cannot be drawn: its CFF subroutines call each other "
                                "without end; the file is damaged") from None
            except Exception as exc:  # noqa: BLE001 -- fontTools raises many kinds on a damaged charstring
                raise FontError(f"{name}: glyph '{_short(glyph)}' cannot be drawn ({type(exc).__name__}: "
                                f"{_short(str(exc), 120)}); the file is damaged") from None


def _check_composites(name: str, glyf, known: set[str]) -> None:
    """No composite glyph of `glyf` is made of itself, through any chain of parts, or nests its
    parts more than MAX_COMPONENT_DEPTH deep (walked without recursion)."""
    depth: dict[str, int] = {}  # a glyph's nesting, once known (a simple glyph is 0)

    def parts(glyph: str) -> list[str]:
        g = glyf.glyphs.get(glyph) if hasattr(glyf, "glyphs") else None
        g = glyf[glyph] if g is None else g
        return [c.glyphName for c in g.components] if getattr(g, "numberOfContours", 0) == -1 else []

    for start in glyf.keys():
        if start in depth:
            continue
        path, on_path = [(start, iter(parts(start)))], {start}
        while path:
            glyph, todo = path[-1]
            part = next(todo, None)
            if part is None:
                path.pop()
                on_path.discard(glyph)
                depth[glyph] = 1 + max((depth[p] for p in parts(glyph)), default=-1)
                continue
            if part not in known:
                raise FontError(f"{name}: glyph '{_short(glyph)}' is made of a glyph the font does not have "
                                f"('{_short(part)}'); the file is damaged")
            if part in on_path:
                chain = [g for g, _ in path][[g for g, _ in path].index(part):]
                said = "itself" if len(chain) == 1 else f"itself (through {_short(', '.join(chain[1:4]), 80)})"
                raise FontError(f"{name}: glyph '{_short(part)}' is made of {said}, which never ends; the file is "
                                "damaged")
            if part in depth:
                continue
            if len(path) > MAX_COMPONENT_DEPTH:
                raise FontError(f"{name}: glyph '{_short(start)}' nests composite glyphs more than "
                                f"{MAX_COMPONENT_DEPTH} deep; the file is damaged or was not made as a font")
            path.append((part, iter(parts(part))))
            on_path.add(part)


def _short(text: str, most: int = 40) -> str:
    """A glyph name or a library's words as a message quotes them: at most `most` characters."""
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text if len(text) <= most else text[:most - 1] + "…"


def _read(path: Path) -> bytes:
    return read_asset(path, MAX_BYTES, "font file", FontError)


def _parse(path: Path, data: bytes):
    """fontTools' reading of the bytes (FontError when they are not one TrueType/OpenType font)."""
    from fontTools.ttLib import TTFont, TTLibError  # lazy: fontTools only when a deck names a font file

    from generator.products.render.assets.library_logs import quiet  # lazy: logging, with the library it quiets

    # fontTools logs what it mends in a damaged file ("'created' timestamp out of range") on the
    # terminal, unlocated; what cannot be mended is a FontError here, at the manifest's line
    quiet("fontTools")
    head = data[:4]
    if head in (b"wOFF", b"wOF2"):
        raise FontError(f"{path.name}: a WOFF web font; use the TTF or OTF file")
    if head == b"ttcf":
        raise FontError(f"{path.name}: a font collection (TTC); use a single TTF or OTF file")
    if head not in (b"\x00\x01\x00\x00", b"OTTO", b"true"):
        raise FontError(f"{path.name}: not a TrueType or OpenType font")
    try:
        font = TTFont(io.BytesIO(data), lazy=True, recalcTimestamp=False, recalcBBoxes=False)
        font.getGlyphOrder()
        for table in ("head", "hhea", "hmtx", "maxp"):
            font[table]
    except TTLibError as exc:
        raise FontError(f"{path.name}: not a readable TrueType or OpenType font ({exc})") from None
    except Exception as exc:  # noqa: BLE001 -- fontTools raises many kinds on a damaged file
        raise FontError(f"{path.name}: not a readable TrueType or OpenType font ({type(exc).__name__}: {exc})") from None
    return font


# --- measuring ------------------------------------------------------------------------------

#: a font file is hashed again only when it changes
_DIGESTS = Digests()
#: digest -> the path it was last read from (the PDF backend embeds the font from there)
_PATHS: dict[str, str] = {}


def metrics(font: str) -> Metrics:
    """The measures of the font file at `font` (an absolute path), kept by its content."""
    def keep(digest: str, data: bytes) -> None:
        if digest not in _BY_DIGEST:
            inspect_font(font)
            _BY_DIGEST[digest] = _measure(font, data, digest)
        _PATHS[digest] = font

    try:
        return _BY_DIGEST[_DIGESTS.of(font, lambda: _read(Path(font)), keep)]
    except OSError:
        raise FontError(f"{Path(font).name}: no such font file ({font})") from None


_BY_DIGEST: dict[str, Metrics] = {}


def _measure(path: str, data: bytes, digest: str) -> Metrics:
    font = _parse(Path(path), data)
    cmap = font.getBestCmap()
    hmtx = font["hmtx"].metrics
    order = font.getGlyphOrder()
    ids = {name: i for i, name in enumerate(order)}
    advances, glyph_ids = {}, {}
    for code, name in cmap.items():
        advances[chr(code)] = hmtx[name][0]
        glyph_ids[chr(code)] = ids[name]
    upem = font["head"].unitsPerEm
    hhea = font["hhea"]
    ascent, descent = hhea.ascent, -hhea.descent
    if "OS/2" in font and getattr(font["OS/2"], "usWinAscent", 0):
        ascent, descent = font["OS/2"].usWinAscent, font["OS/2"].usWinDescent
    ps = (font["name"].getDebugName(6) if "name" in font else None) or Path(path).stem
    return Metrics(digest, path, upem, advances, glyph_ids, hmtx[order[0]][0], ascent / upem, descent / upem, ps)


def path_of(digest: str, fallback: str = "") -> str:
    """The path a font of this content was read from in this process (else `fallback`, checked)."""
    known = _PATHS.get(digest)
    if known is None and fallback and metrics(fallback).sha256 == digest:
        known = fallback
    if known is None:
        raise FontError(f"no font file with content {digest[:12]} was read in this build")
    return known


def width(font: str, text: str, size: float) -> float:
    m = metrics(font)
    return _units(m.sha256, text) / m.units_per_em * size


@lru_cache(maxsize=1 << 14)
def _units(digest: str, text: str) -> int:
    return _BY_DIGEST[digest].units(text)


def has_glyph(font: str, char: str) -> bool:
    return char in metrics(font).advances


def extent(font: str) -> tuple[float, float]:
    m = metrics(font)
    return m.ascent, m.descent


def glyph_ids(font: str, text: str) -> list[int]:
    """The glyph id of each character (0, the missing glyph, for one the font lacks)."""
    ids = metrics(font).glyph_ids
    return [ids.get(ch, 0) for ch in text]


# --- embedding ------------------------------------------------------------------------------

@lru_cache(maxsize=8)
def truetype(digest: str) -> bytes:
    """The font's bytes with TrueType outlines (a CFF font converted), for subsetting."""
    path = path_of(digest)
    font = _parse(Path(path), _read(Path(path)))
    if "CFF " in font:
        _cff_to_truetype(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def _cff_to_truetype(font) -> None:
    """Replace a font's CFF outlines with quadratic TrueType ones, in place (fontTools' otf2ttf
    recipe: cu2qu within a thousandth of the em, contours reversed to TrueType's direction)."""
    # lazy: fontTools' pens, only for a CFF font
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    max_err = font["head"].unitsPerEm / 1000
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, max_err, reverse_direction=True))
        glyf[name] = pen.glyph()
    font["loca"] = newTable("loca")
    font["glyf"] = glyf
    del font["CFF "]
    if "VORG" in font:
        del font["VORG"]
    maxp = font["maxp"] = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for field in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                  "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, field, 0)
    maxp.maxZones = 1
    maxp.numGlyphs = len(order)
    font.recalcBBoxes = True  # the new glyphs' bounds, and maxp's counts, when saved
    post = font["post"]
    post.formatType, post.extraNames, post.mapping = 2.0, [], {}
    post.glyphOrder = order
    font.sfntVersion = "\x00\x01\x00\x00"


@lru_cache(maxsize=32)
def subset(digest: str, gids: tuple[int, ...]) -> bytes:
    """A TrueType font program holding only glyphs `gids` (and the missing glyph), every glyph
    keeping its id, so text encoded as glyph ids draws alike with any subset of the font."""
    # lazy: fontTools' subsetter, only where a PDF embeds a designer's font
    from fontTools import subset as ft_subset
    from fontTools.ttLib import TTFont

    options = ft_subset.Options()
    options.retain_gids = True
    options.notdef_outline = True
    options.layout_features = []
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6]
    options.name_languages = [0x409]
    options.drop_tables += ["GSUB", "GPOS", "GDEF", "BASE", "JSTF", "kern", "DSIG", "hdmx", "VDMX", "LTSH", "FFTM"]
    options.glyph_names = False
    options.recalc_timestamp = False
    font = TTFont(io.BytesIO(truetype(digest)), recalcTimestamp=False)
    sub = ft_subset.Subsetter(options)
    sub.populate(gids=sorted({0, *gids}))
    sub.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


@lru_cache(maxsize=8)
def descriptor_values(digest: str) -> dict:
    """What a PDF font descriptor says of the font, in thousandths of the em."""
    path = path_of(digest)
    font = _parse(Path(path), _read(Path(path)))
    upem = font["head"].unitsPerEm
    k = 1000 / upem
    head, hhea = font["head"], font["hhea"]
    os2 = font["OS/2"] if "OS/2" in font else None
    cap = getattr(os2, "sCapHeight", 0) if os2 is not None else 0
    cmap = font.getBestCmap()
    order = font.getGlyphOrder()
    ids = {name: i for i, name in enumerate(order)}
    unicode_of: dict[int, int] = {}
    for code in sorted(cmap):
        unicode_of.setdefault(ids[cmap[code]], code)
    hmtx = font["hmtx"].metrics
    return {
        "bbox": [round(v * k) for v in (head.xMin, head.yMin, head.xMax, head.yMax)],
        "ascent": round(hhea.ascent * k), "descent": round(hhea.descent * k),
        "cap_height": round((cap or hhea.ascent) * k),
        "italic_angle": float(font["post"].italicAngle) if "post" in font else 0.0,
        "fixed_pitch": bool(font["post"].isFixedPitch) if "post" in font else False,
        "widths": [hmtx[name][0] * k for name in order],
        "unicode_of": unicode_of,
        "postscript_name": metrics(path).postscript_name,
    }
