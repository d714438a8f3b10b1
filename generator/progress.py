"""The one progress bar of the project (build, simulate, report): rich, on stderr, only on a terminal.

It starts on its first update rather than when it is made: rich draws from a thread, and a
process that forks worker processes while that thread runs can deadlock them, so the bar waits
until the first result, when the workers exist.
"""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO


def is_terminal(stream: TextIO | None = None) -> bool:
    """Whether `stream` (default: stderr) is a terminal a bar may be drawn on (not TERM=dumb)."""
    stream = sys.stderr if stream is None else stream
    try:
        return bool(stream.isatty()) and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):  # no stream, or a closed one
        return False


class ProgressBar:
    """`label`, a bar, done/total, time elapsed and left; a no-op when `enabled` is false.

    `enabled` defaults to "stderr is a terminal". `transient` bars vanish when closed (a build's
    steps); others stay on screen (a report's long run). Use as a context manager, or call close().
    """

    def __init__(self, total: int, label: str, *, enabled: bool | None = None, transient: bool = True):
        self.total = total
        self.label = label
        self.enabled = is_terminal() if enabled is None else enabled
        self.transient = transient
        self._progress: Any = None
        self._task: Any = None

    def _start(self) -> None:
        # lazy: rich costs start-up time, and most runs (pipes, tests, CI) never draw a bar
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)

        self._progress = Progress(TextColumn(self.label), BarColumn(), MofNCompleteColumn(), TextColumn("elapsed"),
                                  TimeElapsedColumn(), TextColumn("left"), TimeRemainingColumn(),
                                  console=Console(stderr=True), transient=self.transient)
        self._task = self._progress.add_task(self.label, total=self.total)
        self._progress.start()

    def advance(self, n: int = 1) -> None:
        """`n` more items are done."""
        if not self.enabled:
            return
        if self._progress is None:
            self._start()
        self._progress.advance(self._task, n)

    def set(self, done: int) -> None:
        """`done` items are done in all."""
        if not self.enabled:
            return
        if self._progress is None:
            self._start()
        self._progress.update(self._task, completed=done)

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def __enter__(self) -> "ProgressBar":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
