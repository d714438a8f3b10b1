"""Pictures (items.Image) as PDF objects: a raster as an image XObject, an SVG as a form XObject
of vector paths, and the operators that place either in its box on a face.

Each picture object is named by a hash of its bytes (`/P` + 16 hex digits), so a picture that
several faces show, or one face shown many times, is written once per file (pdf_file.PdfFile
adds each name once).

Raster pictures (PNG, JPEG): turned as their EXIF orientation says, converted to sRGB from an
embedded ICC profile, cropped to the box for `cover` (so the image drawn is exactly the part
that shows), and resampled down to at most MAX_PPI at their printed size (more is never
printed). In an RGB file a JPEG stays a JPEG (DCT, quality JPEG_QUALITY) and a PNG is
deflated; transparency is an SMask. In the print-shop file (`cmyk`) transparency is composited
onto the item's `matte`, the pixels go through the LittleCMS transform cmyk.py uses for every
colour (sRGB to the press profile, relative colorimetric with black-point compensation), and
each pixel's total ink is limited to cmyk.CAP by scaling its C, M and Y down (K kept): DeviceCMYK
only, no SMask, within the shop's 240%.

SVG pictures: drawn by svglib into reportlab's PDF operators, paths and flat colours only (art.py
refuses what would need more), each colour converted as the face's own colours are in the
print-shop file (cmyk.to_cmyk).

One picture object is a `variant` of its file: the file's content, and for a raster its box,
fit and (CMYK) matte, and the colour space (none for RGB, else the shop's conversion,
cmyk.profile_key). `prepare` makes the variants of one file together, the file decoded, turned,
cropped and resampled once for all of them; a build keeps what it made in the face cache by
the variant (pipeline/pictures.py, which prepares the missing ones on worker processes) and has
this module `remember` them, so a form or a face's image takes its picture from there.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import re
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from generator.products.render.assets import art
from generator.products.render.press.cmyk import CAP, DEFAULT, Ink, press_image, profile_key, to_cmyk
from generator.products.render.units import TRIM_H, dots_to_pt

MAX_PPI = art.MAX_PPI  #: a raster is resampled down to at most this many pixels per inch where it prints
JPEG_QUALITY = 90


@dataclass(frozen=True)
class Picture:
    """One picture's PDF objects: `body` (an image or form XObject) and, for an image with
    transparency in an RGB file, `smask` (the body refers to it as @SMASK@)."""

    name: str
    body: bytes
    smask: bytes | None = None


def _stream(entries: str, data: bytes, flate: bool) -> bytes:
    if flate:
        data = zlib.compress(data, 6)
        entries = f"/Filter /FlateDecode {entries}"
    return b"".join((f"<< {entries} /Length {len(data)} >>\nstream\n".encode("ascii"), data, b"\nendstream"))


def _named(body: bytes, smask: bytes | None = None) -> Picture:
    h = hashlib.sha256(body)
    if smask is not None:
        h.update(smask)
    return Picture("P" + h.hexdigest()[:16], body, smask)


# --- placing --------------------------------------------------------------------------------

def box_pt(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
    """A box in face dots (y down) as (left, bottom, width, height) in points (y up)."""
    left, right = sorted((x0, x1))
    top, bottom = sorted((y0, y1))
    return dots_to_pt(left), dots_to_pt(TRIM_H - bottom), dots_to_pt(right - left), dots_to_pt(bottom - top)


def drawn_rect(pic_w: float, pic_h: float, box: tuple[float, float, float, float], fit: str) -> tuple[float, ...]:
    """Where a picture of pic_w × pic_h lands for `fit` in `box` (left, bottom, width, height):
    centred, scaled to fill the box (cover, overflowing it) or to show whole (contain)."""
    x, y, w, h = box
    scale = (max if fit == "cover" else min)(w / pic_w, h / pic_h)
    dw, dh = pic_w * scale, pic_h * scale
    return x + (w - dw) / 2, y + (h - dh) / 2, dw, dh


def picture(item, cmyk: Ink | bool | None) -> tuple[Picture, str]:
    """The item's picture object and the operators placing it (a face's form draws them);
    `cmyk`: a shop's conversion (cmyk.Ink; True: DriveThruCards'), or none for RGB."""
    cmyk = DEFAULT if cmyk is True else (cmyk or None)
    path = Path(item.path)
    v = variant(item, cmyk)
    box = box_pt(item.x0, item.y0, item.x1, item.y1)
    if box[2] <= 0 or box[3] <= 0:
        raise ValueError(f"{path.name}: the picture's box is empty")
    pic, geometry = _KEPT.get(v) or _make(item, cmyk)
    if art.picture_info(path).vector:
        vw, vh = geometry
        x, y, w, h = drawn_rect(vw, vh, box, item.fit)
        clip = f"{box[0]:.3f} {box[1]:.3f} {box[2]:.3f} {box[3]:.3f} re W n " if item.fit == "cover" else ""
        return pic, f"q {clip}{w / vw:.6f} 0 0 {h / vh:.6f} {x:.3f} {y:.3f} cm /{pic.name} Do Q"
    x, y, w, h = geometry
    return pic, f"q {w:.3f} 0 0 {h:.3f} {x:.3f} {y:.3f} cm /{pic.name} Do Q"


Made = tuple  #: (Picture, geometry): a raster's drawn rectangle (x, y, w, h), an SVG's own (w, h), in points


def variant(item, cmyk: Ink | bool | None) -> tuple:
    """What the item's picture object is made from, besides this code: the file's content (its
    SHA-256), for a raster its box in points, its fit and, in CMYK, its matte; and the colour space
    (None for RGB, else the conversion's cmyk.profile_key)."""
    cmyk = DEFAULT if cmyk is True else (cmyk or None)
    path = Path(item.path)
    sha = art.digest(path)
    colour = profile_key(cmyk) if cmyk else None
    if art.picture_info(path).vector:
        return ("svg", sha, colour)
    return ("raster", sha, box_pt(item.x0, item.y0, item.x1, item.y1), item.fit, item.matte if cmyk else "", colour)


def _make(item, cmyk: Ink | None) -> Made:
    path = Path(item.path)
    sha = art.digest(path)
    if art.picture_info(path).vector:
        return _svg(str(path), sha, cmyk)
    return _raster(str(path), sha, box_pt(item.x0, item.y0, item.x1, item.y1), item.fit, item.matte if cmyk else "", cmyk)


#: Picture objects made elsewhere (the face cache, a worker process), by variant()
_KEPT: dict[tuple, Made] = {}


def remember(made: dict[tuple, Made]) -> None:
    """Take picture objects made by this code as it is now, by variant(): picture() uses them."""
    _KEPT.update(made)


def forget(keep: set[tuple] | frozenset[tuple] = frozenset()) -> None:
    """Let go of the remembered picture objects but those of the variants `keep`."""
    for v in [v for v in _KEPT if v not in keep]:
        del _KEPT[v]


def remembered(v: tuple) -> bool:
    return v in _KEPT


def kept(v: tuple) -> Made:
    """The picture object remembered for variant `v` (KeyError if none is)."""
    return _KEPT[v]


def prepare(wanted: list[tuple[object, Ink | None]]) -> dict[tuple, Made]:
    """The picture objects of (item, conversion) pairs, by variant(): those of one file made
    together, its pixels decoded and fitted to each box once for the RGB and every CMYK variant."""
    out: dict[tuple, Made] = {}
    for item, cmyk in sorted(wanted, key=lambda w: (str(w[0].path), w[1] is not None)):
        v = variant(item, cmyk)
        if v not in out:
            out[v] = _make(item, cmyk)
    return out


def dump(made: Made) -> bytes:
    """A picture object as bytes (the face cache keeps it): a line of JSON, then its streams."""
    pic, geometry = made
    head = [pic.name, list(geometry), len(pic.body), None if pic.smask is None else len(pic.smask)]
    return json.dumps(head, separators=(",", ":")).encode("ascii") + b"\n" + pic.body + (pic.smask or b"")


def load(data: bytes) -> Made:
    """dump() undone; ValueError for bytes that are not one."""
    try:
        line, rest = data.split(b"\n", 1)
        name, geometry, n_body, n_smask = json.loads(line)
        if len(rest) != n_body + (n_smask or 0) or not isinstance(name, str) or len(geometry) not in (2, 4):
            raise ValueError("the lengths do not add up")
        smask = None if n_smask is None else rest[n_body:]
        sizes = tuple(float(v) for v in geometry)
        if not all(math.isfinite(v) and abs(v) <= 1e6 for v in sizes):  # points on a card, as _make makes them
            raise ValueError("its geometry is not a picture's")
        return Picture(name, rest[:n_body], smask), sizes
    except (TypeError, KeyError, AttributeError) as exc:
        raise ValueError(f"not a picture object ({exc})") from None


def check_drawn(path: Path | str) -> None:
    """Draw the picture at `path` as the PDFs draw it, or raise art.ArtError saying why it cannot
    be: an SVG made into its form (kept for the build that asks next), every pixel of a raster
    decoded (a JPEG at its smallest scale: the whole file is still read). `validate` calls this
    once per file content (products/print_rules.py)."""
    path = Path(path)
    sha = art.digest(path)
    if not art.picture_info(path).vector:
        art.check_pixels(path.name, art._read(path))
        return
    try:
        _svg(str(path), sha, None)
    except art.ArtError:
        raise
    except Exception as exc:  # noqa: BLE001 -- svglib and reportlab raise many kinds on what they cannot draw
        said = " ".join(str(exc).split())[:160]
        raise art.ArtError(f"{path.name}: the SVG cannot be drawn ({type(exc).__name__}: {said})") from None


# --- raster ---------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _raster(path: str, sha: str, box: tuple[float, ...], fit: str, matte: str,
            cmyk: Ink | None) -> tuple[Picture, tuple[float, ...]]:
    """The image XObject for a raster picture in `box` (points), and where it is drawn. Kept by
    the file's content (`sha`), the box, the fit and the colour space."""
    from PIL import Image  # lazy: Pillow, only where a face has raster art

    rgb, alpha, was_jpeg, rect = _fitted(path, sha, box, fit)
    head = f"/Type /XObject /Subtype /Image /Width {rgb.width} /Height {rgb.height} /BitsPerComponent 8"
    if cmyk:
        if alpha is not None:
            under = Image.new("RGB", rgb.size, matte or "#FFFFFF")
            rgb = Image.composite(rgb, under, alpha)
        data = to_press(rgb, cmyk).tobytes()
        return _named(_stream(f"{head} /ColorSpace /DeviceCMYK", data, True)), rect
    if alpha is None and was_jpeg:
        buf = io.BytesIO()
        rgb.save(buf, "JPEG", quality=JPEG_QUALITY, optimize=False, progressive=False, subsampling=0)
        return _named(_stream(f"{head} /ColorSpace /DeviceRGB /Filter /DCTDecode", buf.getvalue(), False)), rect
    if alpha is None:
        return _named(_stream(f"{head} /ColorSpace /DeviceRGB", rgb.tobytes(), True)), rect
    smask = _stream(f"/Type /XObject /Subtype /Image /Width {rgb.width} /Height {rgb.height} /BitsPerComponent 8 "
                    "/ColorSpace /DeviceGray", alpha.tobytes(), True)
    body = _stream(f"{head} /ColorSpace /DeviceRGB /SMask @SMASK@ 0 R", rgb.tobytes(), True)
    return _named(body, smask), rect


