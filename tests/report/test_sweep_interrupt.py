"""Ctrl-C or SIGTERM during `county-uppy sweep --out DIR`: the cells that finished are written
(sweep.json with "complete": false, sweep.html saying the sweep was interrupted and what is
missing), exit 130 or 143; stopped before any cell finished, nothing is written."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.cli import main
from tests.conftest import MANIFEST
from tests.processes import children
from tests.conftest import ROOT

GAMES = 400
#: 9 targets x 2 hand sizes x 2 player counts: 36 cells of 400 games, several seconds of play.
GRID = ["--param", "target=12..20", "--param", "hand_size=4,5", "--players", "2,4", "--games", str(GAMES)]
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses a pseudo-terminal and /proc")


def _default_stop_signals() -> None:
    """In the child: Ctrl-C and SIGTERM as a terminal gives them (a shell may start jobs ignoring SIGINT)."""
    for s in (signal.SIGINT, signal.SIGTERM):
        signal.signal(s, signal.SIG_DFL)


def sweep_stopped(argv: list[str], cwd: Path, signum: int, ready) -> tuple[int, str, str]:
    """Run `sweep` with its stderr on a pseudo-terminal (so it draws its progress bar), send
    `signum` once `ready(games_done, workers)` is true; return (status, stdout, stderr)."""
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "generator", "sweep", "--manifest", str(MANIFEST), *argv],
                            cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave,
                            start_new_session=True, preexec_fn=_default_stop_signals,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm", "COLUMNS": "120"})
    os.close(slave)
    seen = b""
    try:
        deadline = time.monotonic() + 120
        sent = False
        while True:
            assert time.monotonic() < deadline, f"no end in sight: {seen[-300:]!r}"
            if select.select([master], [], [], 0.05)[0]:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # EIO: the child closed the terminal (it ended)
                    chunk = b""
                if not chunk:
                    break
                seen += chunk
            if not sent:
                counts = re.findall(rb"(\d+)/\d+", seen)  # the bar's done/total
                done = int(counts[-1]) if counts else 0
                assert proc.poll() is None or sent, f"the sweep ended before the signal: {seen[-300:]!r}"
                if ready(done, len(children(proc.pid))):
                    proc.send_signal(signum)
                    sent = True
        out, _ = proc.communicate(timeout=60)
        return proc.returncode, out.decode(), seen.decode("utf-8", "replace")
    finally:
        os.close(master)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()


@linux_only
@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["ctrl-c", "sigterm"])
def test_a_stopped_sweep_writes_the_cells_that_finished(tmp_path, capsys, signum, status):
    got, out, err = sweep_stopped([*GRID, "--workers", "2", "--out", "sw"], tmp_path, signum,
                                  ready=lambda done, workers: done >= GAMES)
    assert got == status, err
    assert "Traceback" not in err
    data = json.loads((tmp_path / "sw" / "sweep.json").read_text(encoding="utf-8"))
    assert data["complete"] is False and data["cells_planned"] == 36
    assert 1 <= data["cells_done"] < 36 and len(data["cells"]) == data["cells_done"]
    assert all(c["games"] == GAMES for c in data["cells"])
    # the finished and the missing cells are the grid, each once
    grid = {(t, h, n) for t in range(12, 21) for h in (4, 5) for n in (2, 4)}
    listed = [(c["params"]["target"], c["params"]["hand_size"], c["players"]) for c in data["cells"] + data["missing"]]
    assert len(listed) == 36 and set(listed) == grid
    assert f"county-uppy sweep: interrupted; {data['cells_done']} of 36 cells finished and are shown, " \
           f"{36 - data['cells_done']} missing (sweep.json lists them)" in err
    assert len([line for line in out.splitlines() if re.match(r"\d+ +\d ", line)]) == data["cells_done"]
    html = (tmp_path / "sw" / "sweep.html").read_text(encoding="utf-8")
    assert "Interrupted sweep." in html and f"stopped after {data['cells_done']} of\n  36 cells had finished" in html
    first_missing = data["missing"][0]
    assert f"target={first_missing['params']['target']}, hand_size={first_missing['params']['hand_size']} · " \
           f"{first_missing['players']} players" in html
    assert len(list((tmp_path / "sw" / "cells").iterdir())) == data["cells_done"]
    # a finished cell holds the same games as the cell swept alone (its seed is the cell's own)
    cell = data["cells"][0]
    assert main(["sweep", "--manifest", str(MANIFEST), "--no-progress", "--workers", "1", "--json", "--games", str(GAMES),
                 "--param", f"target={cell['params']['target']}", "--param", f"hand_size={cell['params']['hand_size']}",
                 "--players", str(cell["players"])]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert alone["complete"] is True and alone["cells_done"] == alone["cells_planned"] == 1 and alone["missing"] == []
    for key in ("seed", "seats", "first_player", "length", "penalties", "cards", "decisions"):
        assert alone["cells"][0][key] == cell[key], key


@linux_only
@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["ctrl-c", "sigterm"])
def test_stopped_before_any_cell_finished_writes_nothing(tmp_path, signum, status):
    out_dir = tmp_path / "sw"
    out_dir.mkdir()
    (out_dir / "sweep.json").write_text("the last sweep\n", encoding="utf-8")
    got, out, err = sweep_stopped(["--param", "target=15,16", "--players", "4", "--games", "20000", "--workers", "2",
                                   "--out", "sw"], tmp_path, signum, ready=lambda done, workers: workers >= 2)
    assert got == status and out == ""
    assert "county-uppy sweep: interrupted before any of the 2 cells finished; nothing was written, sw is as it was" in err
    assert (out_dir / "sweep.json").read_text(encoding="utf-8") == "the last sweep\n"
    assert not (out_dir / "sweep.html").exists() and not (out_dir / "cells").exists()
