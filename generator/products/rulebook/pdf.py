"""output/rulebook-PAPER.pdf: the rulebook printed by headless Chromium from the same page as
rulebook.html, set in the cards' typeface (DejaVu Sans, the fonts in render/fonts/), one file
per paper of the build.

The page gets one stylesheet more for print: the cards' fonts as @font-face (data: URIs, so the
PDF needs nothing from the machine's fonts) and the paper's @page size. Chromium stamps its PDF
with the time it printed it; those dates are replaced by the build's (stamp.py, the same length,
so the file's offsets hold) and an incremental update gives the document information the
title, the version of county-uppy and the manifest, as every PDF of the build carries. The same
page, paper and Chromium give the same bytes, so the file is cached by exactly those (with this
code and the fonts), in the user's cache folder ($XDG_CACHE_HOME/county-uppy/rulebook-pdf, else
~/.cache/...) rather than the output folder's: printing takes about half a second a paper, and a
build into a new folder (a second checkout, a test) prints the same page again only when it
changed.

One browser prints every paper (chromium.py says how it is found and driven). Without Chromium
(or when it fails) the build goes on without the PDFs and says why.
"""

from __future__ import annotations

import base64
import hashlib
import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from generator import user_cache
from generator.products.output.outputs import Artifact
from generator.products.pipeline.keys import GENERATOR_DIR, code_version, key
from generator.products.pipeline.rendered import stamp
from generator.products.render.stamp import Stamp
from generator.products.rulebook import chromium
from generator.products.rulebook.chromium import INSTALL, Browser, Failed, find_chromium, identity
from generator.products.rulebook.page import rulebook_html

if TYPE_CHECKING:
    from generator.products.pipeline.context import BuildContext

FONTS = GENERATOR_DIR / "products" / "render" / "fonts"
PAGE_SIZE = {"letter": "letter", "a4": "A4"}
AREA = "rulebook-pdf"
KEEP = 16  #: printed files the user's cache keeps (the newest)


def file_name(paper: str) -> str:
    return f"rulebook-{paper}.pdf"


def print_css(paper: str) -> str:
    """The stylesheet added for print: the cards' typeface (code stays monospace) and the paper."""
    faces = []
    for weight, name in ((400, "DejaVuSans.ttf"), (700, "DejaVuSans-Bold.ttf")):
        data = base64.b64encode((FONTS / name).read_bytes()).decode("ascii")
        faces.append(f'@font-face {{ font-family: "County Uppy Cards"; font-weight: {weight}; font-style: normal; '
                     f'src: url(data:font/ttf;base64,{data}) format("truetype"); }}')
    return "\n".join([*faces,
                      'html, body, body *:not(code):not(pre):not(kbd) { font-family: "County Uppy Cards", sans-serif !important; }',
                      f"@page {{ size: {PAGE_SIZE[paper]}; margin: 15mm 14mm; }}"])


#: The page's content policy (rulebook.html.j2), which allows no fonts: the print stylesheet's
#: own fonts (data: URIs) are allowed in the page printed.
_POLICY = re.compile(rb'(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(")')


def for_print(html: bytes, paper: str) -> bytes:
    """The page with the print stylesheet added at the end of its head, and its fonts allowed."""
    style = f"<style>\n{print_css(paper)}\n</style>\n".encode("utf-8")
    html = _POLICY.sub(lambda m: m.group(1) + m.group(2) + b"; font-src data:" + m.group(3), html, count=1)
    at = html.find(b"</head>")
    return html[:at] + style + html[at:] if at >= 0 else style + html


_DATE = re.compile(rb"D:\d{14}(?:[+-]\d\d'\d\d'|Z)")
_TRAILER = re.compile(rb"trailer\s*<<(.*?)>>\s*startxref\s*(\d+)\s*%%EOF\s*$", re.S)


def _pdf_text(value: str) -> bytes:
    if value.isascii():
        return b"(" + value.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode("ascii") + b")"
    return b"<" + ("\ufeff" + value).encode("utf-16-be").hex().upper().encode("ascii") + b">"


def settled(pdf: bytes, title: str, stamp_: Stamp) -> bytes:
    """Chromium's PDF made reproducible and named: its dates replaced by the build's (same
    length), then an incremental update that gives it the build's document information.
    A file whose trailer is not the classic kind is only re-dated."""
    date = stamp_.pdf_date.encode("ascii")
    pdf = _DATE.sub(lambda m: date if len(m.group(0)) == len(date) else m.group(0), pdf)
    found = _TRAILER.search(pdf)
    if found is None:
        return pdf
    entries, prev = found.group(1), int(found.group(2))
    size = re.search(rb"/Size\s+(\d+)", entries)
    root = re.search(rb"/Root\s+(\d+\s+\d+\s+R)", entries)
    if size is None or root is None:
        return pdf
    n = int(size.group(1))
    subject = f"County Uppy rulebook (manifest {stamp_.fingerprint})" if stamp_.fingerprint else "County Uppy rulebook"
    made = stamp_.producer or "county-uppy"
    info = (b"<< /Title " + _pdf_text(title) + b" /Subject " + _pdf_text(subject) + b" /Creator " + _pdf_text(made)
            + b" /Producer " + _pdf_text(f"{made}, printed by Chromium") + b" /CreationDate (" + date
            + b") /ModDate (" + date + b") >>")
    out = bytearray(pdf if pdf.endswith(b"\n") else pdf + b"\n")
    at = len(out)
    out += b"%d 0 obj\n%s\nendobj\n" % (n, info)
    ident = hashlib.md5(bytes(out), usedforsecurity=False).hexdigest().upper().encode("ascii")
    xref = len(out)
    out += b"xref\n%d 1\n%010d 00000 n \n" % (n, at)
    out += (b"trailer\n<< /Size %d /Root %s /Info %d 0 R /Prev %d /ID [ <%s> <%s> ] >>\nstartxref\n%d\n%%%%EOF\n"
            % (n + 1, root.group(1), n, prev, ident, ident, xref))
    return bytes(out)


