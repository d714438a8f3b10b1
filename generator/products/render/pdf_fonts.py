"""A designer's font (font_files.py) in a PDF: text encoded as glyph ids, the font embedded as a
subset of the glyphs the file's text uses.

The built-in typeface goes through reportlab's TrueType subsets, whose character codes each file
assigns (pdf_file.encoding_canvas). A designer's font is written as a composite font instead
(Type0, Identity-H encoding, a CIDFontType2 descendant with CIDToGIDMap /Identity): a text's
bytes are its glyph ids, the same in every file, so a face's form encodes its text once for every
file whatever else the file holds. The embedded font program keeps each glyph at its id
(font_files.subset), holds only the glyphs the file uses, and has a ToUnicode map, so the text
can be searched and copied. Its subset tag is a hash of the font and the glyphs (distinct
subsets, distinct tags).
"""

from __future__ import annotations

import re

from reportlab.lib.rl_accel import fp_str

from generator.products.render.assets import font_files
from generator.products.render.pdf_objects import array, stream, subset_tag


def resource_name(digest: str) -> str:
    """The name a form's text uses for the font (the same in every file)."""
    return "FU" + digest[:12]


def text_run(font: str, text: str, size: float) -> tuple[str, str, tuple[int, ...]]:
    """(operators showing `text` at `size` in the font at path `font`, the font's digest, the
    glyph ids used)."""
    m = font_files.metrics(font)
    gids = font_files.glyph_ids(font, text)
    hexed = "".join(f"{g:04X}" for g in gids)
    return f"/{resource_name(m.sha256)} {size:.2f} Tf <{hexed}> Tj", m.sha256, tuple(gids)


def objects(digest: str, path: str, gids: tuple[int, ...]) -> tuple[bytes, bytes, bytes, bytes, bytes]:
    """The font's objects for a file using glyphs `gids`: font file, descriptor, descendant
    (CIDFontType2), ToUnicode map and the Type0 font. The references between them are the
    placeholders @FILE@, @DESCRIPTOR@, @CID@ and @CMAP@."""
    path = font_files.path_of(digest, path)
    values = font_files.descriptor_values(digest)
    used = tuple(sorted({0, *gids}))
    data = font_files.subset(digest, used)
    ps = re.sub(r"[^A-Za-z0-9_-]", "", values["postscript_name"]) or "Font"
    base = f"{subset_tag(ps + digest, used)}+{ps}"
    file_body = stream(f"/Length1 {len(data)}", data)
    flags = 4 | (1 if values["fixed_pitch"] else 0)  # symbolic
    descriptor = (f"<< /Type /FontDescriptor /FontName /{base} /Flags {flags} /FontBBox {array(values['bbox'])} "
                  f"/ItalicAngle {fp_str(values['italic_angle'])} /Ascent {values['ascent']} "
                  f"/Descent {values['descent']} /CapHeight {values['cap_height']} /StemV 80 "
                  f"/FontFile2 @FILE@ 0 R >>").encode("ascii")
    widths = values["widths"]
    w = " ".join(f"{g} [ {fp_str(widths[g])} ]" for g in used)
    cid = (f"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /{base} "
           f"/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> "
           f"/FontDescriptor @DESCRIPTOR@ 0 R /DW {fp_str(widths[0])} /W [ {w} ] /CIDToGIDMap /Identity >>").encode("ascii")
    cmap_body = stream("", _to_unicode(base, used, values["unicode_of"]).encode("ascii"))
    font = (f"<< /Type /Font /Subtype /Type0 /BaseFont /{base} /Encoding /Identity-H "
            f"/DescendantFonts [ @CID@ 0 R ] /ToUnicode @CMAP@ 0 R >>").encode("ascii")
    return file_body, descriptor, cid, cmap_body, font


def _to_unicode(name: str, gids: tuple[int, ...], unicode_of: dict[int, int]) -> str:
    pairs = [(g, unicode_of[g]) for g in gids if g in unicode_of]
    lines = ["/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap",
             "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
             f"/CMapName /{name}-UCS def", "/CMapType 2 def", "1 begincodespacerange", "<0000> <FFFF>",
             "endcodespacerange"]
    for i in range(0, len(pairs), 100):
        chunk = pairs[i:i + 100]
        lines.append(f"{len(chunk)} beginbfchar")
        for g, u in chunk:
            lines.append(f"<{g:04X}> <{chr(u).encode('utf-16-be').hex().upper()}>")
        lines.append("endbfchar")
    lines += ["endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return "\n".join(lines)
