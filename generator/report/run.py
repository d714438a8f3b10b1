"""Run the grid's games on all cores (or a Dask cluster), with a progress bar, and stop cleanly on Ctrl-C.

Work is cut into chunks of one cell's games; each chunk is a Tally. Chunks are merged in
chunk order, so the numbers never depend on the number of workers or on timing. On Ctrl-C
the chunks already finished are kept and the report is written from them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping, Sequence

from generator.backends import Backend, open_backend
from generator.deck.model import Deck
from generator.ai.bots import ladder_bot
from generator.engine import Game, make_bot
from generator.engine.simulate import game_seed, play_game
from generator.report.observe import observe_game
from generator.report.summarize import LUCK_BOTS, LUCK_GAMES, Cell
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


def make_jobs(variants: Sequence[Variant], cells: Sequence[Cell], games: Mapping[Cell, int],
              first: Mapping[Cell, int] | None = None, chunk: int = CHUNK) -> Iterator[Job]:
    """The grid's jobs in order (variant, cell, chunk), made one at a time as they are needed.

    A cell plays games `first[cell]` (default 0) up to `games[cell]`: a later round of a
    sequential run carries on where the last one stopped, each game keeping its index's seed.
    """
    for v, variant in enumerate(variants):
        keys = {e.key for e in variant.deck.editions}
        for cell in cells:
            if cell.edition not in keys:
                continue  # a tweak's manifest may drop an edition: nothing to compare there
            n = games[cell]
            for k, lo in enumerate(range(first.get(cell, 0) if first else 0, n, chunk)):
                yield Job(v, cell, k, lo, min(lo + chunk, n))


def planned_games(variants: Sequence[Variant], cells: Sequence[Cell], games: Mapping[Cell, int],
                  first: Mapping[Cell, int] | None = None) -> int:
    return sum(games[cell] - (first.get(cell, 0) if first else 0) for variant in variants for cell in cells
               if any(e.key == cell.edition for e in variant.deck.editions))


def _run_job(context: tuple[Sequence[Variant], int], job: Job) -> tuple[Job, Tally]:
    """One chunk on a backend: `context` is (variants, seed), sent once per worker."""
    variants, run_seed = context
    variant = variants[job.variant]
    cell = job.cell
    game = Game(variant.deck, cell.edition, cell.players, variant.options)
    bots = [ladder_bot(name) for name in cell.bot_list()]  # any bot on the ladder, ISMCTS too
    strong, weak = (make_bot(name) for name in LUCK_BOTS)
    teams = game.options.teams
    n = cell.players
    tally = Tally(n)
    for i in range(job.start, job.stop):
        seed = game_seed(run_seed, i)
        seen = observe_game(game, bots, seed)
        state = seen.state
        tally.add_game(index=i, finished=not state.stopped, winner_seats=seen.winner_seats,
                       turns=state.turns, plays=seen.plays, penalties=seen.penalties, waits=seen.waits)
        if i < LUCK_GAMES:
            # The same deal with one stronger bot (Teams: one stronger team) among weaker ones; the
            # stronger seat moves round the table from game to game, so seat order evens out.
            side = i % (2 if teams else n)
            mix = [strong if (s % 2 if teams else s) == side else weak for s in range(n)]
            end = play_game(game, mix, seed)
            if not end.stopped:
                tally.add_luck_game(end.winner == side)
    return job, tally


def run(variants: Sequence[Variant], cells: Sequence[Cell], games: Mapping[Cell, int], *, seed: int,
        workers: int | None, progress: Callable[[int, int], None] | None = None,
        first: Mapping[Cell, int] | None = None, backend: Backend | None = None) -> Outcome:
    """Play each cell's games (`first[cell]`, default 0, to `games[cell]`) for every variant; `progress(done, planned)` after each chunk.

    Chunks are made as workers need them and merged in job order as they come back, so memory
    holds the merged tallies and a few chunks, however many games are asked for. They run on
    `backend` (a Dask cluster, say; left open for the next round) or else on `workers` local
    processes. Ctrl-C (in this process or the whole process group) stops the work at once;
    the chunks that finished are kept and the Outcome says it was interrupted.
    """
    planned = planned_games(variants, cells, games, first)
    tallies: dict[tuple[int, Cell], Tally] = {}
    done = 0
    interrupted = False

    def merge(job: Job, tally: Tally, tell: bool = True) -> None:
        nonlocal done
        merged = tallies.get((job.variant, job.cell))
        if merged is None:
            merged = tallies[(job.variant, job.cell)] = Tally(job.cell.players)
        merged.merge(tally)
        done += tally.games
        if progress and tell:
            progress(done, planned)

    start = first or {}
    chunk = CHUNK * (backend.chunk_scale if backend is not None else 1)
    chunks = sum(-(-max(0, games[cell] - start.get(cell, 0)) // chunk) for variant in variants for cell in cells
                 if any(e.key == cell.edition for e in variant.deck.editions))
    owned = backend is None
    runner = open_backend(None, workers, work=chunks) if backend is None else backend
    try:
        try:
            for job, tally in runner.map_chunks(_run_job, (variants, seed), make_jobs(variants, cells, games, first, chunk)):
                merge(job, tally)
        except KeyboardInterrupt:
            runner.cancel()
            for job, tally in runner.finished():  # chunks done beyond the first unfinished one
                merge(job, tally, tell=False)
            raise
        finally:
            if owned:
                runner.close()
    except KeyboardInterrupt:
        interrupted = True
    ordered = sorted(tallies, key=lambda k: (k[0], cells.index(k[1])))
    return Outcome({k: tallies[k] for k in ordered}, done, planned, interrupted)
