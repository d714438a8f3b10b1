"""Headless Chromium, found and driven over its DevTools pipe, to print pages to PDF.

One browser prints every paper's page, each in its own tab at the same time, so a build pays
for one start-up. The browser is started as soon as a build knows the rulebook will be printed
(`Browser.start`), while the page is still being made, and is talked to only when the page is
ready (`print_pages`). `watch` keeps one browser for its whole session (`keep()`: each
rebuild's print skips the start-up; one found crashed is started again), closing each print's
tab, and stops it when it stops. It speaks the DevTools protocol over two pipes (`--remote-debugging-pipe`:
it reads commands on its descriptor 3 and writes answers on 4, each a JSON text ended by a NUL
byte), so nothing listens on a port and nothing else can reach it.

Chromium is looked for as COUNTY_UPPY_CHROMIUM names it, else on PATH: Debian's headless shell
first (`chromium-headless-shell`, the same engine without a desktop browser, which starts in half
the time), then the full browser (`chromium`, `chromium-browser`, `google-chrome`). The browser
tests find it the same way (tests/browser.py). The full browser also lays text out by the
hinting style the machine's fontconfig sets (Debian's slight against fontconfig's own full moves
letters by a fraction of a point); the headless shell does not, so its PDF is the same on every
machine.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import signal
import tempfile
import threading
import time
from pathlib import Path

#: Names the Chromium binary to print with (else it is looked for on PATH).
CHROMIUM_ENV = "COUNTY_UPPY_CHROMIUM"
NAMES = ("chromium-headless-shell", "chrome-headless-shell", "chromium", "chromium-browser", "google-chrome",
         "google-chrome-stable")
#: Headless, as root too, with nothing that reaches for the network; glyphs placed at their
#: font's own advances (`--font-render-hinting=none`: with hinting, Chromium rounds each glyph's
#: advance to the hinted pixel grid and the PDF keeps the rounding, 40/1000 em on average and
#: +88/1000 em after every "t" in DejaVu Sans, so print showed "t he")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--hide-scrollbars", "--font-render-hinting=none",
         "--remote-debugging-pipe")
TIMEOUT = 120  #: seconds a print may take, start to finish
#: How each page is printed: the page's own @page size, its backgrounds, no header or footer.
PRINT = {"preferCSSPageSize": True, "printBackground": True, "displayHeaderFooter": False}
#: Once the page is printed: the families of the fonts that failed to load.
FONTS_FAILED = "[...document.fonts].filter(f => f.status === 'error').map(f => f.family)"
INSTALL = ("install Chromium (Debian and Ubuntu: apt-get install chromium-headless-shell, or chromium) "
           "or set COUNTY_UPPY_CHROMIUM to its path")


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
    """What tells one Chromium from another for a cache: its real file's path, size and time."""
    real = Path(binary).resolve()
    st = real.stat()
    return f"{real}:{st.st_size}:{int(st.st_mtime)}"


#: A tab of the browser: its target and the session attached to it (Browser.open_tab).
Tab = tuple[str, str]


class Failed(Exception):
    """The browser did not print: the message says why."""


