"""Where chunks of games run: in this process, on local worker processes, or on a Dask cluster.

simulate, report and sweep cut their games into chunks and hand them to a Backend:

    with open_backend(scheduler, workers) as backend:
        for result in backend.map_chunks(play_chunk, context, chunks):
            ...

`play_chunk(context, chunk)` is a module-level function (so it can be sent by reference);
`context` is what every chunk of the run shares (decks, options, seeds), sent once per
worker; `chunks` is any iterable, consumed lazily. Results come back in chunk order, so
a run's numbers never depend on the backend, the number of workers or timing. Leaving the
`with` block early (Ctrl-C, an error) cancels the chunks not yet run and stops the work at once.

`distributed` is imported only when a scheduler address is given (the `cluster` extra).
"""

from __future__ import annotations

import os
import re
import sys
import time
from abc import ABC, abstractmethod
from collections import deque
from concurrent.futures import CancelledError
from multiprocessing import get_context
from typing import Any, Callable, Iterable, Iterator

from generator.workers import WorkerPool

#: Seconds to wait for a Dask scheduler's connection before giving up.
CONNECT_TIMEOUT = 3.0
#: Seconds more for its answer once connected (a port that accepts and never answers).
HANDSHAKE_TIMEOUT = 5.0
#: Seconds to wait for a worker: at the start, and when every worker has gone during a run.
WORKER_WAIT = 20.0
#: Seconds between looks at the cluster while a chunk's result is awaited.
CHECK_SECONDS = 5.0
#: A scheduler address: [PROTOCOL://]HOST:PORT (IPv6 hosts in brackets).
ADDRESS = re.compile(r"^(?:(?:tcp|tls|ws|wss|ucx)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):\d{1,5}$")
#: How much bigger than local chunks a cluster's chunks are: a task there costs milliseconds
#: of scheduling and transfer, so each must carry more games (benchmarks/bench_cluster.py).
CLUSTER_CHUNK_SCALE = 10


class BackendError(Exception):
    """The backend cannot run the work (an unreachable scheduler, a missing extra): a usage problem."""


class ClusterError(BackendError):
    """The cluster failed during a run: a chunk's workers died too often (Dask gives up on a task
    after a few lost workers), or the scheduler went away."""


class Backend(ABC):
    """Runs `fn(context, chunk)` for each chunk; see the module docstring."""

    #: How many chunks run at once (worker processes, or the cluster's worker threads).
    slots: int = 1
    #: Multiplier for the run's chunk size (see CLUSTER_CHUNK_SCALE).
    chunk_scale: int = 1
    #: What the summary says about where the games ran.
    name: str = "inline"

    def __enter__(self) -> "Backend":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is not None:
            self.cancel()
        self.close()

    @abstractmethod
    def map_chunks(self, fn: Callable[[Any, Any], Any], context: Any, chunks: Iterable[Any]) -> Iterator[Any]:
        """fn(context, chunk) for every chunk, results in chunk order."""

    def finished(self) -> list[Any]:
        """Results of chunks that finished but were not yet taken from map_chunks (after Ctrl-C)."""
        return []

    def cancel(self) -> None:
        """Stop the work not yet done, at once (Ctrl-C); the backend may then be closed."""

    def close(self) -> None:
        """Release the workers (after the work is done or cancelled)."""


class InlineBackend(Backend):
    """Every chunk in this process, one after the other (one worker: no process to start)."""

    def map_chunks(self, fn, context, chunks):
        for chunk in chunks:
            yield fn(context, chunk)


#: (fn, context) of the run, set once in each local worker process by the pool's initializer.
_TASK: tuple = ()


def _set_task(fn: Callable, context: Any) -> None:
    global _TASK
    _TASK = (fn, context)


def _run_task(chunk: Any) -> Any:
    fn, context = _TASK
    return fn(context, chunk)


class LocalBackend(Backend):
    """Worker processes on this machine (generator.workers.WorkerPool), forked so they start quickly."""

    name = "local"

    def __init__(self, workers: int):
        self.slots = workers
        self._pool: WorkerPool | None = None

    def map_chunks(self, fn, context, chunks):
        self.close()  # a backend used for another run (a sweep's next round): the last run's workers go first
        ctx = get_context("spawn" if sys.platform == "win32" else "fork")
        self._pool = WorkerPool(self.slots, _set_task, (fn, context), mp_context=ctx)
        return self._pool.map(_run_task, chunks)

    def finished(self):
        return self._pool.finished() if self._pool is not None else []

    def cancel(self):
        if self._pool is not None:
            self._pool.abort()

    def close(self):
        if self._pool is not None:
            self._pool.__exit__(None, None, None)  # drained: waits for the workers to exit; else stops them
            self._pool = None