@lru_cache(maxsize=4)
def _fitted(path: str, sha: str, box: tuple[float, ...], fit: str):
    """A raster picture's pixels as drawn in `box` (points) with `fit`: RGB, its alpha (None where
    it is opaque), whether it was a JPEG, and where it is drawn (x, y, w, h). Cropped to the box
    for `cover` and resampled down to MAX_PPI; kept for the picture's variants (RGB, each CMYK)."""
    from PIL import Image  # lazy: Pillow, only where a face has raster art

    info = art.picture_info(path)
    scale = (max if fit == "cover" else min)(box[2] / info.width_px, box[3] / info.height_px)  # points a pixel
    need = (math.ceil(info.width_px * scale / 72 * MAX_PPI), math.ceil(info.height_px * scale / 72 * MAX_PPI))
    im, was_jpeg = _open(path, sha, need)
    x, y, w, h = drawn_rect(im.width, im.height, box, fit)
    if fit == "cover":  # only the part inside the box is embedded, drawn exactly into the box
        sx, sy = im.width / w, im.height / h  # pixels per point
        cw, ch = min(im.width, round(box[2] * sx)), min(im.height, round(box[3] * sy))
        left, top = (im.width - cw) // 2, (im.height - ch) // 2
        im = im.crop((left, top, left + cw, top + ch))
        x, y, w, h = box
    most_w, most_h = max(1, round(w / 72 * MAX_PPI)), max(1, round(h / 72 * MAX_PPI))
    if im.width > most_w or im.height > most_h:
        im = im.resize((min(im.width, most_w), min(im.height, most_h)), Image.Resampling.LANCZOS)
    alpha = im.getchannel("A") if im.mode == "RGBA" else None
    if alpha is not None and alpha.getextrema() == (255, 255):
        alpha = None
    return im.convert("RGB"), alpha, was_jpeg, (x, y, w, h)


