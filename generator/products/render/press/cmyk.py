"""The one RGB -> CMYK conversion of the print-shop files (DriveThruCards' PDF/X-1a), colour-managed.

The manifest gives each colour as sRGB (`print: "#00A3D9"`); a print shop wants process CMYK
for the printing condition its file declares, within its total ink limit (render/press/shops.py: for
DriveThruCards, CGATS TR 001, US Web Coated SWOP, 240%). One shop's conversion is an `Ink`: its
condition, its limit, its rich black and the colours the designer gave as CMYK (`cmyk:` in the
manifest, used as they are). Colours go through LittleCMS, in double precision (render/press/lcms.py;
raster pictures through Pillow's ImageCms): sRGB to the press profile, relative colorimetric with
black-point compensation, so what the press prints matches what the designer saw wherever the
press can print it; every soft proof (the press's CMYK back to CIELAB) is measured so too. The SWOP profile is Ghostscript's
characterisation (`default_cmyk.icc`, "Artifex CMYK SWOP Profile"), which the Debian and Ubuntu
package `ghostscript` installs; each condition's environment variable (COUNTY_UPPY_CMYK_PROFILE
for SWOP) names another ICC file. Then:

- a colour the profile puts over the cap (the shop's limit less 10 points for rounding and
  press gain: 230% for 240%) is searched again within it: the CMYK nearest to it in CIELAB,
  measured through the same profile, with no more than the cap of ink; so is a colour whose
  soft proof misses it by more than ΔE 1 (OWN_DELTA_E), where the search finds a nearer one;
- neutral greys (R = G = B) in text and lines print on the black plate alone (no registration
  fringes), and solid dark text and lines (a grey of #404040 or darker, `text=True`: a text's
  colour, a text's outline, a stroked line, a shape 1 mm thin: pdf.is_line) are 100% K, as print
  shops ask;
- near-black neutral fills (R = G = B <= 0x14, the chaos interior) become the shop's rich
  black (C40 M30 Y30 K100 = 200% for DriveThruCards), deeper than K alone and within the limit:
  the file's one rich black. Every other dark neutral fill (to #404040: the ink's bar under a 6
  or a 9) is 100% K like the text, not a second rich black the profile would make of it.

Without a SWOP profile on the machine the conversion falls back to a plain grey-component
replacement (K = 1 - max(R, G, B), then C, M, Y), and `press_profile()` is None so the build
can say so; a condition without that fallback (FOGRA39, whose profile the package ships in
render/press/icc/) makes no file without its profile. Values are rounded to whole percent: the same
inputs (and profile) give the same bytes on every machine.
"""

from __future__ import annotations

import hashlib
import os
from math import atan2, cos, degrees, exp, hypot, radians, sin, sqrt
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from generator.products.render.press import lcms
from generator.products.render.press.shops import SWOP, Condition, Shop, shop

RICH_BLACK_MAX = 0x14  #: neutral fills this dark or darker print as rich black
TEXT_BLACK_MAX = 0x40  #: neutral text this dark or darker prints as solid K100
#: A colour whose soft proof misses it by more than this (ΔE00) is out of the press's gamut.
GAMUT_DELTA_E = 3.0
#: The profile's own conversion is kept when its soft proof is this near (ΔE00), else the CMYK
#: within the cap that prints nearest is taken where it is nearer: the profile's separation of a
#: saturated colour can miss it by ΔE 2.8 where another prints within 0.3.
OWN_DELTA_E = 1.0
#: The conversion keeps this far under a shop's ink limit (rounding, press gain).
HEADROOM = 0.10

CMYK = tuple[float, float, float, float]


@dataclass(frozen=True)
class Ink:
    """How one shop's file turns the design's sRGB into CMYK: the condition (its ICC profile),
    the total ink limit (1.0 a plate), the rich black of dark neutral fills, and the colours the
    designer gave as CMYK (`own`: "#RRGGBB" -> (c, m, y, k)), which are used as they are."""

    condition: Condition
    limit: float
    rich_black: CMYK
    own: tuple[tuple[str, CMYK], ...] = ()

    @property
    def cap(self) -> float:
        return round(self.limit - HEADROOM, 2)