class DaskBackend(Backend):
    """Chunks as tasks on an existing Dask distributed cluster (`dask scheduler` + `dask worker`).

    The shared context is scattered to every worker once; chunks go out as tasks a bounded
    window at a time and come back in order. The scheduler re-runs the tasks of a worker
    that is lost, so a lost worker changes no result. Workers need this project installed.

    Nothing waits on the cluster without a limit: before the Dask client is made, the scheduler
    must answer a handshake within HANDSHAKE_TIMEOUT (Dask's own client waits for ever on an
    address that accepts connections and never answers), and have a worker within WORKER_WAIT;
    while a chunk's result is awaited the scheduler is asked every CHECK_SECONDS whether it is
    still there and still has a worker (a chunk itself may take as long as it takes).
    Distributed's own log lines are kept off the terminal (`quiet_distributed`): what goes
    wrong is said once, in the project's words.
    """

    name = "dask"
    chunk_scale = CLUSTER_CHUNK_SCALE

    def __init__(self, address: str, timeout: float = CONNECT_TIMEOUT):
        if not isinstance(address, str) or not ADDRESS.match(address):
            raise BackendError(f"--scheduler takes a Dask scheduler's address such as tcp://10.0.0.5:8786, not {address!r}")
        try:
            from distributed import Client  # lazy: the optional `cluster` extra, needed only with --scheduler
        except ImportError:
            raise BackendError("--scheduler needs the Dask client: pip install 'county-uppy[cluster]'") from None
        quiet_distributed()
        self.address = address
        self._no_worker_since: float | None = None
        self.slots = self._wait_for_workers(self._identity(timeout))
        client = Client.__new__(Client)  # kept on failure, to close it here rather than at garbage collection
        try:
            client.__init__(address, timeout=timeout, set_as_default=False)
        except (Exception, MemoryError) as exc:  # gone since it answered, or garbage answers
            try:
                client.close(timeout=1)
            except Exception:  # noqa: BLE001 - half-made: nothing more to release
                pass
            raise BackendError(f"cannot reach the Dask scheduler at {address} within {timeout:g} s "
                               f"({_reason(exc)}); start one with `dask scheduler` or check the address") from None
        self.client = client
        self._futures: deque = deque()
        self._done_early: list = []

    def _identity(self, timeout: float = CONNECT_TIMEOUT) -> dict:
        """The scheduler's answer to `identity` (its workers and their threads), within a time limit;
        BackendError if it cannot be reached, does not answer or is not a Dask scheduler."""
        import asyncio  # lazy: only with --scheduler

        try:
            answer = asyncio.run(asyncio.wait_for(_ask_identity(self.address, timeout), timeout + HANDSHAKE_TIMEOUT))
        except (asyncio.TimeoutError, TimeoutError):
            raise BackendError(f"the Dask scheduler at {self.address} did not answer within "
                               f"{timeout + HANDSHAKE_TIMEOUT:g} s (something there accepts connections but does "
                               f"not answer as a Dask scheduler); check the address") from None
        except (Exception, MemoryError) as exc:  # refused, unreachable, garbage answers
            raise BackendError(f"cannot reach the Dask scheduler at {self.address} within {timeout:g} s "
                               f"({_reason(exc)}); start one with `dask scheduler` or check the address") from None
        if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
            raise BackendError(f"what answered at {self.address} is not a Dask scheduler; check the address")
        return answer

    def _wait_for_workers(self, identity: dict) -> int:
        """The cluster's worker threads, once it has any: at most WORKER_WAIT seconds, else BackendError."""
        threads = _threads(identity)
        if threads:
            return threads
        print(f"waiting up to {WORKER_WAIT:g} s for a Dask worker to join {self.address}...", file=sys.stderr, flush=True)
        deadline = time.monotonic() + WORKER_WAIT
        while time.monotonic() < deadline:
            time.sleep(0.5)
            threads = _threads(self._identity())
            if threads:
                return threads
        raise BackendError(f"no Dask worker joined the scheduler at {self.address} within {WORKER_WAIT:g} s; start "
                           f"one with `dask worker {self.address}`")

    def map_chunks(self, fn, context, chunks):
        client = self.client
        try:
            [shared] = client.scatter([context], broadcast=True, hash=False, timeout=WORKER_WAIT)
        except (TimeoutError, OSError) as exc:
            raise ClusterError(f"the Dask cluster at {self.address} did not take the run's shared data within "
                               f"{WORKER_WAIT:g} s ({_reason(exc)})") from None
        pending = self._futures
        window = 2 * self.slots + 2
        for chunk in chunks:
            if len(pending) >= window:
                yield self._take()
            pending.append(client.submit(fn, shared, chunk, pure=False))
        while pending:
            yield self._take()

    def _take(self) -> Any:
        # lazy: the optional `cluster` extra, as in __init__
        from distributed import KilledWorker
        from distributed.comm.core import CommClosedError

        future = self._futures[0]
        try:
            while True:
                try:
                    result = future.result(timeout=CHECK_SECONDS)
                    break
                except TimeoutError:
                    self._check_cluster()
        except (KilledWorker, CommClosedError, CancelledError) as exc:
            raise ClusterError(f"the Dask cluster at {self.address} failed during the run "
                               f"({type(exc).__name__}: {_reason(exc)})") from None
        self._no_worker_since = None
        self._futures.popleft()
        return result

    def _check_cluster(self) -> None:
        """While a result is awaited: ClusterError if the scheduler stopped answering, or has had no
        worker for WORKER_WAIT seconds."""
        try:
            identity = self._identity()
        except BackendError as exc:
            raise ClusterError(f"the Dask scheduler at {self.address} stopped answering during the run "
                               f"({str(exc).removeprefix('cannot reach the Dask scheduler at ' + self.address + ' ')})"
                               ) from None
        if _threads(identity):
            self._no_worker_since = None
            return
        now = time.monotonic()
        if self._no_worker_since is None:
            self._no_worker_since = now
        elif now - self._no_worker_since >= WORKER_WAIT:
            raise ClusterError(f"the Dask cluster at {self.address} has had no worker for {WORKER_WAIT:g} s; "
                               f"the run stops (start one with `dask worker {self.address}`)")

    def finished(self):
        return [f.result() for f in [*self._done_early, *self._futures] if f.status == "finished"]

    def cancel(self):
        """Cancel every task of the run on the cluster that has not finished (a task already
        running finishes, unused); those that finished stay for finished()."""
        futures, self._futures = list(self._futures), deque()
        self._done_early = [f for f in futures if f.status == "finished"]
        unfinished = [f for f in futures if f.status != "finished"]
        if unfinished:
            try:
                self.client.cancel(unfinished, force=True)
            except Exception:  # noqa: BLE001 - the connection may be gone already; closing is all that is left
                pass

    def close(self):
        try:
            self.client.close(timeout=CONNECT_TIMEOUT)
        except Exception:  # noqa: BLE001 - as above
            pass


