"""Small PNGs of the print sheets' pages, made on first request and kept in OUT/.cache/preview.

A thumbnail is named by the sha256 of its PDF, so a sheet the last build did not change is
never drawn twice, and an old one is never shown for a new PDF. PDFium may not be used by two
threads at once: every use here holds PDFIUM, and the watch loop holds it while a build runs
(a build draws card faces with PDFium in this process too).
"""

from __future__ import annotations

import hashlib
import io
import threading
from pathlib import Path

from generator.files import crosses_link
from generator.products.output.outputs import write_atomic



class _Pdfium:
    """PDFium's lock in this process, held by the server's threads (`acquire`, a thumbnail) and
    the watch loop's builds (`with PDFIUM:`). A build asking for it goes before every thumbnail
    not yet begun, so it waits for one thumbnail at most: a page showing the sheets asks for
    several after every rebuild, and a save made meanwhile waited for all of them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._build_waiting = threading.Event()  #: a build waits for PDFium, or holds it

    def acquire(self, timeout: float) -> bool:
        """For a thumbnail: False at once while a build waits for PDFium or holds it (the page
        asks again after the build, and a request waiting meanwhile held one of the browser's six
        connections), else once another thumbnail is done or after `timeout` seconds."""
        if self._build_waiting.is_set() or not self._lock.acquire(timeout=timeout):
            return False
        if self._build_waiting.is_set():  # a build came while this one waited: it goes first
            self._lock.release()
            return False
        return True

    def release(self) -> None:
        self._lock.release()

    def __enter__(self) -> "_Pdfium":
        self._build_waiting.set()
        try:
            self._lock.acquire()
        except BaseException:
            self._build_waiting.clear()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self._build_waiting.clear()
        self._lock.release()


#: Held by whoever uses PDFium in this process: the server's threads and the watch loop's builds.
PDFIUM = _Pdfium()
#: Width of a thumbnail in pixels.
WIDTH = 240
#: The folder under OUT/.cache; the build prunes only its own areas, so it leaves this one alone.
AREA = "preview"

_hashes: dict[tuple[str, int, int], str] = {}
_hashes_lock = threading.Lock()


class NoSuchPage(ValueError):
    """The PDF has no such page."""


def file_sha256(path: Path) -> str:
    """The file's sha256, remembered while its size and modification time stay the same."""
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    with _hashes_lock:
        if key in _hashes:
            return _hashes[key]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    with _hashes_lock:
        if len(_hashes) > 256:
            _hashes.clear()
        _hashes[key] = digest
    return digest


def cache_name(sha256: str, page: int) -> str:
    return f"{sha256}-{page}-{WIDTH}.png"


def thumbnail(pdf: Path, page: int, cache: Path, wait: float = 60.0, *, root: Path | None = None) -> bytes:
    """PNG bytes of page `page` (from 0) of `pdf`, WIDTH pixels wide, from `cache` (a folder under
    the output folder `root`, kept only where no symlink leads it elsewhere) when there.

    Raises NoSuchPage for a page the PDF does not have, TimeoutError when a build held PDFium
    for longer than `wait` seconds, OSError when the PDF cannot be read.
    """
    if page < 0:
        raise NoSuchPage(page)
    root = cache if root is None else root
    name = cache / cache_name(file_sha256(pdf), page)
    try:
        if not crosses_link(root, name):
            return name.read_bytes()
    except OSError:
        pass
    import pypdfium2  # lazy: PDFium only once a thumbnail is asked for

    if not PDFIUM.acquire(timeout=wait):
        raise TimeoutError("a build is still running")
    try:
        doc = pypdfium2.PdfDocument(pdf.read_bytes())
        try:
            if page >= len(doc):
                raise NoSuchPage(page)
            sheet = doc[page]
            try:
                image = sheet.render(scale=WIDTH / sheet.get_width()).to_pil()
            finally:
                sheet.close()
        finally:
            doc.close()
    finally:
        PDFIUM.release()
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")  # not optimize=True: 5-7 times the time, for 2-5% fewer bytes on 127.0.0.1
    data = buffer.getvalue()
    try:
        if not crosses_link(root, cache):  # a link planted under OUT/.cache is not followed
            write_atomic(name, data)
    except OSError:
        pass  # a thumbnail that cannot be kept is drawn again next time
    return data


def prune(cache: Path, keep: set[str], *, root: Path | None = None) -> None:
    """Remove the thumbnails of PDFs whose sha256 is not in `keep` (the sheets of the build on show).

    Only in a real folder under the output folder `root`: a `cache` reached through a symlink is
    another folder, whose PNGs are not the preview's."""
    if crosses_link(cache if root is None else root, cache) or not cache.is_dir():
        return
    for f in cache.iterdir():
        if f.suffix == ".png" and f.name.split("-", 1)[0] not in keep:
            f.unlink(missing_ok=True)
