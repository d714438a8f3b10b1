"""Play the sweep's games: chunks of one cell's games on a backend, counts merged per cell.

Each game is played exactly as `county-uppy simulate` plays it (engine.simulate.play_game,
the per-card counters of its fast loop), with the cell's seed, so a cell's game i is
`simulate --seed CELL_SEED` game i. A chunk returns only counts; the counts of a cell add up
the same in any chunking, on any backend.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from operator import add
from typing import Callable, Iterator, Sequence

from generator.backends import Backend
from generator.deck.model import Deck
from generator.ai.bots import bot_base, ladder_bot
from generator.engine.game import Game
from generator.engine.options import Options
from generator.engine.simulate import game_seed, play_game
from generator.engine.state import PENALTY_CAUSES
from generator.report.sweep.grid import SweepCell

#: Games per chunk on this machine, at most: a fraction of a second to a few seconds of play.
CHUNK = 500
#: Bots that think far longer than random or greedy ones (the search bot, about 20 ms a
#: decision), and by how much their chunks shrink, so a chunk stays minutes, not hours.
SLOW_BOTS = {"search": 100, "ismcts": 100}


@dataclass
class CellCounts:
    """What a cell's summary needs from its games; chunks of a cell add up (`merge`) in order."""

    players: int
    ncards: int
    games: int = 0
    finished: int = 0
    draws: int = 0  #: finished without a winner (all_out=draw)
    decisions: int = 0
    wins: list[int] = field(default_factory=list)  #: by seat, or (Teams) by team, finished games
    turns: Counter = field(default_factory=Counter)  #: finished games by their number of turns
    unfinished: list[int] = field(default_factory=list)  #: game indices, to replay them
    penalties: list[int] = field(default_factory=list)  #: discards owed by cause (PENALTY_CAUSES), finished games
    cards: list[int] = field(default_factory=list)  #: play_game's counters: plays per card, then penalised plays

    def __post_init__(self) -> None:
        self.wins = self.wins or [0] * self.players
        self.penalties = self.penalties or [0] * len(PENALTY_CAUSES)
        self.cards = self.cards or [0] * (2 * self.ncards)

    def merge(self, other: "CellCounts") -> None:
        """Add a chunk's counts. `games` is added last: a merge cut short by Ctrl-C leaves the cell
        short of its games, so it is not counted as finished (Played.finished)."""
        self.finished += other.finished
        self.draws += other.draws
        self.decisions += other.decisions
        self.wins = [*map(add, self.wins, other.wins)]
        self.turns.update(other.turns)
        self.unfinished.extend(other.unfinished)
        self.penalties = [*map(add, self.penalties, other.penalties)]
        self.cards = [*map(add, self.cards, other.cards)]
        self.games += other.games


@dataclass
class Played:
    """A sweep's games: each cell's counts in cell order, and whether Ctrl-C or SIGTERM cut the
    run short (then some cells have fewer than `games` games, or no counts at all)."""

    counts: list[CellCounts]
    games: int | list[int]  #: games per cell, as planned (one number, or one per cell)
    interrupted: bool = False

    def target(self, k: int) -> int:
        return self.games if isinstance(self.games, int) else self.games[k]

    def finished(self) -> list[int]:
        """The indices of the cells whose games were all played, in cell order."""
        return [k for k, c in enumerate(self.counts) if c.games == self.target(k)]


@dataclass(frozen=True)
class Context:
    """What every chunk of a sweep shares (sent once to each worker)."""

    decks: tuple[Deck, ...]  #: one per variant (variants that change only options share one)
    options: tuple[Options, ...]  #: one per variant
    edition: str
    bots: str  #: the bot mix, comma-separated, given to seats in turn


@dataclass(frozen=True)
class Chunk:
    cell: int
    variant: int
    players: int
    seed: int  #: the cell's seed
    start: int
    stop: int


