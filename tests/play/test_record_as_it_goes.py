"""The terminal game's record is written as the game goes (docs/formats.md, "A record in
progress"): a SIGKILL mid-game leaves a record that `replay` plays up to the last decision.
It was written only at the end, so a kill or a power cut lost the whole game."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time

from generator.cli import main
from tests.conftest import MANIFEST_ARG as MANIFEST, ROOT


def _decisions(path) -> list[str]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]


def test_a_killed_terminal_game_s_record_replays_to_its_last_decision(tmp_path, monkeypatch, capsys):
    record = tmp_path / "games" / "g.json"
    proc = subprocess.Popen([sys.executable, "-m", "generator", "play", "--manifest", MANIFEST, "--seed", "5",
                             "--delay", "0", "--record", str(record)],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, start_new_session=True)
    try:
        for _ in range(3):  # three answers of the person; the bots decide between them
            proc.stdin.write("1\n")
            proc.stdin.flush()
            time.sleep(0.3)
        deadline = time.monotonic() + 60
        while not (record.is_file() and len(_decisions(record)) >= 6):
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read() if proc.poll() else "slow"
            time.sleep(0.1)
        time.sleep(0.3)  # the game waits for the fourth answer now
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate(timeout=10)  # closes the pipes
    killed = _decisions(record)
    first = record.read_text(encoding="utf-8").splitlines()[0]
    assert json.loads(first) == {"seed": 5, "players": 4, "edition": "the-og", "options": {},
                                 "bots": ["human", "greedy", "greedy", "greedy"], "decisions": []}
    # the same game played on with the same answers: the killed record is its beginning, every
    # decision made before the kill included (the three answers and the bots' turns after them)
    whole = tmp_path / "whole.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 3))
    main(["play", "--manifest", MANIFEST, "--seed", "5", "--record", str(whole)])
    capsys.readouterr()
    played = json.loads(whole.read_text())["decisions"]
    assert killed == played and len(killed) >= 6
    assert main(["replay", "--manifest", MANIFEST, str(record), "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["matches"] is None
    assert f"the record of a game in progress (it stopped before its end was saved): its {len(killed)} decisions " \
           "replayed without error" in err


def test_a_decision_cut_short_is_left_out_and_a_bad_line_is_located(tmp_path, monkeypatch, capsys):
    record = tmp_path / "g.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 2))
    main(["play", "--manifest", MANIFEST, "--seed", "5", "--record", str(tmp_path / "whole.json")])
    capsys.readouterr()
    decisions = json.loads((tmp_path / "whole.json").read_text())["decisions"]
    header = json.dumps({"seed": 5, "players": 4, "edition": "the-og", "options": {},
                         "bots": ["human", "greedy", "greedy", "greedy"], "decisions": []})
    lines = [header, *map(json.dumps, decisions)]
    record.write_text("\n".join(lines)[:-2])  # the last decision was being written: '"play C' and no line end
    assert main(["replay", "--manifest", MANIFEST, str(record)]) == 0
    assert f"its {len(decisions) - 1} decisions replayed without error" in capsys.readouterr().err
    record.write_text("\n".join([lines[0], lines[1], "play C3", *lines[2:]]) + "\n")  # a decision not as JSON text
    assert main(["replay", "--manifest", MANIFEST, str(record)]) == 2
    err = capsys.readouterr().err
    assert f"{record}:3:" in err and "a record in progress holds one decision per line" in err


def test_the_journal_writes_through_no_link_and_into_no_fifo(tmp_path, deck):
    """A link planted at the record's name is not written through as the game goes (its target
    stays as it was), and a FIFO there stops the journal at once instead of waiting for a reader."""
    import os

    from generator.engine import Game
    from generator.engine.journal import RecordJournal

    outside = tmp_path / "precious.txt"
    outside.write_text("keep me\n", encoding="utf-8")
    link = tmp_path / "record.json"
    link.symlink_to(outside)
    state = Game(deck, "the-og", 3).new_initial_state(4)
    journal = RecordJournal(link, state, ["human", "greedy", "greedy"])
    state.apply(state.legal_actions()[0])
    journal.sync()
    assert journal.failed and outside.read_text(encoding="utf-8") == "keep me\n"
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    journal = RecordJournal(fifo, state, ["human", "greedy", "greedy"])
    journal.sync()  # returns at once: opening a FIFO to write used to wait for a reader
    assert journal.failed