def cached(k: str) -> bytes | None:
    """The printed file kept under key `k`, if whole (it is written whole or not at all)."""
    data = user_cache.read(AREA, f"{k}.pdf")
    return data if data is not None and data.startswith(b"%PDF-") and data.endswith(b"%%EOF\n") else None


def keep(k: str, data: bytes) -> None:
    """Keep a printed file under key `k`, and only the newest KEEP."""
    user_cache.keep(AREA, f"{k}.pdf", data, KEEP)


def build_rulebook_pdf(ctx: "BuildContext") -> Callable[[], list[Artifact]]:
    """rulebook-PAPER.pdf for every paper of the build: from the cache when the page, the paper,
    this code, the fonts, the stamp and the Chromium are those it was printed from; else printed
    now, every paper by one browser. Without Chromium: no files, and a line saying so."""
    binary, why = find_chromium()
    page = rulebook_html(ctx)
    papers = ctx.papers
    if binary is None:
        def skipped() -> list[Artifact]:
            ctx.notes.append(f"rulebook PDF skipped: {why} ({INSTALL}); rulebook.html is built without it")
            return []
        return skipped
    made_by = stamp(ctx)
    here = code_version(Path(__file__).resolve(), Path(chromium.__file__).resolve(), folder=FONTS, libraries=())
    who = identity(binary)
    # a page made anew where rulebook PDFs were built before is a changed page, almost surely
    # printed: the browser starts now, so its start-up overlaps the page's making
    earlier = any((ctx.out / file_name(paper)).is_file() for paper in papers)
    browser = _started(ctx, binary) if earlier and not page.kept else None

    def finish() -> list[Artifact] | Callable[[], list[Artifact]]:
        """The files, when every paper's is kept; else the papers are handed to the browser,
        which prints them while the other products finish, and the function returned waits."""
        nonlocal browser
        html, _, _ = page()
        keys = {paper: key(AREA, here, who, hashlib.sha256(html).hexdigest(), paper, made_by) for paper in papers}
        kept = {paper: cached(k) for paper, k in keys.items()}
        missing = {paper: for_print(html, paper) for paper, data in kept.items() if data is None}
        if not missing:
            if isinstance(browser, Browser):
                browser.close()
            return files(kept)
        browser = browser or _started(ctx, binary)
        if isinstance(browser, str):
            ctx.notes.append(f"rulebook PDF skipped: {browser}; rulebook.html is built without it")
            return []
        printing = _Printing(browser, missing)

        def printed() -> list[Artifact]:
            done = printing.wait()
            if isinstance(done, str):
                ctx.notes.append(f"rulebook PDF skipped: {done}; rulebook.html is built without it")
                return []
            for paper, data in done.items():
                kept[paper] = settled(data, f"{ctx.deck.params.name} rulebook", made_by)
                keep(keys[paper], kept[paper])
            return files(kept)
        return printed

    def files(kept: dict[str, bytes | None]) -> list[Artifact]:
        return [ctx.target.write(file_name(paper), kept[paper], "pdf", cards=ctx.deck.printed,
                                 pages=_page_count(kept[paper])) for paper in papers]
    return finish


class _Printing:
    """The browser printing pages on a thread of its own (it only talks to the browser over its
    pipes), then stopped; `wait()` gives the PDFs, or why there are none."""

    def __init__(self, browser: Browser, pages: dict[str, bytes]) -> None:
        self._result: dict[str, bytes] | str = "Chromium was not asked to print"
        self._thread = threading.Thread(target=self._run, args=(browser, pages), name="rulebook-pdf", daemon=True)
        self._thread.start()

    def _run(self, browser: Browser, pages: dict[str, bytes]) -> None:
        try:
            self._result = browser.print_pages(pages)
        except Failed as e:
            self._result = str(e)
        finally:
            browser.close()

    def wait(self) -> dict[str, bytes] | str:
        self._thread.join()
        return self._result


def _started(ctx: "BuildContext", binary: str) -> Browser | str:
    """A browser starting, stopped when the build ends if it still runs; or why it cannot start."""
    try:
        browser = Browser(binary)
    except OSError as e:
        return f"Chromium could not be started ({e.strerror or e})"
    ctx.state.pools.append(browser)
    return browser


def _page_count(pdf: bytes) -> int:
    """The pages of the PDF: its page tree's root /Count, read from the bytes (a rebuild that takes
    the file from the cache loads no PDF library); PDFium where the tree is not written plainly."""
    counts = [int(c) for d in re.findall(rb"<<[^<>]*/Type\s*/Pages\b[^<>]*>>", pdf)
              for c in re.findall(rb"/Count\s+(\d+)", d)]
    if counts:
        return max(counts)
    import pypdfium2 as pdfium  # lazy: only for a file whose page tree the pattern above misses

    doc = pdfium.PdfDocument(pdf)
    try:
        return len(doc)
    finally:
        doc.close()
