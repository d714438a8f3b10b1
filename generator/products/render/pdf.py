"""PDF backend: faces drawn as vectors, imposed on sheets by sheets.py, written by pdf_file.py.

Each distinct face becomes one form XObject, drawn wherever a copy of the card sits, so the
files stay small and every copy is identical. Fixed dates and fonts make the bytes depend on
the inputs only.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from reportlab.lib.rl_accel import fp_str

from generator.products.render import pdf_fonts, pdf_pictures, sheets, test_page
from generator.products.render.press.cmyk import DEFAULT, Ink, to_cmyk
from generator.products.render import typeface as tf
from generator.products.render.items import Face, Image, Item, Outline, Poly, Stroke, Text
from generator.products.render.pdf_file import PdfFile, array, encoding_canvas, form_body, text_run, text_string
from generator.products.render.stamp import NONE, Stamp
from generator.products.render.press.shops import Shop
from generator.products.render.units import BLEED, TRIM_H, TRIM_W, dots_to_pt, mm, pt_to_dots

FOOTER_INK = "#444444"
CROP_INK = "#000000"
FOLD_INK = "#777777"
FOLD_WIDTH = 0.6
SEAM_OVERLAP = 0.4  #: points


def _xy(x: float, y: float) -> tuple[float, float]:
    """Face dots (y down, from the trim's top-left) to points (y up, from its bottom-left)."""
    return dots_to_pt(x), dots_to_pt(TRIM_H - y)


@dataclass(frozen=True)
class FaceOps:
    """A face as PDF operators, with the pictures they draw and the designer fonts' glyphs they
    use (digest, path, glyph ids): what its form XObject is made of (format_forms)."""

    ops: str
    pictures: tuple[pdf_pictures.Picture, ...] = ()
    fonts: tuple[tuple[str, str, tuple[int, ...]], ...] = ()


def _ink(cmyk: Ink | bool | None) -> Ink | None:
    """The CMYK conversion asked for: an Ink, True for DriveThruCards' (cmyk.DEFAULT), else none (RGB)."""
    if cmyk is True:
        return DEFAULT
    return cmyk or None


def face_ops(face: Face, doc, cmyk: Ink | bool | None = None) -> FaceOps:
    """The face as PDF operators, the trim's bottom-left corner at the origin.

    Text is encoded for `doc`'s font subsets; every file sets them up with the same characters
    first (pdf_file.encoding_canvas), so the operators are the same in every file of one deck.
    Text in a designer's font is encoded as glyph ids (pdf_fonts.py), the same in every file.
    `cmyk`: every colour as DeviceCMYK through a shop's conversion (cmyk.Ink; True: DriveThruCards'),
    pictures too, for a print-shop file.
    """
    cmyk = _ink(cmyk)
    ops, pictures, fonts = [], [], []
    rich: list[tuple[float, float, float, float]] = []  # the boxes of the rich-black fills so far
    below: list[tuple[Poly, tuple[float, float, float, float]]] = []  # the filled shapes drawn so far and their boxes, the last on top
    for item in face.items:
        if cmyk is not None:
            if isinstance(item, Poly) and not is_line(item) and to_cmyk(item.fill, False, cmyk) == cmyk.rich_black:
                rich.append(_box(item.points))
            elif rich and _on_rich_black(item, rich, cmyk):
                ops.append(_keep_away_ops(item, doc, cmyk))
        if isinstance(item, Text):
            if item.font:
                text, used = _designer_text_ops(item, cmyk)
                ops.append(text)
                fonts.append(used)
            else:
                ops.append(_text_ops(item, doc, cmyk))
        elif isinstance(item, Image):
            picture, placed = pdf_pictures.picture(item, cmyk)
            pictures.append(picture)
            ops.append(placed)
        elif isinstance(item, Outline):  # reads its file each time: not kept by item (_path_ops is)
            ops.append(_outline_ops(item, cmyk))
        else:
            ops.append(_path_ops(item, cmyk))
        if cmyk is not None and _overprints(item, cmyk) and _room_under(item, below, cmyk):
            ops[-1] = f"q {OVERPRINT} gs {ops[-1]} Q"
        if isinstance(item, Poly) and cmyk is not None:
            below.append((item, _box(item.points)))
    return FaceOps("\n".join(ops), tuple(pictures), tuple(fonts))


def _room_under(item: Item, below: list[tuple[Poly, tuple[float, float, float, float]]], ink: Ink) -> bool:
    """Whether solid black can overprint what lies under `item` within the shop's ink limit: at
    its box's corners, edges' middles and centre, the topmost filled shape there prints C + M + Y
    of at most the limit less 100% (an outline over the green, C75 Y100, knocks out instead:
    overprinted it would print 275%). `below`: the shapes with their boxes (a point outside a
    shape's box is outside the shape, and most are)."""
    x0, y0, x1, y1 = _item_box(item)
    points = [(x, y) for x in (x0, (x0 + x1) / 2, x1) for y in (y0, (y0 + y1) / 2, y1)]
    for x, y in points:
        under = next((p for p, (bx0, by0, bx1, by1) in reversed(below)
                      if bx0 <= x <= bx1 and by0 <= y <= by1 and _inside(x, y, p.points)), None)
        if under is not None and sum(to_cmyk(under.fill, is_line(under), ink)[:3]) > ink.limit - 1.0 + 1e-6:
            return False
    return True


def _item_box(item: Item) -> tuple[float, float, float, float]:
    if isinstance(item, Text):
        return item.bbox()
    if isinstance(item, Outline):
        return item.x0, item.y0, item.x1, item.y1
    if isinstance(item, Stroke):
        x0, y0, x1, y1 = _box(item.points)
        w = item.width / 2
        return x0 - w, y0 - w, x1 + w, y1 + w
    return _box(item.points)


def _inside(x: float, y: float, points) -> bool:
    """Point in polygon (even-odd ray casting)."""
    inside, n = False, len(points)
    for i in range(n):
        (ax, ay), (bx, by) = points[i], points[i - 1]
        if (ay > y) != (by > y) and x < (bx - ax) * (y - ay) / (by - ay) + ax:
            inside = not inside
    return inside


#: The graphics state (pdf_file.form_body adds it to a form that names it) under which solid
#: black text and lines overprint: the black plate prints over what lies under it instead of
#: knocking it out, so plates that miss each other leave no white halo (OPM 1: the other plates'
#: zeros leave what is under them).
OVERPRINT = "/OP"


def _overprints(item: Item, ink: Ink) -> bool:
    """Whether an item prints in solid black alone (K100) as text or a line: a text (and its
    outline), an icon outline, a thin filled shape, a stroke. Those overprint in CMYK files."""
    solid = (0.0, 0.0, 0.0, 1.0)
    if isinstance(item, Text):
        return to_cmyk(item.fill, True, ink) == solid and (not item.stroke or to_cmyk(item.stroke_colour, True, ink) == solid)
    if isinstance(item, Outline):
        return to_cmyk(item.fill, True, ink) == solid
    if isinstance(item, Poly):
        return is_line(item) and to_cmyk(item.fill, True, ink) == solid
    if isinstance(item, Stroke):
        return to_cmyk(item.colour, True, ink) == solid
    return False


def _rgb(hex_rgb: str) -> str:
    return " ".join(f"{int(hex_rgb[i:i + 2], 16) / 255:.4g}" for i in (1, 3, 5))


def _fill(hex_rgb: str, ink: Ink | None, text: bool = False) -> str:
    """The operator setting the fill colour: `r g b rg`, or `c m y k k` in CMYK (`text`: a
    text's colour, so solid dark text prints on the black plate alone)."""
    if ink:
        return " ".join(f"{v:.4g}" for v in to_cmyk(hex_rgb, text, ink)) + " k"
    return f"{_rgb(hex_rgb)} rg"


def _stroke(hex_rgb: str, ink: Ink | None) -> str:
    """The operator setting the stroke colour: a line's (a shape's or a text's outline), so in
    CMYK a neutral one prints on the black plate alone, like text (a thin line in four inks
    shows colour fringes wherever the plates do not register)."""
    if ink:
        return " ".join(f"{v:.4g}" for v in to_cmyk(hex_rgb, True, ink)) + " K"
    return f"{_rgb(hex_rgb)} RG"


#: A filled shape whose box is this thin or thinner is a line (a rule under a 6, a separator),
#: and its colour is converted as a line's: a dark neutral one on the black plate alone.
LINE_MAX = pt_to_dots(mm(1.0))  # in dots, as the faces are laid out


def is_line(item: Poly) -> bool:
    xs, ys = [x for x, _ in item.points], [y for _, y in item.points]
    return min(max(xs) - min(xs), max(ys) - min(ys)) <= LINE_MAX


#: Light ink (white, cream) drawn on a print-shop file's rich black keeps the black's cyan,
#: magenta and yellow this far from it: a band of black alone around the text, rule or icon, so
#: plates that miss each other by up to this much put no colour fringe into it ("keep-away").
KEEP_AWAY = pt_to_dots(mm(0.1))  # in dots
_BLACK_ALONE = "0 0 0 1 K"


def _box(points) -> tuple[float, float, float, float]:
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(xs), min(ys), max(xs), max(ys)


def _on_rich_black(item, rich: list[tuple[float, float, float, float]], ink: Ink) -> bool:
    """Whether `item` is light text, a light filled shape or a light icon lying on one of the
    `rich` black boxes: one that gets a keep-away (shape outlines, which border other colours
    too, do not)."""
    if isinstance(item, Text) and not item.stroke:
        colour, line, box = item.fill, True, (item.x, item.y, item.x, item.y)
    elif isinstance(item, Outline):
        colour, line, box = item.fill, True, (item.x0, item.y0, item.x1, item.y1)
    elif isinstance(item, Poly):
        colour, line, box = item.fill, is_line(item), _box(item.points)
    else:
        return False
    c, m, y, k = to_cmyk(colour, line, ink)
    return k == 0 and c + m + y <= 0.3 and any(
        r[0] <= box[0] and r[1] <= box[1] and box[2] <= r[2] and box[3] <= r[3] for r in rich)


def _keep_away_ops(item: Text | Outline | Poly, doc, ink: Ink) -> str:
    """The item's outline stroked in black alone, 2 × KEEP_AWAY wide, drawn before the item."""
    if isinstance(item, Text):
        if item.font:
            return _text_ops(item, None, ink, pdf_fonts.text_run(item.font, item.text, dots_to_pt(item.size))[0],
                             keep_away=True)
        return _text_ops(item, doc, ink, keep_away=True)
    if isinstance(item, Outline):
        return _outline_ops(item, ink, keep_away=True)
    width = 2 * dots_to_pt(KEEP_AWAY)
    return f"q {_BLACK_ALONE} {width:.3f} w 1 j " + " ".join(_points_ops(item.points)) + " h S Q"


def cmyk_inks(face: Face) -> set[tuple[str, bool]]:
    """The (colour, text) pairs face_ops converts to CMYK for `face`: as _fill and _stroke ask
    to_cmyk for them (tests/products/render/test_drivethrucards.py holds the two together). Only
    a head start: a pair missing here is converted when its form asks for it."""
    inks: set[tuple[str, bool]] = set()
    for item in face.items:
        if isinstance(item, Text):
            inks.add((item.fill, True))
            if item.stroke:
                inks.add((item.stroke_colour, True))
        elif isinstance(item, Outline):
            inks.add((item.fill, True))
        elif isinstance(item, Poly):
            inks.add((item.fill, is_line(item)))
        elif isinstance(item, Stroke):
            inks.add((item.colour, True))
    return inks


@lru_cache(maxsize=8192)
def _path_ops(item: Poly | Stroke, cmyk: Ink | None = None) -> str:
    """PDF operators for a polygon or polyline (font-free, so the same in every file)."""
    ops = _points_ops(item.points)
    k = dots_to_pt(1.0)
    if isinstance(item, Poly):
        return f"{_fill(item.fill, cmyk, text=is_line(item))} " + " ".join(ops) + " h f"
    close = " h" if item.closed else ""
    return f"{_stroke(item.colour, cmyk)} {item.width * k:.3f} w 1 J 1 j " + " ".join(ops) + close + " S"


def _points_ops(points) -> list[str]:
    k = dots_to_pt(1.0)
    return [f"{x * k:.2f} {(TRIM_H - y) * k:.2f} {'m' if i == 0 else 'l'}" for i, (x, y) in enumerate(points)]


def _outline_ops(item: Outline, cmyk: Ink | None = None, keep_away: bool = False) -> str:
    """A one-colour SVG icon: its outlines (em units, y down) mapped onto its box, filled in its
    colour. Read from the file each time a face's form is made (cached by the file's bytes), so
    an edited icon is drawn afresh in a process that builds again (watch)."""
    from generator.products.render.assets.icon_files import contours  # lazy: fontTools, only a face with such an icon

    k = dots_to_pt(1.0)
    em = (item.y1 - item.y0) * k  # the viewBox's height, in points
    if item.rot180:  # half a turn about the box's centre: from its bottom-right corner, axes reversed
        matrix = f"{-em:.4f} 0 0 {em:.4f} {item.x1 * k:.2f} {(TRIM_H - item.y1) * k:.2f} cm"
    else:
        matrix = f"{em:.4f} 0 0 {-em:.4f} {item.x0 * k:.2f} {(TRIM_H - item.y0) * k:.2f} cm"
    paths = " ".join(" ".join(f"{x:.5g} {y:.5g} {'m' if i == 0 else 'l'}" for i, (x, y) in enumerate(c)) + " h"
                     for c in contours(item.path) if c)
    if keep_away:  # its outlines stroked in black alone, in the icon's units (em points each)
        return f"q {_BLACK_ALONE} {matrix} {2 * dots_to_pt(KEEP_AWAY) / em:.5f} w 1 j {paths} S Q"
    return f"q {_fill(item.fill, cmyk, text=True)} {matrix} {paths} f Q"


def _text_ops(t: Text, doc, cmyk: Ink | None = None, run: str = "", keep_away: bool = False) -> str:
    size = dots_to_pt(t.size)
    x, y = _xy(t.x, t.y)
    w = tf.width(t.text, size, t.bold, font=t.font)
    dx = {"l": 0.0, "m": -w / 2, "r": -w}[t.align]
    turn = "-1 0 0 -1" if t.rot180 else "1 0 0 1"
    ops = ["q", _fill(t.fill, cmyk, text=True), f"{turn} {x:.2f} {y:.2f} cm"]
    if keep_away:  # the glyphs' outlines stroked in black alone (face_ops draws this first)
        ops += [_BLACK_ALONE, f"{2 * dots_to_pt(KEEP_AWAY):.3f} w", "1 j", "1 Tr"]
    elif t.stroke:
        ops += [_stroke(t.stroke_colour, cmyk), f"{2 * dots_to_pt(t.stroke):.3f} w", "1 j", "2 Tr"]
    ops += ["BT", f"{dx:.2f} 0 Td", run or text_run(doc, t.text, size, t.bold), "ET", "Q"]
    return " ".join(ops)


def _designer_text_ops(t: Text, cmyk: Ink | None) -> tuple[str, tuple[str, str, tuple[int, ...]]]:
    """A text in a designer's font: its operators, and (font digest, path, glyph ids used)."""
    run, digest, gids = pdf_fonts.text_run(t.font, t.text, dots_to_pt(t.size))
    return _text_ops(t, None, cmyk, run), (digest, t.font, gids)


_SCRATCH: dict[str, object] = {}


def form_ops(faces: list[Face], chars: str, cmyk: Ink | bool | None = None) -> dict[str, FaceOps]:
    """Operators of each face (key -> ops), encoded as every file built with `chars` encodes text
    (pdf_file.encoding_canvas)."""
    doc = _SCRATCH.get(chars)
    if doc is None:
        doc = encoding_canvas(chars)._doc
        _SCRATCH.clear()
        _SCRATCH[chars] = doc
    return {face.key: face_ops(face, doc, cmyk) for face in faces}


#: A face form's box: the trim plus the bleed, the trim's bottom-left corner at the origin.
FORM_BOX = (-dots_to_pt(BLEED), -dots_to_pt(BLEED), dots_to_pt(TRIM_W) + dots_to_pt(BLEED),
            dots_to_pt(TRIM_H) + dots_to_pt(BLEED))


def format_forms(ops: dict[str, FaceOps]) -> dict[str, bytes]:
    """Each face's form XObject as the bytes every file writes for it (pdf_file.form_body).

    The one reference inside, to the font list, is the same object in every file, so they are
    formatted once and reused by every file (a face with pictures carries them along, and each
    file adds each picture once: pdf_file.PdfFile.add_form).
    """
    return {k: form_body(f.ops, FORM_BOX, f.pictures, f.fonts) for k, f in ops.items()}


def _add_forms(f: PdfFile, formatted: dict[str, bytes]) -> tuple[dict[str, str], dict[str, int]]:
    """The forms written into the file: key -> the resource name a page draws it by, and
    resource name -> object number."""
    names = {k: f"Fm{i}" for i, k in enumerate(formatted)}
    return names, {names[k]: f.add_form(body) for k, body in formatted.items()}


def viewer(duplex: str) -> str:
    """Viewers and printer drivers read /PrintScaling /None (print at 100%) and the duplex
    preference: `duplex` "long" or "short" for a double-sided file, "" for one-sided."""
    side = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}.get(duplex, "Simplex")
    return f"/ViewerPreferences << /PrintScaling /None /Duplex /{side} >> "


