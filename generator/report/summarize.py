"""Turn a grid cell's Tally into the numbers and the verdict the report shows (JSON-ready).

Verdict on seat balance (decided here, explained on the page):
- the fair share of each seat is 1/players (Teams: 1/2 per team);
- a seat is "clearly off" if its win rate is more than TOLERANCE of the fair share away
  from it (4 players: outside 20%..30%);
- unbalanced: the chi-square test of equal seat wins is significant after Holm's correction
  over every cell of the report, and some seat is clearly off;
- small seat effect: significant, but no seat clearly off;
- balanced: not significant, and every seat's Wilson 95% interval lies inside the tolerance band;
- otherwise inconclusive: more games are needed to tell.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

from generator.deck.model import Deck
from generator.report import stats
from generator.report.tally import Tally

#: How far (relative to the fair share) a seat's win rate may stray and still count as fair.
TOLERANCE = 0.20
ALPHA = 0.05

#: Luck versus skill: the first game ``LUCK_GAMES`` of every cell are played again with one
#: ``LUCK_BOTS[0]`` (the stronger bot) among ``LUCK_BOTS[1]`` bots; how often it wins, against
#: its fair share, says how much the better play decides.
LUCK_BOTS = ("greedy", "random")
LUCK_GAMES = 400
#: A card is named strongest or weakest only with at least this many plays behind its lift.
MIN_CARD_PLAYS = 50

#: Words for the engine's penalty causes; unknown causes are shown as they come.
CAUSE_LABELS = {
    "mismatch": "card did not match",
    "over": "count went over the target",
    "under": "count went below 0",
    "bust": "count went over the target or below 0",
    "sixteen": "someone else hit the target",
    "target": "someone else hit the target",
    "late": "too slow (SPEED)",
}


@dataclass(frozen=True)
class Cell:
    """One point of the grid."""

    edition: str
    players: int
    bots: str  #: comma-separated bot names, assigned to seats in turn

    @property
    def key(self) -> str:
        return f"{self.edition}/{self.players}p/{self.bots}"

    def bot_list(self) -> list[str]:
        names = self.bots.split(",")
        return [names[s % len(names)] for s in range(self.players)]


def r(x: float, digits: int = 4) -> float:
    """Round for the JSON file, so the output is stable and short."""
    return round(float(x), digits) + 0.0


def sides(cell: Cell, tally: Tally, dealer: int, teams: bool) -> list[dict[str, Any]]:
    """Win counts in order of play: first player (or their team) first."""
    n = cell.players
    first = (dealer + 1) % n
    out = []
    if teams:
        for k, team in enumerate((first % 2, 1 - first % 2)):
            out.append({"label": f"team {team} (seats {', '.join(str(s) for s in range(team, n, 2))})",
                        "seat": team, "order": k + 1, "wins": tally.wins_by_seat[team]})
    else:
        for k in range(n):
            seat = (first + k) % n
            place = "plays first" if k == 0 else ("dealer, plays last" if seat == dealer else f"plays {ordinal(k + 1)}")
            out.append({"label": f"seat {seat} ({place})", "seat": seat, "order": k + 1, "wins": tally.wins_by_seat[seat]})
    games = tally.finished
    for side in out:
        lo, hi = stats.wilson(side["wins"], games)
        side.update(rate=r(side["wins"] / games if games else 0.0), low=r(lo), high=r(hi))
    return out


def ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def length_summary(turns: Sequence[int]) -> dict[str, Any]:
    if not turns:
        return {"mean": 0.0, "median": 0.0, "p10": 0.0, "p90": 0.0, "min": 0, "max": 0, "histogram": []}
    p10, median, p90 = stats.quantiles(turns, (0.1, 0.5, 0.9))
    lo, hi = min(turns), max(turns)
    width = nice_width((hi - lo) / 24 if hi > lo else 1)
    start = math.floor(lo / width) * width
    bins: dict[int, int] = {}
    for t in turns:
        b = int((t - start) // width)
        bins[b] = bins.get(b, 0) + 1
    top = max(bins)
    hist = [[start + b * width, start + (b + 1) * width, bins.get(b, 0)] for b in range(top + 1)]
    return {"mean": r(sum(turns) / len(turns), 2), "median": r(median, 2), "p10": r(p10, 2), "p90": r(p90, 2),
            "min": lo, "max": hi, "histogram": hist}


def nice_width(raw: float) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, ... at least raw."""
    w = 1
    while True:
        for m in (1, 2, 5):
            if w * m >= raw:
                return w * m
        w *= 10


