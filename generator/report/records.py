"""People's games in the balance report: game records (docs/formats.md) read back and set beside the bots'.

`report --records DIR` reads every `*.json` record in DIR: the web table's (web-...json), the
terminal game's (play-...json) and `simulate --record`'s (game-NNNNNN.json). Each is replayed with
the report's manifest (engine.record.replay), which gives what a record does not store: the
penalties by cause and the cards played. A record with a seat played by a person ("human" among
its bots) is a people's game; the others are bots' games.

Per edition and player count, the people's figures (games, seat win rates with Wilson intervals,
length in turns and minutes, discards owed by cause, cards played per game) stand beside the
bots': the report's own cell for that edition and player count when it has one, else the bots'
records in DIR. Where they differ significantly (first player's win rate: two-proportion z;
length: Mann-Whitney U; discards per turn by cause: conditional binomial; Holm-Bonferroni over
every test of this section) a plain sentence says so.

Records this manifest cannot play (an edition it does not have) or that replay to another result
than the one they record (another version of the manifest or the rules) are grouped apart and
named; a damaged record (not JSON, not a record, an illegal decision) is a warning that names its
file (and line), never a failure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from generator.deck.model import Deck
from generator.deck.problems import escape
from generator.engine import EngineError
from generator.engine.actions import PLAY
from generator import strict_json
from generator.engine.journal import read_record
from generator.engine.record import HUMAN, replay
from generator.engine.state import PENALTY_CAUSES
from generator.report import stats
from generator.report.summarize import ALPHA, CAUSE_LABELS, Cell, r, summarize
from generator.report.tally import Tally
from generator.report.words import minutes

#: The most records read from a folder (the newest names last: sorted by name).
MAX_RECORDS = 100_000
#: The most bytes of one record file read.
MAX_BYTES = 20_000_000


@dataclass
class Group:
    """The records of one edition and player count, by people or by bots."""

    edition: str
    players: int
    people: bool
    dealer: int = 0
    teams: bool = False
    tally: Tally | None = None
    files: list[str] = field(default_factory=list)
    penalty_counts: dict[str, int] = field(default_factory=dict)


@dataclass
class Read:
    """What a folder of records holds, read and replayed."""

    folder: str
    groups: dict[tuple[str, int, bool], Group] = field(default_factory=dict)
    apart: dict[str, list[str]] = field(default_factory=dict)  #: why set apart -> files
    warnings: list[str] = field(default_factory=list)
    files: int = 0


def read_records(folder: str | Path, deck: Deck) -> Read:
    """Every record in `folder`, replayed with `deck` and counted by (edition, players, people)."""
    out = Read(str(folder))
    editions = {e.key: e for e in deck.editions}
    paths = sorted(p for p in Path(folder).glob("*.json") if p.is_file())[:MAX_RECORDS]
    for path in paths:
        out.files += 1
        shown = escape(str(path))
        try:
            with path.open("rb") as fh:
                raw = fh.read(MAX_BYTES + 1)
            if len(raw) > MAX_BYTES:
                out.warnings.append(f"{shown}: larger than {MAX_BYTES:,} bytes, not a game record; skipped")
                continue
            record, _in_progress = read_record(raw.decode("utf-8-sig"))  # whole, or written as the game went
        except OSError as exc:
            out.warnings.append(f"{shown}: cannot be read: {escape(exc.strerror or str(exc))}; skipped")
            continue
        except UnicodeDecodeError:
            out.warnings.append(f"{shown}: not UTF-8 text, not a game record; skipped")
            continue
        except strict_json.Refused as exc:
            out.warnings.append(f"{shown}:{exc.line}:{exc.column}: {escape(exc.message)}; skipped")
            continue
        edition = record.get("edition", "the-og") if isinstance(record, dict) else None
        if isinstance(edition, str) and edition not in editions:
            out.apart.setdefault(f"edition '{escape(edition[:60])}', which {deck.params.name}'s manifest does not have "
                                 f"(another manifest's record)", []).append(shown)
            continue
        try:
            state, matches = replay(deck, record)
        except (EngineError, TypeError, ValueError) as exc:
            out.warnings.append(f"{shown}: {escape(str(exc))}; skipped")
            continue
        if matches is False:
            out.apart.setdefault("games that replay to another result with this manifest "
                                 "(recorded with another version of the cards or rules)", []).append(shown)
            continue
        people = HUMAN in (record.get("bots") or [])
        game = state.game
        key = (edition, game.players, people)
        group = out.groups.get(key)
        if group is None:
            group = out.groups[key] = Group(edition, game.players, people, game.options.dealer, game.options.teams,
                                            Tally(game.players))
        group.files.append(shown)
        finished = state.is_terminal() and not state.stopped
        winner = state.winner
        seats = ([] if winner is None else
                 [s for s in range(game.players) if s % 2 == winner] if game.options.teams else [winner])
        plays = [(-1, a.code) for a in state.history if a.kind == PLAY]
        penalties = state.penalties_by_cause()
        group.tally.add_game(index=len(group.files) - 1, finished=finished, winner_seats=seats, turns=state.turns,
                             plays=plays, penalties=penalties)
    return out


def _figures(deck: Deck, group: Group) -> dict[str, Any]:
    """A group's figures, as the page shows them (the report's own summary of its tally)."""
    cell = Cell(group.edition, group.players, "people" if group.people else "bots")
    return summarize(deck, cell, group.tally, dealer=group.dealer, teams=group.teams)


def _penalty_totals(s: dict[str, Any]) -> dict[str, int]:
    return {p["cause"]: p["count"] for p in s["penalties"]}


def section(deck: Deck, read: Read, cells: Sequence[dict[str, Any]], seconds_per_turn: float) -> dict[str, Any]:
    """balance.json's `records`: per edition and player count, people beside bots, and the sentences."""
    by_cell = {(c["edition"], c["players"]): c for c in cells}
    entries = []
    tests = []
    for (edition, players, people), group in read.groups.items():
        if not people:
            continue
        mine = _figures(deck, group)
        bots = by_cell.get((edition, players))
        source = "this report's games"
        if bots is None and (edition, players, False) in read.groups:
            bots = _figures(deck, read.groups[(edition, players, False)])
            source = f"{len(read.groups[(edition, players, False)].files)} bots' records in {escape(read.folder)}"
        entry: dict[str, Any] = {
            "edition": edition, "edition_name": deck.edition(edition).name, "players": players,
            "records": len(group.files), "people": side(mine, seconds_per_turn),
            "bots": side(bots, seconds_per_turn) if bots else None, "bots_from": source if bots else None,
            "differences": [],
        }
        if bots is not None and mine["finished"] and bots["finished"]:
            for test in compare(mine, bots):
                test["entry"] = len(entries)
                tests.append(test)
        entries.append(entry)
    adjusted = stats.holm([t["p"] for t in tests])
    for t, p in zip(tests, adjusted):
        t["p_adjusted"] = r(p, 6)
        t["significant"] = p < ALPHA
        entries[t.pop("entry")]["differences"].append(t)
    bots_only = [{"edition": e, "edition_name": deck.edition(e).name, "players": n, "records": len(g.files)}
                 for (e, n, people), g in read.groups.items() if not people]
    return {"folder": read.folder, "files": read.files, "groups": entries, "bots_records": bots_only,
            "apart": [{"why": why, "records": len(files), "files": files[:10]} for why, files in read.apart.items()],
            "warnings": read.warnings}


