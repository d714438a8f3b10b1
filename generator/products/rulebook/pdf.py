"""output/rulebook.pdf: the rulebook printed by headless Chromium from the same page as
rulebook.html, set in the cards' typeface (DejaVu Sans, the fonts in render/fonts/) and its code
in DejaVu Sans Mono (shipped in fonts/ here), or the deck's own fonts (look_css.py). One file for
both papers: its pages are half of Letter's width by A5's height, a game rulebook's, so it prints
at 100% on either, and the same pages imposed two to a sheet are rulebook-booklet.pdf (booklet.py)
and, each on a sheet with a bleed for a print shop, rulebook-shop.pdf (shop.py).

The page gets one stylesheet more for print: those fonts as @font-face (data: URIs, cut down by
print_fonts.py, so the PDF takes no font from the machine: a test prints it where fontconfig
knows only a decoy font and compares the bytes), the @page size and each page's number in its
bottom margin (PAGE_NUMBER). Chromium stamps its PDF with
the time it printed it, and names its table headers by numbers of the page's nodes that now and
then come out one higher; the dates are replaced by the build's (stamp.py) and the names
numbered from 1, each the same length, so the file's offsets hold, and an incremental update
gives the document information the title, the version of county-uppy and the manifest, as every
PDF of the build carries. The same page and Chromium give the same bytes, so the file is cached
by exactly those (with this code and the fonts it embeds), in the user's cache folder
($XDG_CACHE_HOME/county-uppy/rulebook-pdf, else ~/.cache/...) rather than the output folder's:
printing takes about a third of a second, and a build into a new folder (a second checkout, a
test) prints the same page again only when it changed.

The printing begins as the product starts, on a thread that waits for the page (_Printer), so
the browser prints while the build makes its other products (chromium.py says how it is found
and driven). The browser itself is started at once unless the user's cache holds the print of
this very page (known before the page is made: INDEX names each print by the page's cache key),
so its start-up overlaps the making of the page; the printing thread meanwhile opens the print's tab
and makes the print stylesheet, so that once the page is made only its load and print are left,
and the build loads PDFium and finishes its other products while the browser prints. The card
pictures are not printed by Chromium but put into its PDF as they are (print_pictures.py,
`printed`). Without Chromium (or when it fails) the build goes on without the PDF and says why.
"""

from __future__ import annotations

import base64
import hashlib
import re
import threading
from html import unescape
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from generator import user_cache
from generator.products.output.outputs import Artifact
from generator.products.pipeline.keys import code_version, key
from generator.products.pipeline import rasters
from generator.products.pipeline.rendered import stamp
from generator.products.render.stamp import Stamp
from generator.products.rulebook import booklet, chromium, print_fonts, print_pictures, shop
from generator.products.rulebook.chromium import INSTALL, Browser, Failed, Tab, find_chromium, identity
from generator.products.rulebook.look_css import DECK_FAMILY, deck_fonts
from generator.products.rulebook.page import page_key, rulebook_html
from generator.products.rulebook.print_fonts import PRINT_FILES, WHOLE, covers

if TYPE_CHECKING:
    from generator.products.pipeline.context import BuildContext

#: The page: a game rulebook's, half of Letter's width by A5's height (booklet.PAGE_MM), so the
#: one file prints at 100% on A4 and Letter alike and its pages impose, unscaled, two to a sheet
#: for the folded booklet; the margins (12 mm at the top, 14 mm at the foot where the page number
#: stands, 11 mm at the sides, the fold's as the outer one) are
#: inside what every home printer leaves.
PAGE_SIZE = f"{booklet.PAGE_MM[0]}mm {booklet.PAGE_MM[1]}mm"
MARGINS = "12mm 11mm 14mm"
FILE = "rulebook.pdf"
AREA = "rulebook-pdf"
KEEP = 16  #: printed files the user's cache keeps (the newest)
#: The user cache's area that names, by a page's cache key (and everything else the print is
#: keyed by), the key of its printed file: a build knows whether it will print before the page is made.
INDEX = "rulebook-pdf-index"
KEEP_INDEX = 64
#: Seconds a stopping build waits for the printing thread to let go of the browser's pipes.
STOP_WAIT = 10


#: The print's font family of each face (print_fonts.WHOLE): the cards' typeface, and monospace for code.
FAMILIES = {"text": "County Uppy Cards", "code": "County Uppy Code"}


