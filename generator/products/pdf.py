"""PDF backend: faces drawn as vectors with reportlab, imposed on sheets by sheets.py.

Each distinct face becomes one form XObject, drawn wherever a copy of the card sits, so the
files stay small and every copy is identical. `invariant=1` and fixed fonts make the bytes
depend on the inputs only.
"""

from __future__ import annotations

import io
from functools import lru_cache

from reportlab import rl_config
from reportlab.lib.colors import HexColor
from reportlab.lib.rl_accel import escapePDF
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import PDFArray, PDFDate, PDFDictionary, PDFInfo, PDFName, PDFString
from reportlab.pdfgen.canvas import Canvas

from generator.products import sheets, test_page
from generator.products.cmyk import to_cmyk
from generator.products import typeface as tf
from generator.products.faces import Face, Poly, Stroke, Text
from generator.products.units import BLEED, PAPERS, TRIM_H, TRIM_W, dots_to_pt

FOOTER_INK = "#444444"
CROP_INK = "#000000"
SEAM_OVERLAP = 0.4  #: points
#: Binary (not ASCII85) compressed streams: smaller files, less work.
rl_config.useA85 = 0


def _xy(x: float, y: float) -> tuple[float, float]:
    """Face dots (y down, from the trim's top-left) to points (y up, from its bottom-left)."""
    return dots_to_pt(x), dots_to_pt(TRIM_H - y)


def face_ops(face: Face, doc, cmyk: bool = False) -> str:
    """The face as PDF operators, the trim's bottom-left corner at the origin.

    Text is encoded for `doc`'s font subsets; every file warms them with the same character
    set first (prepare_fonts), so the operators are the same in every file of one deck.
    `cmyk`: every colour as DeviceCMYK (cmyk.py), for the print-shop file.
    """
    return "\n".join(_text_ops(item, doc, cmyk) if isinstance(item, Text) else _path_ops(item, cmyk)
                     for item in face.items)


def _rgb(hex_rgb: str) -> str:
    return " ".join(f"{int(hex_rgb[i:i + 2], 16) / 255:.4g}" for i in (1, 3, 5))


def _fill(hex_rgb: str, cmyk: bool) -> str:
    """The operator setting the fill colour: `r g b rg`, or `c m y k k` in CMYK."""
    if cmyk:
        return " ".join(f"{v:.4g}" for v in to_cmyk(hex_rgb)) + " k"
    return f"{_rgb(hex_rgb)} rg"


def _stroke(hex_rgb: str, cmyk: bool) -> str:
    if cmyk:
        return " ".join(f"{v:.4g}" for v in to_cmyk(hex_rgb)) + " K"
    return f"{_rgb(hex_rgb)} RG"


@lru_cache(maxsize=8192)
def _path_ops(item: Poly | Stroke, cmyk: bool = False) -> str:
    """PDF operators for a polygon or polyline (font-free, so the same in every file)."""
    k = dots_to_pt(1.0)
    ops = [f"{x * k:.2f} {(TRIM_H - y) * k:.2f} {'m' if i == 0 else 'l'}" for i, (x, y) in enumerate(item.points)]
    if isinstance(item, Poly):
        return f"{_fill(item.fill, cmyk)} " + " ".join(ops) + " h f"
    close = " h" if item.closed else ""
    return f"{_stroke(item.colour, cmyk)} {item.width * k:.3f} w 1 J 1 j " + " ".join(ops) + close + " S"


