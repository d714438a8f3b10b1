"""Picture files (PNG, JPEG, SVG) checked before anything draws them, and their sizes for layout.

`inspect(path)` reads only what it needs (a raster's header, an SVG's XML) and raises ArtError
saying what is wrong with a file:
- missing, unreadable, or not a PNG, JPEG or SVG file;
- larger than MAX_BYTES (40 MB), or a raster over MAX_SIDE (12000) pixels on a side or
  MAX_PIXELS in all: such a file is refused before its pixels are decoded, so a small file that
  would decompress to gigabytes (a "decompression bomb") costs nothing;
- a PNG over MAX_PNG_PIXELS (it is decoded whole: the message gives the size it prints at);
- an SVG that would not stay vector and PDF/X-1a-safe: one with text (convert it to outlines),
  embedded or linked pictures, gradients, patterns, filters, masks, or any opacity below 1.
  The print-shop file may carry no transparency, and a vector picture is drawn the same in
  every product, so such an SVG is refused everywhere rather than drawn otherwise in one file;
- an SVG whose numbers, lengths, transforms or path data the drawing cannot take (svg_values.py
  reads them strictly), or past SVG_MAX_ELEMENTS or SVG_MAX_PATH_NUMBERS.

`check_pixels` decodes a raster's every pixel, and pdf_pictures.check_drawn draws an SVG, as
`validate` does once per file content: what it passes, the build draws.

`effective_dpi` is a raster's resolution at its printed box, which `validate` warns about below
PRINT_DPI. `picture_size(path)` is what a face's layout needs (it never decodes pixels), kept by
the file's content.
"""

from __future__ import annotations

import io
import math
import os
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

from generator.deck.input_file import read_asset
from generator.products.render.assets.file_digests import Digests

MAX_BYTES = 40 << 20  #: a picture file larger than this is refused (40 MB)
MAX_SIDE = 12000  #: pixels on either side of a raster picture
MAX_PIXELS = 100_000_000  #: pixels in all (a raster picture)
#: Pixels a PNG may have: it is decoded whole (a JPEG is decoded at the smallest of 1/1, 1/2, 1/4
#: and 1/8 of its size that still prints sharp), four bytes each, and its copies while it is
#: turned, converted and scaled down must keep a build under about 512 MB.
MAX_PNG_PIXELS = 24_000_000
MAX_PPI = 450  #: a raster is resampled down to at most this many pixels per inch where it prints
#: The largest box a picture prints in: a whole card with its bleed (2.75 × 3.75 in)
LARGEST_BOX_IN = (2.75, 3.75)
PRINT_DPI = 300  #: below this at its printed size, a raster picture gets a warning
KINDS = ("png", "jpeg", "svg")

#: SVG elements a picture may not use (see the module's docstring), and why
SVG_REFUSED = {
    "text": "text (convert it to outlines, 'Object to Path' in Inkscape)",
    "tspan": "text (convert it to outlines, 'Object to Path' in Inkscape)",
    "textPath": "text (convert it to outlines, 'Object to Path' in Inkscape)",
    "image": "an embedded or linked picture (use the PNG or JPEG file as the art itself)",
    "foreignObject": "a foreign object",
    "linearGradient": "a gradient (the print-shop file carries flat colours only; flatten it)",
    "radialGradient": "a gradient (the print-shop file carries flat colours only; flatten it)",
    "pattern": "a pattern fill",
    "filter": "a filter effect",
    "mask": "a mask (transparency)",
}
#: The largest number an SVG's attributes and styles may hold (coordinates, sizes, transforms, stroke
#: widths), and the smallest and largest size of its viewBox and of the picture itself: the PDFs
#: write every number in plain decimals, which reportlab refuses past 1e20, so a number or a
#: viewBox scale beyond these is refused here rather than failing the build.
SVG_MAX_NUMBER = 1e6
SVG_MIN_SIZE = 1e-3
_SVG_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_SVG_HEX = re.compile(r"#[0-9A-Za-z_-]+")
_SVG_URL = re.compile(r"url\(\s*['\"]?\s*([^)'\"]*)")
_OPACITY = re.compile(r"(?<![\w-])(?:fill-|stroke-)?opacity\s*:\s*([0-9.eE+-]+%?)")
_LENGTH = re.compile(r"^\s*([0-9.eE+-]+)\s*(px|pt|pc|mm|cm|in)?\s*$")
_UNIT_PX = {None: 1.0, "px": 1.0, "pt": 96 / 72, "pc": 16.0, "mm": 96 / 25.4, "cm": 96 / 2.54, "in": 96.0}


