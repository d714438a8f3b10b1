"""The web table keeps to its own guests and survives what a hostile client sends: the replay
API's number rules, the WebSocket's Origin, idle and half-sent connections, malformed frames,
the build's card images (issue 36)."""

from __future__ import annotations

import http.client
import json

import pytest

from tests.conftest import MANIFEST
from tests.web.conftest import served


def _post(url: str, body: bytes) -> tuple[int, str]:
    base, token = url.split("/?t=")
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        conn.request("POST", f"/api/replay?t={token}", body=body)
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read())["error"]
    finally:
        conn.close()


def test_the_replay_api_applies_replay_s_number_rules(tmp_path, capsys):
    """A 4,000-digit seed, NaN and a key given twice: `replay` refuses each (exit 2); the API took
    the seed (and worked on it) and the rest. Same words, located in the posted text."""
    from generator.cli import main

    seed = "9" * 4000
    cases = [
        (f'{{"seed": {seed}, "players": 2, "decisions": []}}',
         "a number of 4,000 digits; whole numbers here have at most 40 digits"),
        ('{"seed": NaN, "players": 2, "decisions": []}', "NaN is not a number JSON allows (write a whole number)"),
        ('{"seed": 1, "players": 2, "players": 3, "decisions": []}', "duplicate key 'players': a key is given once"),
    ]
    with served(tmp_path, ["human", "greedy"]) as (web, url):
        for text, message in cases:
            status, error = _post(url, text.encode())
            assert status == 400 and message in error and error.startswith("line 1, column ")
            record = tmp_path / "record.json"
            record.write_text(text)
            assert main(["replay", "--manifest", str(MANIFEST), str(record)]) == 2
            assert message in capsys.readouterr().err
        # past the number rules, the record's own checks follow, as in `replay`
        status, error = _post(url, b'{"seed": 1, "players": 2, "decisions": [], "bogus": 1}')
        assert status == 400 and "unknown key 'bogus'" in error


def test_a_killed_table_s_record_replays_to_its_last_decision(tmp_path, capsys):
    """The table wrote a game's record only at its end (or at Ctrl-C): a SIGKILL lost the game.
    Now every decision is on disk before the next message goes out."""
    import os
    import signal
    import subprocess
    import sys

    from websockets.sync.client import connect

    from generator.cli import main
    from tests.conftest import ROOT

    records = tmp_path / "games"
    proc = subprocess.Popen([sys.executable, "-m", "generator", "play", "--manifest", str(MANIFEST), "--web",
                             "--port", "0", "--seats", "human,greedy,random", "--delay", "0", "--seed", "9",
                             "--record", str(records), "--out", str(tmp_path / "no-build")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, start_new_session=True)
    try:
        url = proc.stdout.readline().split(" at ", 1)[1].strip()
        base, token = url.split("/?t=")
        with connect(base.replace("http", "ws") + f"/ws?t={token}", open_timeout=10, close_timeout=2) as ws:
            ws.recv(timeout=10)
            ws.send(json.dumps({"type": "claim", "seat": 0}))
            seat_token = json.loads(ws.recv(timeout=10))["tokens"]["0"]
            mine, seen = [], 0
            while len(mine) < 4:
                msg = json.loads(ws.recv(timeout=20))
                if msg.get("type") != "table":
                    continue
                seen = max(seen, msg["seq"])
                if msg["decider"] == 0 and msg["choices"] and not msg["over"]:
                    choice = msg["choices"][-1]["decision"]
                    ws.send(json.dumps({"type": "decide", "seat": 0, "token": seat_token, "decision": choice,
                                        "seq": msg["seq"]}))
                    mine.append(choice)
            msg = json.loads(ws.recv(timeout=20))  # the table after the fourth decision
            seen = max(seen, msg.get("seq", 0))
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=10)
    [record] = records.glob("web-*-seed9-game1.json")
    lines = record.read_text(encoding="utf-8").splitlines()
    decisions = [json.loads(line) for line in lines[1:]]
    assert json.loads(lines[0])["decisions"] == [] and len(decisions) >= seen
    assert [d for d in decisions if d in mine] and len(decisions) >= len(mine)
    assert main(["replay", "--manifest", str(MANIFEST), str(record)]) == 0
    assert f"its {len(decisions)} decisions replayed without error" in capsys.readouterr().err


def _ws_url(url: str) -> tuple[str, str, int]:
    base, token = url.split("/?t=")
    return base.replace("http", "ws") + f"/ws?t={token}", base, int(base.rsplit(":", 1)[1])


