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
