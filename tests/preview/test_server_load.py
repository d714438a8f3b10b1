"""The preview under load: a burst of connections is queued, not dropped; at most
MAX_CONNECTIONS are served at once; a silent connection is closed after IDLE_SECONDS.

Every loop here is bounded in count and time and talks to 127.0.0.1 only.
"""

from __future__ import annotations

import http.client
import socket
import threading
import time
from pathlib import Path

import pytest

from generator.preview import server as server_module
from generator.preview.output import read_output
from generator.preview.server import BACKLOG, MAX_CONNECTIONS, PreviewServer
from generator.preview.state import PreviewState

BURST = 200


@pytest.fixture()
def server(tmp_path: Path):
    out = tmp_path / "out"
    out.mkdir()
    srv = PreviewServer(0, out, PreviewState("cards.yaml", str(out), read_output(out)), lambda: b"<!doctype html>page")
    try:
        yield srv
    finally:
        srv.stop()


def connect_all(port: int, n: int) -> list[socket.socket]:
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
        socks.append(s)
    return socks


def established(socks: list[socket.socket], within: float) -> int:
    """How many of `socks` finished connecting within `within` seconds."""
    import select

    deadline = time.monotonic() + within
    pending = set(socks)
    done = 0
    while pending and (left := deadline - time.monotonic()) > 0:
        _, writable, _ = select.select([], list(pending), [], left)
        for s in writable:
            pending.discard(s)
            done += s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0
    return done


def close_all(socks: list[socket.socket]) -> None:
    for s in socks:
        s.close()


def test_a_burst_of_connections_waits_in_the_listen_queue(server):
    """Before the server accepts any, the kernel completes as many connections as the backlog
    allows (a backlog of 5 left the rest to retry after a second, and 200 requests took 15 s)."""
    socks = connect_all(server.port, BURST)
    try:
        assert established(socks, within=1.0) >= min(BURST, BACKLOG)
    finally:
        close_all(socks)
    server.start()  # for the fixture's stop


def get(port: int, path: str = "/state") -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def test_a_burst_of_requests_is_answered(server):
    server.start()
    statuses: list[int] = []
    lock = threading.Lock()

    def one() -> None:
        try:
            status = get(server.port)
        except OSError:
            status = 0
        with lock:
            statuses.append(status)

    threads = [threading.Thread(target=one) for _ in range(BURST)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(statuses) == BURST and set(statuses) <= {200, 503} and statuses.count(200) >= BURST // 2


def test_half_open_connections_hold_at_most_max_connections_threads_and_go_after_idle_time(server, monkeypatch):
    monkeypatch.setattr(server_module.Handler, "timeout", 1.0)
    monkeypatch.setattr(server_module, "QUEUE_SECONDS", 0.2)
    before = threading.active_count()
    server.start()
    socks = connect_all(server.port, BURST)  # connected, and never a byte sent
    try:
        established(socks, within=5.0)
        time.sleep(0.5)
        assert threading.active_count() - before <= MAX_CONNECTIONS + 2
        assert get(server.port) in (200, 503)  # the server still answers meanwhile
        deadline = time.monotonic() + 15
        while threading.active_count() - before > 1 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert threading.active_count() - before <= 1, "silent connections still hold threads after the idle time"
        assert get(server.port) == 200
    finally:
        close_all(socks)


def test_200_idle_and_half_sent_connections_neither_lock_the_page_out_nor_stay(server):
    """Half send nothing, half stop in the middle of their headers (or trickle a byte every few
    seconds): the page loads at once meanwhile, and each is closed within REQUEST_SECONDS. The
    64 threads were all held (each waited IDLE_SECONDS from its last byte, for ever with a
    trickle) and every other connection waited in the queue."""
    from generator.preview.server import REQUEST_SECONDS
    from tests.web.test_guarded_table import closed_by_the_server, hold_connections

    server.start()
    held = hold_connections(server.port)
    try:
        started = time.monotonic()
        assert get(server.port, "/") == 200 and time.monotonic() - started < 5
        trickler = held[1]
        for _ in range(3):  # a byte every 2 s: within IDLE_SECONDS each time, but not a request in time
            try:
                trickler.sendall(b"x")
            except OSError:
                break
            time.sleep(2)
        assert all(closed_by_the_server(sock, REQUEST_SECONDS + 3) for sock in held)
    finally:
        close_all(held)
