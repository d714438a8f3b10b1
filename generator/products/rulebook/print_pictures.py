"""The rulebook's card pictures put into its printed PDF as they are, rather than by Chromium.

Chromium's PDF holds each picture as its decoded pixels, compressed again: for the shipped
rulebook's 24 card pictures that was about a third of the print's CPU (0.3 of 0.95 CPU-s, and
0.25 s of its time). A palette or RGB PNG's pixel data (its IDAT chunks) is what a PDF image can
hold as it is: the same zlib stream, read through the PNG predictors (PDF 1.4, "LZW and Flate
predictor functions"), a palette as an indexed colour space over the colour space Chromium gives
the picture. So the page is printed with a small stand-in for each such picture (`stand_ins`):
the same aspect ratio, so the page is laid out the same, and pixels that name it. Each stand-in's
image in the print is then replaced by its picture's own data (`StandIns.restore`), and the
file's cross-reference table moved to match. The pixels are the picture's, exactly as
Chromium's print held them (a test compares them).

A picture that cannot go in as it is (another PNG colour type or bit depth, interlaced,
transparent, with a colour profile or gamma Chromium would convert it by, a chunk whose checksum
is wrong, a side over 16384 pixels) is printed by Chromium as before. Its pixels are not decoded
here: every PNG on the page was decoded whole before (the build's own pictures as it made them,
a designer's by the picture check `validate` runs). A print where a stand-in is not found whole
(a picture drawn clipped or through a filter, which Chromium then draws differently) gives None,
and the page is printed again with its pictures.
"""

from __future__ import annotations

import base64
import math
import re
import struct
import zlib
from dataclasses import dataclass

from generator.products.render.png_bands import chunk

_URI = re.compile(rb"data:image/png;base64,([A-Za-z0-9+/=]+)")
_SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: Chunks that change nothing Chromium draws (sRGB: Chromium takes the pixels as they are).
_HARMLESS = {b"IHDR", b"PLTE", b"IDAT", b"IEND", b"sRGB", b"pHYs", b"tEXt", b"zTXt", b"iTXt", b"tIME"}
#: The longest side of a picture put in as it is (a card's at 300 ppi is 825 pixels).
_SIDE = 1 << 14
#: The most pixels a stand-in has: a picture whose aspect ratio needs more is left to Chromium.
_SMALL = 1 << 16
#: The most pictures a page has stand-ins for (the rest are left to Chromium).
_MOST = 1 << 15
#: An image object as Chromium writes it: its dictionary (no dictionary inside it) and its stream.
_IMAGE = re.compile(rb"(?m)^(\d+) 0 obj\s*<<([^<>]*/Subtype\s*/Image\b[^<>]*)>>\s*stream\r?\n")
_END = re.compile(rb"\s*endstream\s*endobj")
_XREF = re.compile(rb"xref\r?\n0 (\d+)\r?\n")
_STARTXREF = re.compile(rb"startxref\r?\n(\d+)\r?\n%%EOF\s*$")


@dataclass(frozen=True)
class _Picture:
    """A PNG's pixels as a PDF image takes them: its dictionary's entries (the colour space
    left to fill in: `%s`) and its stream."""

    width: int
    height: int
    entries: bytes
    data: bytes
    srgb: bool  #: marked sRGB (the stand-in is marked so too, and Chromium gives it the same colour space)