def print_css(fonts: dict[tuple[str, bool], Path], deck_fonts: bool = False) -> str:
    """The stylesheet added for print: the text in the cards' typeface and code in monospace (a
    character the monospace font lacks in the cards' typeface), from the font files `fonts`
    ((face, bold) -> file), the page size and the page numbers. With `deck_fonts` (the page declares the deck's own, look_css.DECK_FAMILY) the text
    and the page numbers are in the deck's fonts, a glyph they lack in the cards' typeface."""
    faces = [_font_face(face, bold, path) for (face, bold), path in fonts.items()]
    text, code, mono = f'"{FAMILIES["text"]}"', f'"{FAMILIES["code"]}"', ":is(code, pre, kbd, samp)"
    if deck_fonts:
        text = f'"{DECK_FAMILY}", {text}'
    number = PAGE_NUMBER.replace(repr(FAMILIES["text"]), text)
    return "\n".join([*faces,
                      f"html, body, body * {{ font-family: {text}, sans-serif !important; }}",
                      f"body {mono}, body {mono} * {{ font-family: {code}, {text}, monospace !important; }}",
                      f"@page {{ size: {PAGE_SIZE}; margin: {MARGINS}; {number} }}"])


def _font_face(face: str, bold: bool, path: Path) -> str:
    """The @font-face rule of one font file, its data inline; made once per process and file (by
    its path, size and time: the printer makes the usual ones while the page is made)."""
    st = path.stat()
    k = (face, bold, str(path), st.st_size, st.st_mtime_ns)
    rule = _FONT_FACES.get(k)
    if rule is None:
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        rule = _FONT_FACES[k] = (f'@font-face {{ font-family: "{FAMILIES[face]}"; font-weight: {700 if bold else 400}; '
                                 f'font-style: normal; src: url(data:font/ttf;base64,{data}) format("truetype"); }}')
    return rule


_FONT_FACES: dict[tuple, str] = {}


#: Each page's number at the foot of its margin, so loose printed pages go back in order: in the
#: cards' typeface, at the margin's top (8 mm and more from the paper's edge: every home printer prints there).
PAGE_NUMBER = (f'@bottom-center {{ content: "page " counter(page) " of " counter(pages); font: 8pt {FAMILIES["text"]!r}, '
               'sans-serif; color: #555; vertical-align: top; padding-top: 1mm; }')


def fonts_for(html: bytes) -> dict[tuple[str, bool], Path]:
    """The font files to print `html` with: the fonts cut down to the characters of the scripts a
    rulebook is written in (print_fonts.py), a fifth of Chromium's work less, when the page has
    no other character; else the whole fonts."""
    text = unescape(html.decode("utf-8", "replace"))
    return PRINT_FILES if covers(text) else WHOLE


#: The page's content policy (rulebook.html.j2), which allows no fonts: the print stylesheet's
#: own fonts (data: URIs) are allowed in the page printed.
_POLICY = re.compile(rb'(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(")')


def for_print(html: bytes, deck_fonts: bool = False) -> bytes:
    """The page with the print stylesheet added at the end of its head, and its fonts
    allowed (`deck_fonts`: the page declares the deck's own fonts, look_css.py)."""
    style = f"<style>\n{print_css(fonts_for(html), deck_fonts)}\n</style>\n".encode("utf-8")
    html = _POLICY.sub(lambda m: m.group(0) if b"font-src" in m.group(2) else
                       m.group(1) + m.group(2) + b"; font-src data:" + m.group(3), html, count=1)
    at = html.find(b"</head>")
    return html[:at] + style + html[at:] if at >= 0 else style + html


_DATE = re.compile(rb"D:\d{14}(?:[+-]\d\d'\d\d'|Z)")
#: The names of the tagged PDF's table headers (/ID, /Headers, the IDTree): Chromium's numbers of
#: the page's nodes, which now and then come out one higher for the same page (1 print in 14).
_NODE = re.compile(rb"\(node(\d+)\)")
_TRAILER = re.compile(rb"trailer\s*<<(.*?)>>\s*startxref\s*(\d+)\s*%%EOF\s*$", re.S)


def _pdf_text(value: str) -> bytes:
    if value.isascii():
        return b"(" + value.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode("ascii") + b")"
    return b"<" + ("\ufeff" + value).encode("utf-16-be").hex().upper().encode("ascii") + b">"


def settled(pdf: bytes, title: str, stamp_: Stamp) -> bytes:
    """Chromium's PDF made reproducible and named: its dates replaced by the build's and its
    node names numbered in their order from 1 (both the same length, so the offsets hold), then
    an incremental update that gives it the build's document information. A file whose trailer
    is not the classic kind is only re-dated and renumbered."""
    date = stamp_.pdf_date.encode("ascii")
    pdf = _DATE.sub(lambda m: date if len(m.group(0)) == len(date) else m.group(0), pdf)
    pdf = _renumbered(pdf)
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