def info_entries(title: str, subject: str, stamp: Stamp, **extra: str) -> dict[str, str]:
    """The document information: what the file is, the version that made it and from which
    manifest (`stamp`), dated from its inputs, never from the clock."""
    made = stamp.producer or "county-uppy"
    subject = f"{subject} (manifest {stamp.fingerprint})" if stamp.fingerprint else subject
    return {"Title": text_string(title), "Author": "(county-uppy)", "Subject": text_string(subject),
            "Creator": text_string(made), "Producer": text_string(made), "CreationDate": f"({stamp.pdf_date})",
            "ModDate": f"({stamp.pdf_date})", "Trapped": "/False", **extra}


def place(form: str, s: sheets.Slot) -> str:
    """Operators drawing a card in its slot, its bleed clipped to what the slot allows on each
    edge, turned by the slot's rotation (the form's origin is the trim's bottom-left corner)."""
    # Butted edges overlap the neighbour by a hair, so rasterizers show no seam between cards.
    left, bottom, right, top = (b if b > 0 else SEAM_OVERLAP for b in s.bleed)
    turn = {0: f"1 0 0 1 {s.x:.3f} {s.y:.3f}", 90: f"0 1 -1 0 {s.x + s.w:.3f} {s.y:.3f}",
            270: f"0 -1 1 0 {s.x:.3f} {s.y + s.h:.3f}"}[s.rot]
    return (f"q {s.x - left:.3f} {s.y - bottom:.3f} {s.w + left + right:.3f} {s.h + bottom + top:.3f} re W n "
            f"{turn} cm /{form} Do Q")