def play_chunk(ctx: Context, chunk: Chunk) -> tuple[int, CellCounts]:
    """Play games start..stop of one cell (in a worker); return (cell index, counts)."""
    game = Game(ctx.decks[chunk.variant], ctx.edition, chunk.players, ctx.options[chunk.variant])
    names = ctx.bots.split(",")
    bots = [ladder_bot(names[s % len(names)]) for s in range(chunk.players)]
    counts = CellCounts(chunk.players, len(game.codes))
    stats = counts.cards
    wins, turns, unfinished, penalties = counts.wins, counts.turns, counts.unfinished, counts.penalties
    for i in range(chunk.start, chunk.stop):
        state = play_game(game, bots, game_seed(chunk.seed, i), stats)
        counts.decisions += len(state.history)
        if state.stopped:
            unfinished.append(i)
            continue
        counts.finished += 1
        turns[state.turns] += 1
        if state.winner is None:
            counts.draws += 1
        else:
            wins[state.winner] += 1
        for k, n in enumerate(state.penalties):
            penalties[k] += n
    counts.games = chunk.stop - chunk.start
    return chunk.cell, counts


def chunk_size(total_games: int, games: int, slots: int, scale: int = 1, bots: str = "") -> int:
    """Games per chunk: about four chunks per worker slot for short runs (an even finish), at most
    CHUNK * scale (Ctrl-C and a lost worker lose little; less with slow bots), never more than a cell."""
    slow = max((SLOW_BOTS.get(bot_base(name), 1) for name in bots.split(",")), default=1)
    return max(1, min(games, CHUNK * scale // slow, -(-total_games // (4 * max(1, slots)))))


def make_chunks(cells: Sequence[SweepCell], games: int | Sequence[int], size: int,
                first: Sequence[int] | None = None) -> Iterator[Chunk]:
    """Each cell's games `first[k]` (default 0) up to its `games` (one number, or one per cell)."""
    for k, cell in enumerate(cells):
        top = games if isinstance(games, int) else games[k]
        for lo in range(first[k] if first else 0, top, size):
            yield Chunk(cell.index, cell.variant, cell.players, cell.seed, lo, min(lo + size, top))


def run(backend: Backend, ctx: Context, cells: Sequence[SweepCell], games: int | Sequence[int],
        progress: Callable[[int], None] | None = None, played: Played | None = None) -> Played:
    """Every cell's counts, in cell order; `progress(n)` as n more games finish.

    `games`: games per cell (one number, or one per cell). `played`: the counts of an earlier
    round, carried on from (each cell from the games it has, to its new target; game i of a
    cell is always the same game), else a new run.

    Ctrl-C or SIGTERM (KeyboardInterrupt) stops the work at once: the chunks that came back,
    and those that finished meanwhile (backend.finished()), are kept, and the result says it
    was interrupted, so the sweep can write the cells that finished.
    """
    targets = [games] * len(cells) if isinstance(games, int) else list(games)
    first = [c.games for c in played.counts] if played is not None else [0] * len(cells)
    todo = sum(t - f for t, f in zip(targets, first))
    size = chunk_size(todo, max(targets, default=1), backend.slots, backend.chunk_scale, ctx.bots)
    if played is None:
        played = Played([], games)
    else:
        played.games = targets
    merged = played.counts
    try:
        for c in cells[len(merged):]:
            merged.append(CellCounts(c.players, len(Game(ctx.decks[c.variant], ctx.edition, c.players,
                                                         ctx.options[c.variant]).codes)))
        for index, counts in backend.map_chunks(play_chunk, ctx, make_chunks(cells, targets, size, first)):
            merged[index].merge(counts)
            if progress:
                progress(counts.games)
    except KeyboardInterrupt:
        played.interrupted = True
        late = backend.finished()  # before cancel(): a cluster forgets its tasks when they are cancelled
        backend.cancel()
        for index, counts in late:  # in chunk order, after the last chunk taken: a cell's chunks stay in order
            merged[index].merge(counts)
    return played


def bots_of(mix: str, players: int) -> list[str]:
    names = mix.split(",")
    return [names[s % len(names)] for s in range(players)]

