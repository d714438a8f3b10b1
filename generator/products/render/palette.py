"""The palette of a face's image: its colours, then even blends between every pair (the
anti-aliased edges), up to 256 entries. Plain bytes, no imaging library: a rebuild that takes
every image from the cache still writes the TTS sheets' palette (png_bands.png)."""

from __future__ import annotations

from functools import lru_cache

ENTRIES = 256  #: a palette image's entries


def rgb(hex_rgb: str) -> tuple[int, int, int]:
    return int(hex_rgb[1:3], 16), int(hex_rgb[3:5], 16), int(hex_rgb[5:7], 16)


def palette_bytes(colours: list[str] | tuple[str, ...], entries: int = ENTRIES) -> bytes:
    """Each colour, then even blends between every pair, in that order, each entry once: 256 RGB
    triples (768 bytes), the unused ones black. `entries`: only the first that many are wanted
    (the rest black as well)."""
    return _palette(tuple(colours), min(entries, ENTRIES))


@lru_cache(maxsize=64)
def _palette(colours: tuple[str, ...], wanted: int) -> bytes:
    """palette_bytes, kept (a worker asks for one deck-wide palette once per TTS band, a face with
    pictures once per image). The blends are made only until the palette is full: a deck of many
    colours (pictures bring a dozen each) has tens of thousands of pairs, of which a few dozen fit."""
    base = [rgb(c) for c in colours]
    pairs = len(base) * (len(base) - 1) // 2
    steps = max(2, min(16, (ENTRIES - len(base)) // max(1, pairs) + 1))
    entries: dict[tuple[int, int, int], None] = dict.fromkeys(base)
    if len(entries) < wanted:
        for i, a in enumerate(base):
            for b in base[i + 1:]:
                for s in range(1, steps):
                    t = s / steps
                    entries.setdefault((round(a[0] * (1 - t) + b[0] * t), round(a[1] * (1 - t) + b[1] * t),
                                        round(a[2] * (1 - t) + b[2] * t)))
                if len(entries) >= wanted:
                    break
            else:
                continue
            break
    flat = bytes(v for entry in list(entries)[:wanted] for v in entry)
    return flat.ljust(3 * ENTRIES, b"\0")