async def _ask_identity(address: str, timeout: float) -> Any:
    """One `identity` request to the scheduler at `address` (Dask's comm handshake first)."""
    from distributed.comm import connect  # lazy: the optional `cluster` extra

    comm = await connect(address, timeout=timeout)
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


def _threads(identity: dict) -> int:
    """The worker threads a scheduler's `identity` answer counts."""
    threads = identity.get("total_threads", 0)
    return threads if isinstance(threads, int) and not isinstance(threads, bool) and threads > 0 else 0


def quiet_distributed() -> None:
    """Keep Dask distributed's log lines (a lost worker, a closed connection, a slow event loop)
    off the terminal: the run says what matters once, in its own words."""
    import logging  # lazy: only with --scheduler

    for name in ("distributed", "tornado"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, MemoryError):  # a frame length read from something that is not a scheduler
        return "what answered there is not a Dask scheduler"
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:200]


def open_backend(scheduler: str | None = None, workers: int | None = None, *, work: int | None = None) -> Backend:
    """The backend for a run: Dask at `scheduler`, else `workers` local processes (None = every
    core; at most `work`, the number of chunks, when known), else, for one, this process."""
    if scheduler is not None:  # "" too: an empty --scheduler is a mistake, not "no cluster"
        return DaskBackend(scheduler)
    n = workers or os.cpu_count() or 1
    if work is not None:
        n = min(n, max(1, work))
    return LocalBackend(n) if n > 1 else InlineBackend()