def ink_for(s: Shop, own: tuple[tuple[str, CMYK], ...] = ()) -> Ink:
    """The conversion of shop `s` (a CMYK shop), with the designer's own CMYK colours."""
    assert s.condition is not None and s.ink_limit is not None and s.rich_black is not None, s.name
    return Ink(s.condition, s.ink_limit / 100, s.rich_black, own)


#: DriveThruCards' conversion, what the functions below use unless told another.
DEFAULT = ink_for(shop("dtc"))
RICH_BLACK = DEFAULT.rich_black
INK_LIMIT = DEFAULT.limit  #: DriveThruCards' total ink limit (240%)
CAP = DEFAULT.cap  #: what its conversion keeps under
PROFILE_ENV = SWOP.env
PROFILE_PLACES = SWOP.places


@dataclass(frozen=True)
class PressProfile:
    path: str
    sha256: str  #: of the file's bytes: part of every cache key of a CMYK form

    @property
    def description(self) -> str:
        """The profile's own name for itself (read by LittleCMS, so only when a line shows it)."""
        return _description(self.path)


@lru_cache(maxsize=8)
def press_profile(condition: Condition = SWOP) -> PressProfile | None:
    """The ICC profile of the press condition, or None when this machine has none."""
    named = os.environ.get(condition.env, "").strip()
    for place in ([named] if named else condition.places):
        path = Path(place)
        try:
            data = path.read_bytes() if path.is_file() and path.stat().st_size < 16 << 20 else b""
        except OSError:
            data = b""
        if data[36:40] == b"acsp" and (not named or _converts_to_cmyk(data)):  # the ICC signature
            return PressProfile(str(path), hashlib.sha256(data).hexdigest())
    return None


def _converts_to_cmyk(data: bytes) -> bool:
    """Whether LittleCMS takes these ICC bytes as a CMYK profile sRGB converts into. A file the
    designer names is checked so (an RGB profile, or a damaged one, named by mistake made the
    print-shop file an internal error); the profiles found in their usual places are trusted."""
    import io  # lazy: only for a profile named in the environment

    from PIL import ImageCms  # lazy: as above

    if data[16:20] != b"CMYK":  # the profile's data colour space
        return False
    try:
        ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.getOpenProfile(io.BytesIO(data)), "RGB", "CMYK")
    except (ImageCms.PyCMSError, OSError, ValueError, TypeError):
        return False
    return True


def profile_key(ink: Ink = DEFAULT) -> str:
    """What the CMYK forms depend on besides the faces: the press profile's content (or the
    formula), the limit, the rich black and the designer's own CMYK colours."""
    found = press_profile(ink.condition)
    return repr((found.sha256 if found else "formula", ink.limit, ink.rich_black, ink.own))


@lru_cache(maxsize=4)
def _description(path: str) -> str:
    from PIL import ImageCms  # lazy: Pillow's LittleCMS, only when a CMYK file is made

    return ImageCms.getProfileDescription(ImageCms.getOpenProfile(path)).strip()


#: Conversions made earlier (a build's face cache keeps them, keyed by this code and the
#: conversion's profile_key), by (profile_key(ink), colour, text): to_cmyk takes them as they are.
_REMEMBERED: dict[tuple[str, str, bool], CMYK] = {}


def remember(conversions: dict[tuple[str, bool], CMYK], ink: Ink = DEFAULT) -> None:
    """Take (colour, text) -> CMYK conversions made by this code through `ink` as it is now
    (the face cache keeps them, so a rebuild need not load LittleCMS to convert them again)."""
    profile = profile_key(ink)
    _REMEMBERED.update({(profile, hex_rgb, text): tuple(v) for (hex_rgb, text), v in conversions.items()})


