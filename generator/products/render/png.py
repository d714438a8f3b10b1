"""PNG backend: faces rasterized by PDFium from the faces PDF, saved as palette PNGs.

PDFium draws the same vector faces the print PDFs hold, anti-aliased as any PDF viewer draws
them, so a card image is its PDF face exactly. Flat-colour art needs few colours: the palette
holds every colour of the face and the blends between each pair (the anti-aliased edges), so
colours print exactly as given and the files encode fast and small. Encoder settings are fixed,
so output is byte-identical.
"""

from __future__ import annotations

import io
import math
import zlib
from typing import Iterator

from PIL import Image
from PIL.PngImagePlugin import PngInfo

from generator.products.render.palette import palette_bytes
from generator.products.render.profiles import PROFILES, Profile
from generator.products.render.units import BLEED, DPI, dots_to_pt, TRIM_H, TRIM_W

#: zlib's run-length strategy: flat art is long runs of one palette index, which it packs as
#: small as the default strategy at level 3 in about half the time.
COMPRESS_LEVEL = 1
COMPRESS_TYPE = zlib.Z_RLE


def palette_for(colours: list[str]) -> Image.Image:
    """A palette image: each colour, then even blends between every pair (palette.py)."""
    pal = Image.new("P", (1, 1))
    pal.putpalette(palette_bytes(colours))
    return pal


def encode(im: Image.Image, dpi: int = DPI, level: int = COMPRESS_LEVEL) -> bytes:
    """PNG bytes with fixed settings: sRGB chunk, resolution, no timestamps."""
    info = PngInfo()
    info.add(b"sRGB", b"\x00")
    buf = io.BytesIO()
    im.save(buf, "PNG", compress_level=level, compress_type=COMPRESS_TYPE, dpi=(dpi, dpi), pnginfo=info)
    return buf.getvalue()


def pack_pixels(im: Image.Image) -> bytes:
    """A palette image as its 768-byte palette and its pixels, compressed (fast both ways)."""
    palette = bytes((im.getpalette() or [])[:768]).ljust(768, b"\0")
    return palette + zlib.compress(im.tobytes(), 1)


def unpack_pixels(data: bytes, size: tuple[int, int]) -> Image.Image:
    """pack_pixels() undone: the palette image of `size`."""
    im = Image.frombytes("P", size, zlib.decompress(data[768:]))
    im.putpalette(data[:768])
    return im


#: One page of the faces PDF to rasterize: its index, the face's colours, the profiles wanted,
#: and (optionally) picture_palette(face): for a face with pictures, what its palette is made from.
PageJob = tuple  # (int, tuple[str, ...], tuple[str, ...]) or (..., tuple | None)


def picture_palette(face) -> tuple[int, tuple[float, float, float, float]] | None:
    """For a face showing pictures: the number of its colours that it draws (they come first in
    `face.colours()` and print exactly) and the box around its pictures (dots from the trim's top
    left, as the items give them); None for a face without pictures (a fixed palette)."""
    images = face.images()
    if not images:
        return None
    xs = [x for item in images for x in (item.x0, item.x1)]
    ys = [y for item in images for y in (item.y0, item.y1)]
    return len(face.drawn_colours()), (min(xs), min(ys), max(xs), max(ys))


