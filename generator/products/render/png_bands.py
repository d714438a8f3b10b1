"""PNG files assembled from bands of rows compressed on their own, so a big image with one
changed region re-compresses only the band that holds it (the TTS deck sheets: a band is a
row of cards).

A PNG's pixels are one zlib stream, split over IDAT chunks. Each band is compressed as raw
deflate ending in a full flush, which empties the compressor's window: no band refers back
into another, so the bands' bytes can be cached and joined in any combination. The stream's
header comes first, an empty final block and the Adler-32 of all the pixels last; that
checksum is combined from the bands' own (adler32_combine), so joining cached bands reads no
pixels at all. Palette images only, every row unfiltered (filter type 0).
"""

from __future__ import annotations

import struct
import zlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

#: zlib's run-length strategy at level 1, as png.py encodes every image.
LEVEL = 1
STRATEGY = zlib.Z_RLE
_ADLER_BASE = 65521
_HEADER = struct.Struct(">IQ")  # a band's Adler-32 and the length of its pixels, before its deflate bytes
#: The zlib stream's header for level 1 (no preset dictionary), and its last, empty block.
_ZLIB_HEADER = b"\x78\x01"
_FINAL_BLOCK = b"\x03\x00"


def band(im: Image.Image) -> bytes:
    """One band: a palette image's rows, each with its filter byte, compressed as raw deflate
    ending in a full flush; with the Adler-32 and length of those rows in front."""
    assert im.mode == "P", im.mode
    w = im.width
    pixels = im.tobytes()
    rows = b"".join(b"\x00" + pixels[y * w:(y + 1) * w] for y in range(im.height))
    c = zlib.compressobj(LEVEL, zlib.DEFLATED, -15, 9, STRATEGY)
    return _HEADER.pack(zlib.adler32(rows), len(rows)) + c.compress(rows) + c.flush(zlib.Z_FULL_FLUSH)


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings joined, from each one's and the second's length (zlib's
    adler32_combine, which Python's zlib module does not offer)."""
    rem = second_length % _ADLER_BASE
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 += (second & 0xFFFF) + _ADLER_BASE - 1
    sum2 += (first >> 16) + (second >> 16) + _ADLER_BASE - rem
    sum1 %= _ADLER_BASE
    sum2 %= _ADLER_BASE
    return sum1 | (sum2 << 16)


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def png(size: tuple[int, int], palette: bytes, bands: list[bytes], dpi: int) -> bytes:
    """A palette PNG of `size` from its bands, top to bottom (their heights must add up to the
    image's): sRGB, the palette (`palette`: RGB triples), the resolution, one IDAT per band."""
    w, h = size
    ppm = int(dpi / 0.0254 + 0.5)
    adler, length, idats = 1, 0, []
    for i, b in enumerate(bands):
        a, n = _HEADER.unpack_from(b)
        adler, length = adler32_combine(adler, a, n), length + n
        idats.append(chunk(b"IDAT", (_ZLIB_HEADER if i == 0 else b"") + b[_HEADER.size:]))
    assert length == h * (w + 1), "the bands do not cover the image"
    idats.append(chunk(b"IDAT", (b"" if bands else _ZLIB_HEADER) + _FINAL_BLOCK + struct.pack(">I", adler)))
    return b"".join([
        b"\x89PNG\r\n\x1a\n",
        chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),
        chunk(b"sRGB", b"\x00"),
        chunk(b"PLTE", palette),
        chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1)),
        *idats,
        chunk(b"IEND", b""),
    ])
