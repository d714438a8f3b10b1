"""Side-by-side comparison of two reports (the design and a tweak of it), cell by cell.

Tests (all two-sided, then Holm-Bonferroni over every test of the comparison, so that the
chance of marking even one difference that is not real stays under 5%):
- win rate of each seat (or team), and the share of draws: pooled two-proportion z-test;
- game length in turns: Mann-Whitney U (normal approximation, tie-corrected);
- share of unfinished games: two-proportion z-test;
- each penalty cause per turn: conditional binomial test of two Poisson rates.
Both sides play the same seeds, which makes these independent-sample tests conservative.
"""

from __future__ import annotations

from typing import Any

from generator.report import stats
from generator.report.summarize import ALPHA, r


def compare(a_cells: list[dict[str, Any]], b_cells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One entry per cell present in both, each with its rows of differences."""
    b_by_key = {(c["edition"], c["players"], c["bots"]): c for c in b_cells}
    out = []
    rows_all: list[dict[str, Any]] = []
    for a in a_cells:
        b = b_by_key.get((a["edition"], a["players"], a["bots"]))
        if b is None:
            continue
        rows = cell_rows(a, b)
        rows_all.extend(rows)
        out.append({"edition": a["edition"], "edition_name": a["edition_name"], "players": a["players"],
                    "bots": a["bots"], "rows": rows})
    adjusted = stats.holm([row["p"] for row in rows_all])
    for row, p in zip(rows_all, adjusted):
        row["p_adjusted"] = r(p, 6)
        row["significant"] = p < ALPHA
    for entry in out:
        entry["significant"] = sum(1 for row in entry["rows"] if row["significant"])
    return out


def cell_rows(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    same_sides = [s["label"] for s in a["sides"]] == [s["label"] for s in b["sides"]]
    for sa, sb in zip(a["sides"], b["sides"]) if same_sides else ():  # seats vs teams do not compare
        t = stats.two_proportions(sa["wins"], a["finished"], sb["wins"], b["finished"])
        rows.append(row(f"win rate, {sa['label']}", sa["rate"], sb["rate"], t, percent=True))
    t = stats.two_proportions(a["draws"], a["finished"], b["draws"], b["finished"])
    rows.append(row("draws (no winner)", a["draws"] / a["finished"] if a["finished"] else 0.0,
                    b["draws"] / b["finished"] if b["finished"] else 0.0, t, percent=True))
    t = stats.mann_whitney(a["turns"], b["turns"])
    rows.append(row("game length, median turns", a["length"]["median"], b["length"]["median"], t))
    t = stats.two_proportions(a["unfinished"], a["games"], b["unfinished"], b["games"])
    rows.append(row("unfinished games", a["unfinished_rate"], b["unfinished_rate"], t, percent=True))
    a_turns, b_turns = sum(a["turns"]), sum(b["turns"])
    pa = {p["cause"]: p for p in a["penalties"]}
    pb = {p["cause"]: p for p in b["penalties"]}
    for cause in sorted(set(pa) | set(pb)):
        ca = pa[cause]["count"] if cause in pa else 0
        cb = pb[cause]["count"] if cause in pb else 0
        label = (pa.get(cause) or pb[cause])["label"]
        t = stats.poisson_rates(ca, a_turns, cb, b_turns)
        rows.append(row(f"penalties per 100 turns: {label}", 100 * ca / a_turns if a_turns else 0.0,
                        100 * cb / b_turns if b_turns else 0.0, t))
    return rows


def row(what: str, a: float, b: float, t: stats.TestResult, *, percent: bool = False) -> dict[str, Any]:
    return {"what": what, "a": r(a), "b": r(b), "difference": r(b - a), "percent": percent,
            "test": t.test, "p": r(t.p, 6)}
