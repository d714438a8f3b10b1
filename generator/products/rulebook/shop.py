"""output/rulebook-shop.pdf: the rulebook's pages as a print shop takes them for a saddle-stitched
booklet: single pages in reading order, each rulebook.pdf's page (its trim, booklet.PAGE_MM) on a
sheet BLEED_MM larger on every side, with its TrimBox (the page) and BleedBox (the sheet) set, and
the page count padded with blank pages to a multiple of four, as a booklet folded from sheets has.

The pages are the same print's (no second print), moved by BLEED_MM (PDFium wraps each page's
content in a translation, FPDFPage_TransFormWithClip; its links move with it). The rulebook's
page is white and its text keeps 11 mm and more inside the trim (pdf.MARGINS), so the bleed is
the page's own white ground and nothing of the page's content falls within a shop's cutting
tolerance.
"""

from __future__ import annotations

import ctypes
import io

from generator.products.rulebook.booklet import PAGE_MM, PT_PER_MM, padded

#: Bleed on every side, in millimetres: 3 mm, what print shops ask (0.125 in is 3.175 mm; both
#: are accepted by the shops that ask for either).
BLEED_MM = 3.0
FILE = "rulebook-shop.pdf"


def with_bleed(pdf: bytes) -> bytes:
    """The shop file of the rulebook `pdf` (pages of PAGE_MM, as Chromium rounds them): each page
    on a sheet BLEED_MM larger on every side, its TrimBox the page and its BleedBox (and MediaBox,
    CropBox) the sheet; blank pages of the same size added to make a multiple of four."""
    import pypdfium2 as pdfium  # lazy: only when the rulebook is printed anew
    import pypdfium2.raw as pdfium_c  # lazy: as above

    src = pdfium.PdfDocument(pdf)
    out = pdfium.PdfDocument.new()
    try:
        b = BLEED_MM * PT_PER_MM
        count = len(src)
        w, h = src[0].get_size() if count else (v * PT_PER_MM for v in PAGE_MM)
        out.import_pages(src)
        for at in range(count, padded(count)):
            out.new_page(w, h, index=at)
        shift = pdfium_c.FS_MATRIX(1, 0, 0, 1, b, b)
        for i in range(len(out)):
            page = out[i]
            try:
                pdfium_c.FPDFPage_TransFormWithClip(page.raw, ctypes.byref(shift), None)
                for k in range(pdfium_c.FPDFPage_GetAnnotCount(page.raw)):
                    annot = pdfium_c.FPDFPage_GetAnnot(page.raw, k)
                    try:
                        rect = pdfium_c.FS_RECTF()
                        if pdfium_c.FPDFAnnot_GetRect(annot, ctypes.byref(rect)):
                            moved = pdfium_c.FS_RECTF(rect.left + b, rect.top + b, rect.right + b, rect.bottom + b)
                            pdfium_c.FPDFAnnot_SetRect(annot, ctypes.byref(moved))
                    finally:
                        pdfium_c.FPDFPage_CloseAnnot(annot)
                full = (0.0, 0.0, w + 2 * b, h + 2 * b)
                for set_box in (pdfium_c.FPDFPage_SetMediaBox, pdfium_c.FPDFPage_SetCropBox, pdfium_c.FPDFPage_SetBleedBox):
                    set_box(page.raw, *full)
                pdfium_c.FPDFPage_SetTrimBox(page.raw, b, b, b + w, b + h)
            finally:
                page.close()
        data = io.BytesIO()
        out.save(data, version=17)
        return data.getvalue()
    finally:
        out.close()
        src.close()
