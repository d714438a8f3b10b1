"""The one RGB -> CMYK conversion of the print-shop files (DriveThruCards' PDF/X-1a).

The manifest gives each colour as sRGB (`print: "#00A3D9"`); a print shop wants process CMYK
with at most 240% total ink. The conversion is a plain full grey-component replacement:

    K = 1 - max(R, G, B);  C = (1 - R - K) / (1 - K), likewise M from G and Y from B

so one of C, M, Y is always 0. A dark saturated colour can still sum to more than the limit
(#3F0000: K75 M100 Y100 = 275%), so where C+M+Y+K would pass CAP (230%, 10 points under
DriveThruCards' 240% for rounding and press gain) C, M and Y are scaled down together, K kept.
Two kinds of colour are special-cased, as print shops ask:

- neutral greys (R = G = B) print on the black plate alone (crisp text, no registration
  fringes): K = 1 - R;
- near-black neutrals (R = G = B <= 0x14, the chaos interior) become a rich black,
  C40 M30 Y30 K100 = 200%, deeper than K alone and within the limit.

Values are rounded to whole percent, so the same input gives the same bytes on every machine.
"""

from __future__ import annotations

from functools import lru_cache

RICH_BLACK = (0.40, 0.30, 0.30, 1.00)
RICH_BLACK_MAX = 0x14  #: neutrals this dark or darker print as rich black
INK_LIMIT = 2.40  #: DriveThruCards' total ink limit (240%)
CAP = 2.30  #: what the conversion keeps under


@lru_cache(maxsize=None)
def to_cmyk(hex_rgb: str) -> tuple[float, float, float, float]:
    """`#RRGGBB` -> (c, m, y, k), each 0..1 in whole percent."""
    r, g, b = (int(hex_rgb[i:i + 2], 16) for i in (1, 3, 5))
    if r == g == b:
        if r <= RICH_BLACK_MAX:
            return RICH_BLACK
        return (0.0, 0.0, 0.0, round(1 - r / 255, 2))
    rf, gf, bf = r / 255, g / 255, b / 255
    k = 1 - max(rf, gf, bf)
    c, m, y = ((1 - v - k) / (1 - k) for v in (rf, gf, bf))
    if c + m + y + k > CAP:
        f = (CAP - k) / (c + m + y)
        c, m, y = c * f, m * f, y * f
    return (_floor(c), _floor(m), _floor(y), round(k, 2))


def _floor(v: float) -> float:
    """Down to whole percent (a rounding that never adds ink)."""
    return int(v * 100 + 1e-9) / 100


def total_ink(hex_rgb: str) -> float:
    return sum(to_cmyk(hex_rgb))
