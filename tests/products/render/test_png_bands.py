"""PNG files joined from bands compressed on their own (png_bands.py): valid, exact, and a
rebuild re-compresses only the band with the edited card."""

from __future__ import annotations

import io
import random
import struct
import zlib

from PIL import Image

from generator.products.render import png_bands
from tests.products.render.conftest import run_build


def test_adler32_combine_is_zlibs_checksum_of_the_joined_bytes():
    rng = random.Random(7)
    for n1, n2 in [(0, 0), (0, 5), (5, 0), (1, 1), (65520, 65522), (200_000, 131_071), (3, 1_000_003)]:
        a, b = rng.randbytes(n1), rng.randbytes(n2)
        assert png_bands.adler32_combine(zlib.adler32(a), zlib.adler32(b), n2) == zlib.adler32(a + b)


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    out, at = [], 8
    while at < len(data):
        (n,) = struct.unpack_from(">I", data, at)
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + n]
        (crc,) = struct.unpack_from(">I", data, at + 8 + n)
        assert crc == zlib.crc32(kind + body), kind
        out.append((kind, body))
        at += 12 + n
    return out


def test_bands_join_into_the_image_exactly():
    rng = random.Random(3)
    w, heights = 301, [7, 1, 40, 13]
    palette = bytes(rng.randrange(256) for _ in range(3 * 16))
    rows = [bytes(rng.choice([0, 0, 0, 1, 5, 15]) for _ in range(w * h)) for h in heights]
    bands = []
    for h, pixels in zip(heights, rows):
        band = Image.frombytes("P", (w, h), pixels)
        bands.append(png_bands.band(band))
    data = png_bands.png((w, sum(heights)), palette, bands, dpi=72)
    chunks = _chunks(data)
    assert [k for k, _ in chunks][:4] == [b"IHDR", b"sRGB", b"PLTE", b"pHYs"] and chunks[-1][0] == b"IEND"
    stream = b"".join(body for kind, body in chunks if kind == b"IDAT")
    raw = zlib.decompress(stream)  # checks the combined Adler-32 too
    assert raw == b"".join(b"\x00" + p[y * w:(y + 1) * w] for p, h in zip(rows, heights) for y in range(h))
    im = Image.open(io.BytesIO(data))
    assert im.mode == "P" and im.size == (w, sum(heights)) and im.info["dpi"] == (72.009, 72.009)
    assert im.tobytes() == b"".join(rows) and bytes(im.getpalette()[:48]) == palette


def test_a_one_card_edit_compresses_one_band_of_the_tts_sheets(deck, tmp_path, monkeypatch):
    import dataclasses

    out = tmp_path / "tts"
    made: list[int] = []
    band = png_bands.band
    monkeypatch.setattr(png_bands, "band", lambda im: made.append(im.height) or band(im))
    run_build(deck, out, only=("tts",), jobs=1)
    cold = len(made)
    sheets = {p.name: p.read_bytes() for p in (out / "tts").glob("sheet-*.png")}
    cards = tuple(dataclasses.replace(c, text="Roll the count back to 0.") if c.code == "SKIP" else c
                  for c in deck.cards)
    edited = dataclasses.replace(deck, cards=cards)  # its look (the wild glyphs' icon files) kept
    run_build(edited, out, only=("tts",), jobs=1)
    assert cold >= 8 and len(made) == cold + 1
    changed = [name for name, data in sheets.items() if (out / "tts" / name).read_bytes() != data]
    assert len(changed) == 1
    fresh = tmp_path / "fresh"
    run_build(edited, fresh, only=("tts",), jobs=1)
    assert (fresh / "tts" / changed[0]).read_bytes() == (out / "tts" / changed[0]).read_bytes()
