"""`county-uppy play --web` as a process: the join link, the token, a game over the WebSocket, Ctrl-C."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import MANIFEST


def start(tmp_path: Path, *args: str) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "generator", "play", "--web", "--manifest", str(MANIFEST), "--port", "0",
                             "--delay", "0", "--out", str(tmp_path / "out"), *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    for _ in range(5):
        line = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/\?t=[\w-]+", line)
        if found:
            return proc, found.group(0)
    proc.kill()
    raise AssertionError(f"no join link printed: {proc.communicate(timeout=10)}")


def test_a_game_over_the_websocket_then_ctrl_c_keeps_its_record(tmp_path):
    from websockets.sync.client import connect

    proc, url = start(tmp_path, "--seats", "human,greedy,random", "--seed", "12")
    try:
        base, token = url.split("/?t=")
        # nothing without the token
        for path in ("/", "/deck.json", "/static/table.js", "/card?code=C5", "/record/1.json"):
            with pytest.raises(urllib.error.HTTPError) as err:
                urllib.request.urlopen(base + path, timeout=10)
            assert err.value.code == 403
        with connect(base.replace("http", "ws") + f"/ws?t={token}", open_timeout=10, close_timeout=5) as ws:
            msg = json.loads(ws.recv(timeout=10))
            assert msg["free"] == [0] and "hand" not in msg
            ws.send(json.dumps({"type": "claim", "seat": 0}))
            seated = json.loads(ws.recv(timeout=10))
            seat_token = seated["tokens"]["0"]
            over = False
            while not over:
                msg = json.loads(ws.recv(timeout=20))
                if msg.get("type") != "table":
                    continue
                over = bool(msg["over"])
                if msg.get("choices"):
                    ws.send(json.dumps({"type": "decide", "seat": 0, "token": seat_token, "seq": msg["seq"],
                                        "decision": msg["choices"][0]["decision"]}))
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=10)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    saved = list((tmp_path / "out" / "games").glob("web-*.json"))
    assert len(saved) == 1 and f"game record saved to {saved[0]}" in out
    done = subprocess.run([sys.executable, "-m", "generator", "replay", str(saved[0]), "--manifest", str(MANIFEST)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "the replayed result matches the record's" in done.stdout


def test_a_message_over_the_size_limit_closes_the_connection(tmp_path):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from generator.web.server import MAX_MESSAGE

    proc, url = start(tmp_path, "--seats", "human,greedy")
    try:
        base, token = url.split("/?t=")
        with connect(base.replace("http", "ws") + f"/ws?t={token}", open_timeout=10, close_timeout=5) as ws:
            ws.recv(timeout=10)
            ws.send(b"\x00binary")  # refused with a reason; the connection stays
            assert json.loads(ws.recv(timeout=10)) == {"type": "refused", "message": "messages are JSON text, not binary"}
            ws.recv(timeout=10)
            ws.send("{not json")
            assert json.loads(ws.recv(timeout=10))["message"] == "not a JSON message"
            ws.recv(timeout=10)
            ws.send(json.dumps({"type": "hints", "on": True, "pad": "x" * (MAX_MESSAGE + 10)}))
            with pytest.raises(ConnectionClosed):
                for _ in range(5):
                    ws.recv(timeout=10)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate(timeout=10)
    assert proc.returncode == 130 and "Traceback" not in err and "Exception" not in err
    assert "no game was played" in out


def test_bad_seats_are_refused_with_a_message(tmp_path):
    done = subprocess.run([sys.executable, "-m", "generator", "play", "--web", "--manifest", str(MANIFEST),
                           "--seats", "human,greedyy"], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert done.returncode == 2
    assert "greedyy" in done.stderr and "Traceback" not in done.stderr


def test_connections_beyond_the_limit_are_closed_with_the_reason(tmp_path):
    from contextlib import ExitStack

    from websockets.exceptions import ConnectionClosed, InvalidStatus
    from websockets.sync.client import connect

    from generator.web.server import MAX_DEVICES
    from tests.web.conftest import served

    with served(tmp_path, ["human", "greedy"]) as (web, url):
        base, token = url.split("/?t=")
        address = base.replace("http", "ws") + f"/ws?t={token}"
        with ExitStack() as stack:
            open_ = [stack.enter_context(connect(address, open_timeout=10, close_timeout=2)) for _ in range(MAX_DEVICES)]
            for ws in open_:
                assert json.loads(ws.recv(timeout=10))["type"] == "table"
            with connect(address, open_timeout=10, close_timeout=2) as extra:
                with pytest.raises(ConnectionClosed) as closed:
                    extra.recv(timeout=10)
                assert closed.value.rcvd.code == 1013 and "the table is full" in closed.value.rcvd.reason
        # without the token, no connection at all
        with pytest.raises(InvalidStatus):
            with connect(base.replace("http", "ws") + "/ws", open_timeout=10, close_timeout=2):
                pass


def test_malformed_messages_are_refused_and_the_connection_stays(tmp_path, capfd):
    """Each of these ended the device's connection with a traceback on the server's terminal
    (TypeError, ValueError, RecursionError): a device's message is refused with the reason instead."""
    from websockets.sync.client import connect

    from tests.web.conftest import served

    with served(tmp_path, ["human", "greedy"]) as (web, url):
        base, token = url.split("/?t=")
        with connect(base.replace("http", "ws") + f"/ws?t={token}", open_timeout=10, close_timeout=5) as ws:
            ws.recv(timeout=10)
            for message, reason in [({"type": "reveal", "seat": [0]}, "this device does not hold that seat"),
                                    ({"type": "reveal", "seat": {"0": 1}}, "this device does not hold that seat"),
                                    ("[" * 1500 + "]" * 1500, "not a JSON message")]:
                ws.send(message if isinstance(message, str) else json.dumps(message))
                assert json.loads(ws.recv(timeout=10)) == {"type": "refused", "message": reason}
                assert json.loads(ws.recv(timeout=10))["type"] == "table"
            ws.send(json.dumps({"type": "hello", "tokens": {"²": "x", "0" * 3000: "y"}}))  # no seat: nothing taken
            assert json.loads(ws.recv(timeout=10))["mine"] == []
    assert "Traceback" not in capfd.readouterr().err