class ArtError(ValueError):
    """A picture file that cannot be used, and why (the message names the file)."""


@dataclass(frozen=True)
class PictureInfo:
    """A picture's kind ("png", "jpeg" or "svg") and size: pixels for a raster, the SVG's own
    width and height (from its width/height or its viewBox) for a vector picture."""

    kind: str
    width_px: float
    height_px: float

    @property
    def vector(self) -> bool:
        return self.kind == "svg"


def inspect(path: Path | str) -> PictureInfo:
    """Check a picture file (module docstring); ArtError says what is wrong with it. A file is
    checked once per content (picture_info): a build's check and its faces' layout share it."""
    path = Path(path)
    try:
        os.stat(path)
    except OSError:
        _read(path)  # raises the ArtError that says what is wrong (no such file, not readable)
        raise
    return picture_info(path)


def _read(path: Path) -> bytes:
    return read_asset(path, MAX_BYTES, "picture file", ArtError)


def _inspect_bytes(name: str, data: bytes) -> PictureInfo:
    if data[:8] == b"\x89PNG\r\n\x1a\n" or data[:3] == b"\xff\xd8\xff":
        return _raster(name, data)
    if _looks_like_svg(data):
        return _svg(name, data)
    if not data:
        raise ArtError(f"{name}: the picture file is empty")
    raise ArtError(f"{name}: not a PNG, JPEG or SVG picture")


def _raster(name: str, data: bytes) -> PictureInfo:
    from PIL import Image, UnidentifiedImageError  # lazy: Pillow, only where a deck has art

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # our own limits below decide
        try:
            with Image.open(io.BytesIO(data), formats=["PNG", "JPEG"]) as im:
                kind = "png" if im.format == "PNG" else "jpeg"
                w, h = im.size
                _check_pixels(name, w, h)
                if kind == "png" and w * h > MAX_PNG_PIXELS:
                    sharp = f"{math.ceil(LARGEST_BOX_IN[0] * MAX_PPI)} × {math.ceil(LARGEST_BOX_IN[1] * MAX_PPI)}"
                    raise ArtError(f"{name}: the PNG is {w} × {h} pixels, over the {MAX_PNG_PIXELS:,} a PNG may have "
                                   f"(it is decoded whole); the cards print at most {MAX_PPI} pixels per inch, so "
                                   f"{sharp} pixels fill a whole card with its bleed: scale the picture down to the "
                                   "size it prints at, or save it as a JPEG")
                if im.getexif().get(0x0112) in (5, 6, 7, 8):  # EXIF: shown turned a quarter
                    w, h = h, w
            with Image.open(io.BytesIO(data), formats=["PNG", "JPEG"]) as im:
                im.verify()  # chunk checksums and structure, without decoding the pixels
        except ArtError:
            raise
        except Image.DecompressionBombError:
            raise ArtError(f"{name}: the picture is too large to open safely (over {MAX_PIXELS:,} pixels)") from None
        except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
            said = re.sub(r"\s*<[^<>]* at 0x[0-9a-fA-F]+>", "", str(exc))  # Pillow names its buffer by its address
            raise ArtError(f"{name}: not a readable PNG or JPEG picture ({said})") from None
    if w < 1 or h < 1:
        raise ArtError(f"{name}: the picture has no pixels")
    return PictureInfo(kind, w, h)