def side(s: dict[str, Any] | None, seconds_per_turn: float) -> dict[str, Any] | None:
    """One side's figures for the page and balance.json."""
    if s is None:
        return None
    return {
        "games": s["games"], "finished": s["finished"], "seats": s["sides"], "fair": s["fair"],
        "length": {k: s["length"][k] for k in ("median", "mean", "p10", "p90")},
        "minutes": minutes(s["length"]["median"], seconds_per_turn),
        "penalties": {p["cause"]: {"label": p["label"], "per_game": p["per_game"], "per_100_turns": p["per_100_turns"]}
                      for p in s["penalties"]},
        "cards": {c["code"]: {"name": c["name"], "per_game": c["per_game"]} for c in s["cards"]},
    }


def compare(people: dict[str, Any], bots: dict[str, Any]) -> list[dict[str, Any]]:
    """The tests of people against bots, each with the sentence that says it in plain words."""
    out = []
    a, b = people["sides"][0], bots["sides"][0]
    t = stats.two_proportions(a["wins"], people["finished"], b["wins"], bots["finished"])
    who = "team" if people["teams"] else "player"
    out.append({"what": f"first {who}'s win rate", "test": t.test, "p": r(t.p, 6),
                "sentence": f"The {who} who plays first wins {100 * a['rate']:.0f}% of people's games, "
                            f"against {100 * b['rate']:.0f}% of the bots'."})
    t = stats.mann_whitney(people["turns"], bots["turns"])
    pm, bm = people["length"]["median"], bots["length"]["median"]
    change = (pm / bm - 1) if bm else 0.0
    how = f"{abs(100 * change):.0f}% {'longer' if change > 0 else 'shorter'}" if round(100 * change) else "about as long"
    out.append({"what": "game length", "test": t.test, "p": r(t.p, 6),
                "sentence": f"People's games last {how} than the bots' (median {pm:g} turns against {bm:g})."})
    pt, bt = sum(people["turns"]), sum(bots["turns"])
    mine, theirs = _penalty_totals(people), _penalty_totals(bots)
    for cause in PENALTY_CAUSES:
        c1, c2 = mine.get(cause, 0), theirs.get(cause, 0)
        if not c1 and not c2:
            continue
        t = stats.poisson_rates(c1, pt, c2, bt)
        ratio = (c1 / pt) / (c2 / bt) - 1 if c2 and bt and pt else 0.0
        label = CAUSE_LABELS.get(cause, cause)
        sentence = (f"People owe {abs(100 * ratio):.0f}% {'more' if ratio > 0 else 'fewer'} discards per turn than the "
                    f"bots for this reason: {label}." if c1 and c2 else
                    f"People owe discards for this reason ({label}); the bots never do." if c1 else
                    f"The bots owe discards for this reason ({label}); people never do.")
        out.append({"what": f"discards per turn: {label}", "test": t.test, "p": r(t.p, 6), "sentence": sentence})
    return out