def test_the_replay_api_refuses_deep_and_oversized_bodies_without_reading_them_whole(tmp_path, capfd):
    import http.client

    from generator.web.server import MAX_RECORD
    from tests.web.conftest import served

    with served(tmp_path, ["human", "greedy"]) as (web, url):
        base, token = url.split("/?t=")
        host, port = base.removeprefix("http://").split(":")

        def post(body, headers):
            conn = http.client.HTTPConnection(host, int(port), timeout=30)
            conn.request("POST", f"/api/replay?t={token}", body=body, headers=headers)
            answer = conn.getresponse()
            said = answer.status, json.loads(answer.read())["error"]
            conn.close()
            return said

        assert post(b"[" * 50_000 + b"]" * 50_000, {}) == \
            (400, "not readable JSON: lists or objects nested too deeply")
        # a body sent in chunks, with no length said: read only up to the limit
        chunks = iter([b" " * 65536] * (4 * MAX_RECORD // 65536))
        assert post(chunks, {}) == (413, "a record is at most 256 KiB")
        assert post(b"{}", {"Content-Length": str(MAX_RECORD + 1)})[0] == 413
        # a client gone half-way through its body
        import socket

        with socket.create_connection((host, int(port)), timeout=10) as sock:
            sock.sendall(f"POST /api/replay?t={token} HTTP/1.1\r\nHost: {host}\r\nContent-Length: 1000\r\n\r\n{{".encode())
        assert post(b"{}", {})[0] == 400  # and the server answers the next one
    assert "Traceback" not in capfd.readouterr().err


def test_a_records_folder_that_cannot_be_written_is_refused_before_anyone_plays(tmp_path, capsys):
    """A game finished at a table whose --record folder could not be written ended with a traceback,
    the player's connection dropped, and 'no game was played' at Ctrl-C."""
    from tests.conftest import run

    afile = tmp_path / "afile"
    afile.write_text("not a folder")
    status, out, err = run(capsys, "play", "--web", "--manifest", str(MANIFEST), "--seats", "human,greedy",
                           "--port", "0", "--record", str(afile))
    assert status == 2 and out == ""
    assert err == f"county-uppy play: {afile} exists and is not a folder (the game records' folder; --record DIR for another)\n"


def test_a_record_that_cannot_be_saved_mid_session_is_said_and_still_offered(tmp_path):
    from generator.deck.manifest import load
    from generator.web.server import Settings, WebTable

    records = tmp_path / "games"
    settings = Settings(manifest=MANIFEST, edition="the-og", seats=["human", "greedy"], options={}, out=tmp_path,
                        records=records, delay=0, seed=12, load=load)
    web = WebTable(settings, load(MANIFEST))
    records.write_text("the folder was replaced by a file while the game went on")
    table = web.table
    while not table.over:
        if table.human_to_decide() >= 0:
            seat = table.human_to_decide()
            table.decide(seat, table._question(seat, False)[1][0]["decision"], table.seq)
        else:
            table.step_bot()
    assert web.save_record() is None
    assert web.unsaved == [f"game 1's record could not be saved to {records}: File exists"]
    assert web.finished[1]["seed"] == 12  # /record/1.json still offers it for download


def test_a_fifo_put_in_the_manifests_place_does_not_hold_up_the_table(tmp_path):
    """The table hashes the manifest every second to tell the players it changed: a FIFO in its
    place blocked that read, and with it every connection of the table."""
    import os
    import shutil
    import threading

    from generator.web import server

    manifest = tmp_path / "cards.yaml"
    shutil.copyfile(MANIFEST, manifest)
    assert server._hash(manifest)
    manifest.unlink()
    os.mkfifo(manifest)
    answer = []
    reader = threading.Thread(target=lambda: answer.append(server._hash(manifest)), daemon=True)
    reader.start()
    reader.join(timeout=10)
    assert answer == [""]


def test_a_table_started_without_a_seed_deals_from_too_many_seeds_to_search(tmp_path):
    """A player who sees their hand must not be able to find the deal by trying every seed: a
    table (and a terminal game) started without --seed takes one below 2**52 (exact in the replay
    page's JavaScript), not below 2**31. 24 tables: all below 2**31 by chance with odds 2**-504."""
    from generator.deck.manifest import load
    from generator.engine.game import RANDOM_SEEDS
    from generator.web.server import Settings, WebTable

    deck = load(MANIFEST)
    seeds = []
    for _ in range(24):
        settings = Settings(manifest=MANIFEST, edition="the-og", seats=["human", "greedy"], options={}, out=tmp_path,
                            records=tmp_path / "games", delay=0, seed=None, load=load)
        seeds.append(WebTable(settings, deck).table.seed)
    assert RANDOM_SEEDS <= 2**53 and all(0 <= s < RANDOM_SEEDS for s in seeds)
    assert max(seeds) >= 2**40 and len(set(seeds)) == len(seeds)


@pytest.mark.parametrize("host, open_to_all", [("", True), ("0.0.0.0", True), ("::", True), ("192.0.2.7", True),
                                               ("127.0.0.1", False), ("127.0.0.2", False), ("::1", False),
                                               ("localhost", False)])
def test_a_server_open_beyond_this_machine_says_so_for_the_table_and_the_replay(monkeypatch, host, open_to_all):
    # `--host ""` listens on every interface, as 0.0.0.0 does: the replay page said nothing of it.
    from generator.web import run

    class Bound:  # what Running gives, without binding anything
        def __init__(self, app, host, port, token):
            self.port, self.token = 8766, token

        def start(self):
            return self

        def url(self, host=None, path="/"):
            return f"http://{host}:{self.port}{path}?t={self.token}"

    monkeypatch.setattr(run, "Running", Bound)
    monkeypatch.setattr(run, "_wait", lambda running: False)
    monkeypatch.setattr(run, "WebTable", lambda settings, deck: type("Web", (), {"token": "tok", "host_key": ""})())
    monkeypatch.setattr(run, "make_app", lambda web: None)
    monkeypatch.setattr(run, "lan_address", lambda: "192.0.2.9")
    for serve in (lambda say: run.serve_replay(None, "tok", host, 0, say, "r=x"),
                  lambda say: run.serve_table(None, None, host, 0, say)):
        said: list[str] = []
        serve(said.append)
        warned = [line for line in said if line.startswith("anyone on the network with this link can")]
        assert bool(warned) == open_to_all, said


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "86401"])
def test_a_reconnect_timeout_out_of_range_is_refused(capsys, value):
    from tests.conftest import run

    status, out, err = run(capsys, "play", "--web", "--manifest", str(MANIFEST), "--port", "0",
                           f"--reconnect-timeout={value}")
    assert status == 2 and out == ""
    assert err.startswith("county-uppy play: --reconnect-timeout must be a number of seconds from 0 to 86400, not ")


