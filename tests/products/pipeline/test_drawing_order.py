"""The card images are drawn on workers in jobs; the rulebook's pictures come first, in a short
job of their own, so its PDF is printed while the other faces are drawn: a thread that asks for
the rulebook's images gets them before the rest of the drawing has ended, and the jobs still
share the work evenly between the workers."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from generator.products.output.outputs import Folder
from generator.products.pipeline import rasters
from generator.products.pipeline.context import BuildContext, BuildState
from generator.products.pipeline.face_cache import RenderCache
from generator.products.pipeline.request import BuildRequest
from generator.products.rulebook.images import rulebook_codes

SLOW = 1.5  #: seconds a job without the rulebook's faces takes longer here


def context(deck, jobs: int) -> BuildContext:
    nowhere = Path("/nonexistent-out")
    return BuildContext(deck, BuildRequest(nowhere, nowhere, jobs=jobs), Folder(nowhere), BuildState(cache=RenderCache(None)))


def test_the_rulebook_faces_are_the_first_job_and_the_work_is_shared_evenly(deck):
    ctx = context(deck, jobs=2)
    codes = set(rulebook_codes(deck))
    pages = [(code, ("rulebook", "tgc") if code in codes else ("tgc",)) for code in [*(c.code for c in deck.cards), "back"]]
    jobs = rasters._jobs(ctx, pages, 2)
    assert {code for code, _ in jobs[0]} == codes
    assert all(not codes & {code for code, _ in job} for job in jobs[1:])
    assert sorted(code for job in jobs for code, _ in job) == sorted(code for code, _ in pages)  # each face once
    work = [sum(rasters._work(ctx, page) for page in job) for job in jobs]
    first_worker, second_worker = work[0] + work[-1], sum(work[1:-1])  # the first job's worker takes the last
    assert abs(first_worker - second_worker) <= 5, work


_EARLY: set[str] = set()
_REAL_DRAW = rasters._draw


def slow_for_the_rest(job):
    """rasters._draw, SLOW seconds late for a job without the rulebook's faces (the workers,
    forked from the test, run it too)."""
    if not _EARLY & {code for code, _ in job[1]}:
        time.sleep(SLOW)
    return _REAL_DRAW(job)


def test_the_rulebook_images_are_ready_before_the_other_faces_are_drawn(deck, monkeypatch):
    codes = frozenset(rulebook_codes(deck))
    monkeypatch.setattr(sys.modules[__name__], "_EARLY", set(codes))
    monkeypatch.setattr(rasters, "_draw", slow_for_the_rest)
    ctx = context(deck, jobs=2)
    drawing = rasters.Drawing(ctx, {"rulebook": codes, "tgc": None})
    started = time.monotonic()
    early = drawing.ready("rulebook")
    asked = time.monotonic() - started
    assert set(early) == codes and drawing.taken < len(drawing.jobs)  # the rest is still being drawn
    everything = drawing.finish()
    assert time.monotonic() - started >= SLOW > asked
    assert everything["rulebook"] == early and len(everything["tgc"]) == len(deck.cards) + 1
    # the same images as drawn in one job after the other, here
    alone = rasters.Drawing(context(deck, jobs=1), {"rulebook": codes, "tgc": None}).finish()
    assert alone == everything
