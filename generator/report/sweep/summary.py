"""A sweep cell's numbers and verdict, computed by the balance report's own code.

The counts of a cell become a report Tally, and generator.report.summarize gives the seat
win rates with Wilson intervals, the first player's advantage and its test, the length
summary and the penalties; add_verdicts Holm-corrects the seat tests over every cell of the
sweep and gives the same verdicts as `county-uppy report`. The per-card rates are the ones
`simulate` prints.
"""

from __future__ import annotations

import json
from typing import Any, Sequence

from generator.engine.game import Game
from generator.engine.state import PENALTY_CAUSES
from generator.report.summarize import Cell, add_verdicts, r, summarize
from generator.report.sweep.grid import SweepCell, Variant
from generator.report.sweep.run import CellCounts
from generator.report.tally import Tally

#: sweep.json's `format`.
FORMAT = "county-uppy-sweep/1"
#: Verdicts from best to worst, for ranking cells.
VERDICT_ORDER = ("balanced", "small seat effect", "inconclusive", "unbalanced", "no data")


def tally_of(counts: CellCounts) -> Tally:
    """The report's Tally of a cell (the turns of its finished games in order of length)."""
    tally = Tally(counts.players, games=counts.games, finished=counts.finished, draws=counts.draws,
                  wins_by_seat=list(counts.wins),
                  turns=[t for t in sorted(counts.turns) for _ in range(counts.turns[t])],
                  unfinished_games=list(counts.unfinished))
    tally.penalties = {cause: n for cause, n in zip(PENALTY_CAUSES, counts.penalties) if n}
    return tally


def cell_summary(cell: SweepCell, variant: Variant, counts: CellCounts, *, edition: str, bots: str) -> dict[str, Any]:
    """One cell as JSON-ready data (without the verdict: see `summaries`)."""
    deck, options = variant.deck, variant.options
    tally = tally_of(counts)
    s = summarize(deck, Cell(edition, cell.players, bots), tally, dealer=options.dealer, teams=options.teams)
    game = Game(deck, edition, cell.players, options)
    ncards = counts.ncards
    all_plays = sum(counts.cards[:ncards]) or 1
    cards = {}
    for c in sorted(set(game.edition_cards)):  # as simulate lists them
        plays = counts.cards[c]
        cards[game.codes[c]] = {"plays": plays, "play_rate": r(plays / all_plays, 6),
                                "per_game": r(plays / counts.games if counts.games else 0.0, 3),
                                "penalty_rate": r(counts.cards[ncards + c] / plays, 6) if plays else None}
    fair = s["fair"]
    worst = max((abs(side["rate"] - fair) for side in s["sides"]), default=0.0)
    return {
        "params": dict(variant.params),
        "players": cell.players,
        "games": counts.games,
        "edition": edition,
        "bots": bots,
        "options": options.to_dict(),
        "seed": cell.seed,
        "finished": s["finished"], "draws": s["draws"],
        "unfinished": s["unfinished"], "unfinished_rate": s["unfinished_rate"], "unfinished_games": s["unfinished_games"],
        "fair": fair,
        "seats": s["sides"],
        "sides": s["sides"],  # (for add_verdicts; dropped after)
        "first_player": s["first_player"],
        "seat_test": s["seat_test"],
        "worst_seat_off": r(worst / fair if fair else 0.0),
        "length": s["length"],
        "decisions": counts.decisions,
        "penalties": s["penalties"],
        "cards": cards,
        "teams": s["teams"],
    }


def summaries(cells: Sequence[SweepCell], variants: Sequence[Variant], counts: Sequence[CellCounts], *,
              edition: str, bots: str) -> list[dict[str, Any]]:
    """Every cell's summary with its verdict (seat tests Holm-corrected over the whole sweep)."""
    out = [cell_summary(c, variants[c.variant], n, edition=edition, bots=bots) for c, n in zip(cells, counts)]
    add_verdicts(out)  # reads "sides", "fair", "teams", "bots", "finished", "seat_test"
    for c in out:
        c.pop("sides", None)
        verdict = c["verdict"]
        if verdict["label"] == "inconclusive":
            verdict["more_games"] = max(0, verdict["games_needed"] - c["games"])
    return out


def document(settings: dict[str, Any], cells: Sequence[SweepCell], variants: Sequence[Variant],
             counts: Sequence[CellCounts], done: Sequence[int], *, edition: str, bots: str) -> dict[str, Any]:
    """sweep.json without its timing: the cells `done` (every cell, unless Ctrl-C cut the sweep
    short) and the ones missing, with `complete` saying which it is. The verdicts' seat tests
    are Holm-corrected over the cells listed."""
    finished = set(done)
    shown = summaries([cells[k] for k in done], variants, [counts[k] for k in done], edition=edition, bots=bots)
    missing = [{"params": dict(variants[c.variant].params), "players": c.players, "seed": c.seed}
               for k, c in enumerate(cells) if k not in finished]
    return {"format": FORMAT, "complete": not missing, "cells_done": len(done), "cells_planned": len(cells),
            "settings": settings,
            "cells": shown, "best": best(shown), "missing": missing}


def ranked(cells: Sequence[dict[str, Any]]) -> list[int]:
    """Cell indices from best to worst: verdict, then the worst seat's distance from its fair
    share, then unfinished games, then grid order."""
    return sorted(range(len(cells)), key=lambda k: (VERDICT_ORDER.index(cells[k]["verdict"]["label"]),
                                                    cells[k]["worst_seat_off"], cells[k]["unfinished_rate"], k))


#: Verdicts that count as fair for "fair at every player count".
FAIR = ("balanced", "small seat effect")


def best(cells: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """`best`: the parameter values ranked across the player counts (a value fair at every count
    first: by its worst verdict, then its worst seat's distance from a fair share), then each
    player count's cells ranked (`ranked`), as indices into `cells`."""
    values: dict[str, list[int]] = {}
    for k, c in enumerate(cells):
        values.setdefault(json.dumps(c["params"], sort_keys=True), []).append(k)
    across = []
    for members in values.values():
        labels = [cells[k]["verdict"]["label"] for k in members]
        across.append({
            "params": cells[members[0]]["params"],
            "cells": {str(cells[k]["players"]): k for k in members},
            "verdicts": {str(cells[k]["players"]): cells[k]["verdict"]["label"] for k in members},
            "fair_for_all": all(label in FAIR for label in labels),
            "worst": max(labels, key=VERDICT_ORDER.index),
            "worst_seat_off": max(cells[k]["worst_seat_off"] for k in members),
            "unfinished_rate": max(cells[k]["unfinished_rate"] for k in members),
        })
    across.sort(key=lambda v: (not v["fair_for_all"], VERDICT_ORDER.index(v["worst"]), v["worst_seat_off"],
                               v["unfinished_rate"], min(v["cells"].values())))
    counts = sorted({c["players"] for c in cells})
    by_players = {str(n): [k for k in ranked(cells) if cells[k]["players"] == n] for n in counts}
    return {"across": across, "by_players": by_players}
