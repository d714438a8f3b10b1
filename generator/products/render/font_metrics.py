"""The advance widths of the shipped typeface, read from a small table instead of the font files.

Layout only needs, per character, whether the face has it and how wide it is. Reading that
through reportlab costs a tenth of a second per process (importing reportlab and parsing two
TrueType files), which `validate` would pay on every run for its text-size check. So the
widths are kept in fonts/metrics.json, made from the fonts by reportlab itself:

    python -m generator.products.render.font_metrics      # after replacing a font file

The table records each font's SHA-256, and tests/products/render/test_font_metrics.py compares it with
reportlab's own reading of the files (every character, every width, and the width of every
text of the deck), so it cannot drift from what the PDF backend draws.
"""

from __future__ import annotations

import json
import sys
from bisect import bisect_right
from functools import lru_cache
from pathlib import Path

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FILES = {False: FONT_DIR / "DejaVuSans.ttf", True: FONT_DIR / "DejaVuSans-Bold.ttf"}
TABLE = FONT_DIR / "metrics.json"


class Widths(dict):
    """One face's widths in thousandths of the font size, as reportlab computes them (advance ×
    1000 / units per em), by character; a character the face lacks has the face's default width
    (its missing-glyph box), as in reportlab. Looked up in the table's runs on first use, so a
    process pays only for the characters it measures."""

    def __init__(self, entry: dict):
        super().__init__()
        self.scale = 1000 / entry["units_per_em"]  # the same float reportlab multiplies by
        self.default = entry["default_advance"] * self.scale
        self._starts = [first for first, _ in entry["runs"]]
        self._runs = [advances for _, advances in entry["runs"]]

    def advance(self, char: str) -> int | None:
        """The character's advance in font units, or None when the face lacks it."""
        code = ord(char)
        k = bisect_right(self._starts, code) - 1
        if k >= 0 and code - self._starts[k] < len(self._runs[k]):
            return self._runs[k][code - self._starts[k]]
        return None

    def has(self, char: str) -> bool:
        return char in self or self.advance(char) is not None

    def __missing__(self, char: str) -> float:
        advance = self.advance(char)
        if advance is None:
            return self.default
        width = self[char] = advance * self.scale
        return width


@lru_cache(maxsize=None)
def _table() -> dict:
    return json.loads(TABLE.read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def metrics(bold: bool) -> Widths:
    return Widths(_table()[FILES[bold].name])


def file_digest(path: Path) -> str:
    import hashlib  # lazy: only to regenerate or check the table

    return hashlib.sha256(path.read_bytes()).hexdigest()


def from_reportlab(path: Path) -> dict:
    """One font's table entry, read by reportlab (the reader the PDF backend draws with)."""
    from reportlab.pdfbase.ttfonts import TTFontFace  # lazy: only to regenerate or check the table

    face = TTFontFace(str(path))
    upem = face.unitsPerEm
    scale = 1000 / upem

    def advance(width: float) -> int:
        units = round(width / scale)
        if units * scale != width:
            raise ValueError(f"{path.name}: width {width} is not a whole number of font units")
        return units

    runs: list[list] = []
    for code in sorted(face.charToGlyph):
        width = face.charWidths.get(code, face.defaultWidth)
        if runs and runs[-1][0] + len(runs[-1][1]) == code:
            runs[-1][1].append(advance(width))
        else:
            runs.append([code, [advance(width)]])
    return {"sha256": file_digest(path), "units_per_em": upem, "default_advance": advance(face.defaultWidth),
            "runs": runs}


def render_table() -> str:
    """The text of fonts/metrics.json for the font files as they are (deterministic: one run a line)."""
    parts = []
    for path in FILES.values():
        entry = from_reportlab(path)
        runs = ",\n".join(f"    {json.dumps(run, separators=(',', ':'))}" for run in entry["runs"])
        head = ", ".join(f"{json.dumps(k)}: {json.dumps(entry[k])}" for k in ("sha256", "units_per_em", "default_advance"))
        parts.append(f"{json.dumps(path.name)}: {{{head}, \"runs\": [\n{runs}\n  ]}}")
    return "{\n  " + ",\n  ".join(parts) + "\n}\n"


def main() -> int:
    TABLE.write_text(render_table(), encoding="utf-8")
    print(f"wrote {TABLE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
