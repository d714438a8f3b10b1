"""`report`'s default: play the grid in rounds until every verdict is settled, up to a cap per cell.

Round 1 plays each cell the games a verdict usually needs at its player count. After each
round every cell gets its verdict (Holm-corrected over the whole grid, as in the report);
a cell still inconclusive plays on, to the number of games its verdict says would settle
it (at least twice as many, never more than the cap). Game i of a cell is always the game
with seed `game_seed(seed, i)`, so a later round extends the earlier ones and a cell that
ends at N games holds exactly the games a `--games N` run would play. Both sides of a
comparison play the same games, so they stay paired.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from generator.backends import Backend
from generator.engine.options import Options
from generator.report.run import Outcome, Variant, planned_games
from generator.report.run import run as run_games
from generator.report.summarize import Cell, add_verdicts, summarize
from generator.report.tally import Tally

#: The default cap on games per cell (`--max-games`): 20,000 games is about 11 s of one core
#: per cell, and settles a seat's win rate to within ±0.6 points.
MAX_GAMES_PER_CELL = 20_000


@dataclass
class Round:
    """One round: the cells it played and the games each then had in all."""

    number: int
    games: dict[Cell, int]  #: games per cell at the end of the round (cells played this round only)
    planned: int  #: games this round set out to play (both sides of a comparison)


def unsettled(variants: Sequence[Variant], cells: Sequence[Cell], tallies: Mapping[tuple[int, Cell], Tally]) -> dict[Cell, int]:
    """Cells whose verdict (on any side) is still inconclusive, with the games it says would settle it."""
    need: dict[Cell, int] = {}
    for v, variant in enumerate(variants):
        played = Options.for_deck(variant.deck, variant.options)  # the deck's own options, --option over them
        dealer, teams = played.dealer, played.teams
        summaries = []
        for cell in cells:
            tally = tallies.get((v, cell))
            if tally is not None and tally.games:
                summaries.append((cell, summarize(variant.deck, cell, tally, dealer=dealer, teams=teams)))
        add_verdicts([s for _, s in summaries])
        for cell, s in summaries:
            if s["verdict"]["label"] == "inconclusive":
                need[cell] = max(need.get(cell, 0), s["verdict"]["games_needed"])
    return need


def run_until_settled(variants: Sequence[Variant], cells: Sequence[Cell], start: Mapping[Cell, int], *, cap: int,
                      seed: int, workers: int | None, backend: Backend | None = None,
                      announce: Callable[[Round], Callable[[int, int], None]] | None = None) -> tuple[Outcome, list[Round]]:
    """Play rounds until no cell is inconclusive or every inconclusive cell is at `cap` games (or Ctrl-C).

    `start[cell]`: the first round's games. `announce(round)` is called before each round is
    played and returns the progress callback for it. Returns the merged Outcome (tallies in
    grid order, game order within each cell) and the rounds played.
    """
    played = {cell: 0 for cell in cells}
    target = {cell: min(start[cell], cap) for cell in cells}
    tallies: dict[tuple[int, Cell], Tally] = {}
    rounds: list[Round] = []
    done = planned = 0
    interrupted = False
    while True:
        todo = [cell for cell in cells if target[cell] > played[cell]]
        if not todo:
            break
        this = Round(len(rounds) + 1, {cell: target[cell] for cell in todo}, planned_games(variants, todo, target, played))
        rounds.append(this)
        tick = announce(this) if announce else None
        outcome = run_games(variants, todo, target, seed=seed, workers=workers, progress=tick, first=played,
                            backend=backend)
        for key, tally in outcome.tallies.items():
            merged = tallies.get(key)
            if merged is None:
                tallies[key] = tally
            else:
                merged.merge(tally)
        done += outcome.games_done
        planned += outcome.games_planned
        if outcome.interrupted:
            interrupted = True
            break
        for cell in todo:
            played[cell] = target[cell]
        for cell, need in unsettled(variants, cells, tallies).items():
            target[cell] = min(max(need, played[cell]), cap)
    ordered = sorted(tallies, key=lambda k: (k[0], cells.index(k[1])))
    return Outcome({k: tallies[k] for k in ordered}, done, planned, interrupted), rounds


def rounds_json(rounds: Sequence[Round]) -> list[dict[str, Any]]:
    """The rounds for balance.json: per round, the games each cell it played then had in all."""
    return [{"round": r.number, "planned": r.planned, "cells": {cell.key: n for cell, n in r.games.items()}}
            for r in rounds]