def _text_ops(t: Text, doc, cmyk: bool = False) -> str:
    font = pdfmetrics.getFont(tf.pdf_font(t.bold))
    size = dots_to_pt(t.size)
    x, y = _xy(t.x, t.y)
    w = tf.width(t.text, size, t.bold)
    dx = {"l": 0.0, "m": -w / 2, "r": -w}[t.align]
    turn = "-1 0 0 -1" if t.rot180 else "1 0 0 1"
    ops = ["q", _fill(t.fill, cmyk), f"{turn} {x:.2f} {y:.2f} cm"]
    if t.stroke:
        ops += [_stroke(t.stroke_colour, cmyk), f"{2 * dots_to_pt(t.stroke):.3f} w", "1 j", "2 Tr"]
    ops += ["BT", f"{dx:.2f} 0 Td"]
    for subset, chunk in font.splitString(t.text, doc):
        ops.append(f"{font.getSubsetInternalName(subset, doc)} {size:.2f} Tf ({escapePDF(chunk)}) Tj")
    ops += ["ET", "Q"]
    return " ".join(ops)


def prepare_fonts(c: Canvas, chars: str) -> None:
    """Register both faces and encode `chars` in a fixed order, so text encodes alike in
    every file built from the same deck (and cached operators stay valid)."""
    for bold in (False, True):
        font = pdfmetrics.getFont(tf.pdf_font(bold))
        font.splitString(chars, c._doc)
        font.getSubsetInternalName(0, c._doc)


_SCRATCH: dict[str, Canvas] = {}


def form_ops(faces: list[Face], chars: str, cmyk: bool = False) -> dict[str, str]:
    """Operators of each face (key -> ops), encoded as prepare_fonts(chars) sets up."""
    c = _SCRATCH.get(chars)
    if c is None:
        c = new_canvas(io.BytesIO(), PAPERS["letter"], "", "")
        prepare_fonts(c, chars)
        _SCRATCH.clear()
        _SCRATCH[chars] = c
    return {face.key: face_ops(face, c._doc, cmyk) for face in faces}


def define_forms(c: Canvas, ops: dict[str, str]) -> dict[str, str]:
    """One form XObject per face, clipped to trim plus bleed; return key -> form name."""
    b = dots_to_pt(BLEED)
    w, h = dots_to_pt(TRIM_W), dots_to_pt(TRIM_H)
    names = {}
    for i, (k, text) in enumerate(ops.items()):
        name = f"face{i}"
        c.beginForm(name, -b, -b, w + b, h + b)
        c.addLiteral(text)
        c.endForm()
        names[k] = name
    return names


def _form_object(c: Canvas, name: str):
    return c._doc.idToObject[c._doc.getXObjectName(name)]


def format_forms(ops: dict[str, str], chars: str) -> dict[str, bytes]:
    """Each face's form XObject as the bytes reportlab writes for it.

    They depend on the operators only (the one reference inside, to the font list, is the
    same object in every file), so they are formatted once and reused by every file.
    """
    c = new_canvas(io.BytesIO(), PAPERS["letter"], "", "")
    prepare_fonts(c, chars)
    names = define_forms(c, ops)
    return {k: _form_object(c, name).format(c._doc) for k, name in names.items()}


def reuse_forms(c: Canvas, formatted: dict[str, bytes]) -> dict[str, str]:
    """Declare one form per face whose object is written from `formatted` as it stands."""
    names = define_forms(c, dict.fromkeys(formatted, ""))
    for k, name in names.items():
        _form_object(c, name).format = lambda document, data=formatted[k]: data
    return names