@lru_cache(maxsize=4)
def _open(path: str, sha: str, need: tuple[int, int]):
    """The picture's pixels as RGB or RGBA, upright, in sRGB; whether it was a JPEG. A JPEG is
    decoded at the smallest of its 1/1, 1/2, 1/4 and 1/8 scales that still gives `need` pixels
    (upright): a photograph far larger than it prints decodes in a fraction of the time. Kept
    for the file's other variants (the RGB and each shop's CMYK)."""
    from PIL import Image, ImageCms, ImageOps  # lazy: Pillow, only where a face has raster art

    data = art._read(Path(path))
    im = art.open_raster(data)
    art._check_pixels(Path(path).name, *im.size)
    turned = im.getexif().get(0x0112) in (5, 6, 7, 8)
    stored = need[::-1] if turned else need  # the pixels needed, as the file stores them
    if im.format == "JPEG":
        im.draft(im.mode if im.mode in ("RGB", "L", "CMYK") else "RGB", stored)
    elif im.width * im.height > art.MAX_PNG_PIXELS:  # art.inspect refused it: never decoded
        raise art.ArtError(f"{Path(path).name}: the PNG is {im.width} × {im.height} pixels, over the "
                           f"{art.MAX_PNG_PIXELS:,} a PNG may have")
    try:
        im.load()
    except OSError as exc:
        raise art.ArtError(f"{Path(path).name}: the picture's pixels cannot be read ({exc})") from None
    was_jpeg = im.format == "JPEG"
    icc = im.info.get("icc_profile")
    im = _reduced(im, stored)
    ImageOps.exif_transpose(im, in_place=True)  # no copy of an upright picture
    has_alpha = im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info)
    if im.mode in ("I;16", "I;16B", "I", "F"):
        im = im.convert("I").point(lambda v: v / 257).convert("L") if im.mode != "F" else im.convert("L")
    if im.mode != ("RGBA" if has_alpha else "RGB"):
        im = im.convert("RGBA" if has_alpha else "RGB")
    if icc:
        try:
            source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            mode = im.mode
            rgb = ImageCms.profileToProfile(im.convert("RGB"), source, ImageCms.createProfile("sRGB"),
                                            renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC, outputMode="RGB")
            im = Image.merge("RGBA", (*rgb.split(), im.getchannel("A"))) if mode == "RGBA" else rgb
        except (ImageCms.PyCMSError, OSError, ValueError):
            pass  # an unreadable embedded profile: the pixels are taken as sRGB
    return im, was_jpeg