def open_raster(data: bytes):
    """Pillow's image of PNG or JPEG bytes (pixels not yet decoded), under this module's limits
    alone: a picture within MAX_PIXELS is over Pillow's own lower default (89 million pixels),
    whose DecompressionBombWarning would otherwise be printed on the terminal mid-build."""
    from PIL import Image  # lazy: Pillow, only where a deck has raster art

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        return Image.open(io.BytesIO(data), formats=["PNG", "JPEG"])


def check_pixels(name: str, data: bytes) -> None:
    """Decode every pixel of PNG or JPEG bytes (a JPEG at its smallest scale, which still reads
    the whole file), or raise ArtError: a file cut short, or without its end, passes the header
    check and fails here, not in the build."""
    with open_raster(data) as im:
        if im.format == "JPEG":
            im.draft(im.mode if im.mode in ("RGB", "L", "CMYK") else "RGB", (1, 1))
        try:
            im.load()
        except (OSError, SyntaxError, ValueError, EOFError) as exc:
            said = " ".join(re.sub(r"\s*<[^<>]* at 0x[0-9a-fA-F]+>", "", str(exc)).split())[:160]
            raise ArtError(f"{name}: the picture's pixels cannot all be read ({said}); save it again from "
                           "your picture editor") from None


def _check_pixels(name: str, w: int, h: int) -> None:
    if w > MAX_SIDE or h > MAX_SIDE or w * h > MAX_PIXELS:
        raise ArtError(f"{name}: the picture is {w} × {h} pixels, over the limit of {MAX_SIDE} pixels on a side "
                       f"and {MAX_PIXELS:,} in all")


def _looks_like_svg(data: bytes) -> bool:
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"<") and b"<svg" in data[:65536]


def parse_svg(name: str, data: bytes):
    """The SVG's XML root, parsed safely: no entities expanded, no DTD or network read, no huge tree."""
    from lxml import etree  # lazy: only where a deck has SVG art

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                             remove_comments=True)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise ArtError(f"{name}: not a readable SVG picture ({exc})") from None
    if root is None or etree.QName(root).localname != "svg":
        raise ArtError(f"{name}: not an SVG picture (its root element is not <svg>)")
    return root


def _svg(name: str, data: bytes) -> PictureInfo:
    from lxml import etree  # lazy: as parse_svg

    _few_elements(name, data)
    root = parse_svg(name, data)
    numbers: dict[object, int] = {}  # element -> the numbers of its path data or points
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        local = etree.QName(el).localname
        line = f" (line {el.sourceline})" if el.sourceline else ""
        if local in SVG_REFUSED:
            raise ArtError(f"{name}: the SVG has {SVG_REFUSED[local]}{line}")
        if local == "use":
            href = el.get("href") or el.get("{http://www.w3.org/1999/xlink}href") or ""
            if not href.startswith("#"):
                raise ArtError(f"{name}: the SVG links another file ({href!r}){line}")
        for attr in ("opacity", "fill-opacity", "stroke-opacity"):
            if el.get(attr) is not None and _opacity(el.get(attr)) < 1:
                raise ArtError(f"{name}: the SVG has transparency ({attr}=\"{el.get(attr)}\"){line}, which the print-shop "
                               "file (PDF/X-1a) cannot carry; flatten it to solid colours")
        _svg_values(name, el, local, line)
        numbers[el] = _svg_drawn_values(name, el, local, line)
        css = (el.get("style") or "") + (el.text or "" if local == "style" else "")
        for m in _OPACITY.finditer(css):
            if _opacity(m.group(1)) < 1:
                raise ArtError(f"{name}: the SVG has transparency ({m.group(0).strip()}){line}, which the print-shop "
                               "file (PDF/X-1a) cannot carry; flatten it to solid colours")
    _svg_uses(name, root, numbers)
    w, h = _svg_size(name, root)
    return PictureInfo("svg", w, h)


