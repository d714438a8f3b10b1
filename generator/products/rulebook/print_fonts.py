"""The fonts the rulebook is printed in, cut down for print: the cards' typeface (DejaVu Sans and
its bold, in render/fonts/) for the text, and for code DejaVu Sans Mono and its bold (the same
DejaVu release, 2.37, shipped whole beside this module in fonts/), each with only the characters
of the scripts a rulebook is written in (RANGES), shipped in fonts/ too (about 200 KB for each
DejaVu Sans, 150 KB for each DejaVu Sans Mono, against 740 KB and 340 KB whole).
fonts/LICENSE-DejaVu.txt is their licence (Bitstream Vera's, for every DejaVu font; DejaVu's
changes are in the public domain).

Chromium reads every font the page it prints declares, and the whole DejaVu Sans pair is 2 MB of
data: URIs to decode and check before a line is laid out, about a fifth of the rulebook's
printing time. The rulebook PDF (pdf.py) is printed with these when every character of its page
is in RANGES, else with the whole fonts, so it never falls back to a font of the machine. The
glyphs are the whole fonts' own, outline for outline, with their advances and kerning (a test
compares them); `python -m generator.products.rulebook.print_fonts` makes the files again from
the whole ones.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from generator.products.render.font_metrics import FILES

#: The characters kept: Latin (with its accents, Western and Central European), Greek, general
#: punctuation, currency, letter-like symbols, arrows, mathematical operators, box drawing,
#: geometric shapes, miscellaneous symbols and dingbats (✓, ☐, ▲, ★).
RANGES = ((0x0020, 0x024F), (0x0370, 0x03FF), (0x2000, 0x206F), (0x20A0, 0x20CF), (0x2100, 0x214F),
          (0x2190, 0x21FF), (0x2200, 0x22FF), (0x2500, 0x25FF), (0x2600, 0x26FF), (0x2700, 0x27BF))
HERE = Path(__file__).resolve().parent / "fonts"
#: The whole fonts, by (face, bold): "text", the cards' typeface, and "code", DejaVu Sans Mono.
WHOLE = {("text", False): FILES[False], ("text", True): FILES[True],
         ("code", False): HERE / "DejaVuSansMono.ttf", ("code", True): HERE / "DejaVuSansMono-Bold.ttf"}
#: The same, cut down to RANGES: (face, bold) -> the file
PRINT_FILES = {face: HERE / path.name.replace(".ttf", "-print.ttf") for face, path in WHOLE.items()}


def covers(text: str) -> bool:
    """Whether every character of `text` is one RANGES keeps (control characters aside)."""
    return all(ord(ch) < 0x20 or any(lo <= ord(ch) <= hi for lo, hi in RANGES) for ch in set(text))


def cut_down(path: Path) -> bytes:
    """The font at `path` with only the characters of RANGES (and their mirror images, which
    right-to-left text draws): their glyphs, advances and layout features as they are, hinting
    left out (a PDF is not drawn on a pixel grid)."""
    from fontTools import subset  # lazy: a maintainer's tool
    from fontTools.ttLib import TTFont  # lazy: as above

    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    options.drop_tables += ["FFTM"]
    font = TTFont(str(path), recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[c for lo, hi in RANGES for c in range(lo, hi + 1)])
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def write() -> list[Path]:
    """Make the cut-down fonts again from the whole ones."""
    HERE.mkdir(exist_ok=True)
    for face, path in PRINT_FILES.items():
        path.write_bytes(cut_down(WHOLE[face]))
    return list(PRINT_FILES.values())


if __name__ == "__main__":  # pragma: no cover (a maintainer's tool)
    for p in write():
        print(p, p.stat().st_size, file=sys.stdout)
