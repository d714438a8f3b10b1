"""The web table keeps to its own guests and survives what a hostile client sends: the replay
API's number rules, the WebSocket's Origin, idle and half-sent connections, malformed frames,
the build's card images (issue 36)."""

from __future__ import annotations

import http.client
import json

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
