"""`watch` keeps one Chromium for its whole session: every rebuild's rulebook print uses it (no
start-up each time), a browser that crashed is started again at the next print without breaking
the watch, and none is left running once the watch stops (Ctrl-C or SIGTERM).

The browser is found among the watch process's children; the user's print cache is a folder of
the test's own, so every rulebook edit is printed anew."""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import time
from pathlib import Path

import pytest

from tests.browser import chromium_path
from tests.conftest import MANIFEST
from tests.preview.watching import Watch, edit

SKIP = "text: Skip the next player's turn."


def browsers(parent: int) -> set[int]:
    """The Chromium processes started by `parent` (each a session leader: the browser itself)."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes()  # a wrapper script's too: /bin/sh .../chromium
        except OSError:
            continue
        fields = dict(line.split(":\t", 1) for line in status.splitlines() if ":\t" in line)
        if fields.get("PPid", "").strip() == str(parent) and b"chrom" in command.lower():
            found.add(int(entry))
    return found


def alive(group: int, wait: float = 5.0) -> bool:
    """Whether a process of the group `group` led still runs (a zombie, dead and waiting to be
    reaped by whoever inherited it, does not count) after up to `wait` seconds."""
    deadline = time.monotonic() + wait
    while True:
        running = []
        for entry in os.listdir("/proc"):
            try:
                stat = Path(f"/proc/{entry}/stat").read_text() if entry.isdigit() else ""
            except OSError:
                continue
            fields = stat.rpartition(")")[2].split()  # after "(name)": state, ppid, pgrp, ...
            if len(fields) > 2 and fields[2] == str(group) and fields[0] not in ("Z", "X"):
                running.append(int(entry))
        if not running or time.monotonic() >= deadline:
            return bool(running)
        time.sleep(0.05)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def rebuilt(watch: Watch, builds: int) -> dict:
    return watch.wait_for(lambda s: s["builds"] >= builds and s["status"] == "ok" and not s["pending"], 120,
                          f"rebuild {builds}")


@pytest.mark.skipif(not hasattr(os, "killpg") or not Path("/proc/self/status").is_file(), reason="reads /proc")
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_one_browser_prints_every_rebuild_and_goes_with_the_watch(tmp_path: Path, stop: int):
    chromium_path()  # skips (or fails on CI) without Chromium
    manifest, out = tmp_path / "cards.yaml", tmp_path / "out"
    shutil.copy(MANIFEST, manifest)
    with Watch(manifest, out, env={"XDG_CACHE_HOME": str(tmp_path / "cache")}) as watch:
        builds = watch.wait_for(lambda s: s["status"] == "ok", 120, "the first build")["builds"]
        pdf = out / "rulebook.pdf"
        assert pdf.is_file()
        (first,) = browsers(watch.proc.pid)  # started for the first build's print, still running
        printed = sha(pdf)

        text = SKIP
        for n in (1, 2):  # two rebuilds that print the rulebook again: the same browser
            edit(manifest, text, text := f"text: Skip the next player's turn ({n}).")
            rebuilt(watch, builds + n)
            assert sha(pdf) != printed, "the rulebook was not printed again"
            printed = sha(pdf)
            assert browsers(watch.proc.pid) == {first}

        os.killpg(first, signal.SIGKILL)  # the browser crashes between two rebuilds (a zombie until reaped)
        edit(manifest, text, "text: Skip the next player's turn (3).")
        state = rebuilt(watch, builds + 3)
        assert sha(pdf) != printed and state["status"] == "ok"  # printed by a browser started anew
        (again,) = browsers(watch.proc.pid)
        assert again != first and not alive(first, wait=0)
        assert not any("rulebook PDF skipped" in line for line in watch.stderr + watch.stdout)
        status = watch.stop(stop)
    assert status == 128 + stop
    assert not alive(again), "a Chromium outlived the watch"
    assert "Traceback" not in "\n".join(watch.stderr)
