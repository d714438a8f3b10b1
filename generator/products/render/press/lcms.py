"""LittleCMS in double precision: the press conversions and soft proofs of render/press/cmyk.py.

Pillow's ImageCms hands back CIELAB only as 8 bits a channel (L in steps of 0.39, a* and b* in
whole units), which moved a soft proof by up to ΔE76 1 either way: cyan printed ΔE 3.0 from the
design while the build said 2.5, and the nearest-colour search, choosing among candidates a
quantum apart, missed the CMYK that prints within ΔE 0.5 of it. So the conversions call the
LittleCMS library that Pillow's ImageCms extension links (the same build of it) directly, through
ctypes, with doubles in and out: CMYK in percent, sRGB 0..1, CIELAB against D50 (the ICC's
profile connection space).

`available()` is False where that library cannot be reached (a Pillow whose extension carries
LittleCMS linked in statically and no system liblcms2): cmyk.py then measures through Pillow's
8-bit CIELAB as before, and its cache key says which it used.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
from functools import lru_cache

# LittleCMS pixel formats (lcms2.h): FLOAT_SH(1) | COLORSPACE_SH(space) | CHANNELS_SH(n) | BYTES_SH(0)
_PT_RGB, _PT_CMYK, _PT_LAB = 4, 6, 10


def _double(space: int, channels: int) -> int:
    return (1 << 22) | (space << 16) | (channels << 3)


RGB_DBL, CMYK_DBL, LAB_DBL = _double(_PT_RGB, 3), _double(_PT_CMYK, 4), _double(_PT_LAB, 3)
RELATIVE_COLORIMETRIC = 1
BLACK_POINT_COMPENSATION = 0x2000
NO_CACHE = 0x0040  #: no last-pixel cache in the transform, so one transform may serve any thread


@lru_cache(maxsize=1)
def _lib():
    """The LittleCMS library Pillow's ImageCms uses (its extension's own link), else the system's; None if neither."""
    try:
        from PIL import _imagingcms  # lazy: Pillow's LittleCMS extension, only when a CMYK file is made
        places = [_imagingcms.__file__]
    except ImportError:
        places = []
    system = ctypes.util.find_library("lcms2")
    places += [system] if system else []
    for place in places:
        try:
            lib = ctypes.CDLL(place)
            lib.cmsCreateTransform  # noqa: B018 (the symbol must be reachable through this library)
        except (OSError, AttributeError):
            continue
        for name, restype, argtypes in (
                ("cmsOpenProfileFromFile", ctypes.c_void_p, [ctypes.c_char_p, ctypes.c_char_p]),
                ("cmsCreateLab4Profile", ctypes.c_void_p, [ctypes.c_void_p]),
                ("cmsCreate_sRGBProfile", ctypes.c_void_p, []),
                ("cmsCreateTransform", ctypes.c_void_p,
                 [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32]),
                ("cmsDoTransform", None, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint32])):
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = restype, argtypes
        return lib
    return None


def available() -> bool:
    return _lib() is not None


@lru_cache(maxsize=4)
def _transforms(path: str) -> tuple[int, int, int] | None:
    """sRGB -> press CMYK (relative colorimetric, black-point compensation), press CMYK -> CIELAB
    (relative colorimetric: the soft proof) and sRGB -> CIELAB, for the press profile at `path`;
    None where LittleCMS cannot be reached or cannot read the profile. Kept for the process."""
    lib = _lib()
    if lib is None:
        return None
    press = lib.cmsOpenProfileFromFile(os.fsencode(path), b"r")
    lab, srgb = lib.cmsCreateLab4Profile(None), lib.cmsCreate_sRGBProfile()
    if not (press and lab and srgb):
        return None
    made = (lib.cmsCreateTransform(srgb, RGB_DBL, press, CMYK_DBL, RELATIVE_COLORIMETRIC,
                                   BLACK_POINT_COMPENSATION | NO_CACHE),
            lib.cmsCreateTransform(press, CMYK_DBL, lab, LAB_DBL, RELATIVE_COLORIMETRIC, NO_CACHE),
            lib.cmsCreateTransform(srgb, RGB_DBL, lab, LAB_DBL, RELATIVE_COLORIMETRIC, NO_CACHE))
    return made if all(made) else None


def _run(transform: int, values: list[float], ins: int, outs: int) -> list[tuple[float, ...]]:
    n = len(values) // ins
    source, result = (ctypes.c_double * len(values))(*values), (ctypes.c_double * (n * outs))()
    _lib().cmsDoTransform(transform, source, result, n)
    return [tuple(result[i:i + outs]) for i in range(0, n * outs, outs)]


def rgb_to_cmyk(path: str, rgb: tuple[int, int, int]) -> tuple[float, float, float, float] | None:
    """The press profile's own CMYK (percent) for an sRGB colour (0..255 a channel)."""
    made = _transforms(path)
    return None if made is None else _run(made[0], [v / 255 for v in rgb], 3, 4)[0]  # type: ignore[return-value]


def cmyk_labs(path: str, cmyks: list[tuple[float, ...]]) -> list[tuple[float, float, float]] | None:
    """CIELAB of CMYK values (percent) as the press of the profile at `path` prints them (the soft proof)."""
    made = _transforms(path)
    if made is None:
        return None
    return _run(made[1], [float(v) for cmyk in cmyks for v in cmyk], 4, 3) if cmyks else []  # type: ignore[return-value]


def rgb_lab(path: str, rgb: tuple[int, int, int]) -> tuple[float, float, float] | None:
    """CIELAB of an sRGB colour (0..255 a channel)."""
    made = _transforms(path)
    return None if made is None else _run(made[2], [v / 255 for v in rgb], 3, 3)[0]  # type: ignore[return-value]