def _direct(png: bytes) -> _Picture | None:
    """The PNG as a PDF image holds it unchanged, or None when it cannot be (see the module)."""
    if not png.startswith(_SIGNATURE):
        return None
    at, found, idat = len(_SIGNATURE), {}, []
    while at + 12 <= len(png):
        n, kind = struct.unpack_from(">I4s", png, at)
        body, crc = png[at + 8:at + 8 + n], png[at + 8 + n:at + 12 + n]
        if kind not in _HARMLESS or len(body) != n or crc != struct.pack(">I", zlib.crc32(body, zlib.crc32(kind))):
            return None
        if kind == b"IDAT":
            idat.append(body)
        else:
            found[kind] = body
        at += 12 + n
        if kind == b"IEND":
            break
    head = found.get(b"IHDR", b"")
    if len(head) != 13 or not idat or b"IEND" not in found:
        return None
    w, h, bits, colour, compression, filtering, interlace = struct.unpack(">IIBBBBB", head)
    if compression or filtering or interlace or not 0 < w <= _SIDE or not 0 < h <= _SIDE:
        return None
    g = math.gcd(w, h)
    if (w // g) * (h // g) > _SMALL:
        return None
    if colour == 3 and bits in (1, 2, 4, 8) and 3 <= len(found.get(b"PLTE", b"")) <= 3 * (1 << bits) \
            and len(found[b"PLTE"]) % 3 == 0:
        palette = found[b"PLTE"]
        space = b"[/Indexed %%s %d <%s>]" % (len(palette) // 3 - 1, palette.hex().upper().encode("ascii"))
        colours = 1
    elif colour == 2 and bits == 8:
        space, colours = b"%s", 3
    else:
        return None
    entries = (b"/Width %d\n/Height %d\n/ColorSpace %s\n/BitsPerComponent %d\n/Filter /FlateDecode\n"
               b"/DecodeParms <</Predictor 15 /Colors %d /BitsPerComponent %d /Columns %d>>"
               % (w, h, space, bits, colours, bits, w))
    return _Picture(w, h, entries, b"".join(idat), b"sRGB" in found)


def _stand_in(k: int, w: int, h: int, srgb: bool) -> tuple[bytes, tuple[int, int, bytes]]:
    """The k-th stand-in (k < _MOST) for a w x h picture: a PNG of the same aspect ratio, of at
    least 64 pixels (and at most about _SMALL, as _direct checks), and (its width, its height,
    its pixels) as Chromium's print holds them (RGB rows). Its first pixel is one colour, the rest
    another that holds k, so no two stand-ins (nor a grey or one-colour picture) are alike."""
    g = math.gcd(w, h)
    m = math.isqrt(max(0, 63 // ((w // g) * (h // g)))) + 1
    sw, sh = w // g * m, h // g * m
    pixels = b"\xff\x00\x81" + bytes((k & 0xFF, (k >> 8) & 0x7F, 0x81)) * (sw * sh - 1)
    rows = b"".join(b"\x00" + pixels[y * sw * 3:(y + 1) * sw * 3] for y in range(sh))
    png = b"".join([_SIGNATURE, chunk(b"IHDR", struct.pack(">IIBBBBB", sw, sh, 8, 2, 0, 0, 0)),
                    chunk(b"sRGB", b"\x00") if srgb else b"", chunk(b"IDAT", zlib.compress(rows)),
                    chunk(b"IEND", b"")])
    return png, (sw, sh, pixels)


class StandIns:
    """The pictures of a page that are printed as stand-ins, by what each stand-in prints as."""

    def __init__(self) -> None:
        self.pictures: dict[tuple[int, int, bytes], _Picture] = {}

    def restore(self, pdf: bytes) -> bytes | None:
        """The printed `pdf` with each stand-in's image replaced by its picture; None when a
        stand-in is not found whole, or the file is not laid out as Chromium writes it."""
        if not self.pictures:
            return pdf
        xref, start = list(_XREF.finditer(pdf)), _STARTXREF.search(pdf)
        if len(xref) != 1 or start is None or int(start.group(1)) != xref[0].start():
            return None
        out, at, moves, seen = [], 0, [], set()
        sizes = {(w, h) for w, h, _ in self.pictures}
        for m in _IMAGE.finditer(pdf, 0, xref[0].start()):
            if m.start() < at:  # found within the stream of an image just replaced
                continue
            entries = m.group(2)
            length, width, height = (re.search(rb"/%s\s+(\d+)\s*[/>\n]" % name, entries + b"\n")
                                     for name in (b"Length", b"Width", b"Height"))
            space = re.search(rb"/ColorSpace\s*(/\w+|\[[^\[\]]*\])", entries)
            if None in (length, width, height, space) or b"/Decode" in entries or b"/SMask" in entries:
                continue
            size = int(width.group(1)), int(height.group(1))
            end = m.end() + int(length.group(1))
            tail = _END.match(pdf, end)
            if size not in sizes or tail is None or b"/FlateDecode" not in entries:
                continue
            try:
                pixels = zlib.decompress(pdf[m.end():end])
            except zlib.error:
                continue
            picture = self.pictures.get((*size, pixels))
            if picture is None:
                continue
            seen.add((*size, pixels))
            obj = (b"%s 0 obj\n<</Type /XObject\n/Subtype /Image\n%s\n/Length %d>> stream\n"
                   % (m.group(1), picture.entries % space.group(1), len(picture.data)))
            obj += picture.data + b"\nendstream\nendobj"
            out += [pdf[at:m.start()], obj]
            moves.append((m.start(), len(obj) - (tail.end() - m.start())))
            at = tail.end()
        if len(seen) != len(self.pictures):
            return None
        table = _moved(pdf[xref[0].start():start.start()], int(xref[0].group(1)), moves)
        if table is None:
            return None
        out += [pdf[at:xref[0].start()], table, b"startxref\n%d\n%%%%EOF\n" % (xref[0].start() + sum(d for _, d in moves))]
        return b"".join(out)


def _moved(table: bytes, count: int, moves: list[tuple[int, int]]) -> bytes | None:
    """The cross-reference table (`count` entries, then its trailer) with each object's offset
    moved by the changes in length (`moves`: (where, by how much)) before it; None when it does
    not hold `count` entries and a trailer."""
    head = _XREF.match(table)
    lines = table[head.end():].split(b"\n", count)
    if len(lines) != count + 1 or not lines[count].lstrip().startswith(b"trailer"):
        return None
    entries = []
    for line in lines[:count]:
        offset, rest = line[:10], line[10:]
        if rest.startswith(b" 00000 n"):
            where = int(offset)
            line = b"%010d" % (where + sum(d for at, d in moves if at < where)) + rest
        entries.append(line)
    return table[:head.end()] + b"\n".join(entries) + b"\n" + lines[count]


def stand_ins(html: bytes) -> tuple[bytes, StandIns]:
    """The page with a stand-in for each picture that can go into the print as it is, and those pictures."""
    found = StandIns()
    made: dict[bytes, bytes] = {}

    def swap(m: re.Match) -> bytes:
        uri = m.group(0)
        if uri not in made:
            try:
                png = base64.b64decode(m.group(1), validate=True)
            except ValueError:
                png = b""
            picture = _direct(png)
            if picture is None or len(found.pictures) >= _MOST:
                made[uri] = uri
            else:
                stand_in, prints_as = _stand_in(len(found.pictures), picture.width, picture.height, picture.srgb)
                found.pictures[prints_as] = picture
                made[uri] = b"data:image/png;base64," + base64.b64encode(stand_in)
        return made[uri]
    return _URI.sub(swap, html), found
