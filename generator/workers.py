"""Worker processes for long runs (simulate, report): a bounded window of jobs, clean Ctrl-C.

Workers ignore SIGINT; the parent turns Ctrl-C into KeyboardInterrupt, cancels the jobs not
yet started and terminates the workers at once, so no worker prints a traceback and nothing
waits for queued work.
"""

from __future__ import annotations

import signal
import threading
from collections import deque
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator


def _worker_start(initializer: Callable[..., None] | None, initargs: tuple) -> None:
    """First thing in a worker process: Ctrl-C is the parent's to handle (it stops the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*initargs)


@contextmanager
def interrupts_held(*, reraise: bool = True) -> Iterator[None]:
    """Hold Ctrl-C back until the block is done, then raise it (`reraise`) or drop it.

    Used while worker processes start (a worker forked meanwhile inherits the holding handler,
    so a Ctrl-C to the whole process group is not a traceback there) and while a build moves
    its files into place (dropped: the build then completes). Only the main thread may set
    handlers; elsewhere, or inside another hold (SIGINT not Python's default), nothing changes.
    """
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return
    held: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if held and reraise:
        raise KeyboardInterrupt


class WorkerPool:
    """Run a function over a stream of jobs on worker processes, a bounded window of jobs at a time.

    `map(fn, jobs)` yields the results in job order. Jobs are taken from `jobs` (any iterable,
    a generator is best) only as results are taken, so a run of any length holds at most
    `window` jobs and results. Workers ignore SIGINT: a Ctrl-C, whether sent to the parent alone
    or to the whole process group, raises KeyboardInterrupt in the parent only, and leaving the
    `with` block early (on any exception) cancels the jobs not yet started and terminates the
    workers at once instead of waiting for them.
    """

    def __init__(self, workers: int, initializer: Callable[..., None] | None = None, initargs: tuple = (),
                 mp_context=None, window: int | None = None):
        self.window = max(1, window or 4 * workers)
        self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=mp_context, initializer=_worker_start,
                                         initargs=(initializer, initargs))
        self._pending: deque[Future] = deque()
        self._started = False
        self._drained = False

    def __enter__(self) -> "WorkerPool":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None and self._drained:
            self._pool.shutdown(wait=True)
        else:
            self.abort()

    def map(self, fn: Callable[[Any], Any], jobs: Iterable[Any]) -> Iterator[Any]:
        pending = self._pending
        for job in jobs:
            if len(pending) >= self.window:
                yield self._take()
            if self._started:
                pending.append(self._pool.submit(fn, job))
            else:
                with interrupts_held():  # the first submit starts the workers
                    pending.append(self._pool.submit(fn, job))
                self._started = True
        while pending:
            yield self._take()
        self._drained = True

    def _take(self) -> Any:
        result = self._pending[0].result()  # still listed while waiting: finished() can collect it
        self._pending.popleft()
        return result

    def finished(self) -> list[Any]:
        """The results of jobs that finished but were not yet taken from map(), in job order
        (after map() was cut short, e.g. by Ctrl-C)."""
        return [f.result() for f in self._pending if f.done() and not f.cancelled() and f.exception() is None]

    def abort(self) -> None:
        """Cancel the jobs not started and terminate the workers, without waiting for them."""
        processes = list((getattr(self._pool, "_processes", None) or {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            try:
                process.terminate()
            except (OSError, ValueError, AttributeError):
                pass  # already gone
