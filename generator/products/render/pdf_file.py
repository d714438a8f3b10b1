"""Writing a PDF file object by object, with only what the build's PDFs are made of.

Every PDF the build writes is a few shared objects (the embedded font subsets, one form XObject
per face) and pages that draw them. They are written here as bytes, not through reportlab's tree
of Python objects, which cost more to format than the pages hold: a face's form is formatted
once (form_body) and copied as it stands into every file that shows it, and a file costs little
more than its pages' content. reportlab still does the text: it assigns each character its code
in the font subsets (a PdfFile's `doc`), subsets the TrueType fonts, and draws the print test page
(PdfFile.drawn).

The bytes depend on the inputs only: dates from the build's stamp (stamp.py), never the clock, and a
file identifier hashed from the content.
"""

from __future__ import annotations

import hashlib
import io
import json
from typing import Callable

from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import makeToUnicodeCMap
from reportlab.pdfgen.canvas import Canvas

from generator.products.render import pdf_fonts
from generator.products.render import typeface as tf
from generator.products.render.pdf_objects import array, stream, subset_tag, text_string

__all__ = ["FONT_LIST", "PdfFile", "array", "encoding_canvas", "form_body", "stream", "subset_tag", "text_run",
           "text_string"]

#: The font list's object number: every form and page refers to it, so forms formatted once fit any file.
FONT_LIST = 1
HEADER = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"
#: Catalog keys newer than PDF 1.4, and the version each needs (PDF 1.7, ISO 32000-1, 12.2).
NEWER_KEYS = (("/Duplex", "1.7"), ("/PrintScaling", "1.6"))


def header(catalog: str) -> bytes:
    """The file's header, declaring the version its catalog needs: 1.4 (what PDF/X-1a:2003 is
    based on), 1.6 for /PrintScaling, 1.7 for /Duplex."""
    needed = max((v for k, v in NEWER_KEYS if k in catalog), default="1.4")
    return HEADER.replace(b"1.4", needed.encode("ascii"), 1)


def encoding_canvas(chars: str, size: tuple[float, float] = (612.0, 792.0), initial_size: float = 10.0) -> Canvas:
    """A canvas whose font subsets give every character of `chars` its code, both faces in a
    fixed order, so text encodes alike in every file built with the same characters (and a face's
    form, encoded once, is valid in all of them). Its doc is never written."""
    c = Canvas(io.BytesIO(), pagesize=size, invariant=1, initialFontName=tf.pdf_font(False),
               initialFontSize=initial_size, initialLeading=initial_size * 1.2)
    for bold in (False, True):
        font = pdfmetrics.getFont(tf.pdf_font(bold))
        font.splitString(chars, c._doc)
        font.getSubsetInternalName(0, c._doc)
    return c


def text_run(doc, text: str, size: float, bold: bool) -> str:
    """`text` shown in the current text position: a Tf and Tj per font subset it needs."""
    font = pdfmetrics.getFont(tf.pdf_font(bold))
    return " ".join(f"{font.getSubsetInternalName(subset, doc)} {size:.2f} Tf ({escapePDF(chunk)}) Tj"
                    for subset, chunk in font.splitString(text, doc))


def form_body(ops: str, bbox: tuple[float, float, float, float], pictures: tuple = (),
              fonts: tuple[tuple[str, str, tuple[int, ...]], ...] = ()) -> bytes:
    """A form XObject drawing `ops`, clipped to `bbox`, its text in the font list's fonts.

    A face with pictures (pdf_pictures.Picture) or a designer's font ((digest, path, glyph ids):
    pdf_fonts.py) comes as a bundle: a header line naming them, the pictures' objects, then the
    form, whose XObject resources are the file's picture list (@PICTURES@ until a file adds it:
    PdfFile.add_form). A face with neither is the form alone, as it has always been."""
    box = " ".join(fp_str(v) for v in bbox)
    xobjects = " /XObject @PICTURES@ 0 R" if pictures else ""
    if "/OP gs" in ops:  # solid black text and lines overprint (pdf.OVERPRINT)
        xobjects += " /ExtGState << /OP << /Type /ExtGState /OP true /op true /OPM 1 >> >>"
    procs = "/PDF /Text /ImageB /ImageC" if pictures else "/PDF /Text"
    body = stream(f"/Type /XObject /Subtype /Form /FormType 1 /BBox [ {box} ] /Matrix [ 1 0 0 1 0 0 ] "
                  f"/Resources << /Font {FONT_LIST} 0 R{xobjects} /ProcSet [ {procs} ] >>", ops.encode("latin-1"))
    if not pictures and not fonts:
        return body
    unique = list({p.name: p for p in pictures}.values())
    merged: dict[str, tuple[str, set[int]]] = {}
    for digest, path, gids in fonts:
        merged.setdefault(digest, (path, set()))[1].update(gids)
    head = {"pictures": [[p.name, len(p.body), -1 if p.smask is None else len(p.smask)] for p in unique],
            "fonts": [[d, path, sorted(g)] for d, (path, g) in sorted(merged.items())]}
    blobs = b"".join(p.body + (p.smask or b"") for p in unique)
    return BUNDLE + json.dumps(head, sort_keys=True, separators=(",", ":")).encode("utf-8") + b"\n" + blobs + body


