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