#: How deep one <use> may reach through others (svglib stops there, drawing the picture without them).
SVG_MAX_USE_DEPTH = 50
#: Elements an SVG may draw (each <use> counts as one, and so does each element it repeats), and
#: numbers in all its path data and point lists (repeats counted too): svglib takes about a
#: millisecond an element, so these keep the largest picture to seconds and tens of megabytes (and
#: under svglib's own 10,000 <use> expansions, past which it cuts the picture short).
SVG_MAX_ELEMENTS = 5_000
SVG_MAX_PATH_NUMBERS = 50_000


_START_TAG = re.compile(rb"<[A-Za-z_]")


def _few_elements(name: str, data: bytes) -> None:
    """Refuse an SVG of more than SVG_MAX_ELEMENTS elements before its tree is built (a file of
    600,000 shapes is 40 MB of XML and gigabytes drawn): counted as they are read, each let go."""
    if len(_START_TAG.findall(data)) <= SVG_MAX_ELEMENTS:  # at least as many as the elements
        return
    from lxml import etree  # lazy: as parse_svg

    seen = 0
    try:
        for _, el in etree.iterparse(io.BytesIO(data), events=("end",), resolve_entities=False, no_network=True,
                                     load_dtd=False, huge_tree=False, remove_comments=True):
            seen += 1
            if seen > SVG_MAX_ELEMENTS:
                raise ArtError(f"{name}: the SVG has more than {SVG_MAX_ELEMENTS:,} elements; simplify the drawing "
                               "(in Inkscape: Path > Combine, or Simplify), or use a PNG of it")
            el.clear()
            while el.getprevious() is not None:
                del el.getparent()[0]
    except etree.XMLSyntaxError:
        return  # parse_svg says what is wrong with it


def _svg_uses(name: str, root, numbers: dict) -> None:
    """Refuse a <use> that repeats itself (svglib skips it), and more elements or path numbers
    drawn than the limits above: what validate passes is what the PDFs draw, in bounded time and
    memory."""
    from lxml import etree  # lazy: as parse_svg

    ids: dict[str, object] = {}
    for el in root.iter():
        if isinstance(el.tag, str) and el.get("id") is not None:
            ids.setdefault(el.get("id"), el)
    made: dict[str, tuple[int, int]] = {}

    def uses(top, drawn_only: bool, through: tuple[str, ...]) -> tuple[int, int]:
        """(elements, path numbers) that drawing `top` makes."""
        elements, count, todo = 0, 0, [top]
        while todo:
            node = todo.pop()
            if not isinstance(node.tag, str):
                continue
            local = etree.QName(node).localname
            if drawn_only and local in ("defs", "symbol"):
                continue
            elements += 1
            count += numbers.get(node, 0)
            if local != "use":
                todo.extend(node)
            else:
                href = node.get("href") or node.get("{http://www.w3.org/1999/xlink}href") or ""
                target = href[1:] if href.startswith("#") else ""
                if target in through:
                    raise ArtError(f"{name}: the SVG's <use> of '#{target}' (line {node.sourceline}) repeats an element "
                                   "that holds it, which would repeat forever")
                if target in ids:
                    if len(through) >= SVG_MAX_USE_DEPTH:
                        raise ArtError(f"{name}: the SVG's <use> elements reach more than {SVG_MAX_USE_DEPTH} deep "
                                       f"(line {node.sourceline})")
                    if target not in made:
                        made[target] = uses(ids[target], False, (*through, target))
                    elements, count = elements + made[target][0], count + made[target][1]
            if elements > SVG_MAX_ELEMENTS:
                raise ArtError(f"{name}: the SVG draws more than {SVG_MAX_ELEMENTS:,} elements (counting what <use> "
                               f"repeats; line {node.sourceline} is past it); simplify the drawing (in Inkscape: "
                               "Path > Combine, or Simplify), or use a PNG of it")
            if count > SVG_MAX_PATH_NUMBERS:
                raise ArtError(f"{name}: the SVG's paths hold more than {SVG_MAX_PATH_NUMBERS:,} numbers (counting what "
                               f"<use> repeats; line {node.sourceline} is past it); simplify the paths (in Inkscape: "
                               "Path > Simplify), or use a PNG of it")
        return elements, count

    uses(root, True, ())