@lru_cache(maxsize=None)
def _mark_ops(g: sheets.Grid, back: bool) -> str:
    """Crop marks as operators: a white halo, then the black line (they may cross dark bleed)."""
    path = " ".join(f"{x0:.3f} {y0:.3f} m {x1:.3f} {y1:.3f} l" for x0, y0, x1, y1 in sheets.crop_marks(g, back))
    ops = (f"q 0 J 1 1 1 RG {sheets.MARK_WIDTH * 4:.2f} w {path} S "
           f"{_rgb(CROP_INK)} RG {sheets.MARK_WIDTH} w {path} S Q")
    fold = sheets.fold_line(g)
    if fold is not None:  # gutterfold: the fold line, dashed, in grey (not a cut)
        x0, y0, x1, y1 = fold
        ops += f"\nq 0 J [3 2] 0 d {_rgb(FOLD_INK)} RG {FOLD_WIDTH} w {x0:.3f} {y0:.3f} m {x1:.3f} {y1:.3f} l S Q"
    return ops


def _footer(doc, g: sheets.Grid, back: bool, text: str) -> str:
    """The footer line, centred on its place in the widest free margin ("" if there is none)."""
    place_ = sheets.footer_place(g, back)
    if place_ is None:
        return ""
    x, y, rot = place_
    cos, sin = {0: (1, 0), 90: (0, 1), 270: (0, -1)}[rot]
    w = tf.width(text, sheets.FOOTER_SIZE, False)
    return (f"q {cos} {sin} {-sin} {cos} {x:.3f} {y:.3f} cm {_rgb(FOOTER_INK)} rg "
            f"BT {-w / 2:.3f} 0 Td {text_run(doc, text, sheets.FOOTER_SIZE, False)} ET Q")


