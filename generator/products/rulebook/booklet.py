"""output/rulebook-booklet.pdf: the rulebook's pages imposed two to a sheet for a folded booklet.

The booklet's pages are rulebook.pdf's (PAGE_MM: half of Letter's width by A5's height, 139.7 mm
by 210 mm, so one page fits half of either paper), padded with blank pages to a multiple of four, and set two to a landscape sheet of SHEET_MM (Letter's height by A4's: the
sheet prints at 100% on A4 and on Letter alike, centred, and folds at the paper's middle).
Printed on both sides, flipped on the short edge, the stack folded in the middle reads in order:
the first sheet holds the last page and the first on its front, the second and the last but one
on its back (`order`). PDFium places each page (FPDF_ImportNPagesToOne), whole and unscaled.
"""

from __future__ import annotations

import hashlib
import io
import re

#: One booklet page: half of Letter's width, A5's height, in millimetres (CSS @page size).
PAGE_MM = (139.7, 210.0)
#: One sheet, landscape: two pages side by side.
SHEET_MM = (2 * PAGE_MM[0], PAGE_MM[1])
FILE = "rulebook-booklet.pdf"
PT_PER_MM = 72 / 25.4


def padded(count: int) -> int:
    """Pages of the booklet: `count` rounded up to a multiple of four."""
    return -(-count // 4) * 4


def order(count: int) -> list[int | None]:
    """The pages of the booklet in the order they are set on the sheets, left then right, front
    then back, each by its index in the rulebook; None for a blank page of the padding."""
    n = padded(count)
    out: list[int | None] = []
    for s in range(n // 4):
        out += [n - 1 - 2 * s, 2 * s, 2 * s + 1, n - 2 - 2 * s]
    return [i if i < count else None for i in out]


def load() -> None:
    """Load PDFium (pypdfium2), which imposes the pages: ahead of a print, while waiting for it."""
    # lazy: only when the rulebook is printed anew
    import pypdfium2  # noqa: F401
    import pypdfium2.raw  # noqa: F401


def impose(pdf: bytes) -> bytes:
    """The booklet: the pages of `pdf` (each PAGE_MM) in booklet order, two to a SHEET_MM sheet."""
    import pypdfium2 as pdfium  # lazy: only when the booklet is printed anew
    import pypdfium2.raw as pdfium_c  # lazy: as above

    src = pdfium.PdfDocument(pdf)
    ordered = pdfium.PdfDocument.new()
    try:
        w, h = (v * PT_PER_MM for v in PAGE_MM)
        pages = order(len(src))
        # in one import, so the pages share their fonts and pictures (one import each would copy them)
        ordered.import_pages(src, pages=[i for i in pages if i is not None])
        for at, i in enumerate(pages):
            if i is None:
                ordered.new_page(w, h, index=at)
        sheets = pdfium_c.FPDF_ImportNPagesToOne(ordered.raw, SHEET_MM[0] * PT_PER_MM, SHEET_MM[1] * PT_PER_MM, 2, 1)
        if not sheets:
            raise RuntimeError("PDFium could not impose the booklet")
        imposed = pdfium.PdfDocument(sheets)
        try:
            out = io.BytesIO()
            imposed.save(out, version=17)
            return out.getvalue()
        finally:
            imposed.close()
    finally:
        ordered.close()
        src.close()


_ID = re.compile(rb"/ID\s*\[\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*\]")


def fixed_ids(pdf: bytes) -> bytes:
    """The file with every /ID array of its trailers (PDFium writes a random one) replaced by a
    digest of the rest of the file, each as long as before, so the offsets hold and the same
    pages give the same bytes."""
    found = list(_ID.finditer(pdf))
    if not found:
        return pdf
    digest = hashlib.md5(_ID.sub(b"", pdf), usedforsecurity=False).hexdigest().upper().encode("ascii")
    out, at = [], 0
    for m in found:
        for g in (1, 2):
            out += [pdf[at:m.start(g)], (digest * 4)[:m.end(g) - m.start(g)]]
            at = m.end(g)
    return b"".join([*out, pdf[at:]])