class Browser:
    """A headless Chromium started now and spoken to over its pipes; `close()` ends it. `kept`:
    lent by Kept for a series of builds, to be left running after a print."""

    def __init__(self, binary: str, kept: bool = False) -> None:
        self.binary, self.kept = binary, kept
        self.folder = Path(tempfile.mkdtemp(prefix="county-uppy-print-"))
        to_browser, self._commands = os.pipe()
        self._answers, from_browser = os.pipe()
        self._log = self.folder / "chromium.log"
        log = os.open(self._log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        # the browser's ends are placed on its descriptors 3 and 4 by posix_spawn (no code runs
        # between fork and exec, so threads of this process cannot deadlock it); they are first
        # moved above 9, so placing one cannot overwrite the other
        ends = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (to_browser, from_browser, log)]
        for fd in (to_browser, from_browser, log):
            os.close(fd)
        argv = [binary, *FLAGS, f"--user-data-dir={self.folder / 'profile'}", "about:blank"]
        try:
            self.pid = os.posix_spawn(binary, argv, os.environ, setsid=True, file_actions=[
                (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                (os.POSIX_SPAWN_DUP2, ends[2], 1), (os.POSIX_SPAWN_DUP2, ends[2], 2),
                (os.POSIX_SPAWN_DUP2, ends[0], 3), (os.POSIX_SPAWN_DUP2, ends[1], 4)])
        except OSError:
            for fd in (self._commands, self._answers):
                os.close(fd)
            shutil.rmtree(self.folder, ignore_errors=True)
            raise
        finally:
            for fd in ends:
                os.close(fd)
        self.status: int | None = None
        self._closing = threading.Lock()
        self._reaping = threading.Lock()
        self._closed = False
        self._buffer = b""
        self._sent = 0
        self._events: list[dict] = []
        self._answers_kept: dict[int, dict] = {}

    def _send(self, method: str, params: dict | None = None, session: str | None = None) -> int:
        self._sent += 1
        message: dict = {"id": self._sent, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        data = json.dumps(message).encode("utf-8") + b"\0"
        try:
            while data:
                data = data[os.write(self._commands, data):]
        except OSError as e:
            raise Failed(f"Chromium stopped listening ({self._why()})") from e
        return self._sent

    def _next(self, deadline: float) -> dict:
        """The browser's next message, waiting no later than `deadline`."""
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            try:
                if left <= 0 or not select.select([self._answers], [], [], left)[0]:
                    raise Failed(f"Chromium did not finish printing within {TIMEOUT} s")
                chunk = os.read(self._answers, 1 << 20)
            except (OSError, ValueError) as e:  # its pipe closed here: the browser was stopped (close())
                raise Failed("Chromium was stopped") from e
            if not chunk:
                self._poll(wait=2)  # its pipe closed as it ended: its exit status is a moment away
                raise Failed(f"Chromium quit ({self._why()})")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def _answer(self, number: int, deadline: float) -> dict:
        """The result of command `number`; what arrives first (events, other commands' answers)
        is kept for its own reader."""
        while number not in self._answers_kept:
            message = self._next(deadline)
            if "id" in message:
                self._answers_kept[message["id"]] = message
            elif "method" in message:
                self._events.append(message)
        message = self._answers_kept.pop(number)
        if "error" in message:
            raise Failed(f"Chromium refused a command: {message['error'].get('message', message['error'])}")
        return message.get("result", {})

    def _event(self, method: str, session: str, deadline: float) -> None:
        """Wait for event `method` of `session` (or find it among those already come)."""
        for i, event in enumerate(self._events):
            if event["method"] == method and event.get("sessionId") == session:
                del self._events[i]
                return
        while True:
            message = self._next(deadline)
            if message.get("method") == method and message.get("sessionId") == session:
                return
            if "id" in message:
                self._answers_kept[message["id"]] = message
            elif "method" in message:
                self._events.append(message)

    def open_tab(self) -> Tab:
        """A new blank tab, ready to be given a page to print (print_pages' `tabs`): opened while
        the page is still being made, its round trips to the browser (each a wait for this
        process's other threads to let this one run) are off the print's path. Waits for the
        browser to have started; Failed says why not."""
        deadline = time.monotonic() + TIMEOUT
        target = self._answer(self._send("Target.createTarget", {"url": "about:blank", "newWindow": True}), deadline)["targetId"]
        try:
            session = self._answer(self._send("Target.attachToTarget", {"targetId": target, "flatten": True}),
                                   deadline)["sessionId"]
            self._answer(self._send("Page.enable", {}, session), deadline)
        except Failed:
            self.close_tab((target, ""))
            raise
        return target, session

    def close_tab(self, tab: Tab) -> None:
        """Close a tab open_tab() opened that printed nothing (a kept browser's: a session's
        browser does not grow; a browser stopped after the build needs none of this)."""
        if self.kept:
            self._close_tabs([tab[0]])

    def print_pages(self, pages: dict[str, bytes], tabs: dict[str, Tab] | None = None) -> dict[str, bytes]:
        """Each page (an HTML document, by name) printed to PDF, all in tabs at once (`tabs`:
        those open_tab() opened for them, by name; the others are opened now); Failed says why not."""
        deadline = time.monotonic() + TIMEOUT
        self._events.clear()  # a kept browser's: what came after its last print is no one's
        self._answers_kept.clear()
        targets: list[str] = []
        try:
            return self._print(pages, deadline, targets, dict(tabs or {}))
        finally:
            if self.kept and targets:  # its tabs closed, so a session's browser does not grow
                self._close_tabs(targets)

    def _close_tabs(self, targets: list[str]) -> None:
        try:
            deadline = time.monotonic() + 5
            for number in [self._send("Target.closeTarget", {"targetId": t}) for t in targets]:
                self._answer(number, deadline)
        except Failed:
            self.kill()  # a browser that cannot close a tab is not lent again (Kept.lend starts another)

    def _print(self, pages: dict[str, bytes], deadline: float, targets: list[str],
               tabs: dict[str, Tab]) -> dict[str, bytes]:
        sessions = {}
        for name, html in pages.items():
            path = self.folder / f"{name}.html"
            path.write_bytes(html)
            target, session = tabs.pop(name) if name in tabs else self.open_tab()
            targets.append(target)
            self._answer(self._send("Page.navigate", {"url": path.as_uri()}, session), deadline)
            sessions[name] = session
        for target, _ in tabs.values():  # opened for no page printed
            targets.append(target)
        for session in sessions.values():
            self._event("Page.loadEventFired", session, deadline)
        asked = {name: self._send("Page.printToPDF", PRINT, session) for name, session in sessions.items()}
        printed = {name: base64.b64decode(self._answer(number, deadline)["data"]) for name, number in asked.items()}
        fonts = {name: self._send("Runtime.evaluate", {"expression": FONTS_FAILED, "returnByValue": True}, session)
                 for name, session in sessions.items()}
        for name, number in fonts.items():
            failed = self._answer(number, deadline).get("result", {}).get("value")
            if failed:
                raise Failed(f"the fonts of {name} did not load ({', '.join(sorted(set(failed)))})")
        for name, data in printed.items():
            if not data.startswith(b"%PDF"):
                raise Failed(f"Chromium's print of {name} is not a PDF")
        return printed

    def ended(self) -> bool:
        """Whether the browser has stopped (crashed, killed, closed)."""
        return self._closed or self._poll() is not None

    def _poll(self, wait: float = 0) -> int | None:
        """The browser's exit status once it has ended (waiting up to `wait` seconds), else None.
        Reaped once, under a lock: the printing thread and a stopping build may both ask."""
        deadline = time.monotonic() + wait
        while True:
            with self._reaping:
                if self.status is not None:
                    break
                try:
                    pid, status = os.waitpid(self.pid, os.WNOHANG)
                except ChildProcessError:  # reaped elsewhere: ended, its status unknown
                    self.status = -1
                    break
                if pid:
                    self.status = os.waitstatus_to_exitcode(status)
                    break
            if time.monotonic() >= deadline:
                break
            time.sleep(0.01)
        return self.status

    def _why(self) -> str:
        """The browser's state and the last line it wrote."""
        status = self._poll()
        try:
            lines = [ln for ln in self._log.read_text("utf-8", "replace").splitlines() if ln.strip()]
        except OSError:
            lines = []
        said = f": {lines[-1][:200]}" if lines else ""
        return ("still running" if status is None else f"exit status {status}") + said

    def close(self) -> None:
        """End the browser and remove its profile (again: nothing). Its every process is in the
        session it was started in, and nothing of it is kept, so the whole group is stopped at
        once rather than asked to shut down (which takes it a second to write a profile thrown
        away anyway)."""
        with self._closing:
            if self._closed:
                return
            self._closed = True
            self.kill()
            for fd in (self._commands, self._answers):
                try:
                    os.close(fd)
                except OSError:
                    pass
            shutil.rmtree(self.folder, ignore_errors=True)

    abort = close  #: as a build stops what still runs when it ends (pipeline/rendered.py: stop_workers)

    def kill(self) -> None:
        """End the browser's processes and reap it, its pipes left open: a thread talking to it
        then reads the end of its answers (Failed), not another file that took their numbers."""
        if self._poll() is None:
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except OSError:
                pass
            self._poll(wait=TIMEOUT)


class Kept:
    """One browser kept for a series of builds (a `watch` session), so that their prints skip
    Chromium's start-up: `lend()` gives the running one, or starts one where none runs (the
    first print, or after it crashed or a stopped build killed it). A build prints with it one
    page at a time and leaves it running; `close()` ends it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._browser: Browser | None = None
        self.started = 0  #: browsers started so far

    def lend(self, binary: str) -> Browser:
        with self._lock:
            browser = self._browser
            if browser is not None and (browser.binary != binary or browser.ended()):
                browser.close()
                browser = None
            if browser is None:
                browser = self._browser = Browser(binary, kept=True)
                self.started += 1
            return browser

    def close(self) -> None:
        """Stop the browser; the builds after this start their own again."""
        global _KEPT
        if _KEPT is self:
            _KEPT = None
        with self._lock:
            browser, self._browser = self._browser, None
        if browser is not None:
            browser.close()


#: The browser kept for the builds of this process, from keep() until its close().
_KEPT: Kept | None = None


def keep() -> Kept:
    """From now on, every print of this process uses one browser, until the Kept returned is closed."""
    global _KEPT
    _KEPT = Kept()
    return _KEPT


def browser(binary: str) -> Browser:
    """A browser to print with: the kept one (keep()), else one started for this build."""
    keeper = _KEPT
    return keeper.lend(binary) if keeper is not None else Browser(binary)