def sheet_pdf(forms_in: dict[str, bytes], pages: list[sheets.Page], set_names: dict[str, str], g: sheets.Grid,
              mode: str, filename: str, chars: str, stamp: Stamp = NONE) -> tuple[bytes, int]:
    """A print-and-play file: `mode` is duplex (front, mirrored back, ...), fronts, backs, or
    gutterfold (one side: each card's front and its back beside it, `g` a gutterfold grid).

    The test page leads (test_page.py): its front, and in a duplex file its back. `forms_in`
    holds the formatted form of every face on the pages and of "back" (format_forms).
    """
    f = PdfFile(chars, g.size, sheets.FOOTER_SIZE)
    sides = {"duplex": (False, True), "fronts": (False,), "backs": (True,), "gutterfold": (False,)}[mode]
    used = [] if mode == "backs" else [k for k in forms_in if any(k in p.codes for p in pages)]
    names, forms = _add_forms(f, {k: forms_in[k] for k in [*used, "back"]})
    resources = f.resources(forms)
    total = (len(pages) + 1) * len(sides)
    contents = [f.drawn(lambda c, is_back=is_back: test_page.draw(c, g, is_back, mode, filename, stamp)) for is_back in sides]
    n = len(sides)
    for page in pages:
        for is_back in sides:
            n += 1
            if mode == "gutterfold":
                ops = [place(names[form], sheets.slot(g, i, turned, len(page.codes)))
                       for i, code in enumerate(page.codes) for form, turned in ((code, False), ("back", True))]
                side = "fold on the dashed line"
            else:
                ops = [place(names["back" if is_back else code], sheets.slot(g, i, is_back, len(page.codes)))
                       for i, code in enumerate(page.codes)]
                side = "backs" if is_back else "fronts"
            ops.append(_mark_ops(g, is_back))
            ops.append(_footer(f.doc, g, is_back, f"{filename} · {set_names[page.set]} · {side} · page {n} of {total}"))
            contents.append("\n".join(ops))
    tree = f.page_tree([c.encode("latin-1") for c in contents], g.size, resources)
    info = info_entries(filename, f"County Uppy print sheets, {g.paper}, {mode}", stamp)
    return f.finish(tree, info, viewer(g.duplex if mode == "duplex" else "")), total


