"""The preview's HTTP server: the standard library's, on 127.0.0.1 only, one thread per request.

  /                the page (templates/preview.html.j2)
  /state           the state as JSON (state.py)
  /events          server-sent events: `state` with the new version whenever the state changes,
                   after `images` (a JSON list) when the changed cards' images are new
  /out/PATH        a file of the output folder (paths.py refuses anything outside it: 403)
  /thumb?file=PATH&page=N   a print sheet's page as a small PNG (thumbnails.py)
  /shown?address=A the page shows the image at address A (a changed card's, loaded): 204; the
                   rest of a rebuild waits for it (PreviewState.handed_over)
  /play            POST: "play this version": starts a web table on the manifest as it is now
                   (the watch command gives the function that does it) and sends the browser
                   there; a GET is refused (405), as is a POST another site's page sends (403)

Requests whose Host is not this server's own address are refused, so a web page elsewhere
cannot read the preview through a DNS name pointed at 127.0.0.1.

Load: the listen backlog holds a burst of BACKLOG connections; at most MAX_CONNECTIONS are
served at once (each one thread), a further one waits up to QUEUE_SECONDS for a place and is
then answered 503. A connection has REQUEST_SECONDS to send a request's line and headers
(from its first byte, or from the end of the answer before), however it trickles them in, and
is then closed; one that stops reading or sending for IDLE_SECONDS is closed too. So 200 idle
or half-sent connections hold threads for a few seconds and never keep a page from loading.
"""

from __future__ import annotations

import io
import json
import mimetypes
import shutil
import socket
import sys
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable
from urllib.parse import parse_qs, urlsplit

from generator.preview.paths import Refused, resolve_inside
from generator.preview.state import PreviewState
from generator.preview.thumbnails import AREA, NoSuchPage, thumbnail
from generator.products.output.outputs import CACHE_DIR

HOST = "127.0.0.1"
#: Seconds between keep-alive comments on an idle event stream.
PING_SECONDS = 15.0
#: Connections the kernel queues before the server accepts them (a page load is a burst).
BACKLOG = 128
#: Connections served at once (each one thread); every open preview tab holds one for its events.
MAX_CONNECTIONS = 256
#: Seconds a thumbnail not drawn yet waits for another thumbnail to let go of PDFium before it is
#: answered with BUSY_THUMB; while a build waits for PDFium or holds it, at once (the page asks
#: again after the build): a browser opens six connections to the preview at most, and
#: thumbnails waiting out a build held them all, so the changed card's image and the page's own
#: state waited behind them.
THUMB_WAIT = 0.25
#: What a thumbnail not drawn yet is while a build runs: one transparent pixel (never cached).
BUSY_THUMB = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                           "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")
#: Seconds a connection over MAX_CONNECTIONS waits for a place before it is answered 503.
QUEUE_SECONDS = 2.0
#: Seconds a connection may stay silent (or stop reading) before it is closed.
IDLE_SECONDS = 10.0
#: Seconds a connection has to send a whole request line and its headers.
REQUEST_SECONDS = 5.0
#: The largest request body read (the "play this version" form sends none).
MAX_POST = 1024
#: The longest image address /shown takes.
MAX_ADDRESS = 2048
_BUSY_TEXT = b"503 Service Unavailable: the preview is busy; try again\n"
_BUSY = (b"HTTP/1.0 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
         b"Content-Length: %d\r\nRetry-After: 1\r\nConnection: close\r\n\r\n%s" % (len(_BUSY_TEXT), _BUSY_TEXT))