def _svg_drawn_values(name: str, el, local: str, line: str) -> int:
    """An element's geometry read strictly, as the drawings read it (svg_values.py): its lengths,
    transform, viewBox, path data and points; the numbers of its path data and points."""
    from generator.products.render.assets import svg_values  # lazy: with the SVG check

    attr, value = "", ""
    try:
        count = 0
        for attr, value in el.attrib.items():
            if "}" in attr:
                continue
            if attr in svg_values.LENGTHS:
                svg_values.length(value, SVG_MAX_NUMBER)
            elif attr == "transform":
                svg_values.transform_matrix(value, SVG_MAX_NUMBER)
            elif attr == "viewBox":
                svg_values.numbers(value, 4, SVG_MAX_NUMBER)
            elif attr == "d" and local == "path":
                count += svg_values.path_numbers(value, SVG_MAX_NUMBER)
            elif attr == "points" and local in ("polygon", "polyline"):
                count += svg_values.point_numbers(value, SVG_MAX_NUMBER)
        for declaration in (el.get("style") or "").split(";"):
            key, _, value = declaration.partition(":")
            attr = key.strip()
            if attr in svg_values.LENGTHS:
                svg_values.length(value, SVG_MAX_NUMBER)
        return count
    except ValueError as exc:
        raise ArtError(f"{name}: the SVG's {attr} on <{local}>{line} cannot be drawn: {exc}") from None


def _svg_values(name: str, el, local: str, line: str) -> None:
    """An element's attributes (and a <style>'s text) as the drawing can take them: every number
    within SVG_MAX_NUMBER, a url() naming only something in the file (#id), and a style attribute
    of NAME: VALUE declarations."""
    values = [(k, v) for k, v in el.attrib.items() if "}" not in k and k not in ("id", "class")]
    if local == "style" and el.text:
        values.append(("style", el.text))
    for attr, value in values:
        for target in _SVG_URL.findall(value):
            if not target.strip().startswith("#"):
                raise ArtError(f"{name}: the SVG links another file ({target.strip()!r}){line}")
        for number in _SVG_NUMBER.findall(_SVG_HEX.sub(" ", value)):
            if not abs(float(number)) <= SVG_MAX_NUMBER:
                raise ArtError(f"{name}: the SVG's {attr} holds the number {number}{line}; a picture's numbers are "
                               f"at most {SVG_MAX_NUMBER:,.0f} (scale the drawing down)")
    if local != "svg" or el.getparent() is not None:  # a nested viewport's viewBox scales as the root's does
        sides = [float(n) for n in _SVG_NUMBER.findall(el.get("viewBox") or "")[2:4]]
        if any(side < SVG_MIN_SIZE for side in sides):
            raise ArtError(f"{name}: the SVG's viewBox {el.get('viewBox')!r}{line} is under {SVG_MIN_SIZE:g} on a side "
                           "(scale the drawing)")
    for declaration in (el.get("style") or "").split(";"):
        if declaration.strip() and declaration.count(":") != 1:
            raise ArtError(f"{name}: the SVG's style holds {declaration.strip()!r}{line}, which is not one "
                           "NAME: VALUE declaration")


def _opacity(value: str) -> float:
    value = value.strip()
    try:
        return float(value[:-1]) / 100 if value.endswith("%") else float(value)
    except ValueError:
        return 1.0


