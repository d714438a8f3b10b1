"""PNG backend: a face's display list rasterized with Pillow, saved as a palette PNG.

Flat-colour art needs few colours: the palette holds every colour of the face and the blends
between each pair (the anti-aliased edges of text), so colours print exactly as given and
the files encode fast and small. Encoder settings are fixed, so output is byte-identical.
"""

from __future__ import annotations

import io
import itertools
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont
from PIL.PngImagePlugin import PngInfo

from generator.products import typeface as tf
from generator.products.faces import Face, Poly, Stroke, Text
from generator.products.units import DPI, TRIM_H, TRIM_W

#: Bumped whenever the rasterizer's output changes, so cached images are redrawn.
RENDERER_VERSION = "pdfium-1"
COMPRESS_LEVEL = 3


@lru_cache(maxsize=None)
def _font(bold: bool, size: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(tf.FILES[bold]), size)


def _rgb(hex_rgb: str) -> tuple[int, int, int]:
    return int(hex_rgb[1:3], 16), int(hex_rgb[3:5], 16), int(hex_rgb[5:7], 16)


def rasterize(face: Face, size: tuple[int, int], scale: float = 1.0) -> Image.Image:
    """The face as an RGB image of `size` px, trim centred, at `scale` × 300 dpi."""
    w, h = size
    ox, oy = (w - TRIM_W * scale) / 2, (h - TRIM_H * scale) / 2
    im = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(im)

    def px(p: tuple[float, float]) -> tuple[float, float]:
        return ox + p[0] * scale, oy + p[1] * scale

    for item in face.items:
        if isinstance(item, Poly):
            draw.polygon([px(p) for p in item.points], fill=item.fill)
        elif isinstance(item, Stroke):
            pts = [px(p) for p in item.points]
            if item.closed:
                pts.append(pts[0])
            draw.line(pts, fill=item.colour, width=max(1, round(item.width * scale)), joint="curve")
        elif isinstance(item, Text):
            _text(im, draw, item, px((item.x, item.y)), scale)
    return im


def _text(im: Image.Image, draw: ImageDraw.ImageDraw, t: Text, at: tuple[float, float], scale: float) -> None:
    font = _font(t.bold, round(t.size * scale, 2))
    anchor = t.align + "s"
    stroke = round(t.stroke * scale)
    if not t.rot180:
        draw.text(at, t.text, fill=t.fill, font=font, anchor=anchor, stroke_width=stroke,
                  stroke_fill=t.stroke_colour or None)
        return
    left, top, right, bottom = font.getbbox(t.text, anchor=anchor)
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), t.text, fill=255, font=font, anchor=anchor)
    mask = mask.rotate(180)
    # Turned about the anchor: the box's far corner lands at anchor - (left, top) mirrored.
    x0, y0 = round(at[0] - right), round(at[1] - bottom)
    im.paste(t.fill, (x0, y0, x0 + mask.width, y0 + mask.height), mask)


def palette_for(colours: list[str]) -> Image.Image:
    """A palette image: each colour, then even blends between every pair (up to 256 entries)."""
    base = [_rgb(c) for c in colours]
    pairs = list(itertools.combinations(base, 2))
    steps = max(2, min(16, (256 - len(base)) // max(1, len(pairs)) + 1))
    entries: dict[tuple[int, int, int], None] = dict.fromkeys(base)
    for a, b in pairs:
        for i in range(1, steps):
            t = i / steps
            entries.setdefault(tuple(round(a[k] * (1 - t) + b[k] * t) for k in range(3)))  # type: ignore[arg-type]
    flat = [v for rgb in list(entries)[:256] for v in rgb]
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat + [0] * (768 - len(flat)))
    return pal


def encode(im: Image.Image, palette: Image.Image | None = None, dpi: int = DPI, level: int = COMPRESS_LEVEL) -> bytes:
    """PNG bytes with fixed settings: sRGB chunk, resolution, no timestamps."""
    if palette is not None:
        im = im.quantize(palette=palette, dither=Image.Dither.NONE)
    info = PngInfo()
    info.add(b"sRGB", b"\x00")
    buf = io.BytesIO()
    im.save(buf, "PNG", compress_level=level, dpi=(dpi, dpi), pnginfo=info)
    return buf.getvalue()


def rasterize_pdf(doc: bytes, pages: list[int]) -> list[Image.Image]:
    """Pages of a faces PDF (one face with its 1/8 in bleed per page) as 825×1125 RGB images at
    300 dpi, rasterized by PDFium: shapes, frames and text anti-aliased exactly as the print
    PDFs render, from the same vector drawing."""
    import pypdfium2 as pdfium  # lazy: PDFium loads in the worker that draws, not at every start-up

    out = []
    pdf = pdfium.PdfDocument(doc)
    try:
        for i in pages:
            page = pdf[i]
            bitmap = page.render(scale=DPI / 72, may_draw_forms=True)
            w, h = round(page.get_width() * DPI / 72), round(page.get_height() * DPI / 72)
            out.append(bitmap.to_pil().convert("RGB").crop((0, 0, w, h)))
            page.close()
    finally:
        pdf.close()
    return out


def face_png(face: Face, size: tuple[int, int]) -> tuple[bytes, Image.Image]:
    """The print PNG of a face at `size`, and the RGB image it came from."""
    im = rasterize(face, size)
    return encode(im, palette_for(face.colours())), im