def new_canvas(buf: io.BytesIO, size: tuple[float, float], title: str, subject: str,
               duplex: str = "", enforce_cmyk: bool = False) -> Canvas:
    """A canvas with the project's settings: invariant output, and the embedded face as the
    initial font, so no page refers to reportlab's default (unembedded Helvetica).

    Viewers and printer drivers read /PrintScaling /None (print at 100%) and the duplex
    preference: `duplex` "long" or "short" for a double-sided file, "" for one-sided.
    """
    c = Canvas(buf, pagesize=size, invariant=1, pageCompression=1, initialFontName=tf.pdf_font(False),
               initialFontSize=sheets.FOOTER_SIZE, initialLeading=sheets.FOOTER_SIZE * 1.2,
               enforceColorSpace="cmyk" if enforce_cmyk else None)
    c.setTitle(title)
    c.setSubject(subject)
    c.setAuthor("county-uppy")
    c.setCreator("county-uppy")
    c.setViewerPreference("PrintScaling", "None")
    c.setViewerPreference("Duplex", {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge"}.get(duplex, "Simplex"))
    return c


def place(c: Canvas, form: str, s: sheets.Slot) -> None:
    """Draw a card in its slot, its bleed clipped to what the slot allows on each edge."""
    # Butted edges overlap the neighbour by a hair, so rasterizers show no seam between cards.
    left, bottom, right, top = (b if b > 0 else SEAM_OVERLAP for b in s.bleed)
    c.addLiteral(f"q {s.x - left:.3f} {s.y - bottom:.3f} {s.w + left + right:.3f} {s.h + bottom + top:.3f} re W n "
                 f"1 0 0 1 {s.x:.3f} {s.y:.3f} cm")
    c.doForm(form)
    c.addLiteral("Q")


@lru_cache(maxsize=None)
def _mark_ops(g: sheets.Grid, back: bool) -> str:
    """Crop marks as operators: a white halo, then the black line (they may cross dark bleed)."""
    path = " ".join(f"{x0:.3f} {y0:.3f} m {x1:.3f} {y1:.3f} l" for x0, y0, x1, y1 in sheets.crop_marks(g, back))
    return (f"q 0 J 1 1 1 RG {sheets.MARK_WIDTH * 4:.2f} w {path} S "
            f"{_rgb(CROP_INK)} RG {sheets.MARK_WIDTH} w {path} S Q")


def _footer(c: Canvas, g: sheets.Grid, back: bool, text: str) -> None:
    place_ = sheets.footer_place(g, back)
    if place_ is None:
        return
    x, y, rot = place_
    c.saveState()
    c.translate(x, y)
    c.rotate(rot)
    c.setFont(tf.pdf_font(False), sheets.FOOTER_SIZE)
    c.setFillColor(HexColor(FOOTER_INK))
    c.drawCentredString(0, 0, text)
    c.restoreState()


def sheet_pdf(forms_in: dict[str, bytes], pages: list[sheets.Page], set_names: dict[str, str], g: sheets.Grid,
              mode: str, filename: str, chars: str) -> tuple[bytes, int]:
    """A print-and-play file: `mode` is duplex (front, mirrored back, ...), fronts or backs.

    The test page leads (test_page.py): its front, and in a duplex file its back. `forms_in`
    holds the formatted form of every face on the pages and of "back" (format_forms).
    """
    buf = io.BytesIO()
    c = new_canvas(buf, g.size, filename, f"County Uppy print sheets, {g.paper}, {mode}",
                   g.duplex if mode == "duplex" else "")
    prepare_fonts(c, chars)
    sides = {"duplex": (False, True), "fronts": (False,), "backs": (True,)}[mode]
    used = [] if mode == "backs" else [k for k in forms_in if any(k in p.codes for p in pages)]
    forms = reuse_forms(c, {k: forms_in[k] for k in [*used, "back"]})
    total = (len(pages) + 1) * len(sides)
    for is_back in sides:
        test_page.draw(c, g, is_back, mode, filename)
        c.showPage()
    n = len(sides)
    for page in pages:
        for is_back in sides:
            n += 1
            for i, code in enumerate(page.codes):
                place(c, forms["back" if is_back else code], sheets.slot(g, i, is_back, len(page.codes)))
            c.addLiteral(_mark_ops(g, is_back))
            side = "backs" if is_back else "fronts"
            _footer(c, g, is_back, f"{filename} · {set_names[page.set]} · {side} · page {n} of {total}")
            c.showPage()
    c.save()
    return buf.getvalue(), total


#: PDF/X-1a:2003 output intent: a registered printing condition, so no ICC profile is embedded.
#: DriveThruCards' own conversion steps name US Web Coated (SWOP) v2, whose condition is CGATS TR 001.
OUTPUT_CONDITION = "CGATS TR 001"
OUTPUT_CONDITION_INFO = "U.S. Web Coated (SWOP) v2"
PDFX_VERSION = "PDF/X-1a:2003"


class _PDFXInfo(PDFInfo):
    """The document info of a PDF/X file: reportlab's keys plus /GTS_PDFXVersion."""

    def format(self, document):
        d = {
            "Title": PDFString(self.title), "Author": PDFString(self.author), "Subject": PDFString(self.subject),
            "Creator": PDFString(self.creator), "Producer": PDFString(self.producer),
            "Keywords": PDFString(self.keywords), "Trapped": PDFName("False"),
            "GTS_PDFXVersion": PDFString(PDFX_VERSION),
        }
        d["ModDate"] = d["CreationDate"] = PDFDate(ts=document._timeStamp, dateFormatter=self._dateFormatter)
        return PDFDictionary(d).format(document)


def _pdfx(c: Canvas) -> None:
    """Mark the file PDF/X-1a:2003: its info keys and the output intent in the catalog."""
    info = _PDFXInfo()
    old = c._doc.info
    for attr in ("title", "author", "subject", "creator", "producer", "keywords"):
        setattr(info, attr, getattr(old, attr))
    c._doc.info = info
    intent = PDFDictionary({
        "Type": PDFName("OutputIntent"), "S": PDFName("GTS_PDFX"),
        "OutputConditionIdentifier": PDFString(OUTPUT_CONDITION), "OutputCondition": PDFString(OUTPUT_CONDITION_INFO),
        "RegistryName": PDFString("http://www.color.org"), "Info": PDFString(OUTPUT_CONDITION_INFO),
    })
    catalog = c._doc.Catalog
    catalog.__NoDefault__ = [*catalog.__NoDefault__, "OutputIntents"]  # reportlab writes the keys it lists
    catalog.OutputIntents = PDFArray([intent])


def faces_pdf(forms_in: dict[str, bytes], chars: str) -> bytes:
    """One face per page, each page the trim plus its 1/8 in bleed: what the card images are
    rasterized from (png.rasterize_pdf), so the PNGs are the PDF faces exactly."""
    b = dots_to_pt(BLEED)
    w, h = dots_to_pt(TRIM_W) + 2 * b, dots_to_pt(TRIM_H) + 2 * b
    buf = io.BytesIO()
    c = new_canvas(buf, (w, h), "faces", "County Uppy faces for rasterizing")
    prepare_fonts(c, chars)
    forms = reuse_forms(c, forms_in)
    for key in forms_in:
        c.translate(b, b)
        c.doForm(forms[key])
        c.showPage()
    c.save()
    return buf.getvalue()


def single_cards_pdf(forms_in: dict[str, bytes], codes: list[str], filename: str, chars: str) -> tuple[bytes, int]:
    """DriveThruCards' card file: the common back on page 1, then every card's front, one card
    per page with its 1/8 in bleed (the page is the bleed box, the TrimBox the cut).

    `forms_in` must hold CMYK forms (form_ops(..., cmyk=True)): the file is PDF/X-1a:2003,
    CMYK only, fonts embedded, no transparency.
    """
    b = dots_to_pt(BLEED)
    w, h = dots_to_pt(TRIM_W) + 2 * b, dots_to_pt(TRIM_H) + 2 * b
    buf = io.BytesIO()
    c = new_canvas(buf, (w, h), filename, "County Uppy cards for DriveThruCards: the common back, then every front",
                   enforce_cmyk=True)
    _pdfx(c)
    prepare_fonts(c, chars)
    forms = reuse_forms(c, {k: forms_in[k] for k in ["back", *dict.fromkeys(codes)]})
    c.setTrimBox((b, b, w - b, h - b))  # every page from here on
    c.setBleedBox((0, 0, w, h))
    for key in ["back", *codes]:
        c.translate(b, b)
        c.doForm(forms[key])
        c.showPage()
    c.save()
    return buf.getvalue(), 1 + len(codes)