def card_rows(deck: Deck, tally: Tally) -> list[dict[str, Any]]:
    """Per card type: how often played and whether its plays come from winners more than most plays."""
    base = tally.plays_by_winner / tally.plays if tally.plays else 0.0
    rows = []
    for card in deck.cards:
        c = tally.cards.get(card.code)
        if c is None or not c.plays:
            continue
        share = c.plays_by_winner / c.plays
        lo, hi = stats.wilson(c.plays_by_winner, c.plays)
        rows.append({
            "code": card.code, "name": deck.words(card.name, card), "kind": card.kind,
            "plays": c.plays, "per_game": r(c.plays / tally.finished if tally.finished else 0.0, 3),
            "games_with": r(c.games / tally.finished if tally.finished else 0.0, 3),
            "winner_share": r(share), "low": r(lo), "high": r(hi), "lift": r(share - base),
        })
    return rows


def penalty_rows(tally: Tally) -> list[dict[str, Any]]:
    turns = sum(tally.turns)
    rows = []
    for cause in sorted(tally.penalties):
        n = tally.penalties[cause]
        rows.append({"cause": cause, "label": CAUSE_LABELS.get(cause, cause), "count": n,
                     "per_100_turns": r(100 * n / turns if turns else 0.0, 3),
                     "per_game": r(n / tally.finished if tally.finished else 0.0, 3)})
    return rows


def summarize(deck: Deck, cell: Cell, tally: Tally, *, dealer: int = 0, teams: bool = False) -> dict[str, Any]:
    """Everything about one cell except the verdict (which needs every cell: see `add_verdicts`)."""
    rows = sides(cell, tally, dealer, teams)
    fair = 1 / len(rows)
    seat_test = stats.chi_square_uniform([s["wins"] for s in rows])
    first = rows[0]
    first_test = stats.one_proportion(first["wins"], tally.finished, fair)
    unfinished = tally.games - tally.finished
    ulo, uhi = stats.wilson(unfinished, tally.games)
    return {
        "edition": cell.edition, "edition_name": deck.edition(cell.edition).name,
        "players": cell.players, "bots": cell.bots, "teams": teams,
        "games": tally.games, "finished": tally.finished, "draws": tally.draws,
        "unfinished": unfinished, "unfinished_rate": r(unfinished / tally.games if tally.games else 0.0),
        "unfinished_high": r(uhi), "unfinished_games": tally.unfinished_games[:20],
        "fair": r(fair), "sides": rows,
        "seat_test": {"test": seat_test.test, "statistic": r(seat_test.statistic), "p": r(seat_test.p, 6)},
        "first_player": {"rate": first["rate"], "low": first["low"], "high": first["high"], "fair": r(fair),
                         "advantage": r(first["rate"] - fair), "test": first_test.test, "p": r(first_test.p, 6)},
        "length": length_summary(tally.turns),
        "turns": list(tally.turns),
        "plays": tally.plays,
        "winner_share_all": r(tally.plays_by_winner / tally.plays if tally.plays else 0.0),
        "cards": (cards := card_rows(deck, tally)),
        "card_extremes": card_extremes(cards),
        "penalties": penalty_rows(tally),
        "waiting": waiting(tally),
        "luck": luck(tally, fair),
    }


def waiting(tally: Tally) -> dict[str, Any]:
    """How long players who are out sit waiting for the game to end, in turns."""
    waits = tally.first_out_waits
    return {"games_with_someone_out": len(waits),
            "first_out_mean": r(sum(waits) / len(waits), 2) if waits else 0.0,
            "first_out_median": r(stats.quantiles(waits, (0.5,))[0], 2) if waits else 0.0,
            "per_player_out_mean": r(tally.out_wait_turns / tally.out_players, 2) if tally.out_players else 0.0}