def test_host_controls_print_a_host_link_that_gives_an_away_seat_to_a_bot(tmp_path):
    from websockets.sync.client import connect

    proc, url = start(tmp_path, "--seats", "human,human,greedy", "--seed", "3", "--host-controls",
                      "--reconnect-timeout", "0")
    try:
        line = ""
        for _ in range(5):
            line = proc.stdout.readline()
            if line.startswith("host link"):
                break
        host = re.search(r"(http://\S+&host=[\w-]+)$", line.strip())
        assert host and host.group(1).startswith(url), line
        # the host link's cookie makes this connection the host's; the player's link alone does not
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        opener.open(host.group(1), timeout=10)
        jar = next(h.cookiejar for h in opener.handlers if isinstance(h, urllib.request.HTTPCookieProcessor))
        cookies = "; ".join(f"{c.name}={c.value}" for c in jar)
        assert "county_uppy_host=" in cookies
        ws_url = url.replace("http://", "ws://").replace("/?t=", "/ws?t=")
        with connect(ws_url, additional_headers={"Cookie": cookies}, open_timeout=10) as ws:
            first = json.loads(ws.recv(timeout=10))
            assert first["controls"] is True and first["presence"][1]["state"] == "free"
            ws.send(json.dumps({"type": "seat", "seat": 1, "to": "bot"}))
            for _ in range(10):
                msg = json.loads(ws.recv(timeout=10))
                if msg.get("kinds", [None])[1] == "greedy":
                    break
            assert msg["kinds"] == ["human", "greedy", "greedy"]
            assert "seat 1 is played by a greedy bot now: no one took it" in msg["log"]
        with connect(ws_url, open_timeout=10) as player:
            assert json.loads(player.recv(timeout=10))["controls"] is False
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=30)