@lru_cache(maxsize=None)
def to_cmyk(hex_rgb: str, text: bool = False, ink: Ink = DEFAULT) -> CMYK:
    """`#RRGGBB` -> (c, m, y, k), each 0..1 in whole percent. `text`: the colour of text or of a
    line (a text's outline, a stroke), so a neutral one prints on the black plate alone."""
    for colour, given in ink.own:
        if colour == hex_rgb.upper():
            return given
    known = _REMEMBERED.get((profile_key(ink), hex_rgb, text))
    if known is not None:
        return known
    r, g, b = (int(hex_rgb[i:i + 2], 16) for i in (1, 3, 5))
    if r == g == b:
        if r <= RICH_BLACK_MAX and not text:  # large dark areas: the file's one rich black
            return ink.rich_black
        if text or r <= TEXT_BLACK_MAX:  # grey text and lines on the black plate alone, dark ones (and
            # any other dark neutral, such as the bar under a 6) as 100% K: no second rich black
            return (0.0, 0.0, 0.0, 1.0 if r <= TEXT_BLACK_MAX else round(1 - r / 255, 2))
    found = press_profile(ink.condition)
    if found is None:
        return _formula(r, g, b, ink.cap)
    return _managed((r, g, b), found.path, ink.cap)


def _formula(r: int, g: int, b: int, cap: float = CAP) -> CMYK:
    rf, gf, bf = r / 255, g / 255, b / 255
    k = 1 - max(rf, gf, bf)
    c, m, y = ((1 - v - k) / (1 - k) for v in (rf, gf, bf))
    if c + m + y + k > cap:
        f = (cap - k) / (c + m + y)
        c, m, y = c * f, m * f, y * f
    return (_floor(c), _floor(m), _floor(y), round(k, 2))


def _floor(v: float) -> float:
    """Down to whole percent (a rounding that never adds ink)."""
    return int(v * 100 + 1e-9) / 100


@lru_cache(maxsize=4)
def _transforms(path: str):
    """sRGB -> press CMYK, press CMYK -> CIELAB (the soft proof), sRGB -> CIELAB, for the press
    profile at `path`."""
    from PIL import ImageCms  # lazy: see _description

    srgb, lab = ImageCms.createProfile("sRGB"), ImageCms.createProfile("LAB", 6500)
    press = ImageCms.getOpenProfile(path)
    intent = ImageCms.Intent.RELATIVE_COLORIMETRIC
    return (ImageCms.buildTransform(srgb, press, "RGB", "CMYK", intent, flags=ImageCms.Flags.BLACKPOINTCOMPENSATION),
            ImageCms.buildTransform(press, lab, "CMYK", "LAB", intent),
            ImageCms.buildTransform(srgb, lab, "RGB", "LAB", intent))


def _apply(transform, image):
    """`image` through a LittleCMS transform. Pillow's applyTransform also serializes the output
    profile into the result's info on every call (milliseconds each, for a pixel or a few
    thousand); the transform itself is what is wanted, so it is called directly when Pillow
    offers it."""
    from PIL import Image, ImageCms  # lazy: see _description

    core = getattr(transform, "transform", None)
    if core is not None and hasattr(image, "getim"):
        out = Image.new(transform.output_mode, image.size)
        core.apply(image.getim(), out.getim())
        return out
    return ImageCms.applyTransform(image, transform)


def press_image(rgb, ink: Ink = DEFAULT):
    """An RGB image through the same transform as every colour of `ink` (sRGB to its press
    profile, relative colorimetric, black-point compensation): a CMYK image, before any ink
    limit; None when this machine has no press profile for it."""
    found = press_profile(ink.condition)
    if found is None:
        return None
    return _apply(_transforms(found.path)[0], rgb)


def _labs(cmyks: list[tuple[int, int, int, int]], path: str) -> list[tuple[float, float, float]]:
    """CIELAB of CMYK values (whole percent each) as the press of the profile at `path` prints
    them (the soft proof), in double precision (render/press/lcms.py); through Pillow's 8-bit
    CIELAB where that cannot be had."""
    fine = lcms.cmyk_labs(path, cmyks)
    if fine is not None:
        return fine
    from PIL import Image  # lazy: see _description

    image = Image.frombytes("CMYK", (len(cmyks), 1), bytes(round(v * 2.55) for cmyk in cmyks for v in cmyk))
    raw = _apply(_transforms(path)[1], image).tobytes()  # L 0..255, then a and b as signed bytes
    return [(raw[i] * 100 / 255, raw[i + 1] - (raw[i + 1] > 127) * 256, raw[i + 2] - (raw[i + 2] > 127) * 256)
            for i in range(0, len(raw), 3)]


