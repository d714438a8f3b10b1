"""Worker processes for long runs (simulate, report, the build's rendering), and the one way
the project stops on a signal.

The signal story: Ctrl-C (SIGINT), SIGTERM (what `timeout`, CI runners and service managers
send) and SIGHUP (a closed terminal or SSH session) all become KeyboardInterrupt in the main
process (`stop_signals()`, installed by the CLI), so every command cleans up the same way; the
CLI exits 130 after SIGINT, 143 after SIGTERM and 129 after SIGHUP (128 + the signal's
number). Workers ignore all three, leaving them to the parent, which
cancels the jobs not yet started and kills the workers at once, so no worker prints a traceback
and nothing waits for queued work. A worker also dies with its parent however the parent ends,
SIGKILL included: on Linux the kernel sends it SIGKILL (PR_SET_PDEATHSIG), elsewhere a thread
in the worker watches for the parent to go.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator


#: The signals that stop a command as Ctrl-C does: SIGHUP is what a closed terminal or SSH
#: session sends.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, *([signal.SIGHUP] if hasattr(signal, "SIGHUP") else []))

_received: list[int] = []  #: stop signals this process has received since stop_signals() began


def _stop(signum: int, frame: object) -> None:
    """The handler of SIGTERM (and of SIGINT, as Python's own): stop as Ctrl-C does."""
    _received.append(signum)
    raise KeyboardInterrupt


def _ours(handler: object) -> bool:
    return handler is signal.default_int_handler or handler is _stop


@contextmanager
def stop_signals() -> Iterator[None]:
    """While the block runs, SIGINT, SIGTERM and SIGHUP all raise KeyboardInterrupt in the main thread.

    The handlers in place before are put back afterwards (tests call the CLI in-process).
    `stopped_by()` tells which signal it was.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _received.clear()
    previous = {s: signal.getsignal(s) for s in STOP_SIGNALS}
    try:
        for s in STOP_SIGNALS:
            if previous[s] in (signal.SIG_DFL, signal.default_int_handler):  # not when a caller chose to ignore it
                signal.signal(s, _stop)
        yield
    finally:
        for s, handler in previous.items():
            if handler is not None:
                signal.signal(s, handler)


def stopped_by() -> int | None:
    """The stop signal (SIGINT, SIGTERM or SIGHUP) received last since stop_signals() began, if any."""
    return _received[-1] if _received else None


def interrupted_status() -> int:
    """The exit status after a stop: 128 + the signal's number (130 after Ctrl-C, 143 after SIGTERM, 129 after SIGHUP)."""
    return 128 + (stopped_by() or signal.SIGINT)


@contextmanager
def interrupts_held(*, reraise: bool = True) -> Iterator[list[int]]:
    """Hold Ctrl-C and SIGTERM back until the block is done, then raise KeyboardInterrupt
    (`reraise`) or drop them. The block gets the list of the signals held so far.

    Used while worker processes start (a worker forked meanwhile inherits the holding handler,
    so a stop sent to the whole process group is not a traceback there) and while a build moves
    its files into place (the move completes, then the build stops). Only the main thread may
    set handlers; elsewhere, or inside another hold, nothing changes. SIGTERM is held only where
    it already stops as Ctrl-C does (stop_signals()); otherwise it keeps its own meaning.
    """
    held: list[int] = []
    if (threading.current_thread() is not threading.main_thread()
            or not _ours(signal.getsignal(signal.SIGINT))):
        yield held
        return

    def hold(signum: int, frame: object) -> None:
        held.append(signum)

    previous = {s: signal.signal(s, hold) for s in STOP_SIGNALS if _ours(signal.getsignal(s))}
    try:
        yield held
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    if held:
        _received.extend(held)
        if reraise:
            raise KeyboardInterrupt


# --- workers -------------------------------------------------------------------------------------

PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Make this (worker) process end when process `parent` does, even when it is SIGKILLed.

    Linux: prctl(PR_SET_PDEATHSIG, SIGKILL), then a check that the parent did not already go
    before that took effect. Elsewhere: a daemon thread that polls the parent's id.
    """
    if sys.platform.startswith("linux"):
        try:
            libc = c_library()
            if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
                if os.getppid() != parent:
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass  # no libc to call: watch instead

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


#: glibc's mallopt() parameters: the size from which a block is a mapping of its own, and the free
#: memory at the heap's top kept rather than given back to the system.
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
KEPT_FREE = 64 << 20


def keep_freed_memory() -> None:
    """Have C's allocator keep, for the next one, the large blocks this process frees (glibc,
    where mallopt exists), rather than unmapping each and trimming the heap: for a short-lived
    worker that makes one large block after another of the same sizes, each of whose pages the
    system would otherwise hand over (zeroed) again at its first touch."""
    if not sys.platform.startswith("linux"):
        return
    try:
        mallopt = c_library().mallopt
    except (OSError, AttributeError):
        return
    mallopt(M_MMAP_THRESHOLD, KEPT_FREE)
    mallopt(M_TRIM_THRESHOLD, 2 * KEPT_FREE)


def c_library():
    """The C library, through ctypes: the process's own symbols (which hold libc's on Linux),
    else the library ctypes finds by name. Looking it up by name first runs `ldconfig -p` in a
    subprocess, tens of milliseconds at the start of every worker (OSError or AttributeError
    where there is none)."""
    # lazy: only worker processes and a commit of many files need it; the CLI imports this module at start-up
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl, libc.syncfs  # noqa: B018 -- both looked up now: AttributeError where they are not
        return libc
    except (OSError, AttributeError):
        import ctypes.util  # lazy: a system whose own symbols do not hold them

        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


def worker_start(parent: int, initializer: Callable[..., None] | None = None, initargs: tuple = ()) -> None:
    """First thing in a worker process: die with the parent, and leave Ctrl-C, SIGTERM and SIGHUP
    to it (it stops the workers)."""
    die_with_parent(parent)
    for s in STOP_SIGNALS:
        signal.signal(s, signal.SIG_IGN)
    if initializer is not None:
        initializer(*initargs)


@contextmanager
def collector_frozen(forking: bool = True) -> Iterator[None]:
    """While worker processes fork from this one: every object it holds is moved out of the
    cycle collector's reach (gc.freeze), so a worker's collections never walk them. A forked
    worker shares the parent's memory until it writes to it, and a collection writes to every
    object it walks: a worker's first full collection copied the whole heap it had inherited
    (25 ms before a one-card rebuild's worker could start drawing). Afterwards this process's
    objects are collected as before (gc.unfreeze), unless something had frozen objects already:
    those stay frozen, with these."""
    if not forking:
        yield
        return
    frozen_before = gc.get_freeze_count()
    gc.freeze()
    try:
        yield
    finally:
        if not frozen_before:
            gc.unfreeze()


class WorkerDied(RuntimeError):
    """A worker process ended in the middle of a job (killed from outside, out of memory)."""


def _serve(conn, parent: int, initializer: Callable[..., None] | None, initargs: tuple) -> None:
    """A worker's life: take (fn, job) from the parent, send back ("ok", result) or ("error", exception)."""
    worker_start(parent, initializer, initargs)
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return  # the parent is gone
        if message is None:
            return
        fn, job = message
        try:
            reply = ("ok", fn(job))
        except BaseException as err:  # the parent raises it; the worker serves on
            reply = ("error", err)
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as err:  # a result or an exception that cannot be pickled
            conn.send(("error", RuntimeError(f"{type(err).__name__}: {err}")))


class _Worker:
    def __init__(self, process, conn):
        self.process = process
        self.conn = conn
        self.index: int | None = None  #: the job it is running


class _Run:
    """One map() over a pool: its function, the jobs not yet handed out, and how far it got."""

    def __init__(self, fn: Callable[[Any], Any], jobs: Iterator[Any]):
        self.fn = fn
        self.jobs = jobs
        self.exhausted = False
        self.handed = 0  #: jobs given to workers
        self.taken = 0  #: results yielded


#: Seconds a thread waits on the workers' pipes at a time before it looks whether the pool was
#: stopped (WorkerPool._results_of); a result that comes is read at once.
WAIT = 0.05


class WorkerPool:
    """Run a function over a stream of jobs on worker processes, a bounded window of jobs at a time.

    `map(fn, jobs)` yields the results in job order. Jobs are taken from `jobs` (any iterable,
    a generator is best) only as results are taken, so a run of any length holds at most
    `window` jobs and results. An exception a job raises is raised in the parent.

    Workers ignore SIGINT, SIGTERM and SIGHUP: a Ctrl-C, SIGTERM or SIGHUP, whether sent to the parent alone or
    to the whole process group, raises KeyboardInterrupt in the parent only, and leaving the
    `with` block early (on any exception) kills the workers at once instead of waiting for their
    jobs. Workers die with the parent even when it is killed outright (die_with_parent).

    Each worker has its own pipe and the parent's main thread does all the dispatching: there is
    no helper thread to wait for at exit, so killing a worker half-way through sending a result
    cannot leave anything hanging (as it can with concurrent.futures' pool).
    """

    def __init__(self, workers: int, initializer: Callable[..., None] | None = None, initargs: tuple = (),
                 mp_context=None, window: int | None = None):
        import multiprocessing  # lazy: the CLI imports this module at start-up; only pools need it

        self.window = max(1, window or 4 * workers)
        self._ctx = mp_context or multiprocessing.get_context()
        self._size = max(1, workers)
        self._init = (initializer, initargs)
        self._workers: list[_Worker] = []
        self._results: dict[int, Any] = {}  #: results received, by job index, not yet yielded
        self._drained = False
        self._lock = threading.RLock()  #: held while a thread reads the workers' pipes (_results_of)
        self._stopped = False  #: abort() was called: a thread waiting for results stops

    def __enter__(self) -> "WorkerPool":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None and self._drained:
            self._close()
        else:
            self.abort()

    @property
    def forks(self) -> bool:
        """Do the workers start as forks of this process (sharing its memory as it is)?"""
        return self._ctx.get_start_method() == "fork"

    def _start(self) -> None:
        self._stopped = False  # workers started anew after an abort() serve again
        # a stop while the workers start is raised once they all exist
        with interrupts_held(), collector_frozen(self.forks):
            for _ in range(self._size):
                mine, theirs = self._ctx.Pipe()
                process = self._ctx.Process(target=_serve, args=(theirs, os.getpid(), *self._init), daemon=True)
                process.start()
                theirs.close()  # so that a worker's death is an end of file here
                self._workers.append(_Worker(process, mine))

    def map(self, fn: Callable[[Any], Any], jobs: Iterable[Any], *, start: bool = False) -> Iterator[Any]:
        """fn(job) for every job, on the workers; the results in job order.

        `start`: hand the first jobs out (one per worker) before returning, so that they run
        while the caller does other work; the results are then taken from the iterator as usual.
        """
        if not self._workers:
            self._start()
        run = _Run(fn, iter(jobs))
        if start:
            self._hand_out(run)
        return self._results_of(run)

    def _hand_out(self, run: "_Run") -> None:
        """Give jobs to idle workers, keeping at most `window` jobs out and results unread."""
        idle = [w for w in self._workers if w.index is None]
        while idle and not run.exhausted and run.handed - run.taken < self.window:
            try:
                job = next(run.jobs)
            except StopIteration:
                run.exhausted = True
                break
            worker = idle.pop()
            worker.conn.send((run.fn, job))
            worker.index, run.handed = run.handed, run.handed + 1

    def _results_of(self, run: "_Run") -> Iterator[Any]:
        """The results in job order. The workers' pipes are read under the pool's lock, a short
        wait at a time, so that abort() from another thread (a build stopping while a thread of
        its own waits for a result) closes them only once no thread is reading them."""
        from multiprocessing.connection import wait  # lazy: as multiprocessing in __init__

        results = self._results
        while True:
            if self._stopped:  # looked at before the lock is taken again, so abort() gets it
                raise WorkerDied("the worker processes were stopped")
            with self._lock:
                self._hand_out(run)
                taken = run.taken in results
                if taken:
                    run.taken += 1
                    value = results.pop(run.taken - 1)
                else:
                    busy = [w for w in self._workers if w.index is not None]
                    if not busy:
                        break  # every job handed out has been yielded, and there are no more
                    ready = wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout=WAIT)
                    for worker in busy:
                        if worker.conn in ready or worker.process.sentinel in ready:
                            self._receive(worker)
            if taken:
                yield value
        self._drained = True

    def _receive(self, worker: _Worker) -> None:
        try:
            status, value = worker.conn.recv()
        except (EOFError, OSError):
            if stopped_by() is not None:  # the worker went with the same stop: it is the stop that counts
                raise KeyboardInterrupt from None
            worker.process.join(timeout=1)
            raise WorkerDied(f"a worker process ended unexpectedly (exit status {worker.process.exitcode})") from None
        index, worker.index = worker.index, None
        if status == "error":
            raise value
        self._results[index] = value

    def finished(self) -> list[Any]:
        """The results of jobs that finished but were not yet taken from map(), in job order
        (after map() was cut short, e.g. by Ctrl-C)."""
        return [self._results[i] for i in sorted(self._results)]

    def _close(self) -> None:
        """After every job: ask the workers to end and wait for them."""
        for worker in self._workers:
            try:
                worker.conn.send(None)
            except OSError:
                pass
        for worker in self._workers:
            worker.process.join(timeout=10)
            if worker.process.exitcode is None:
                worker.process.kill()
                worker.process.join()
            worker.conn.close()
        self._workers = []

    def abort(self) -> None:
        """Kill the workers without waiting for their jobs, and reap them; a thread still waiting
        for a result gets WorkerDied (their pipes are closed once it has let go of them).

        SIGKILL, not SIGTERM: workers ignore SIGTERM (it is the parent's to handle) and hold
        nothing that needs cleaning up.
        """
        self._stopped = True
        with self._lock:
            self._kill_all()

    def _kill_all(self) -> None:
        for worker in self._workers:
            try:
                worker.process.kill()
            except (OSError, ValueError, AttributeError):
                pass  # already gone
        for worker in self._workers:
            try:
                worker.process.join(timeout=5)
            except (OSError, ValueError, AssertionError):
                pass
            worker.conn.close()
        self._workers = []
