"""Run the grid's games on all cores, with a progress bar, and stop cleanly on Ctrl-C.

Work is cut into chunks of one cell's games; each chunk is a Tally. Chunks are merged in
chunk order, so the numbers never depend on the number of workers or on timing. On Ctrl-C
the chunks already finished are kept and the report is written from them.
"""

from __future__ import annotations

import os
import signal
import sys
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any, Callable, Mapping, Sequence

from generator.engine import Game, make_bot
from generator.engine.simulate import game_seed
from generator.model import Deck
from generator.report.observe import observe_game
from generator.report.summarize import Cell
from generator.report.tally import Tally

#: Games per chunk: small enough for a smooth progress bar and little lost work on Ctrl-C.
CHUNK = 100


@dataclass(frozen=True)
class Variant:
    """One side of a comparison (or the only side): a deck and its rule options."""

    name: str  #: "design" or "tweak"
    label: str  #: what it is, for the page ("cards.yaml", "cards.yaml + play2_draws=2")
    deck: Deck
    options: Mapping[str, Any]
    manifest: str = "cards.yaml"  #: the manifest's path, for commands that reproduce a game


@dataclass(frozen=True)
class Job:
    variant: int
    cell: Cell
    chunk: int
    start: int
    stop: int


@dataclass
class Outcome:
    """What a run produced: a Tally per (variant, cell) and whether it was cut short."""

    tallies: dict[tuple[int, Cell], Tally]
    games_done: int
    games_planned: int
    interrupted: bool


def make_jobs(variants: Sequence[Variant], cells: Sequence[Cell], games: Mapping[Cell, int]) -> list[Job]:
    jobs = []
    for v, variant in enumerate(variants):
        keys = {e.key for e in variant.deck.editions}
        for cell in cells:
            if cell.edition not in keys:
                continue  # a tweak's manifest may drop an edition: nothing to compare there
            n = games[cell]
            for k, lo in enumerate(range(0, n, CHUNK)):
                jobs.append(Job(v, cell, k, lo, min(lo + CHUNK, n)))
    return jobs


_VARIANTS: Sequence[Variant] = ()
_SEED = 0


def _init(variants: Sequence[Variant], seed: int) -> None:
    global _VARIANTS, _SEED
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C for everyone
    _VARIANTS, _SEED = variants, seed


def _run_job(job: Job) -> tuple[Job, Tally]:
    variant = _VARIANTS[job.variant]
    cell = job.cell
    game = Game(variant.deck, cell.edition, cell.players, variant.options)
    bots = [make_bot(name) for name in cell.bot_list()]
    tally = Tally(cell.players)
    for i in range(job.start, job.stop):
        seed = game_seed(_SEED, i)
        seen = observe_game(game, bots, seed)
        state = seen.state
        tally.add_game(index=i, finished=not state.stopped, winner_seats=seen.winner_seats,
                       turns=state.turns, plays=seen.plays, penalties=seen.penalties)
    return job, tally


def run(variants: Sequence[Variant], cells: Sequence[Cell], games: Mapping[Cell, int], *, seed: int,
        workers: int | None, progress: Callable[[int, int], None] | None = None) -> Outcome:
    """Play each cell's games (`games[cell]`) for every variant; `progress(done, planned)` after each chunk."""
    jobs = make_jobs(variants, cells, games)
    planned = sum(j.stop - j.start for j in jobs)
    done_jobs: dict[tuple[int, Cell, int], Tally] = {}
    done = 0
    interrupted = False
    workers = max(1, min(workers or os.cpu_count() or 1, len(jobs) or 1))
    try:
        if workers == 1:
            _init_inline(variants, seed)
            for job in jobs:
                _, tally = _run_job(job)
                done_jobs[(job.variant, job.cell, job.chunk)] = tally
                done += tally.games
                if progress:
                    progress(done, planned)
        else:
            ctx = get_context("spawn" if sys.platform == "win32" else "fork")
            pool = ctx.Pool(workers, initializer=_init, initargs=(variants, seed))
            try:
                for job, tally in pool.imap_unordered(_run_job, jobs):
                    done_jobs[(job.variant, job.cell, job.chunk)] = tally
                    done += tally.games
                    if progress:
                        progress(done, planned)
                pool.close()
            except BaseException:
                pool.terminate()
                raise
            finally:
                pool.join()
    except KeyboardInterrupt:
        interrupted = True
    tallies: dict[tuple[int, Cell], Tally] = {}
    for key in sorted(done_jobs, key=lambda k: (k[0], cells.index(k[1]), k[2])):
        v, cell, _ = key
        merged = tallies.get((v, cell))
        if merged is None:
            merged = tallies[(v, cell)] = Tally(cell.players)
        merged.merge(done_jobs[key])
    return Outcome(tallies, done, planned, interrupted)


def _init_inline(variants: Sequence[Variant], seed: int) -> None:
    global _VARIANTS, _SEED
    _VARIANTS, _SEED = variants, seed