def _renumbered(pdf: bytes) -> bytes:
    """The PDF with its node names numbered 1, 2, ... in the order of Chromium's numbers (so its
    IDTree stays sorted), each as wide as before; as it is if a number would not fit."""
    found = _NODE.findall(pdf)
    order = {n: k for k, n in enumerate(sorted({int(n) for n in found}), 1)}
    if not found or len(str(len(order))) > min(len(n) for n in found):
        return pdf
    return _NODE.sub(lambda m: b"(node%0*d)" % (len(m.group(1)), order[int(m.group(1))]), pdf)


#: The files of one print, in the order the cache entry and the build hand them on.
FILES = (FILE, booklet.FILE, shop.FILE)


def pack(files: tuple[bytes, ...]) -> bytes:
    """The rulebook and the files made from it (FILES) as one cache entry: the others first, then
    the rulebook, their lengths on a first line (the entry ends with the rulebook's %%EOF, and
    each file must start with %PDF-, so a cut entry is never whole)."""
    head = b" ".join(b"%d" % len(f) for f in files[1:])
    return head + b"\n" + b"".join(files[1:]) + files[0]


def unpack(data: bytes) -> tuple[bytes, ...] | None:
    """pack's files again; None when the entry is not as pack writes it."""
    head, _, rest = data.partition(b"\n")
    sizes = [int(n) for n in head.split() if n.isdigit()]
    if len(sizes) != len(FILES) - 1 or len(head.split()) != len(sizes) or sum(sizes) >= len(rest):
        return None
    files, at = [], 0
    for n in sizes:
        files.append(rest[at:at + n])
        at += n
    files.insert(0, rest[at:])
    return tuple(files) if all(f[:5] == b"%PDF-" for f in files) else None


def cached(k: str) -> tuple[bytes, ...] | None:
    """The printed files kept under key `k`, if whole (they are written whole or not at all)."""
    data = user_cache.read(AREA, f"{k}.pdf")
    if data is None or not data.endswith(b"%%EOF\n"):
        return None
    return unpack(data)


def keep(k: str, data: bytes) -> None:
    """Keep a printed file under key `k`, and only the newest KEEP."""
    user_cache.keep(AREA, f"{k}.pdf", data, KEEP)


def build_rulebook_pdf(ctx: "BuildContext") -> Callable[[], list[Artifact]]:
    """rulebook.pdf: from the cache when the page, this code, the fonts, the stamp and the Chromium
    are those it was printed from; else printed by one browser. The printing begins now, on a
    thread that waits for the page, so the browser prints while the other products are made;
    with the browser `watch` keeps for its session (chromium.keep), no start-up at all.
    Without Chromium: no file, and a line saying so."""
    binary, why = find_chromium()
    page = rulebook_html(ctx)
    if binary is None:
        def skipped() -> list[Artifact]:
            ctx.notes.append(f"rulebook PDF skipped: {why} ({INSTALL}); rulebook.html is built without it")
            return []
        return skipped
    made_by = stamp(ctx)
    keys = _print_keys(binary)
    title = f"{ctx.deck.params.name} rulebook"

    def print_key(html: bytes) -> str:
        return key(AREA, *keys, hashlib.sha256(html).hexdigest(), made_by)

    early = _index_key(keys, page.key, made_by)
    start_now = _prints(early)
    started = ctx.state.shared.pop(EARLY, None)
    printer = _Printer(lambda: page()[0], print_key, binary, title, made_by, start_now, bool(deck_fonts(ctx.deck)),
                       early=early, started=started.take() if isinstance(started, _Early) else None)
    ctx.state.pools.append(printer)
    if start_now and rasters.few_to_draw(ctx):
        # a rebuild of a face or two that prints the rulebook again: the page, then its print, are
        # the build's longest path, and the page's worker, the faces' worker and the browser
        # starting are already more than two cores; the other products are made once the page is
        # (they are done long before the print). What making it raised, the rulebook product reports.
        try:
            page()
        except Exception:  # noqa: BLE001 -- see above
            pass

    def finish() -> list[Artifact] | Callable[[], list[Artifact]]:
        if printer.printing():  # waited for after the other products' finishes, which are made meanwhile
            return finish_printed
        return finish_printed()

    def finish_printed() -> list[Artifact]:
        if printer.printing():  # nothing else to do here until the print is in: what imposes it, loaded meanwhile
            booklet.load()
        done = printer.wait()
        if isinstance(done, str):
            ctx.notes.append(f"rulebook PDF skipped: {done}; rulebook.html is built without it")
            return []
        return [ctx.target.write(name, data, "pdf", cards=ctx.deck.printed, pages=_page_count(data))
                for name, data in zip(FILES, done)]
    return finish