#: How a form bundle (form_body) begins; a plain form begins with its dictionary.
BUNDLE = b"%form-bundle "


def unbundle(data: bytes) -> tuple[bytes, list[tuple[str, bytes, bytes | None]], list[tuple[str, str, tuple[int, ...]]]]:
    """A formatted form split: (the form's body, its pictures as (name, body, smask), its
    designer fonts as (digest, path, glyph ids))."""
    if not data.startswith(BUNDLE):
        return data, [], []
    line, _, rest = data[len(BUNDLE):].partition(b"\n")
    head = json.loads(line)
    pictures, at = [], 0
    for name, n, m in head["pictures"]:
        body, at = rest[at:at + n], at + n
        smask = None
        if m >= 0:
            smask, at = rest[at:at + m], at + m
        pictures.append((name, body, smask))
    return rest[at:], pictures, [(d, path, tuple(g)) for d, path, g in head["fonts"]]


def _fill(body: bytes, placeholder: bytes, number: int) -> bytes:
    """A stream object with `placeholder` in its dictionary replaced by an object number."""
    entries, sep, data = body.partition(b"\nstream\n")
    return entries.replace(placeholder, b"%d" % number) + sep + data


class PdfFile:
    """One PDF being written: add objects (their bodies as bytes), then finish() it.

    `chars`: the characters the file's text may use, encoded as encoding_canvas(chars) does;
    text drawn later (drawn, text_run on `doc`) may add more. The font list is object 1, and the
    fonts are written at finish(), with the characters the file has used by then.
    """

    def __init__(self, chars: str, size: tuple[float, float] = (612.0, 792.0), initial_size: float = 10.0):
        self.canvas = encoding_canvas(chars, size, initial_size)
        self.doc = self.canvas._doc
        self._bodies: list[bytes] = [b""]  # object n at index n - 1; the font list's is set at finish()
        self._pictures: dict[str, int] = {}  # picture name -> its object, once per file
        self._picture_list = 0  # the object listing them, when a form draws a picture
        self._fonts: dict[str, tuple[str, set[int]]] = {}  # designer font digest -> (path, glyph ids used)

    def add(self, body: bytes) -> int:
        """Add an object; return its number."""
        self._bodies.append(body)
        return len(self._bodies)

    def add_form(self, formatted: bytes) -> int:
        """Add a face's formatted form (form_body), with the pictures it draws that the file does
        not hold yet and the glyphs of designer fonts it uses; return the form's number."""
        body, pictures, fonts = unbundle(formatted)
        for name, picture, smask in pictures:
            if name not in self._pictures:
                if smask is not None:
                    picture = _fill(picture, b"@SMASK@", self.add(smask))
                self._pictures[name] = self.add(picture)
        for digest, path, gids in fonts:
            self._fonts.setdefault(digest, (path, set()))[1].update(gids)
        if pictures:
            if not self._picture_list:
                self._picture_list = self.reserve()
            body = _fill(body, b"@PICTURES@", self._picture_list)
        return self.add(body)

    def reserve(self) -> int:
        """A number for an object whose body comes later (put)."""
        return self.add(b"")

    def put(self, number: int, body: bytes) -> None:
        self._bodies[number - 1] = body

    def drawn(self, draw: Callable[[Canvas], None]) -> str:
        """The content operators `draw` makes on reportlab's canvas (one page's worth)."""
        c = self.canvas
        draw(c)
        ops = "\n".join(c._code)
        c._startPage()  # an empty page, in the initial graphics state, for the next drawing
        return ops

    def page_tree(self, pages: list[bytes], media: tuple[float, float], resources: int, boxes: str = "") -> int:
        """The page tree of `pages` (each page's content operators), all `media` in size
        and sharing one resource dictionary; returns its object number. `boxes`: page entries
        such as a TrimBox, the same on every page."""
        tree = self.reserve()
        kids = []
        for ops in pages:
            content = self.add(stream("", ops))
            kids.append(self.add(f"<< /Type /Page /Parent {tree} 0 R /MediaBox {array((0, 0, *media))} {boxes}"
                                 f"/Resources {resources} 0 R /Contents {content} 0 R >>".encode("ascii")))
        refs = " ".join(f"{k} 0 R" for k in kids)
        self.put(tree, f"<< /Type /Pages /Count {len(kids)} /Kids [ {refs} ] >>".encode("ascii"))
        return tree

    def resources(self, forms: dict[str, int]) -> int:
        """A resource dictionary with the fonts and the forms (name -> object number)."""
        xobjects = " ".join(f"/{name} {num} 0 R" for name, num in forms.items())
        return self.add(f"<< /Font {FONT_LIST} 0 R /XObject << {xobjects} >> /ProcSet [ /PDF /Text ] >>".encode("ascii"))

    def finish(self, pages: int, info: dict[str, str], catalog: str = "") -> bytes:
        """The file: the fonts added, the catalog (`catalog`: its entries beyond the page tree)
        and the document information (key -> value as written, e.g. a text_string), then the
        cross-reference table and trailer."""
        self._add_fonts()
        if self._picture_list:
            listed = " ".join(f"/{name} {num} 0 R" for name, num in sorted(self._pictures.items()))
            self.put(self._picture_list, f"<< {listed} >>".encode("ascii"))
        root = self.add(f"<< /Type /Catalog /Pages {pages} 0 R /PageMode /UseNone {catalog}>>".encode("latin-1"))
        entries = " ".join(f"/{k} {v}" for k, v in info.items())
        info_num = self.add(f"<< {entries} >>".encode("latin-1"))
        out = bytearray(header(catalog))
        offsets = []
        for n, body in enumerate(self._bodies, 1):
            offsets.append(len(out))
            out += b"%d 0 obj\n%s\nendobj\n" % (n, body)
        ident = hashlib.md5(bytes(out), usedforsecurity=False).hexdigest().upper()
        xref = len(out)
        out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(offsets) + 1)
        out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
        out += (f"trailer\n<< /Size {len(offsets) + 1} /Root {root} 0 R /Info {info_num} 0 R "
                f"/ID [ <{ident}> <{ident}> ] >>\nstartxref\n{xref}\n%%EOF\n").encode("ascii")
        return bytes(out)

    def _add_fonts(self) -> None:
        """The embedded subsets of both faces, as far as the file's text used them, and the font list."""
        listed = []
        for bold in (False, True):
            font = pdfmetrics.getFont(tf.pdf_font(bold))
            state = font.state.pop(self.doc, None)  # reportlab keeps one per document until it is written
            if state is None:
                continue
            for n, subset in enumerate(state.subsets):
                name = f"{state.internalName}+{n}"
                listed.append(f"/{name} {self._add_subset(font, name, n, tuple(subset))} 0 R")
        for digest, (path, gids) in sorted(self._fonts.items()):
            listed.append(f"/{pdf_fonts.resource_name(digest)} {self._add_designer_font(digest, path, tuple(sorted(gids)))} 0 R")
        self.put(FONT_LIST, f"<< {' '.join(listed)} >>".encode("ascii"))

    def _add_designer_font(self, digest: str, path: str, gids: tuple[int, ...]) -> int:
        file_body, descriptor, cid, cmap_body, font = pdf_fonts.objects(digest, path, gids)
        file_num = self.add(file_body)
        descriptor_num = self.add(descriptor.replace(b"@FILE@", b"%d" % file_num))
        cid_num = self.add(cid.replace(b"@DESCRIPTOR@", b"%d" % descriptor_num))
        cmap_num = self.add(cmap_body)
        return self.add(font.replace(b"@CID@", b"%d" % cid_num).replace(b"@CMAP@", b"%d" % cmap_num))

    def _add_subset(self, font, name: str, n: int, subset: tuple[int, ...]) -> int:
        file_body, descriptor, cmap_body, font_dict = subset_objects(font.fontName, name, n, subset)
        file_num = self.add(file_body)
        descriptor_num = self.add(descriptor.replace(b"@FILE@", b"%d" % file_num))
        cmap_num = self.add(cmap_body)
        return self.add(font_dict.replace(b"@DESCRIPTOR@", b"%d" % descriptor_num).replace(b"@CMAP@", b"%d" % cmap_num))