def test_the_socket_is_opened_only_from_the_table_s_own_pages(tmp_path):
    """A page elsewhere got the table's cookie sent along and could watch it and take free seats:
    /ws checked the token, not where the request came from."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    with served(tmp_path, ["human", "greedy"]) as (web, url):
        ws_url, base, port = _ws_url(url)
        for origin in ("http://evil.example", "null", f"http://127.0.0.1:{port + 1}", f"https://127.0.0.1:{port}",
                       f"http://localhost:{port}"):  # localhost: not the address this request was sent to
            with pytest.raises(InvalidStatus) as refused:
                with connect(ws_url, origin=origin, open_timeout=10, close_timeout=2):
                    pass
            assert refused.value.response.status_code == 403, origin
        for origin in (f"http://127.0.0.1:{port}", None):  # the table's own page; a program with the token
            with connect(ws_url, origin=origin, open_timeout=10, close_timeout=2) as ws:
                assert json.loads(ws.recv(timeout=10))["type"] == "table"
        assert not web.seat_tokens  # nothing was taken by the refused ones


def test_an_invalid_utf8_frame_is_refused_quietly(tmp_path, capfd):
    """uvicorn printed 'Invalid UTF-8 sequence received from client.' and a traceback on the host's terminal."""
    import os
    import socket

    with served(tmp_path, ["human", "greedy"]) as (web, url):
        _, base, port = _ws_url(url)
        token = url.split("/?t=")[1]
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(f"GET /ws?t={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                         "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                         "Sec-WebSocket-Version: 13\r\n\r\n".encode())
            assert sock.recv(4096).startswith(b"HTTP/1.1 101")
            payload, mask = b"\xff\xfe{bad", os.urandom(4)
            sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
            received = b""
            while b"\x88" not in received:  # the close frame, after the table's first message
                chunk = sock.recv(65536)
                assert chunk, "closed without a close frame"
                received += chunk
            assert received[received.index(b"\x88") + 2:][:2] == (1007).to_bytes(2, "big")  # invalid frame payload data
        # the table goes on serving
        status, _ = _post(url, b"{}")
        assert status == 400
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Invalid UTF-8" not in err


#: Connections a test holds open: half send nothing, half stop in the middle of their headers.
HELD = 200
#: How long a page may take to load while they are held (it took for ever: every page was 503).
PAGE_SECONDS = 5.0


def hold_connections(port: int, host: str = "127.0.0.1") -> list:
    import socket

    held = []
    for k in range(HELD):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        if k % 2:
            sock.sendall(f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nX-Slow: ".encode())  # and then nothing
        held.append(sock)
    return held


def closed_by_the_server(sock, within: float) -> bool:
    import socket
    import time

    sock.settimeout(within)
    started = time.monotonic()
    try:
        while time.monotonic() - started < within:
            if sock.recv(4096) == b"":
                return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False
    return False


def test_idle_and_half_sent_connections_neither_lock_players_out_nor_stay(tmp_path):
    """200 connections held open, half silent, half stopped mid-headers: the page still loads at
    once, and every one of them is closed within a few seconds (none was, after 20 s)."""
    import time
    import urllib.request

    from generator.web.connections import REQUEST_SECONDS

    with served(tmp_path, ["human", "greedy"]) as (web, url):
        port = int(url.split("/?t=")[0].rsplit(":", 1)[1])
        held = hold_connections(port)
        try:
            started = time.monotonic()
            opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())  # keeps the table's cookie
            with opener.open(url, timeout=PAGE_SECONDS) as answer:  # the join link, then the page
                page = answer.read().decode()
            assert answer.status == 200 and "County Uppy" in page
            assert time.monotonic() - started < PAGE_SECONDS
            assert all(closed_by_the_server(sock, REQUEST_SECONDS + 3) for sock in held)
        finally:
            for sock in held:
                sock.close()


def test_card_images_are_checked_as_the_build_checks_a_picture(tmp_path, capfd):
    """The table read whatever cards/index.json named, whole, and decoded it when shown: a
    40,000-pixel-wide PNG of a few KiB, a truncated PNG, a JPEG named .png or a FIFO there
    (read forever) reached Pillow or held the table. Each is now left out, its card shown by
    its name; the build's own images are shown."""
    import io
    import os
    import struct
    import urllib.request
    import zlib

    from PIL import Image

    from generator.deck.manifest import load
    from generator.engine import Game

    def png(width: int, height: int) -> bytes:
        buf = io.BytesIO()
        Image.frombytes("RGB", (width, height), os.urandom(width * height * 3)).save(buf, "PNG")
        return buf.getvalue()

    def huge_header() -> bytes:  # a valid PNG header claiming 40000 x 40000 pixels, and one tiny IDAT
        def chunk(kind: bytes, data: bytes) -> bytes:
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        ihdr = struct.pack(">IIBBBBB", 40000, 40000, 8, 2, 0, 0, 0)
        return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 100)) + chunk(b"IEND", b"")

    jpeg = io.BytesIO()
    Image.new("RGB", (80, 110)).save(jpeg, "JPEG")
    codes = Game(load(MANIFEST), "the-og", 2, {}).codes[:6]
    files = {"good.png": png(82, 112), "huge.png": huge_header(), "cut.png": png(82, 112)[:9000],
             "jpeg.png": jpeg.getvalue(), "fifo.png": None, "big.png": png(4500, 10)}
    cards = tmp_path / "build" / "cards"
    cards.mkdir(parents=True)
    for name, data in files.items():
        if data is None:
            os.mkfifo(cards / name)
        else:
            (cards / name).write_bytes(data)
    (cards / "index.json").write_text(json.dumps({"cards": {c: {"file": n} for c, n in zip(codes, files)}}))
    with served(tmp_path, ["human", "greedy"], out=tmp_path / "build") as (web, url):
        assert set(web.images) == {codes[0]}
        base, token = url.split("/?t=")
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        with opener.open(url, timeout=10) as page:  # the join link: the cookie
            page.read()
        with opener.open(f"{base}/card?code={codes[0]}", timeout=10) as answer:
            shown = Image.open(io.BytesIO(answer.read()))
            assert answer.status == 200 and shown.format == "PNG" and shown.size[0] <= 240
        for code in codes[1:]:
            with pytest.raises(urllib.error.HTTPError) as missing:
                opener.open(f"{base}/card?code={code}", timeout=10)
            assert missing.value.code == 404
            missing.value.close()
    assert "Traceback" not in capfd.readouterr().err