def render_pages(doc: bytes, pages: list[PageJob]) -> Iterator[dict[str, bytes]]:
    """Per page of a faces PDF (pdf.faces_pdf: one face with its 1/8 in bleed per page), profile
    name -> PNG bytes for each profile wanted, one page at a time (a worker holds one raster).

    The bleed profiles are cut from one 300 dpi render, quantized once; each trim-only profile
    is drawn by PDFium at its own size, so small images are as smooth as the large ones.
    """
    import pypdfium2 as pdfium  # lazy: PDFium loads in the worker that draws, not at every start-up

    pdf = pdfium.PdfDocument(doc)
    try:
        for index, colours, wanted, *more in pages:
            page = pdf[index]
            try:
                profiles = [PROFILES[name] for name in wanted]
                own = (palette_for(list(colours)) if not more or more[0] is None
                       else PictureColours(list(colours), *more[0]))
                out: dict[str, bytes] = {}
                bled = [p for p in profiles if not p.trim_only]
                if bled:
                    full = _render(page, DPI / 72, own, (-BLEED, -BLEED))
                    size = round(page.get_width() * DPI / 72), round(page.get_height() * DPI / 72)
                    if full.size != size:  # PDFium rounds the page up: 825.000001 px is 826
                        full = full.crop((0, 0, *size))
                    for p in bled:
                        out[p.name] = encode(_centre(full, p.size), dpi=p.dpi)
                for p in profiles:
                    if p.trim_only:
                        small = _trim(page, p, own)
                        out[p.name] = pack_pixels(small) if p.raw else encode(small, dpi=p.dpi)
                yield out
            finally:
                page.close()
    finally:
        pdf.close()


def _render(page, scale: float, palette, origin: tuple[float, float]) -> Image.Image:
    """The page's crop box at `scale` px per point, quantized to `palette` (no dithering; a face
    with pictures: PictureColours). `origin`: where the crop box's top left is, in face dots."""
    bitmap = page.render(scale=scale, may_draw_forms=False, rev_byteorder=True, prefer_bgrx=True)
    try:
        im = bitmap.to_pil()  # the image shares the bitmap's buffer until it is quantized
        if isinstance(palette, PictureColours):
            return palette.for_image(im, (*origin, scale * 72 / DPI))
        return _quantize(im, palette)
    finally:
        bitmap.close()


#: How many pixels of a render a face's picture palette is chosen from (PictureColours): a
#: sample, every k-th pixel of every k-th row, as a median cut over every pixel of a 300 dpi card
#: costs 40-200 ms (a photograph's many colours) and chooses about the same palette.
PALETTE_SAMPLE = 8192
#: Pixels around a face's pictures dithered with them (PictureColours): their edges, anti-aliased
#: and resampled, blend into the face.
DITHER_MARGIN = 2


