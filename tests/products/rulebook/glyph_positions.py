"""Where the glyphs of a PDF stand, against where their font puts them: for each two characters
side by side on a line, the distance between their origins less the first's advance and the
pair's kerning in the font that was embedded, in 1/1000 em. Read with PDFium (origins, sizes,
font names) and fontTools (advances, the GPOS pair kerning of the font file)."""

from __future__ import annotations

import ctypes
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from fontTools.ttLib import TTFont


class Kerning:
    """The pair kerning of a font's GPOS 'kern' feature, in font units: the first subtable whose
    coverage holds the first glyph (and, in a format 1 subtable, lists the pair) decides."""

    def __init__(self, font: TTFont) -> None:
        self.subtables = []
        if "GPOS" in font:
            gpos = font["GPOS"].table
            lookups = {i for f in gpos.FeatureList.FeatureRecord if f.FeatureTag == "kern"
                       for i in f.Feature.LookupListIndex}
            for i in sorted(lookups):
                lookup = gpos.LookupList.Lookup[i]
                for sub in lookup.SubTable:
                    sub = sub.ExtSubTable if lookup.LookupType == 9 else sub
                    if lookup.LookupType in (2, 9) and getattr(sub, "Format", 0) in (1, 2):
                        self.subtables.append((sub, set(sub.Coverage.glyphs)))
        self._pairs: dict[tuple[str, str], int] = {}

    def __call__(self, first: str, second: str) -> int:
        if (first, second) not in self._pairs:
            self._pairs[first, second] = self._find(first, second)
        return self._pairs[first, second]

    def _find(self, first: str, second: str) -> int:
        for sub, covered in self.subtables:
            if first not in covered:
                continue
            if sub.Format == 1:
                pairs = sub.PairSet[sub.Coverage.glyphs.index(first)].PairValueRecord
                rec = next((r for r in pairs if r.SecondGlyph == second), None)
                if rec is None:
                    continue
            else:
                row = sub.Class1Record[sub.ClassDef1.classDefs.get(first, 0)].Class2Record
                rec = row[sub.ClassDef2.classDefs.get(second, 0)]
            return getattr(rec.Value1, "XAdvance", 0) if rec.Value1 else 0
        return 0


def residuals(pdf: Path, font_files: dict[str, Path]) -> dict[str, list[tuple[str, float]]]:
    """For each font (by its name without the subset tag, as `font_files` keys it): a list of
    (the pair of characters, how far the second stands from where the font puts it, in 1/1000 em)."""
    fonts = {name: TTFont(str(path)) for name, path in font_files.items()}
    kerns = {name: Kerning(f) for name, f in fonts.items()}
    cmaps = {name: f.getBestCmap() for name, f in fonts.items()}
    out: dict[str, list[tuple[str, float]]] = {name: [] for name in fonts}
    doc = pdfium.PdfDocument(pdf)
    try:
        for i in range(len(doc)):
            text = doc[i].get_textpage()
            raw = text.raw
            n = pdfium_c.FPDFText_CountChars(raw)
            last = None
            for k in range(n):
                ch = chr(pdfium_c.FPDFText_GetUnicode(raw, k))
                if pdfium_c.FPDFText_IsGenerated(raw, k) or ch in "\r\n":
                    last = None
                    continue
                x, y = ctypes.c_double(), ctypes.c_double()
                pdfium_c.FPDFText_GetCharOrigin(raw, k, ctypes.byref(x), ctypes.byref(y))
                # the size as set (PDFium's font size is in the text space; the glyph's matrix scales it to the page)
                matrix = pdfium_c.FS_MATRIX()
                pdfium_c.FPDFText_GetMatrix(raw, k, ctypes.byref(matrix))
                size = pdfium_c.FPDFText_GetFontSize(raw, k) * matrix.a
                buf = ctypes.create_string_buffer(256)
                flags = ctypes.c_int()
                pdfium_c.FPDFText_GetFontInfo(raw, k, buf, 256, ctypes.byref(flags))
                name = buf.value.decode("latin-1").split("+")[-1]
                here = (ch, x.value, y.value, size, name)
                if last is not None and last[4] == name and name in fonts and abs(last[3] - size) < 1e-6 and abs(last[2] - y.value) < 0.01:
                    cmap, font = cmaps[name], fonts[name]
                    a, b = cmap.get(ord(last[0])), cmap.get(ord(ch))
                    if a and b:
                        upem = font["head"].unitsPerEm
                        expected = (font["hmtx"][a][0] + kerns[name](a, b)) / upem * size
                        out[name].append((last[0] + ch, (x.value - last[1] - expected) / size * 1000))
                last = here
    finally:
        doc.close()
    return out