def _svg_size(name: str, root) -> tuple[float, float]:
    """Width and height in CSS pixels: the width/height attributes, or the viewBox's."""
    box = None
    if root.get("viewBox"):
        try:
            parts = [float(v) for v in re.split(r"[\s,]+", root.get("viewBox").strip())]
        except ValueError:
            parts = []
        if len(parts) != 4 or parts[2] <= 0 or parts[3] <= 0:
            raise ArtError(f"{name}: the SVG's viewBox {root.get('viewBox')!r} is not four numbers with a positive size")
        box = parts[2], parts[3]
    w, h = _length(root.get("width")), _length(root.get("height"))
    if w and h:
        size = w, h
    elif box and w:
        size = w, w * box[1] / box[0]
    elif box and h:
        size = h * box[0] / box[1], h
    elif box:
        size = box
    else:
        raise ArtError(f"{name}: the SVG has neither a viewBox nor a width and height, so its size is unknown")
    for what, sides in (("viewBox", box), ("size", size)):
        if sides is not None and not all(SVG_MIN_SIZE <= side <= SVG_MAX_NUMBER for side in sides):
            a, b = sides
            raise ArtError(f"{name}: the SVG's {what} is {a:g} × {b:g}; a picture's size and viewBox are "
                               f"{SVG_MIN_SIZE:g} to {SVG_MAX_NUMBER:,.0f} on a side (scale the drawing)")
    return size


def _length(value: str | None) -> float | None:
    """The root's width or height in CSS pixels; None when absent, relative (%, em) or not
    positive (the viewBox decides). A value that is no length was refused by the element check."""
    m = _LENGTH.match(value or "")
    if not m:
        return None
    v = float(m.group(1)) * _UNIT_PX[m.group(2)]
    return v if v > 0 else None


def effective_dpi(info: PictureInfo, box_w: float, box_h: float, fit: str = "contain") -> float | None:
    """A raster picture's pixels per inch where it prints in a box of box_w × box_h dots (300 to
    the inch) with `fit`; None for a vector picture (sharp at any size)."""
    if info.vector:
        return None
    sx, sy = box_w / info.width_px, box_h / info.height_px  # dots per pixel
    scale = max(sx, sy) if fit == "cover" else min(sx, sy)
    return 300 / scale if scale > 0 else float("inf")


def dpi_warning(name: str, info: PictureInfo, box_w: float, box_h: float, fit: str = "contain") -> str | None:
    """A warning when a raster prints below PRINT_DPI in its box, naming the effective dpi."""
    dpi = effective_dpi(info, box_w, box_h, fit)
    if dpi is None or dpi >= PRINT_DPI:
        return None
    return (f"{name}: {dpi:.0f} dpi at its printed size ({box_w / 300:.2f} × {box_h / 300:.2f} in), below the "
            f"{PRINT_DPI} dpi print needs; it will print soft (use a picture of at least "
            f"{info.width_px * PRINT_DPI / dpi:.0f} × {info.height_px * PRINT_DPI / dpi:.0f} pixels)")


# --- sizes for layout, by content ------------------------------------------------------------

_DIGESTS = Digests()
_INFO: dict[str, PictureInfo] = {}


def digest(path: Path | str) -> str:
    """The SHA-256 of the file's bytes, hashed again only when its size or time changes."""
    path = str(path)

    def keep(sha: str, data: bytes) -> None:
        if sha not in _INFO:
            _INFO[sha] = _inspect_bytes(Path(path).name, data)

    try:
        return _DIGESTS.of(path, lambda: _read(Path(path)), keep)
    except OSError:
        raise ArtError(f"{Path(path).name}: no such picture file ({path})") from None


def picture_size(path: Path | str) -> tuple[float, float]:
    """(width, height) of a picture (pixels; an SVG's own units): checked by inspect() once per
    file content, its pixels never decoded."""
    info = _INFO[digest(path)]
    return info.width_px, info.height_px


def picture_info(path: Path | str) -> PictureInfo:
    return _INFO[digest(path)]


