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
    pictures once per image)."""
    flat = bytes(v for entry in _entries(colours, wanted) for v in entry)
    return flat.ljust(3 * ENTRIES, b"\0")


def _entries(colours: tuple[str, ...], wanted: int) -> list[tuple[int, int, int]]:
    """The colours, then their blends, at most `wanted` entries. The blends are made only until the
    palette is full: a deck of many colours (pictures bring a dozen each) has tens of thousands of
    pairs, of which a few dozen fit."""
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
    return list(entries)[:wanted]


def slotted(drawn: tuple[str, ...], pairs: tuple[tuple[str, str], ...],
            slots: tuple[tuple[str, ...], ...]) -> tuple[bytes, int] | None:
    """A palette shared by faces that show pictures (the TTS sheets): the colours the faces draw,
    then even blends between the `pairs` of them that meet on a face (as many steps as leave room
    for the slots), then each slot's colours (a picture's) in entries of their own; 768 bytes, and
    how many entries the drawn colours and their blends take. A slot's entries depend on nothing but
    the slots' sizes, so a picture whose colours change changes its own entries only. None when
    it all does not fit."""
    room = ENTRIES - sum(len(s) for s in slots)
    entries: dict[tuple[int, int, int], None] = dict.fromkeys(rgb(c) for c in drawn)
    if not entries or room < len(entries):
        return None
    steps = max(2, min(16, (room - len(entries)) // max(1, len(pairs)) + 1))
    for first, second in pairs:
        a, b = rgb(first), rgb(second)
        for s in range(1, steps):
            t = s / steps
            if len(entries) < room:
                entries.setdefault((round(a[0] * (1 - t) + b[0] * t), round(a[1] * (1 - t) + b[1] * t),
                                    round(a[2] * (1 - t) + b[2] * t)))
    flat = bytes(v for entry in entries for v in entry) + bytes(v for s in slots for c in s for v in rgb(c))
    return flat.ljust(3 * ENTRIES, b"\0"), len(entries)
