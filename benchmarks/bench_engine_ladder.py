"""The bot ladder: 4-player win rates with 95% (Wilson) intervals.

    .venv/bin/python benchmarks/bench_engine_ladder.py [--games N] [--search-games M] [--workers W]
        [--only LINEUP ...] [--time-games K]

Line-ups (seats in order; each rotates through the four seats so seat order cancels out):
random x4 (seat bias), greedy vs random (2 each), one greedy vs three random,
one search vs three greedy, one search vs three random. `--only search,greedy,greedy,greedy`
runs just the named line-ups. Each line-up also reports the mean time per decision of its
first bot, measured single-process over `--time-games` games (a bot's decisions with one
legal action count too).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from generator.deck.manifest import load  # noqa: E402
from generator.engine import Game, make_bot, play_game, simulate  # noqa: E402
from generator.engine.simulate import game_seed, wilson  # noqa: E402


def rotated(deck, lineup: list[str], games: int, seed: int, workers: int | None) -> dict[str, list[int]]:
    """Play `games` games split over the four rotations of `lineup`; wins and seats per bot name."""
    wins: dict[str, int] = {}
    seats: dict[str, int] = {}
    per = max(1, games // 4)
    total = 0
    for r in range(4):
        bots = lineup[r:] + lineup[:r]
        s = simulate(deck, games=per, players=4, seed=seed + r, bots=bots, workers=workers)
        total += s["games"]
        for seat, name in enumerate(bots):
            wins[name] = wins.get(name, 0) + s["wins_by_seat"][seat]
            seats[name] = seats.get(name, 0) + s["games"]
    return {name: [wins[name], seats[name], total] for name in wins}


class _Timed:
    """Wraps a bot and adds up the time its decisions take."""

    def __init__(self, bot):
        self.bot, self.name, self.seconds, self.decisions = bot, bot.name, 0.0, 0

    def choose(self, view, legal, rng):
        t = time.perf_counter()
        action = self.bot.choose(view, legal, rng)
        self.seconds += time.perf_counter() - t
        self.decisions += 1
        return action


def ms_per_decision(deck, lineup: list[str], games: int, seed: int) -> float:
    """Mean milliseconds per decision of lineup[0], rotated through the seats, on one process."""
    game = Game(deck, "the-og", 4)
    timed = _Timed(make_bot(lineup[0]))
    for i in range(games):
        r = i % 4
        bots = [make_bot(name) for name in lineup[1:]]
        bots.insert(r, timed)
        play_game(game, bots, game_seed(seed + 1000, i))
    return 1000 * timed.seconds / max(1, timed.decisions)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--games", type=int, default=4000)
    p.add_argument("--search-games", type=int, default=200)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--only", nargs="*", default=None, help="line-ups to run, e.g. search,greedy,greedy,greedy")
    p.add_argument("--time-games", type=int, default=20)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    deck = load(ROOT / "cards.yaml")
    lineups = [
        (["random", "random", "random", "random"], args.games),
        (["greedy", "random", "greedy", "random"], args.games),
        (["greedy", "random", "random", "random"], args.games),
        (["search", "greedy", "greedy", "greedy"], args.search_games),
        (["search", "random", "random", "random"], args.search_games),
    ]
    if args.only:
        lineups = [(lu, g) for lu, g in lineups if ",".join(lu) in args.only]
    out = []
    for lineup, games in lineups:
        ms = ms_per_decision(deck, lineup, args.time_games, 100) if args.time_games else None
        if len(set(lineup)) == 1:  # one bot everywhere: show the seat bias instead
            s = simulate(deck, games=games, players=4, seed=100, bots=lineup, workers=args.workers)
            for seat, wins in enumerate(s["wins_by_seat"]):
                lo, hi = wilson(wins, s["games"])
                out.append({"lineup": ",".join(lineup), "seat": seat, "games": s["games"], "wins": wins,
                            "win_rate": round(wins / s["games"], 4), "ci95": [round(lo, 4), round(hi, 4)],
                            "ms_per_decision": ms})
                if not args.json:
                    print(f"{','.join(lineup):32} seat {seat}: {wins:5}/{s['games']} won, {wins / s['games']:6.1%} "
                          f"(95% CI {lo:.1%}-{hi:.1%})" + (f", {ms:.3f} ms/decision" if ms is not None else ""),
                          flush=True)
            continue
        res = rotated(deck, lineup, games, 100, args.workers)
        for name, (wins, seat_games, total) in res.items():
            # Per seat of that bot: a seat's share of wins (fair share is 1/4).
            n_seats = lineup.count(name)
            rate = wins / (total * n_seats) if n_seats else 0
            lo, hi = wilson(wins, total * n_seats)
            first = name == lineup[0]
            out.append({"lineup": ",".join(lineup), "bot": name, "seats": n_seats, "games": total,
                        "wins": wins, "win_rate_per_seat": round(rate, 4), "ci95": [round(lo, 4), round(hi, 4)],
                        "ms_per_decision": ms if first else None})
            if not args.json:
                print(f"{','.join(lineup):32} {name:7} x{n_seats}: {wins:5}/{total} games won, "
                      f"per seat {rate:6.1%} (95% CI {lo:.1%}-{hi:.1%})"
                      + (f", {ms:.3f} ms/decision" if first and ms is not None else ""), flush=True)
    if args.json:
        print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