#: A subset as a file names it: (the font's PDF name, the subset's name in the file, its number,
#: the characters it holds, by code)
Subset = tuple[str, str, int, tuple[int, ...]]

#: The objects of the subsets made or remembered in this process (subset_objects), the newest few
_SUBSETS: dict[Subset, tuple[bytes, bytes, bytes, bytes]] = {}
KEPT_SUBSETS = 16


def subset_objects(font_name: str, name: str, n: int, subset: tuple[int, ...]) -> tuple[bytes, bytes, bytes, bytes]:
    """Subset `n` of a TrueType font, known in the file as `name`: its objects (font file,
    descriptor, ToUnicode map, font), made once per process (or remembered: remember_subset).
    The references between them are the placeholders @FILE@, @DESCRIPTOR@ and @CMAP@."""
    made = _SUBSETS.get((font_name, name, n, subset))
    if made is None:
        made = _subset_objects(font_name, name, n, subset)
        remember_subset((font_name, name, n, subset), made)
    return made


def remember_subset(subset: Subset, objects: tuple[bytes, bytes, bytes, bytes]) -> None:
    """Take a subset's objects as subset_objects makes them (the face cache keeps them:
    pipeline/rendered.py, recall_subsets)."""
    _SUBSETS.pop(subset, None)
    _SUBSETS[subset] = objects
    while len(_SUBSETS) > KEPT_SUBSETS:
        del _SUBSETS[next(iter(_SUBSETS))]


