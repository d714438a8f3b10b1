"""The palette of a face's image: its colours, then even blends between every pair (the
anti-aliased edges), up to 256 entries. Plain bytes, no imaging library: a rebuild that takes
every image from the cache still writes the TTS sheets' palette (png_bands.png)."""

from __future__ import annotations

import itertools


def rgb(hex_rgb: str) -> tuple[int, int, int]:
    return int(hex_rgb[1:3], 16), int(hex_rgb[3:5], 16), int(hex_rgb[5:7], 16)


def palette_bytes(colours: list[str]) -> bytes:
    """Each colour, then even blends between every pair: 256 RGB triples (768 bytes), the
    unused ones black."""
    base = [rgb(c) for c in colours]
    pairs = list(itertools.combinations(base, 2))
    steps = max(2, min(16, (256 - len(base)) // max(1, len(pairs)) + 1))
    entries: dict[tuple[int, int, int], None] = dict.fromkeys(base)
    for a, b in pairs:
        for i in range(1, steps):
            t = i / steps
            entries.setdefault(tuple(round(a[k] * (1 - t) + b[k] * t) for k in range(3)))  # type: ignore[arg-type]
    flat = bytes(v for entry in list(entries)[:256] for v in entry)
    return flat.ljust(768, b"\0")