def _lab_of_rgb(rgb: tuple[int, int, int], path: str) -> tuple[float, float, float]:
    fine = lcms.rgb_lab(path, rgb)
    if fine is not None:
        return fine
    from PIL import Image  # lazy: see _description

    l, a, b = _apply(_transforms(path)[2], Image.new("RGB", (1, 1), rgb)).getpixel((0, 0))
    return (l * 100 / 255, a - 128, b - 128)


def _percent(cmyk: CMYK) -> tuple[int, int, int, int]:
    return tuple(round(v * 100) for v in cmyk)  # type: ignore[return-value]


def _delta_e(p: tuple[float, float, float], q: tuple[float, float, float]) -> float:
    """CIEDE2000 (CIE 142-2001; Sharma, Wu and Dalal's implementation notes), kL = kC = kH = 1:
    the difference the eye sees, which CIE76 overstates in saturated colours (green, magenta)."""
    (l1, a1, b1), (l2, a2, b2) = p, q
    c_mean = (hypot(a1, b1) + hypot(a2, b2)) / 2
    g = 0.5 * (1 - sqrt(c_mean ** 7 / (c_mean ** 7 + 25.0 ** 7)))
    a1, a2 = a1 * (1 + g), a2 * (1 + g)
    c1, c2 = hypot(a1, b1), hypot(a2, b2)
    h1 = degrees(atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = degrees(atan2(b2, a2)) % 360 if c2 else 0.0
    dl, dc = l2 - l1, c2 - c1
    dh = 0.0 if not c1 * c2 else (h2 - h1 if abs(h2 - h1) <= 180 else h2 - h1 - 360 if h2 > h1 else h2 - h1 + 360)
    dhh = 2 * sqrt(c1 * c2) * sin(radians(dh / 2))
    l_mean, c_mean2 = (l1 + l2) / 2, (c1 + c2) / 2
    if not c1 * c2:
        h_mean = h1 + h2
    elif abs(h1 - h2) <= 180:
        h_mean = (h1 + h2) / 2
    else:
        h_mean = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * cos(radians(h_mean - 30)) + 0.24 * cos(radians(2 * h_mean))
         + 0.32 * cos(radians(3 * h_mean + 6)) - 0.20 * cos(radians(4 * h_mean - 63)))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / sqrt(20 + (l_mean - 50) ** 2)
    sc, sh = 1 + 0.045 * c_mean2, 1 + 0.015 * c_mean2 * t
    rt = (-2 * sqrt(c_mean2 ** 7 / (c_mean2 ** 7 + 25.0 ** 7))
          * sin(radians(60 * exp(-(((h_mean - 275) / 25) ** 2)))))
    return sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh))


def _managed(rgb: tuple[int, int, int], path: str, cap: float) -> CMYK:
    """The profile's own conversion when it is within `cap` and its soft proof within
    OWN_DELTA_E; else the CMYK within `cap` nearest the colour, when it is nearer than the
    profile's own."""
    fine = lcms.rgb_to_cmyk(path, rgb)
    if fine is not None:
        whole = tuple(round(v) for v in fine)
    else:
        from PIL import Image  # lazy: see _description

        whole = tuple(round(v / 2.55) for v in _apply(_transforms(path)[0], Image.new("RGB", (1, 1), rgb)).getpixel((0, 0)))
    target = _lab_of_rgb(rgb, path)
    if sum(whole) <= cap * 100:
        proof = _delta_e(_labs([whole], path)[0], target)
        if proof <= OWN_DELTA_E:
            return tuple(v / 100 for v in whole)  # type: ignore[return-value]
        found = _within_limit(target, path, cap)
        if _delta_e(_labs([_percent(found)], path)[0], target) >= proof:
            return tuple(v / 100 for v in whole)  # type: ignore[return-value]
        return found
    return _within_limit(target, path, cap)


