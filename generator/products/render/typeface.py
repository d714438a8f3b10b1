"""The project's typeface (DejaVu Sans, shipped in generator/products/render/fonts/) and text measurement.

Both backends draw with these files: reportlab embeds them in the PDFs, Pillow rasterizes
them into the PNGs. Layout measures with the font's own advance widths, so a line that fits
in the PDF fits in the image. The widths come from fonts/metrics.json (font_metrics.py), equal
to reportlab's to the last bit, so that laying out a face (as `validate` does for every card)
needs neither reportlab nor the font files.

A designer's font file (TTF or OTF) is measured by font_files.py instead: every function here
takes `font=`, a font file's path, and "" (the default) means the built-in face, whose regular
or bold `bold` picks.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from generator.products.render.assets import font_files
from generator.products.render.font_metrics import FILES, FONT_DIR, metrics

__all__ = ["ASCENT", "DESCENT", "FILES", "FONT_DIR", "PDF_NAMES", "extent", "fit_paragraph", "fit_size", "has_glyph",
           "pdf_font", "shrink_to_fit", "width", "wrap", "wrap_words"]

PDF_NAMES = {False: "CountyUppySans", True: "CountyUppySans-Bold"}
#: Ascent and descent of the face, as fractions of the font size (for bounding boxes).
ASCENT = 0.76
DESCENT = 0.24


@lru_cache(maxsize=None)
def pdf_font(bold: bool) -> str:
    """Register the face with reportlab once per process; return its PDF name."""
    # lazy: reportlab and the TrueType parsing are for drawing PDFs, not for measuring text
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    name = PDF_NAMES[bold]
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, str(FILES[bold])))
    return name


def extent(font: str = "") -> tuple[float, float]:
    """(ascent, descent) of a font as fractions of its size (both positive)."""
    return font_files.extent(font) if font else (ASCENT, DESCENT)


def width(text: str, size: float, bold: bool = False, font: str = "") -> float:
    """Advance width of `text` at `size` (same unit as size): reportlab's stringWidth, computed
    the same way (sum of the widths, times 0.001, times the size) so that every float agrees."""
    if font:
        return font_files.width(font, text, size)
    return (_units(text, bold) * 0.001) * size


@lru_cache(maxsize=1 << 14)
def _units(text: str, bold: bool) -> float:
    """The summed widths of `text` (exact: each is a whole number of 1/2048ths of 1000), kept
    because fitting a paragraph measures the same words at every size it tries."""
    return sum(map(metrics(bold).__getitem__, text))


def has_glyph(char: str, bold: bool = False, font: str = "") -> bool:
    if font:
        return font_files.has_glyph(font, char)
    return metrics(bold).has(char)


def fit_size(text: str, box_w: float, max_size: float, bold: bool = False, font: str = "") -> float:
    """The largest size up to `max_size` at which `text` fits on one line of `box_w`."""
    w = width(text, 1000.0, bold, font=font) / 1000.0
    return max_size if w <= 0 else min(max_size, box_w / w)


def wrap(text: str, size: float, box_w: float, bold: bool = False, font: str = "") -> list[str]:
    """Greedy word wrap; a word longer than the line stays whole (fit_paragraph shrinks it)."""
    return wrap_words(text, lambda line: width(line, size, bold, font=font) > box_w)


def wrap_words(text: str, too_wide: Callable[[str], bool]) -> list[str]:
    """Greedy word wrap of each paragraph of `text`; `too_wide(line)` says whether a line passes
    the box (inline.py measures its icons in it)."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            trial = f"{line} {word}" if line else word
            if line and too_wide(trial):
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def fit_paragraph(text: str, box_w: float, box_h: float, max_size: float, min_size: float = 1.0,
                  leading: float = 1.22, bold: bool = False, font: str = "") -> tuple[float, list[str]]:
    """Shrink from `max_size` until the wrapped text fits the box; return size and lines."""
    return shrink_to_fit(lambda size: wrap(text, size, box_w, bold, font=font),
                         lambda line, size: width(line, size, bold, font=font), box_w, box_h, max_size, min_size, leading)


def shrink_to_fit(lay: Callable[[float], list[str]], measure: Callable[[str, float], float], box_w: float,
                  box_h: float, max_size: float, min_size: float, leading: float) -> tuple[float, list[str]]:
    """The size, 5% smaller at each step from `max_size` down to `min_size`, at which the lines
    `lay(size)` fit the box (`measure(line, size)`: a line's width), and those lines."""
    size = max_size
    while True:
        lines = lay(size)
        widest = max((measure(line, size) for line in lines), default=0.0)
        if (len(lines) * size * leading <= box_h and widest <= box_w) or size <= min_size:
            return size, lines
        size = round(size * 0.95, 2)