PDFX_VERSION = "PDF/X-1a:2003"


#: A page of one face: the trim plus its 1/8 in bleed on every side.
FACE_PAGE = (dots_to_pt(TRIM_W) + 2 * dots_to_pt(BLEED), dots_to_pt(TRIM_H) + 2 * dots_to_pt(BLEED))


def _face_pages(f: PdfFile, forms_in: dict[str, bytes], keys: list[str], boxes: str = "") -> int:
    """Pages of one face each (FACE_PAGE), in `keys` order. Returns the page tree."""
    b = dots_to_pt(BLEED)
    names, forms = _add_forms(f, forms_in)
    resources = f.resources(forms)
    return f.page_tree([f"1 0 0 1 {fp_str(b)} {fp_str(b)} cm /{names[k]} Do".encode("ascii") for k in keys],
                       FACE_PAGE, resources, boxes)


def faces_pdf(faces: list[Face], chars: str) -> bytes:
    """One face per page, each page the trim plus its 1/8 in bleed: what the card images are
    rasterized from (png.render_pages), so the PNGs are the PDF faces exactly. `chars`: the
    characters the faces' text may use (faces.charset)."""
    forms_in = format_forms(form_ops(faces, chars))
    f = PdfFile(chars, FACE_PAGE)
    tree = _face_pages(f, forms_in, list(forms_in))
    return f.finish(tree, info_entries("faces", "County Uppy faces for rasterizing", NONE), viewer(""))