@lru_cache(maxsize=4)
def _coarse(path: str, cap: float) -> tuple[list[tuple[int, int, int, int]], list[tuple[float, float, float]]]:
    """Every CMYK within `cap` on a coarse grid (C, M, Y by 20%, K by 5%) and its soft proof: the
    first round of every search, made once."""
    top = int(cap * 100)
    cands = [(c, m, y, k) for k in range(0, 101, 5) for c in range(0, 101, 20) for m in range(0, 101, 20)
             for y in range(0, 101, 20) if c + m + y + k <= top]
    return cands, _labs(cands, path)


def _within_limit(target: tuple[float, float, float], path: str, cap: float) -> CMYK:
    """The CMYK (whole percent) within `cap` whose soft proof is nearest `target` (CIEDE2000): the
    nearest on a coarse grid, then on finer grids around it."""
    top = int(cap * 100)

    def nearest(cands, labs):
        return _nearest(cands, labs, target)

    def search(ks, cs, ms, ys):
        cands = [(c, m, y, k) for k in ks for c in cs for m in ms for y in ys if c + m + y + k <= top]
        return nearest(cands, _labs(cands, path))

    around = lambda v, step, reach: range(max(0, v - reach), min(100, v + reach) + 1, step)  # noqa: E731
    c, m, y, k = nearest(*_coarse(path, cap))
    c, m, y, k = search(around(k, 2, 6), around(c, 5, 10), around(m, 5, 10), around(y, 5, 10))
    c, m, y, k = search(around(k, 1, 2), around(c, 1, 2), around(m, 1, 2), around(y, 1, 2))
    return (c / 100, m / 100, y / 100, k / 100)


def _nearest(cands: list, labs: list[tuple[float, float, float]], target: tuple[float, float, float]):
    """The candidate whose CIELAB is nearest `target` (CIEDE2000 to 9 decimals, then the least
    candidate), as min() over them all finds it, without computing the difference of the many
    that cannot be nearest: CIEDE2000 is at least its lightness term, |ΔL| / S_L (the chroma and
    hue terms with their rotation, x² + y² + R_T·x·y with |R_T| < 2, are never negative), so a
    candidate whose lightness term alone exceeds the best difference so far is passed over.
    Looked at in order of that bound, the nearest come first."""
    lt = target[0]

    def lightness_term(lab: tuple[float, float, float]) -> float:
        mean = (lab[0] + lt) / 2 - 50
        return abs(lab[0] - lt) / (1 + 0.015 * mean * mean / sqrt(20 + mean * mean))

    best = None
    for bound, cand, lab in sorted((lightness_term(lab), cand, lab) for cand, lab in zip(cands, labs)):
        if best is not None and bound > best[0] + 1e-6:
            break  # every candidate after this one is as far in lightness alone
        k = (round(_delta_e(lab, target), 9), cand)
        if best is None or k < best:
            best = k
    return best[1]


def soft_proof(hex_rgb: str, text: bool = False, ink: Ink = DEFAULT) -> float | None:
    """How far (ΔE00, CIEDE2000) the press prints `hex_rgb` from the sRGB colour, through the press
    profile (the designer's own CMYK for the colour, when given); None when this machine has no
    press profile."""
    found = press_profile(ink.condition)
    if found is None:
        return None
    rgb = tuple(int(hex_rgb[i:i + 2], 16) for i in (1, 3, 5))
    printed = _labs([_percent(to_cmyk(hex_rgb, text, ink))], found.path)[0]
    return _delta_e(printed, _lab_of_rgb(rgb, found.path))  # type: ignore[arg-type]


def in_gamut(hex_rgb: str, ink: Ink = DEFAULT) -> bool:
    """Can the press print `hex_rgb` within the cap to GAMUT_DELTA_E or nearer (through the press
    profile)? True when this machine has no profile to say otherwise."""
    found = press_profile(ink.condition)
    if found is None:
        return True
    rgb = tuple(int(hex_rgb[i:i + 2], 16) for i in (1, 3, 5))
    target = _lab_of_rgb(rgb, found.path)  # type: ignore[arg-type]
    best = _within_limit(target, found.path, ink.cap)
    return _delta_e(_labs([_percent(best)], found.path)[0], target) <= GAMUT_DELTA_E


def total_ink(hex_rgb: str, text: bool = False, ink: Ink = DEFAULT) -> float:
    return sum(to_cmyk(hex_rgb, text, ink))