def luck(tally: Tally, fair: float) -> dict[str, Any]:
    """The stronger bot's win rate among weaker ones, and the share of the way from luck to skill it stands."""
    n = tally.luck_games
    rate = tally.luck_wins / n if n else 0.0
    lo, hi = stats.wilson(tally.luck_wins, n)
    return {"strong": LUCK_BOTS[0], "weak": LUCK_BOTS[1], "games": n, "wins": tally.luck_wins,
            "rate": r(rate), "low": r(lo), "high": r(hi), "fair": r(fair),
            "skill": r((rate - fair) / (1 - fair)) if n else 0.0}


def card_extremes(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The card whose plays go most with winning (strongest) and least (weakest), among well-played cards."""
    known = [c for c in rows if c["plays"] >= MIN_CARD_PLAYS]
    if len(known) < 2:
        return {"strongest": None, "weakest": None}
    strongest = max(known, key=lambda c: (c["lift"], c["plays"]))
    weakest = min(known, key=lambda c: (c["lift"], -c["plays"]))
    return {"strongest": strongest, "weakest": weakest}


def add_verdicts(cells: list[dict[str, Any]]) -> None:
    """Holm-correct the seat tests over all cells, then give each cell its verdict."""
    adjusted = stats.holm([c["seat_test"]["p"] for c in cells])
    for c, p in zip(cells, adjusted):
        c["seat_test"]["p_adjusted"] = r(p, 6)
        c["verdict"] = verdict(c)


def verdict(c: dict[str, Any]) -> dict[str, Any]:
    fair = c["fair"]
    band = (fair * (1 - TOLERANCE), fair * (1 + TOLERANCE))
    rows = c["sides"]
    what = "team" if c["teams"] else "seat"
    mixed = len(set(c["bots"].split(","))) > 1
    if c["finished"] == 0:
        return {"label": "no data", "text": "No game finished."}
    best = max(rows, key=lambda s: (s["rate"], -s["order"]))
    worst = min(rows, key=lambda s: (s["rate"], s["order"]))
    off = [s for s in rows if not band[0] <= s["rate"] <= band[1]]
    significant = c["seat_test"]["p_adjusted"] < ALPHA
    note = " (bots differ by seat, so this is partly the bots)" if mixed else ""
    if significant and off:
        far = max(off, key=lambda s: (abs(s["rate"] - fair), -s["order"]))
        return {"label": "unbalanced",
                "text": f"Unbalanced{note}: {far['label']} wins {pct(far['rate'])} "
                        f"(fair share {pct(fair)}, 95% CI {pct(far['low'])}–{pct(far['high'])})."}
    if significant:
        return {"label": "small seat effect",
                "text": f"Nearly balanced{note}: {best['label']} wins a little more ({pct(best['rate'])} vs fair "
                        f"{pct(fair)}), a real effect but within ±{round(TOLERANCE * 100)}% of the fair share."}
    if all(band[0] <= s["low"] and s["high"] <= band[1] for s in rows):
        return {"label": "balanced",
                "text": f"Balanced{note}: every {what} wins {pct(worst['rate'])}–{pct(best['rate'])} "
                        f"(fair share {pct(fair)}), all within ±{round(TOLERANCE * 100)}% of it."}
    need = more_games(rows, band, c["finished"], fair)
    return {"label": "inconclusive", "games_needed": need,
            "text": f"No clear seat effect in {c['finished']} games ({what} win rates {pct(worst['rate'])}–"
                    f"{pct(best['rate'])}, fair {pct(fair)}); about {need:,} games per cell would settle it."}


def more_games(rows: list[dict[str, Any]], band: tuple[float, float], games: int, fair: float) -> int:
    """Games for every seat's interval to fit in the band, if the rates stay as observed (at least twice as many)."""
    margin = min(min(s["rate"] - band[0], band[1] - s["rate"]) for s in rows)
    if margin <= 0:
        need = 4 * games
    else:
        p = max(rows, key=lambda s: s["rate"] * (1 - s["rate"]))["rate"]
        need = stats.Z95**2 * p * (1 - p) / (margin * margin)
    need = max(need, 2 * games, games_needed(fair))
    return int(math.ceil(need / 100.0) * 100)


def games_needed(fair: float) -> int:
    """Games for a Wilson half-width of half the tolerance band at the fair share."""
    half = fair * TOLERANCE / 2
    n = stats.Z95**2 * fair * (1 - fair) / (half * half)
    return int(math.ceil(n / 100.0) * 100)


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"
