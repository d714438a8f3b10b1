"""The preview serves the output folder's files and nothing else: every way out is refused.

Checked twice: resolve_inside on its own, and over HTTP against a running server, with raw
request lines (a browser would tidy `..` away before sending; an attacker's client does not).
"""

from __future__ import annotations

import http.client
import os
from pathlib import Path

import pytest

from generator.preview.paths import Refused, resolve_inside
from generator.preview.server import PreviewServer
from generator.preview.state import PreviewState
from generator.preview.output import read_output

SECRET = b"the secret next to the output folder\n"


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    """tmp/out with a card image, a hidden cache file and a link leading out; tmp/secret.txt outside."""
    (tmp_path / "secret.txt").write_bytes(SECRET)
    (tmp_path / "secret.pdf").write_bytes(b"%PDF-1.4 not ours\n")
    out = tmp_path / "out"
    (out / "cards").mkdir(parents=True)
    (out / "cards" / "C5.png").write_bytes(b"\x89PNG a card")
    (out / "cards" / "a b%.png").write_bytes(b"\x89PNG an odd name")
    (out / ".cache").mkdir()
    (out / ".cache" / "entry").write_bytes(b"cache")
    (out / "outside").symlink_to(tmp_path)
    (out / "secret-link.txt").symlink_to(tmp_path / "secret.txt")
    (out / "inside-link.png").symlink_to(out / "cards" / "C5.png")
    return out


def test_a_file_inside_is_found(folder):
    assert resolve_inside(folder, "cards/C5.png") == (folder / "cards" / "C5.png").resolve()
    assert resolve_inside(folder, "cards/a%20b%25.png") == (folder / "cards" / "a b%.png").resolve()
    assert resolve_inside(folder, "inside-link.png") == (folder / "cards" / "C5.png").resolve()  # a link that stays in


@pytest.mark.parametrize("request_path", ["cards/none.png", "cards", "", "cards/%ff.png", "cards/%252e%252e/x"])
def test_what_is_not_a_file_inside_is_not_found(folder, request_path):
    assert resolve_inside(folder, request_path) is None


@pytest.mark.parametrize("request_path", [
    "../secret.txt", "cards/../../secret.txt", "%2e%2e/secret.txt", "%2E%2E%2Fsecret.txt", "cards/%2e%2e/%2e%2e/secret.txt",
    "/etc/passwd", "%2Fetc%2Fpasswd", "..%5Csecret.txt", "cards\\..\\..\\secret.txt", "cards/C5.png%00.txt",
    "outside/secret.txt", "secret-link.txt", ".cache/entry", "cards/.hidden", "cards/./../../secret.txt",
])
def test_every_way_out_is_refused(folder, request_path):
    with pytest.raises(Refused):
        resolve_inside(folder, request_path)


