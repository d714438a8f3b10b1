"""Running `county-uppy watch` as a user does, in a subprocess, with every wait bounded.

`Watch` starts it, reads the preview's address from its first line, and stops it with SIGINT
(killing it if it has not ended within STOP_SECONDS), so no test leaves a process behind.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any, Callable

from tests.conftest import ROOT

START_SECONDS = 60.0  #: for the address line (the command imports, then serves before building)
STOP_SECONDS = 20.0


class Watch:
    def __init__(self, manifest: Path, out: Path, *extra: str, env: dict[str, str] | None = None):
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "generator", "watch", "--port", "0", "--out", str(out), "--manifest", str(manifest),
             *extra],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
        self.stdout: list[str] = []
        self.stderr: list[str] = []
        self._threads = [threading.Thread(target=self._read, args=(s, into), daemon=True)
                         for s, into in ((self.proc.stdout, self.stdout), (self.proc.stderr, self.stderr))]
        for t in self._threads:
            t.start()
        self.url = ""
        deadline = time.monotonic() + START_SECONDS
        while not self.url:
            found = [m.group(0) for line in list(self.stdout) for m in [re.search(r"http://127\.0\.0\.1:\d+/", line)] if m]
            if found:
                self.url = found[0]
            elif self.proc.poll() is not None or time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"watch did not start: stdout {self.stdout}, stderr {self.stderr}")
            else:
                time.sleep(0.05)

    @staticmethod
    def _read(stream, into: list[str]) -> None:
        for line in stream:
            into.append(line.rstrip("\n"))

    def state(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.url + "state", timeout=10) as r:
            return json.load(r)

    def wait_for(self, check: Callable[[dict[str, Any]], bool], seconds: float = 30.0, what: str = "") -> dict[str, Any]:
        """The state once `check(state)` holds; fail after `seconds` showing the last state."""
        deadline = time.monotonic() + seconds
        last: dict[str, Any] = {}
        while time.monotonic() < deadline:
            last = self.state()
            if check(last):
                return last
            time.sleep(0.1)
        brief = {k: last.get(k) for k in ("status", "message", "builds", "problems")}
        raise AssertionError(f"waited {seconds:g} s for {what or 'the state'}: {brief}; stderr {self.stderr}")

    def stop(self, sig: int = signal.SIGINT) -> int:
        """Send `sig`; the exit status (the process is killed if it does not end in time)."""
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            status = self.proc.wait(STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"watch did not stop within {STOP_SECONDS:g} s of signal {sig}") from None
        self._close()
        return status

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self._close()

    def _close(self) -> None:
        for t in self._threads:
            t.join(5)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None and not stream.closed:
                stream.close()

    def __enter__(self) -> "Watch":
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            try:
                self.stop()
            except AssertionError:
                pass
        self.kill()


def edit(path: Path, old: str, new: str) -> None:
    """Replace `old` (which must be there once) with `new`, as an editor saving the file does."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is in the manifest {text.count(old)} times"
    path.write_text(text.replace(old, new), encoding="utf-8")
