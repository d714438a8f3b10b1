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
~/.cache/...) rather than the output folder's: Chromium takes seconds to start, and a build into
a new folder (a second checkout, a test) prints the same page again only when it changed.

Without Chromium (or when it fails) the build goes on without the PDFs and says why. Chromium
is looked for as COUNTY_UPPY_CHROMIUM names it, else as `chromium` (Debian's package),
`chromium-browser` or `google-chrome` on PATH.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from generator.products.output.outputs import Artifact
from generator.products.pipeline.keys import GENERATOR_DIR, code_version, key
from generator.products.pipeline.rendered import stamp
from generator.products.render.stamp import Stamp
from generator.products.rulebook.page import rulebook_html

if TYPE_CHECKING:
    from generator.products.pipeline.context import BuildContext

#: Names the Chromium binary to print with (else it is looked for on PATH).
CHROMIUM_ENV = "COUNTY_UPPY_CHROMIUM"
NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
#: Headless, as root too, with nothing that reaches for the network.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-pdf-header-footer", "--hide-scrollbars")
TIMEOUT = 120  #: seconds a print may take
FONTS = GENERATOR_DIR / "products" / "render" / "fonts"
PAGE_SIZE = {"letter": "letter", "a4": "A4"}
AREA = "rulebook-pdf"
KEEP = 16  #: printed files the user's cache keeps (the newest)
INSTALL = "install Chromium (Debian and Ubuntu: apt-get install chromium) or set COUNTY_UPPY_CHROMIUM to its path"


def file_name(paper: str) -> str:
    return f"rulebook-{paper}.pdf"


def find_chromium() -> tuple[str | None, str]:
    """(the Chromium binary, '') or (None, why there is none)."""
    chosen = os.environ.get(CHROMIUM_ENV, "").strip()
    if chosen:
        if Path(chosen).is_file() and os.access(chosen, os.X_OK):
            return chosen, ""
        return None, f"{CHROMIUM_ENV}={chosen} is not a program"
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found, ""
    return None, "headless Chromium was not found"


def identity(binary: str) -> str:
    """What tells one Chromium from another for the cache: its real file's path, size and time."""
    real = Path(binary).resolve()
    st = real.stat()
    return f"{real}:{st.st_size}:{int(st.st_mtime)}"


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


def for_print(html: bytes, paper: str) -> bytes:
    """The page with the print stylesheet added at the end of its head."""
    style = f"<style>\n{print_css(paper)}\n</style>\n".encode("utf-8")
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


def print_pages(binary: str, pages: dict[str, bytes]) -> dict[str, bytes] | str:
    """Each paper's page (already for_print) printed by Chromium, all at once; or why not."""
    with tempfile.TemporaryDirectory(prefix="county-uppy-print-") as tmp:
        runs = {}
        for paper, html in pages.items():
            folder = Path(tmp) / paper
            folder.mkdir()
            (folder / "rulebook.html").write_bytes(html)
            cmd = [binary, *FLAGS, f"--user-data-dir={folder / 'profile'}", f"--print-to-pdf={folder / 'out.pdf'}",
                   (folder / "rulebook.html").as_uri()]
            runs[paper] = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                           stderr=subprocess.PIPE, start_new_session=True)
        out, problem = {}, ""
        for paper, proc in runs.items():
            try:
                _, err = proc.communicate(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()
                problem = problem or f"Chromium did not finish printing within {TIMEOUT} s"
                continue
            made = Path(tmp) / paper / "out.pdf"
            if proc.returncode != 0 or not made.is_file() or not made.read_bytes().startswith(b"%PDF"):
                last = [ln for ln in err.decode("utf-8", "replace").splitlines() if ln.strip()][-1:] or ["no message"]
                problem = problem or f"Chromium failed (exit status {proc.returncode}: {last[0][:200]})"
                continue
            out[paper] = made.read_bytes()
    return problem or out


def cache_folder() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "county-uppy" / AREA


def cached(k: str) -> bytes | None:
    """The printed file kept under key `k`, if whole (it is written whole or not at all)."""
    try:
        data = (cache_folder() / f"{k}.pdf").read_bytes()
    except OSError:
        return None
    return data if data.startswith(b"%PDF-") and data.endswith(b"%%EOF\n") else None


def keep(k: str, data: bytes) -> None:
    """Keep a printed file under key `k` (written aside, then moved in), and only the newest KEEP.
    A cache folder that cannot be written costs the next build time, nothing else."""
    folder = cache_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".part")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, folder / f"{k}.pdf")
        kept = sorted(folder.glob("*.pdf"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in kept[KEEP:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass


def build_rulebook_pdf(ctx: "BuildContext") -> Callable[[], list[Artifact]]:
    """rulebook-PAPER.pdf for every paper of the build: from the cache when the page, the paper,
    this code, the fonts, the stamp and the Chromium are those it was printed from; else printed
    now. Without Chromium: no files, and a line saying so."""
    binary, why = find_chromium()
    page = rulebook_html(ctx)
    papers = ctx.papers
    if binary is None:
        def skipped() -> list[Artifact]:
            ctx.notes.append(f"rulebook PDF skipped: {why} ({INSTALL}); rulebook.html is built without it")
            return []
        return skipped
    made_by = stamp(ctx)
    here = code_version(Path(__file__).resolve(), folder=FONTS, libraries=())
    who = identity(binary)

    def finish() -> list[Artifact]:
        html, _, _ = page()
        keys = {paper: key(AREA, here, who, hashlib.sha256(html).hexdigest(), paper, made_by) for paper in papers}
        kept = {paper: cached(k) for paper, k in keys.items()}
        missing = {paper: for_print(html, paper) for paper, data in kept.items() if data is None}
        if missing:
            printed = print_pages(binary, missing)
            if isinstance(printed, str):
                ctx.notes.append(f"rulebook PDF skipped: {printed}; rulebook.html is built without it")
                return []
            for paper, data in printed.items():
                kept[paper] = settled(data, f"{ctx.deck.params.name} rulebook", made_by)
                keep(keys[paper], kept[paper])
        return [ctx.target.write(file_name(paper), kept[paper], "pdf", cards=ctx.deck.printed,
                                 pages=_page_count(kept[paper])) for paper in papers]
    return finish


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