def known_subset(subset: Subset) -> tuple[bytes, bytes, bytes, bytes] | None:
    return _SUBSETS.get(subset)


def forget_subsets() -> None:
    """Forget every subset made or remembered (a benchmark's cold build)."""
    _SUBSETS.clear()


def subsets_of(chars: str) -> list[Subset]:
    """The font subsets a file whose text is `chars` (encoding_canvas: a face's form, the faces'
    and the print shops' files) writes, as subset_objects takes them."""
    doc = encoding_canvas(chars)._doc
    out = []
    for bold in (False, True):
        font = pdfmetrics.getFont(tf.pdf_font(bold))
        state = font.state.pop(doc, None)
        if state is not None:
            out += [(font.fontName, f"{state.internalName}+{n}", n, tuple(subset)) for n, subset in enumerate(state.subsets)]
    return out


def _subset_objects(font_name: str, name: str, n: int, subset: tuple[int, ...]) -> tuple[bytes, bytes, bytes, bytes]:
    face = pdfmetrics.getFont(font_name).face
    base = f"{subset_tag(font_name, subset)}+{(face.name + face.subfontNameX).decode('latin-1')}"
    data = face.makeSubset(list(subset))
    file_body = stream(f"/Length1 {len(data)}", data)
    flags = (face.flags & ~(1 << 5)) | (1 << 2)  # symbolic, not non-symbolic: the subset has its own encoding
    descriptor = (f"<< /Type /FontDescriptor /FontName /{base} /Flags {flags} /FontBBox {array(face.bbox)} "
                  f"/ItalicAngle {fp_str(face.italicAngle)} /Ascent {fp_str(face.ascent)} "
                  f"/Descent {fp_str(face.descent)} /CapHeight {fp_str(face.capHeight)} /StemV {fp_str(face.stemV)} "
                  f"/MissingWidth {fp_str(face.defaultWidth)} /FontFile2 @FILE@ 0 R >>").encode("ascii")
    cmap_body = stream("", makeToUnicodeCMap(base, list(subset)).encode("ascii"))
    widths = " ".join(fp_str(face.getCharWidth(code)) for code in subset)
    font_dict = (f"<< /Type /Font /Subtype /TrueType /Name /{name} /BaseFont /{base} /FirstChar 0 /LastChar {len(subset) - 1} "
                 f"/Widths [ {widths} ] /FontDescriptor @DESCRIPTOR@ 0 R /ToUnicode @CMAP@ 0 R >>").encode("ascii")
    return file_body, descriptor, cmap_body, font_dict