def _print_keys(binary: str) -> tuple[str, str, str]:
    """What a print is keyed by besides the page and the stamp: this code and the fonts, the code
    that imposes its pages, the Chromium."""
    here = code_version(Path(__file__).resolve(), Path(chromium.__file__).resolve(), Path(print_fonts.__file__).resolve(),
                        Path(print_pictures.__file__).resolve(), *WHOLE.values(), folder=print_fonts.HERE, libraries=())
    made_from = code_version(Path(booklet.__file__).resolve(), Path(shop.__file__).resolve(), folder=print_fonts.HERE,
                             libraries=("pypdfium2",))
    return here, made_from, identity(binary)


def _index_key(keys: tuple[str, str, str], page_key_: str, made_by: Stamp) -> str:
    """The print's key (`keys`: _print_keys') but by the page's cache key in place of the page:
    what the index names."""
    return key(AREA, *keys, page_key_, made_by)


def _prints(early: str) -> bool:
    """Will the page the index names `early` be printed (a page not seen before, or a print no
    longer kept), rather than taken from the user's cache?"""
    known = user_cache.read(INDEX, early)
    return known is None or not (user_cache.folder(AREA) / f"{known.decode('ascii', 'replace')}.pdf").is_file()


#: The build's shared entry of a browser start_early() started.
EARLY = "rulebook-pdf-browser"


def start_early(ctx: "BuildContext") -> None:
    """The product's first step, as the build starts (before the card images' workers are
    started, and their fonts loaded to be inherited): the browser is started now if this page
    will be printed (known by the page's cache key, page.page_key), so its start-up overlaps the
    build's own and its tab is open by the time the page is made (the print's longest path after
    a one-card edit). build_rulebook_pdf's printer takes it; a build that stops first stops it."""
    binary, _ = find_chromium()
    try:
        if binary is None or not _prints(_index_key(_print_keys(binary), page_key(ctx), stamp(ctx))):
            return
        started = _Early(chromium.browser(binary))
    except Exception:  # noqa: BLE001 -- a face that cannot be drawn, a browser that cannot start: each
        return  # fails (or is said) where the build meets it without this step, naming the card or the reason
    ctx.state.shared[EARLY] = started
    ctx.state.pools.append(started)


class _Early:
    """A browser start_early() started, until the printer takes it (or the build stops it)."""

    def __init__(self, browser: Browser) -> None:
        self._browser: Browser | None = browser
        self._lock = threading.Lock()

    def take(self) -> Browser | None:
        with self._lock:
            browser, self._browser = self._browser, None
        return browser

    def abort(self) -> None:
        browser = self.take()
        if browser is not None and not browser.kept:
            browser.close()