#: A shop's page order (shops.ORDERS) in words, for the file's Subject.
ORDER_WORDS = {"back-front": "each card's back, then its front", "front-back": "each card's front, then its back",
               "fronts-back": "every card's front, then the common back once"}


def page_keys(order: str, codes: list[str]) -> list[str]:
    """The face on each page ("back" or a card code) of a shop file in `order` (shops.ORDERS),
    for the printed cards `codes` (copies repeated, in deck order)."""
    if order == "back-front":
        return [side for code in codes for side in ("back", code)]
    if order == "front-back":
        return [side for code in codes for side in (code, "back")]
    if order == "fronts-back":
        return [*codes, "back"]
    raise ValueError(f"no PDF page order '{order}'")


def shop_geometry(shop: Shop) -> tuple[tuple[float, float], tuple[float, float], float]:
    """A shop page's size (points), where the face's trim corner sits on it, and its bleed (points).

    The page is the shop's trim plus its bleed; the face is centred on the shop's trim (a shop
    whose card differs from the faces' by a fraction of a millimetre, such as 63.5×89 mm against
    2.5×3.5 in, gets the faces' own bleed in the difference: shops.problem checks it is there)."""
    b = mm(shop.bleed_mm)
    w, h = mm(shop.trim_mm[0]), mm(shop.trim_mm[1])
    return (w + 2 * b, h + 2 * b), (b + (w - dots_to_pt(TRIM_W)) / 2, b + (h - dots_to_pt(TRIM_H)) / 2), b