@pytest.fixture()
def server(folder):
    srv = PreviewServer(0, folder, PreviewState("cards.yaml", str(folder), read_output(folder)), lambda: b"<!doctype html>page")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def raw_get(server: PreviewServer, target: str, host: str | None = None, method: str = "GET") -> tuple[int, bytes]:
    """Send `target` exactly as written (no client-side tidying); the status and the body."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        conn.putrequest(method, target, skip_host=True, skip_accept_encoding=True)
        conn.putheader("Host", host or f"127.0.0.1:{server.port}")
        conn.endheaders()
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def test_the_server_listens_on_loopback_only(server):
    assert server.server_address[0] == "127.0.0.1"
    assert server.url == f"http://127.0.0.1:{server.port}/"


def test_the_server_sends_files_inside(server):
    assert raw_get(server, "/out/cards/C5.png") == (200, b"\x89PNG a card")
    assert raw_get(server, "/out/cards/a%20b%25.png") == (200, b"\x89PNG an odd name")
    status, body = raw_get(server, "/out/cards/C5.png", method="HEAD")
    assert (status, body) == (200, b"")
    assert raw_get(server, "/out/cards/none.png")[0] == 404
    assert raw_get(server, "/")[1] == b"<!doctype html>page"


@pytest.mark.parametrize("target", [
    "/out/../secret.txt", "/out/../../../../etc/passwd", "/out/%2e%2e/secret.txt", "/out/%2E%2E%2Fsecret.txt",
    "/out/cards/..%2f..%2fsecret.txt", "/out//etc/passwd", "/out/%2Fetc%2Fpasswd", "/out/outside/secret.txt",
    "/out/secret-link.txt", "/out/.cache/entry", "/out/..%5csecret.txt", "/out/cards/C5.png%00",
    "/thumb?file=../secret.pdf&page=0", "/thumb?file=%2e%2e/secret.pdf&page=0", "/thumb?file=/etc/x.pdf&page=0",
    "/thumb?file=outside/secret.pdf&page=0", "/../secret.txt", "/out/%252e%252e/secret.txt",
])
def test_the_server_never_sends_a_file_outside(server, target):
    status, body = raw_get(server, target)
    assert status in (403, 404), (target, status)
    assert SECRET not in body and b"root:" not in body


def test_a_request_for_another_host_is_refused(server):
    """A web page elsewhere cannot reach the preview through a DNS name pointed at 127.0.0.1."""
    assert raw_get(server, "/out/cards/C5.png", host="attacker.example:80")[0] == 403
    assert raw_get(server, "/state", host=f"attacker.example:{server.port}")[0] == 403
    assert raw_get(server, "/out/cards/C5.png", host=f"localhost:{server.port}")[0] == 200


def test_the_event_stream_ends_when_the_server_stops(folder):
    srv = PreviewServer(0, folder, PreviewState("cards.yaml", str(folder), read_output(folder)), lambda: b"")
    srv.start()
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
    conn.request("GET", "/events")
    response = conn.getresponse()
    assert response.getheader("Content-Type") == "text/event-stream"
    assert response.fp.readline() == b"retry: 1000\n"
    response.fp.readline()
    assert response.fp.readline() == b"event: state\n"
    assert response.fp.readline() == b"data: 0\n"
    response.fp.readline()
    srv.state.update(status="building")
    assert [response.fp.readline() for _ in range(2)] == [b"event: state\n", b"data: 1\n"]
    srv.stop()
    assert response.read() == b"\n"  # the stream ends: the server does not hang on to it
    conn.close()
    assert not os.path.exists(folder / ".county-uppy.lock")


def test_play_this_version_starts_a_table_only_on_a_post_from_the_preview_itself(folder):
    """Starting a table is no GET's to do (a link preview or prefetch, an <img> on another site's
    page that names 127.0.0.1 all send one, with the preview's own Host), nor a POST another site's
    page sends (its Origin names that site)."""
    started: list[int] = []
    srv = PreviewServer(0, folder, PreviewState("cards.yaml", str(folder), read_output(folder)), lambda: b"",
                        play=lambda: started.append(1) or "http://127.0.0.1:1/?t=token")
    srv.start()
    try:
        def send(method: str, headers: dict[str, str], body: bytes = b"") -> tuple[int, dict, bytes]:
            conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
            try:
                conn.request(method, "/play", body=body or None,
                             headers={"Host": f"127.0.0.1:{srv.port}", **headers})
                response = conn.getresponse()
                return response.status, dict(response.getheaders()), response.read()
            finally:
                conn.close()

        own = f"http://127.0.0.1:{srv.port}"
        status, headers, body = send("GET", {})
        assert (status, headers["Allow"]) == (405, "POST") and b"play this version" in body
        assert send("HEAD", {})[0] == 405
        assert send("POST", {"Origin": "https://attacker.example"})[0] == 403
        assert send("POST", {"Origin": own, "Sec-Fetch-Site": "cross-site"})[0] == 403
        assert send("POST", {"Origin": own, "Content-Length": "99999999"})[0] == 413
        assert started == []
        status, headers, _ = send("POST", {"Origin": own, "Sec-Fetch-Site": "same-origin", "Content-Length": "0"})
        assert (status, headers["Location"], started) == (303, "http://127.0.0.1:1/?t=token", [1])
    finally:
        srv.stop()


def test_the_event_stream_names_the_changed_cards_images_ahead_of_the_state(built):
    """The page asks for a changed card's image as the event comes, before it has read /state."""
    output = read_output(built)
    image = {c["code"]: c["image"] for c in output["cards"]}
    srv = PreviewServer(0, built, PreviewState("cards.yaml", str(built), output), lambda: b"")
    srv.start()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=10)
        conn.request("GET", "/events")
        response = conn.getresponse()
        lines = [response.fp.readline() for _ in range(5)]
        assert lines[2:4] == [b"event: state\n", b"data: 0\n"]  # no changed card yet: no images
        srv.state.update(focus=["SKIP", "C5"])
        assert [response.fp.readline() for _ in range(5)] == [
            b"event: images\n", f'data: ["{image["SKIP"]}", "{image["C5"]}"]\n'.encode(), b"\n",
            b"event: state\n", b"data: 1\n"]
        response.fp.readline()
        srv.state.update(status="ok")  # the same cards: named once
        assert [response.fp.readline() for _ in range(2)] == [b"event: state\n", b"data: 2\n"]
        conn.close()
    finally:
        srv.stop()


def test_a_page_says_it_shows_an_image_and_nothing_else_is_taken(folder):
    """/shown: the page's word that a changed card's image is on show (204); an address outside
    /out/ or one too long is refused, and a request for another host too."""
    srv = PreviewServer(0, folder, PreviewState("cards.yaml", str(folder), read_output(folder)), lambda: b"")
    srv.start()
    try:
        srv.state.listening(+1)  # a page is open
        assert raw_get(srv, "/shown?address=%2Fout%2Fcards%2FC5.png%3Fv%3D1")[0] == 204
        assert srv.state.handed_over("/out/cards/C5.png?v=1", timeout=0) is True
        assert raw_get(srv, "/shown?address=%2Fetc%2Fpasswd")[0] == 404
        assert raw_get(srv, "/shown?address=%2Fout%2F" + "a" * 3000)[0] == 404
        assert raw_get(srv, "/shown?address=%2Fout%2Fcards%2FX.png", host="attacker.example:80")[0] == 403
        assert srv.state.handed_over("/out/cards/X.png", timeout=0) is False
    finally:
        srv.stop()