class _Printer:
    """The rulebook's PDF made on a thread of its own: it waits for the page, takes the printed
    file from the cache or has the browser print it (the browser only talks over its pipes, so
    it prints while the build's main thread makes the other products), then stops the browser
    (the one `watch` keeps, chromium.keep, stays running). `wait()` gives the files (FILES), or
    why there are none, or raises what making the page raised (the rulebook product reports that
    first). `abort()` (a failed build) stops the browser, and a
    browser not yet started is then never started."""

    def __init__(self, html: Callable[[], bytes], print_key: Callable[[bytes], str], binary: str, title: str,
                 made_by: Stamp, start_now: bool, deck_fonts: bool = False, early: str = "",
                 started: Browser | None = None) -> None:
        self._lock = threading.Lock()
        self._aborted = False
        self._browser: Browser | str | None = started  #: start_early()'s, if it started one
        self._binary = binary
        self._deck_fonts = deck_fonts
        self._early = early  #: the index's name for this print (build_rulebook_pdf)
        #: the rulebook and the files made from it (FILES), or why there are none
        self._result: tuple[bytes, ...] | str = "Chromium was not asked to print"
        self._error: BaseException | None = None
        #: set once the result (or error) is in: the browser is then stopped while the build goes on
        self._done = threading.Event()
        #: set as the browser is given the page to print (not when the print is taken from the cache)
        self._printing = threading.Event()
        if start_now:
            self._start()
        self._thread = threading.Thread(target=self._run, args=(html, print_key, title, made_by), name="rulebook-pdf",
                                        daemon=True)
        self._thread.start()

    def _start(self) -> Browser | str:
        with self._lock:
            if self._browser is None:
                try:
                    self._browser = "the build stopped" if self._aborted else chromium.browser(self._binary)
                except OSError as e:
                    self._browser = f"Chromium could not be started ({e.strerror or e})"
            return self._browser

    def _run(self, html: Callable[[], bytes], print_key: Callable[[bytes], str], title: str, made_by: Stamp) -> None:
        tab: Tab | None = None
        try:
            if self._browser is not None:  # started: what the print needs besides the page, while the page is made
                print_css(PRINT_FILES, self._deck_fonts)  # the print stylesheet of a page in the usual scripts
                tab = self._open_tab()
            page = html()
            k = print_key(page)
            kept = cached(k)
            if kept is not None:
                self._result = kept
                self._index(k)
                if tab is not None and isinstance(self._browser, Browser):
                    self._browser.close_tab(tab)
                return
            browser = self._start()
            if isinstance(browser, str):
                self._result = browser
                return
            self._printing.set()
            try:
                printed = self._print(browser, page, tab)
            except Failed as e:
                self._result = str(e)
                return
            # the booklet and the shop's file are the same pages imposed (PDFium), not more prints
            self._result = (settled(printed, title, made_by),
                            booklet.fixed_ids(settled(booklet.impose(printed), f"{title} (booklet)", made_by)),
                            booklet.fixed_ids(settled(shop.with_bleed(printed), f"{title} (for a print shop)", made_by)))
            keep(k, pack(self._result))
            self._index(k)
        except BaseException as e:  # noqa: BLE001 -- handed to the build's main thread by wait()
            self._error = e
        finally:
            self._done.set()
            self.abort()

    def _open_tab(self) -> Tab | None:
        """The browser's tab for the print, opened now (None: the print opens one, and says why
        when it cannot)."""
        browser = self._browser
        if not isinstance(browser, Browser):
            return None
        try:
            return browser.open_tab()
        except Failed:
            return None

    def _print(self, browser: Browser, page: bytes, tab: Tab | None = None) -> bytes:
        """The page printed (in `tab` where one was opened); a kept browser (chromium.keep:
        `watch`'s) found crashed is started again once, so a crash costs one start-up, not the PDF."""
        page = for_print(page, self._deck_fonts)
        try:
            return printed(browser, page, tab)
        except Failed:
            if not (browser.kept and browser.ended()):
                raise
        with self._lock:
            self._browser = None
        again = self._start()
        if isinstance(again, str):
            raise Failed(again)
        return printed(again, page)

    def _index(self, k: str) -> None:
        """Name print `k` as this page's in the index, so the next build of it starts no browser."""
        if self._early and user_cache.read(INDEX, self._early) != k.encode("ascii"):
            user_cache.keep(INDEX, self._early, k.encode("ascii"), KEEP_INDEX)

    def printing(self) -> bool:
        """Is the browser printing the page now (neither done nor taking the print from the cache)?"""
        return self._printing.is_set() and not self._done.is_set()

    def wait(self) -> tuple[bytes, ...] | str:
        """The files or why there are none, as soon as they are made: the browser may still be
        stopping (the build's end, stop_workers, waits for that)."""
        self._done.wait()
        if self._error is not None:
            raise self._error
        return self._result

    def abort(self) -> None:
        with self._lock:
            self._aborted = True
            browser = self._browser
        if not isinstance(browser, Browser):
            return
        if browser.kept and self._done.is_set():
            return  # done with it: it stays running for the next build's print
        browser.kill()  # the thread's wait for an answer ends
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=STOP_WAIT)
            if self._thread.is_alive():
                return  # its pipes stay open rather than be closed under a thread still reading them
        browser.close()


def printed(browser: Browser, page: bytes, tab: Tab | None = None) -> bytes:
    """The page (for_print's) printed by `browser` (in `tab` where one was opened), its card
    pictures put in as they are (print_pictures): printed with stand-ins, and printed as it is
    only when a stand-in is not found in the print; Failed says why it could not be printed."""
    standing_in, pictures = print_pictures.stand_ins(page)
    first = browser.print_pages({"rulebook": standing_in}, {"rulebook": tab} if tab is not None else None)["rulebook"]
    restored = pictures.restore(first)
    return restored if restored is not None else browser.print_pages({"rulebook": page})["rulebook"]


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