class PictureColours:
    """The palette of a face with pictures: the colours the face draws exactly, the rest of the 256
    entries chosen for each render (median cut of a sample of its pixels, PALETTE_SAMPLE), and the
    pixels around the pictures dithered (Floyd-Steinberg), so a photograph keeps its shades while
    the flat art keeps its colours; the rest of the face, flat art, is matched to the nearest
    entries (dithering it all cost five times as much, 12 ms against 2 for a 300 dpi card whose
    picture covers 8% of it, and looked the same)."""

    def __init__(self, colours: list[str], drawn: int, box: tuple[float, float, float, float] | None = None):
        self.colours = colours[:128]
        self.drawn = min(drawn, 128)  #: the first `drawn` colours are drawn, the rest the pictures'
        self.box = box  #: around the pictures, in face dots (None: dither the whole image)

    def region(self, size: tuple[int, int], where: tuple[float, float, float] | None) -> tuple[int, int, int, int]:
        """The pixels of an image of `size` to dither: the pictures' box and DITHER_MARGIN around
        it, where the image's top left is face dots (x, y) and it has `k` px a dot (`where`)."""
        w, h = size
        if self.box is None or where is None:
            return 0, 0, w, h
        x, y, k = where
        x0, y0, x1, y1 = self.box
        return (max(0, math.floor((x0 - x) * k) - DITHER_MARGIN), max(0, math.floor((y0 - y) * k) - DITHER_MARGIN),
                min(w, math.ceil((x1 - x) * k) + DITHER_MARGIN), min(h, math.ceil((y1 - y) * k) + DITHER_MARGIN))

    def for_image(self, im: Image.Image, where: tuple[float, float, float] | None = None) -> Image.Image:
        listed = palette_bytes(self.colours, len(self.colours))[:3 * len(self.colours)]
        drawn = bytes(listed[:3 * self.drawn])
        fixed = drawn + _apart(drawn, list(listed[3 * self.drawn:]))
        k = math.ceil(math.sqrt(im.width * im.height / PALETTE_SAMPLE))
        sample = im if k <= 1 else im.resize((max(1, im.width // k), max(1, im.height // k)), Image.Resampling.NEAREST)
        adaptive = sample.convert("RGB").quantize(256 - len(fixed) // 3, method=Image.Quantize.MEDIANCUT,
                                                  dither=Image.Dither.NONE)
        fixed += _apart(drawn, (adaptive.getpalette() or [])[:768 - len(fixed)])
        pal = Image.new("P", (1, 1))
        pal.putpalette(fixed.ljust(768, b"\0"))
        x0, y0, x1, y1 = self.region(im.size, where)
        if (x0, y0, x1, y1) == (0, 0, *im.size):
            return _quantize(im, pal, Image.Dither.FLOYDSTEINBERG)
        out = _quantize(im, pal)
        if x1 > x0 and y1 > y0:
            out.paste(_quantize(im.crop((x0, y0, x1, y1)), pal, Image.Dither.FLOYDSTEINBERG), (x0, y0))
        return out


def _apart(drawn: bytes, more: list[int]) -> bytes:
    """The RGB triples of `more` less each within 10 levels (every channel) of a drawn colour.

    Pillow matches a pixel through cells of 4 levels a channel, measured from the cell's lower
    corner, so an entry just below a drawn colour takes its cell: the white of a face with a
    picture printed as (251, 251, 250). With nothing that near, each drawn colour keeps its pixels.
    """
    own = [(drawn[j], drawn[j + 1], drawn[j + 2]) for j in range(0, len(drawn) - 2, 3)]
    out = bytearray()
    for i in range(0, len(more) - 2, 3):
        r, g, b = more[i], more[i + 1], more[i + 2]
        for cr, cg, cb in own:
            if abs(r - cr) < 10 and abs(g - cg) < 10 and abs(b - cb) < 10:
                break
        else:
            out += bytes((r, g, b))
    return bytes(out)


def _quantize(im: Image.Image, palette, dither: Image.Dither = Image.Dither.NONE) -> Image.Image:
    """`im.quantize(palette=palette, dither=dither)` for an RGBX image without copying it to RGB first.

    Pillow keeps RGB pixels in 4 bytes, laid out as RGBX, so its palette conversion reads an RGBX
    image exactly as the RGB one (the bytes are equal, dithered or not; a test checks it); only
    `quantize`'s mode check refuses it. This is that method's body less the check, and saves a
    copy of each render; should Pillow's internals differ, the plain method runs instead.
    """
    palette.load()
    try:
        out = im._new(im.im.convert("P", dither, palette.im))
    except (AttributeError, TypeError, ValueError):
        return im.convert("RGB").quantize(palette=palette, dither=dither)
    out.palette = palette.palette.copy()
    return out


def _trim(page, p: Profile, palette: Image.Image) -> Image.Image:
    """The face's trim (no bleed) drawn at the profile's size.

    The page's crop box becomes the trim, so the image starts exactly at the cut; the scale
    covers the size, and the sliver past it (under 1 px) is cut off the right and bottom.
    """
    w, h = p.size
    b = dots_to_pt(BLEED)
    tw, th = dots_to_pt(TRIM_W), dots_to_pt(TRIM_H)
    page.set_cropbox(b, b, b + tw, b + th)
    im = _render(page, max(w / tw, h / th), palette, (0.0, 0.0))
    if im.width < w or im.height < h:
        return im.resize((w, h), Image.Resampling.NEAREST)
    return im if im.size == (w, h) else im.crop((0, 0, w, h))


def _centre(im: Image.Image, size: tuple[int, int]) -> Image.Image:
    """The middle `size` px of `im` (822 from 825 is 1 px off the left, 2 off the right)."""
    w, h = size
    if im.size == size:
        return im
    x0, y0 = (im.width - w) // 2, (im.height - h) // 2
    return im.crop((x0, y0, x0 + w, y0 + h))