def shop_pdf(forms_in: dict[str, bytes], codes: list[str], shop: Shop, filename: str, chars: str,
             stamp: Stamp = NONE) -> tuple[bytes, int]:
    """A print shop's card file: one face per page in the shop's order (page_keys), each page the
    shop's trim plus its bleed (the page is the BleedBox, the TrimBox the cut).

    `forms_in` must hold CMYK forms made for this shop (form_ops(..., cmyk=cmyk.ink_for(shop))):
    the file is PDF/X-1a:2003, CMYK only, fonts embedded, no transparency, with its output intent
    (the shop's registered printing condition) in the catalog and the PDF/X keys in its document
    information. Returns the file and its page count.
    """
    assert shop.condition is not None, shop.name
    size, (x, y), b = shop_geometry(shop)
    w, h = size
    f = PdfFile(chars, size)
    keys = page_keys(shop.order, codes)
    boxes = f"/TrimBox {array((b, b, w - b, h - b))} /BleedBox {array((0, 0, w, h))} "
    names, forms = _add_forms(f, {k: forms_in[k] for k in dict.fromkeys(keys)})
    tree = f.page_tree([f"1 0 0 1 {fp_str(x)} {fp_str(y)} cm /{names[k]} Do".encode("ascii") for k in keys],
                       size, f.resources(forms), boxes)
    c = shop.condition
    intent = (f"<< /Type /OutputIntent /S /GTS_PDFX /OutputConditionIdentifier {text_string(c.identifier)} "
              f"/OutputCondition {text_string(c.info)} /RegistryName (http://www.color.org) "
              f"/Info {text_string(c.info)} >>")
    info = info_entries(filename, f"County Uppy cards for {shop.title}: {ORDER_WORDS[shop.order]}", stamp,
                 GTS_PDFXVersion=text_string(PDFX_VERSION))
    # no /ViewerPreferences: PDF/X-1a:2003 is PDF 1.4, which has neither /PrintScaling (1.6) nor /Duplex (1.7)
    return f.finish(tree, info, f"/OutputIntents [ {intent} ] "), len(keys)
