"""Units and card geometry, converted in one place.

Faces are laid out in *dots*: pixels at 300 dpi, measured from the top-left corner of the
trim (the cut line), y downwards. PDF backends work in points (1/72 in, y upwards); sheets in
points too. Nothing else in the package multiplies by 72, 25.4 or 300.
"""

from __future__ import annotations

DPI = 300
PT_PER_IN = 72.0
MM_PER_IN = 25.4

#: Poker-size trim, bleed and safe margin, in inches (ARCHITECTURE "Card design").
TRIM_W_IN = 2.5
TRIM_H_IN = 3.5
BLEED_IN = 0.125
SAFE_IN = 0.125


def inch(value: float) -> float:
    """Inches to points."""
    return value * PT_PER_IN


def mm(value: float) -> float:
    """Millimetres to points."""
    return value / MM_PER_IN * PT_PER_IN


def pt_to_mm(value: float) -> float:
    return value / PT_PER_IN * MM_PER_IN


def dots(value_in: float) -> float:
    """Inches to dots (300 dpi pixels)."""
    return value_in * DPI


def dots_to_pt(value: float) -> float:
    return value * PT_PER_IN / DPI


def pt_to_dots(value: float) -> float:
    return value * DPI / PT_PER_IN


#: The card in dots.
TRIM_W = dots(TRIM_W_IN)  # 750
TRIM_H = dots(TRIM_H_IN)  # 1050
BLEED = dots(BLEED_IN)  # 37.5
SAFE = dots(SAFE_IN)  # 37.5: text keeps this far inside the trim

#: Paper sizes in points (portrait).
PAPERS: dict[str, tuple[float, float]] = {
    "letter": (inch(8.5), inch(11)),
    "a4": (mm(210), mm(297)),
}

#: The print-and-play layouts (--layout), the default first: duplex sheets (3×3 a side on A4, 2×4 on Letter) and
#: gutterfold sheets (one-sided, fronts beside their backs, folded in the middle).
LAYOUTS: tuple[str, ...] = ("duplex", "gutterfold")