class PreviewServer(ThreadingHTTPServer):
    daemon_threads = True  # an open event stream never holds up the end of `watch`
    request_queue_size = BACKLOG

    def __init__(self, port: int, out: Path, state: PreviewState, page: Callable[[], bytes],
                 play: Callable[[], str] | None = None):
        self.out = out
        self.state = state
        self.page = page
        self._places = threading.BoundedSemaphore(MAX_CONNECTIONS)
        self.play = play  #: the web table's URL, the table started on first call; ValueError says why not
        super().__init__((HOST, port), Handler)

    def process_request(self, request, client_address) -> None:
        """Serve the connection on a thread of its own, when one of MAX_CONNECTIONS places is free."""
        if not self._places.acquire(timeout=QUEUE_SECONDS):
            try:
                request.settimeout(1.0)
                request.sendall(_BUSY)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._places.release()
            raise

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._places.release()

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/"

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self.serve_forever, name="preview-server", daemon=True)
        thread.start()
        return thread

    def handle_error(self, request: object, client_address: object) -> None:
        """A browser that goes away mid-answer is normal; anything else is one line, not a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, TimeoutError)):
            return
        print(f"county-uppy watch: the preview could not answer a request ({type(error).__name__}: {error})",
              file=sys.stderr, flush=True)

    def stop(self) -> None:
        """Wake the event streams, stop serving and close the socket."""
        self.state.close()
        self.shutdown()
        self.server_close()


class _DeadlineReader(io.RawIOBase):
    """A connection's bytes as its handler reads them: each read waits at most IDLE_SECONDS, and
    none past the handler's `deadline` (while a request's line and headers are read)."""

    def __init__(self, sock: socket.socket, handler: "Handler"):
        self.sock = sock
        self.handler = handler

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        wait = IDLE_SECONDS
        if self.handler.deadline is not None:
            wait = min(wait, self.handler.deadline - time.monotonic())
            if wait <= 0:
                raise TimeoutError("the request did not come whole in time")
        self.sock.settimeout(wait)
        return self.sock.recv_into(buffer)


class Handler(BaseHTTPRequestHandler):
    server: PreviewServer
    timeout = IDLE_SECONDS  # the socket's: a read or write that waits longer ends the connection
    server_version = "county-uppy-preview"
    sys_version = ""
    deadline: float | None = None  #: when the request being read must be in (its line and headers)

    def setup(self) -> None:
        super().setup()
        self.rfile = io.BufferedReader(_DeadlineReader(self.connection, self))

    def handle_one_request(self) -> None:
        self.deadline = time.monotonic() + REQUEST_SECONDS  # a trickle of bytes does not make it wait longer
        super().handle_one_request()

    def parse_request(self) -> bool:
        parsed = super().parse_request()  # the headers are read here
        self.deadline = None
        return parsed

    def log_message(self, format: str, *args: object) -> None:
        pass  # the terminal has one line per rebuild, not one per request

    def do_HEAD(self) -> None:
        self._route(body=False)

    def do_GET(self) -> None:
        self._route(body=True)

    def do_POST(self) -> None:
        """Only "play this version" acts, and only for this preview's own page: a POST that another
        site's page sends carries that site's Origin (or Sec-Fetch-Site: cross-site)."""
        said = self.headers.get("Content-Length", "0").strip()
        if not said.isascii() or not said.isdigit() or int(said) > MAX_POST:
            self.close_connection = True  # its body is never read
            self._fail(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"a request body is at most {MAX_POST} bytes", True)
            return
        self.rfile.read(int(said))  # the form's (empty) fields: nothing in them is used
        if not self._host_ok():
            self._fail(HTTPStatus.FORBIDDEN, "this preview answers only at its own address", True)
        elif urlsplit(self.path).path != "/play" or self.server.play is None:
            self._fail(HTTPStatus.NOT_FOUND, "no such page", True)
        elif not self._same_origin():
            self._fail(HTTPStatus.FORBIDDEN, "a table is started only from the preview's own page", True)
        else:
            self._play(True)

    def _same_origin(self) -> bool:
        origin = self.headers.get("Origin")
        if origin is not None and origin.strip().lower() not in (
                f"http://{HOST}:{self.server.port}", f"http://localhost:{self.server.port}"):
            return False
        return self.headers.get("Sec-Fetch-Site", "same-origin").strip().lower() in ("same-origin", "none")

    def _route(self, body: bool) -> None:
        if not self._host_ok():
            self._fail(HTTPStatus.FORBIDDEN, "this preview answers only at its own address", body)
            return
        parts = urlsplit(self.path)
        path = parts.path
        if path in ("/", "/index.html"):
            self._send(self.server.page(), "text/html; charset=utf-8", body)
        elif path == "/state":
            self._send(self.server.state.as_json(), "application/json", body)
        elif path == "/events" and body:
            self._events()
        elif path.startswith("/out/"):
            self._file(path[len("/out/"):], bool(parts.query), body)
        elif path == "/thumb":
            self._thumb(parse_qs(parts.query), body)
        elif path == "/shown":
            self._shown(parse_qs(parts.query), body)
        elif path == "/play" and self.server.play is not None:  # starting a table is no GET's to do
            self._fail(HTTPStatus.METHOD_NOT_ALLOWED, "a table is started with the preview's "
                       "'play this version' button", body, allow="POST")
        else:
            self._fail(HTTPStatus.NOT_FOUND, "no such page", body)

    def _play(self, body: bool) -> None:
        try:
            url = self.server.play()  # type: ignore[misc]
        except ValueError as exc:
            self._fail(HTTPStatus.CONFLICT, str(exc), body)
            return
        self.send_response(HTTPStatus.SEE_OTHER)
        self.send_header("Location", url)
        self.send_header("Content-Length", "0")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()

    def _host_ok(self) -> bool:
        host = (self.headers.get("Host") or "").strip().lower()
        return host in (f"{HOST}:{self.server.port}", f"localhost:{self.server.port}")

    def _send(self, data: bytes, kind: str, body: bool, cache: str = "no-store") -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", cache)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if body:
            self.wfile.write(data)

    def _fail(self, status: HTTPStatus, message: str, body: bool, allow: str | None = None) -> None:
        data = f"{status.value} {status.phrase}: {message}\n".encode("utf-8")
        self.send_response(status)
        if allow:
            self.send_header("Allow", allow)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if body:
            self.wfile.write(data)

    def _resolve(self, rel: str, body: bool) -> Path | None:
        """The output folder's file at `rel`; None (the refusal or 404 sent) for any other."""
        try:
            found = resolve_inside(self.server.out, rel)
        except Refused:
            self._fail(HTTPStatus.FORBIDDEN, "only the output folder's files are served", body)
            return None
        if found is None:
            self._fail(HTTPStatus.NOT_FOUND, "no such file in the output folder", body)
        return found

    def _file(self, rel: str, versioned: bool, body: bool) -> None:
        found = self._resolve(rel, body)
        if found is None:
            return
        kind = mimetypes.guess_type(found.name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind == "application/json":
            kind += "; charset=utf-8"
        try:
            f = found.open("rb")
        except OSError:
            self._fail(HTTPStatus.NOT_FOUND, "no such file in the output folder", body)
            return
        with f:
            size = f.seek(0, 2)
            f.seek(0)
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(size))
            # an address with ?v= names one version of the file: the browser may keep it a while
            self.send_header("Cache-Control", "max-age=3600" if versioned else "no-cache")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.end_headers()
            if body:
                shutil.copyfileobj(f, self.wfile)

    def _shown(self, query: dict[str, list[str]], body: bool) -> None:
        """The page shows a changed card's new image: the rest of the rebuild goes on."""
        address = query.get("address", [""])[0]
        if not address.startswith("/out/") or len(address) > MAX_ADDRESS:
            self._fail(HTTPStatus.NOT_FOUND, "no such image", body)
            return
        self.server.state.shown(address)
        self.send_response(HTTPStatus.NO_CONTENT)
        self.send_header("Cache-Control", "no-store")
        self.end_headers()

    def _thumb(self, query: dict[str, list[str]], body: bool) -> None:
        rel = query.get("file", [""])[0]
        page = query.get("page", [""])[0]
        if not rel.endswith(".pdf") or not page.isdigit() or len(page) > 5:
            self._fail(HTTPStatus.NOT_FOUND, "no such thumbnail", body)
            return
        pdf = self._resolve(rel.replace("%", "%25"), body)  # already decoded once
        if pdf is None:
            return
        try:
            data = thumbnail(pdf, int(page), self.server.out / CACHE_DIR / AREA, THUMB_WAIT, root=self.server.out)
        except NoSuchPage:
            self._fail(HTTPStatus.NOT_FOUND, "the sheet has no such page", body)
            return
        except TimeoutError:  # a build holds PDFium: a blank pixel for now, asked for again once it is done
            self._send(BUSY_THUMB, "image/png", body)
            return
        except Exception:  # noqa: BLE001 -- a PDF being replaced, or unreadable: no thumbnail this time
            self._fail(HTTPStatus.NOT_FOUND, "the sheet cannot be read now", body)
            return
        self._send(data, "image/png", body, cache="max-age=3600" if query.get("v") else "no-cache")

    def _events(self) -> None:
        """Server-sent events until the browser goes or the server stops."""
        state = self.server.state
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        seen = -1
        named: tuple[str, ...] = ()
        state.listening(+1)
        try:
            self.wfile.write(b"retry: 1000\n\n")
            while not state.closed:
                version = state.wait(seen, PING_SECONDS)
                if state.closed:
                    break
                if version != seen:
                    images = state.images()
                    if images and images != named:  # the changed cards' images first: the page asks at once
                        self.wfile.write(f"event: images\ndata: {json.dumps(list(images))}\n\n".encode("ascii"))
                        named = images
                    self.wfile.write(f"event: state\ndata: {version}\n\n".encode("ascii"))
                    seen = version
                else:
                    self.wfile.write(b": still here\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError):
            pass  # the browser went away
        finally:
            state.listening(-1)
