"""The worker pool's forks: the objects a worker inherits are out of its collector's reach."""

import gc
import multiprocessing

import pytest

from generator.workers import WorkerPool, collector_frozen


def frozen_objects(_job: object) -> int:
    """Worker: how many objects its collector leaves alone (gc.freeze)."""
    return gc.get_freeze_count()


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="workers fork only where the system can")
def test_a_forked_worker_s_collector_never_walks_what_it_inherited():
    """A collection writes to every object it walks; in a forked worker that copied the whole heap
    it shares with its parent. The parent's objects stay frozen in the worker, and are collected
    as before in the parent."""
    assert gc.get_freeze_count() == 0
    with WorkerPool(1, mp_context=multiprocessing.get_context("fork")) as pool:
        (inherited,) = list(pool.map(frozen_objects, [None]))
    assert inherited > 1000  # the modules, the test session: everything the parent held
    assert gc.get_freeze_count() == 0


def test_the_collector_thaws_after_the_workers_fork_and_only_for_forks():
    with collector_frozen():
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0
    with collector_frozen(forking=False):
        assert gc.get_freeze_count() == 0


def test_objects_frozen_before_the_fork_stay_frozen():
    """Whoever froze objects before keeps them frozen (the pool does not thaw what it did not freeze)."""
    gc.freeze()
    try:
        with collector_frozen():
            pass
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()


def slow(seconds: float) -> float:
    """Worker: a job that takes `seconds`."""
    import time

    time.sleep(seconds)
    return seconds


def test_a_pool_stopped_while_another_thread_waits_for_a_result_lets_it_go_before_closing_its_pipes():
    """A build that fails stops its pools from the main thread while a thread of its own (the
    rulebook's printer) may be waiting for a result: that thread is let go at once, with
    WorkerDied. (The pipes are closed only once it has let go of them, under the pool's lock: the
    race this prevents, a file the build opens next taking a closed pipe's number while the
    thread still reads it, is too narrow to provoke here; CI met it once.)"""
    import threading
    import time

    from generator.workers import WorkerDied

    pool = WorkerPool(2)
    results = pool.map(slow, [30.0, 30.0], start=True)
    outcome: list[object] = []

    def wait_for_one() -> None:
        try:
            outcome.append(next(results))
        except BaseException as e:  # noqa: BLE001 -- the test looks at what it was
            outcome.append(e)

    reader = threading.Thread(target=wait_for_one)
    reader.start()
    time.sleep(0.3)  # the reader is waiting on the workers' pipes
    started = time.monotonic()
    pool.abort()
    reader.join(timeout=5)
    assert not reader.is_alive() and time.monotonic() - started < 5
    assert len(outcome) == 1 and isinstance(outcome[0], WorkerDied)
