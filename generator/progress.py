"""The one progress bar of the project (build, simulate, report): rich, on stderr, only on a terminal.

A ticking bar starts on its first update rather than when it is made: rich draws it from a
thread, and a process that forks worker processes while that thread runs can deadlock them, so
the bar waits until the first result, when the workers exist. A build forks workers all along,
so its bars do not tick: they are drawn from the build's own thread as its steps go by.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator, TextIO


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

    A bar made while another is on screen is drawn as a line under it, in the same display,
    and its line goes when it closes (a build's card images under the build's own bar).
    `ticking` bars redraw themselves from a thread, so their clock runs between updates; a bar
    whose process forks workers while it is on screen (a build) must not tick: it redraws only
    when it is updated, from the caller's thread, and may then be shown at once (show()).
    """

    def __init__(self, total: int, label: str, *, enabled: bool | None = None, transient: bool = True,
                 ticking: bool = True):
        self.total = total
        self.label = label
        self.enabled = is_terminal() if enabled is None else enabled
        self.transient = transient
        self.ticking = ticking
        self._progress: Any = None
        self._task: Any = None
        self._drawn = 0.0

    def _start(self) -> None:
        if _SHOWN:  # another bar is on screen: this one is a line of its display
            self._progress = _SHOWN[0]._progress
        else:
            # lazy: rich costs start-up time, and most runs (pipes, tests, CI) never draw a bar
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                       TimeRemainingColumn)

            self._progress = Progress(TextColumn("{task.description}", markup=False), BarColumn(),
                                      MofNCompleteColumn(), TextColumn("elapsed"), TimeElapsedColumn(),
                                      TextColumn("left"), TimeRemainingColumn(), console=Console(stderr=True),
                                      transient=self.transient, auto_refresh=self.ticking)
            self._progress.start()
        _SHOWN.append(self)
        self._task = self._progress.add_task(self.label, total=self.total)
        self._redraw(force=True)

    def _redraw(self, force: bool = False) -> None:
        """Draw the display now, if it does not draw itself, at most ten times a second."""
        owner = _SHOWN[0] if _SHOWN else self
        if owner.ticking:
            return
        now = time.monotonic()
        if force or now - self._drawn >= 0.1:
            self._drawn = now
            self._progress.refresh()

    def show(self) -> None:
        """Draw the bar now, at 0 done (a bar otherwise appears at its first update)."""
        if self.enabled and self._progress is None:
            self._start()

    @contextmanager
    def waiting(self, done: Callable[[], int] | None = None) -> Iterator[None]:
        """While the caller waits for workers (and starts none), redraw the bar from a thread
        every tenth of a second, its count read from `done()`, so its clock runs; the thread
        ends before the caller goes on, so it never runs while the process forks."""
        if not self.enabled:
            yield
            return
        self.show()
        stop = threading.Event()

        def tick() -> None:
            while not stop.wait(0.1):
                if done is not None:
                    self.set(done())
                else:
                    self._redraw(force=True)

        thread = threading.Thread(target=tick, name="progress", daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join()

    def describe(self, label: str) -> None:
        """Show `label` in front of the bar from now on (what is being done)."""
        self.label = label
        if self._progress is not None:
            self._progress.update(self._task, description=label)
            self._redraw(force=True)

    def advance(self, n: int = 1) -> None:
        """`n` more items are done."""
        if not self.enabled:
            return
        if self._progress is None:
            self._start()
        self._progress.advance(self._task, n)
        self._redraw()

    def set(self, done: int) -> None:
        """`done` items are done in all."""
        if not self.enabled:
            return
        if self._progress is None:
            self._start()
        self._progress.update(self._task, completed=done)
        self._redraw()

    def close(self) -> None:
        if self._progress is None:
            return
        if self in _SHOWN:
            _SHOWN.remove(self)
        if _SHOWN:  # a line of another bar's display: its line goes (or stays, drawn once more)
            if self.transient:
                self._progress.remove_task(self._task)
            _SHOWN[0]._redraw(force=True)
        else:
            if not self.ticking and not self.transient:
                self._progress.refresh()
            self._progress.stop()
        self._progress = None

    def __enter__(self) -> "ProgressBar":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


#: The bars on screen, the one that owns the display first.
_SHOWN: list[ProgressBar] = []