def _reduced(im, need: tuple[int, int]):
    """A decoded picture far larger than the `need` pixels it prints at, reduced at once by a whole
    factor (each pixel the mean of a block) to at least `need`: its copies while it is turned,
    converted and resampled then cost a fraction of the memory (a 24-million-pixel PNG printed
    on a card's art box, 96 MB decoded, goes on as about 4 million pixels)."""
    factor = min(im.width // max(1, need[0]), im.height // max(1, need[1]))
    if factor < 2:
        return im
    if im.mode in ("P", "PA", "1"):  # a palette: reduced as its colours
        im = im.convert("RGBA" if im.mode == "PA" or "transparency" in im.info else "RGB")
    try:
        return im.reduce(factor)
    except ValueError:  # a mode reduce() does not take: resampled later as it is
        return im


def to_press(rgb, ink: Ink = DEFAULT):
    """An RGB image converted to CMYK as a shop's file prints it: through its press profile's
    LittleCMS transform (cmyk.py), or without a profile by grey-component replacement, then
    every pixel's total ink limited to the shop's cap (C, M and Y scaled down, K kept)."""
    from PIL import Image, ImageMath  # lazy: Pillow, only where a face has raster art

    out = press_image(rgb, ink)
    if out is None:
        r, g, b = (band.convert("F") for band in rgb.split())
        k = ImageMath.lambda_eval(lambda a: 255 - a["max"](a["max"](a["r"], a["g"]), a["b"]), r=r, g=g, b=b)
        bands = [ImageMath.lambda_eval(lambda a: (255 - a["v"] - a["k"]) * 255 / a["max"](255 - a["k"], 1),
                                       v=v, k=k) for v in (r, g, b)]
        out = Image.merge("CMYK", [_floor_to_l(band) for band in (*bands, k)])
    return limit_ink(out, ink.cap)


def _floor_to_l(band):
    """A float band to 8 bits, rounded down (never adding ink)."""
    from PIL import ImageMath  # lazy: as to_press

    return ImageMath.lambda_eval(lambda a: a["int"](a["max"](a["v"], 0)), v=band).convert("L")


def limit_ink(im, limit: float = CAP):
    """A CMYK image with every pixel's C + M + Y + K at most `limit` (cmyk.CAP: DriveThruCards'
    cap; C, M, Y scaled, K kept)."""
    from PIL import Image, ImageMath  # lazy: as to_press

    cap = int(limit * 255)
    c, m, y, k = (band.convert("F") for band in im.split())
    factor = ImageMath.lambda_eval(
        lambda a: a["min"](a["max"](cap - a["k"], 0) / a["max"](a["c"] + a["m"] + a["y"], 1), 1.0),
        c=c, m=m, y=y, k=k)
    scaled = [_floor_to_l(ImageMath.lambda_eval(lambda a: a["v"] * a["f"], v=v, f=factor)) for v in (c, m, y)]
    return Image.merge("CMYK", (*scaled, k.convert("L")))


# --- SVG ------------------------------------------------------------------------------------

_EMPTY_TEXT = re.compile(r"BT /\S+ [\d.]+ Tf [\d.]+ TL ET")
_RGB = re.compile(r"(?<![\w.-])(-?[\d.]+) (-?[\d.]+) (-?[\d.]+) (rg|RG)(?!\w)")


def _cmyk_op(m: re.Match, ink: Ink) -> str:
    """An `r g b rg` (or RG) operator as the same colour in CMYK (`k`, `K`), as cmyk.to_cmyk converts it."""
    hex_rgb = "#" + "".join(f"{round(min(1.0, max(0.0, float(v))) * 255):02X}" for v in m.groups()[:3])
    return " ".join(f"{v:.4g}" for v in to_cmyk(hex_rgb, False, ink)) + (" k" if m.group(4) == "rg" else " K")


@lru_cache(maxsize=64)
def _svg(path: str, sha: str, cmyk: Ink | None) -> tuple[Picture, tuple[float, float]]:
    """The form XObject drawing an SVG (its own size in points: BBox 0 0 w h), kept by content."""
    # lazy: reportlab's drawing and svglib, only where a face has SVG art
    from reportlab.graphics import renderPDF
    from reportlab.lib import colors
    from reportlab.pdfgen.canvas import Canvas
    from svglib.svglib import SvgRenderer

    from generator.products.render.assets.library_logs import quiet  # lazy: logging, with the library it quiets

    quiet("svglib")
    name = Path(path).name
    data = art._read(Path(path))
    root = art.parse_svg(name, data)

    def convert(colour):
        if colour is None or not isinstance(colour, colors.Color):
            return colour
        if getattr(colour, "alpha", 1) not in (None, 1, 1.0):
            raise art.ArtError(f"{name}: the SVG has a colour with transparency, which the print-shop file "
                               "(PDF/X-1a) cannot carry; flatten it to solid colours")
        if not cmyk or isinstance(colour, colors.CMYKColor):
            return colour
        hex_rgb = "#" + "".join(f"{round(v * 255):02X}" for v in (colour.red, colour.green, colour.blue))
        return colors.CMYKColor(*to_cmyk(hex_rgb, False, cmyk))

    drawing = SvgRenderer(path, color_converter=convert, external_reference_root=str(Path(path).parent)).render(root)
    if drawing is None or drawing.width <= 0 or drawing.height <= 0:
        raise art.ArtError(f"{name}: the SVG draws nothing (no size)")
    canvas = Canvas(io.BytesIO(), pagesize=(drawing.width, drawing.height), invariant=1)
    renderPDF.draw(drawing, canvas, 0, 0)
    # reportlab opens every drawing by setting a font it never uses (BT /F1 10 Tf 12 TL ET): no text is drawn
    ops = _EMPTY_TEXT.sub("", "\n".join(canvas._code))
    if cmyk:  # the colours reportlab sets itself (its initial black) too
        ops = _RGB.sub(lambda m: _cmyk_op(m, cmyk), ops)
    for marker, what in ((" gs", "transparency"), (" Do", "a picture"), (" Tf", "text"), (" sh", "a gradient")):
        if marker + "\n" in ops + "\n" or marker + " " in ops:
            raise art.ArtError(f"{name}: the SVG needs {what}, which the PDFs draw only as flat vector paths")
    if cmyk and (" rg" in ops or " RG" in ops):
        raise art.ArtError(f"{name}: the SVG left a colour in RGB, which the print-shop file cannot carry")
    body = _stream(f"/Type /XObject /Subtype /Form /FormType 1 /BBox [ 0 0 {drawing.width:.3f} {drawing.height:.3f} ] "
                   "/Resources << /ProcSet [ /PDF ] >>", ops.encode("latin-1"), True)
    return _named(body), (drawing.width, drawing.height)