def remember_info(sha: str, info: PictureInfo) -> None:
    """Take a picture's kind and size by its content's SHA-256, as inspect() found them (when it
    passed): a file with these bytes is then not checked again (products/picture_verdicts.py
    keeps them in the user's cache folder)."""
    _INFO.setdefault(sha, info)


def known_info(sha: str) -> PictureInfo | None:
    """The kind and size of the picture whose content has this SHA-256, if checked or remembered."""
    return _INFO.get(sha)


#: How many colours stand for a raster picture in a palette shared by many faces (the TTS sheets)
PICTURE_COLOURS = 12
_SVG_COLOUR = re.compile(r"(?:fill|stroke|stop-color|color)\s*[:=]\s*[\"']?\s*(#[0-9a-fA-F]{3,6}\b|rgb\([^)]*\)|[a-zA-Z]+)")
_COLOURS: dict[str, tuple[str, ...]] = {}


def remember_colours(known: dict[str, tuple[str, ...]]) -> None:
    """Take the colours of pictures by their content's SHA-256, as picture_colours() makes them
    (the face cache keeps them: pipeline/pictures.py)."""
    _COLOURS.update(known)


def known_colours(sha: str) -> tuple[str, ...] | None:
    """The colours of the picture whose content has this SHA-256, if made or remembered."""
    return _COLOURS.get(sha)


def picture_colours(path: Path | str) -> tuple[str, ...]:
    """The colours a picture shows, as `#RRGGBB`, for a palette shared by many faces: an SVG's
    fill and stroke colours, a raster's PICTURE_COLOURS most representative (median cut of a
    small copy). Kept by the file's content."""
    sha = digest(path)
    if sha not in _COLOURS:
        _COLOURS[sha] = _svg_colours(_read(Path(path))) if _INFO[sha].vector else _raster_colours(_read(Path(path)))
    return _COLOURS[sha]


def _svg_colours(data: bytes) -> tuple[str, ...]:
    found: dict[str, None] = {}
    for m in _SVG_COLOUR.finditer(data.decode("utf-8", "replace")):
        rgb = _css_colour(m.group(1))
        if rgb is not None:
            found.setdefault("#%02X%02X%02X" % rgb)
    return tuple(found) or ("#000000",)


def _css_colour(word: str) -> tuple[int, int, int] | None:
    """A CSS colour as (r, g, b): #rgb, #rrggbb, rgb(...) read here; a colour name by Pillow's
    table (loaded only then); None for none, currentColor and the like."""
    word = word.strip()
    if word.lower() in ("none", "currentcolor", "inherit", "transparent", "url"):
        return None
    if word.startswith("#"):
        digits = word[1:]
        if len(digits) == 3:
            digits = "".join(c * 2 for c in digits)
        return tuple(int(digits[i:i + 2], 16) for i in (0, 2, 4)) if len(digits) == 6 else None  # type: ignore[return-value]
    from PIL import ImageColor  # lazy: Pillow's table of CSS colour names, only for an SVG that names one

    try:
        return ImageColor.getrgb(word)[:3]  # type: ignore[return-value]
    except ValueError:
        return None


def _raster_colours(data: bytes) -> tuple[str, ...]:
    from PIL import Image  # lazy: Pillow, only where a deck has raster art

    with open_raster(data) as im:
        im.draft("RGB", (64, 64))  # a JPEG decodes at a fraction of its size
        if im.mode in ("RGB", "RGBA"):  # scaled down before any copy of the whole (as converted first: the same)
            im.thumbnail((64, 64))
        small = im.convert("RGBA")
        small.thumbnail((64, 64))
    rgb = Image.new("RGB", small.size, "#FFFFFF")
    rgb.paste(small, mask=small.getchannel("A"))
    quant = rgb.quantize(PICTURE_COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    palette = quant.getpalette() or []
    used = sorted(index for _, index in (quant.getcolors(256) or []))
    return tuple(dict.fromkeys(f"#{palette[3 * i]:02X}{palette[3 * i + 1]:02X}{palette[3 * i + 2]:02X}" for i in used))
