"""The rated bot ladder: seeded round-robin games at 2 and 4 players, Bradley-Terry ratings
with bootstrap intervals, and the time each bot takes per decision.

    .venv/bin/python benchmarks/bench_bots.py [--games2 N] [--games4 N] [--bots a,b,...] [--workers W] [--json]
        [--save FILE | --load FILE]

Needs the `ai` extra: every game is played through the OpenSpiel adapter
(generator/ai/openspiel.py), and the bots are the ladder's (generator/ai/bots.py, the names
`report` and `sweep` take): the project's (`random`, `greedy`, `search:N`) and OpenSpiel's
information-set MCTS (`ismcts:N`, N simulations a decision, random rollouts, resampling through
the engine's determinization; generator/ai/ismcts.py). Every bot draws from the game's bot
`Random`, so a run replays exactly.

- 2 players: every pair of bots plays N games on the deals of games 0..N-1 of `simulate --seed 0`
  (the engine's seeds `game_seed(0, i)`, through the OpenSpiel game's `seeded_state`), seats swapped
  on every other game.
- 4 players: every set of four different bots plays N games per seating, in the 4 rotations.
- Ratings: each game's winner beats every other seat of the game (a draw or an unfinished
  game counts for nobody); a Bradley-Terry model is fitted to those pairwise results by
  minorization-maximization and shown on the Elo scale (400 * log10 of the strength ratio),
  random at 0: over every game, and over the 2-player and the 4-player games alone. The 95%
  interval is the 2.5-97.5 percentile over 200 bootstrap resamples of the games.
- Time per decision: CPU time of each bot's decisions (forced ones included) inside the
  worker processes, averaged over every decision it made (CPU time, so that other work on a
  shared machine does not count).
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from generator.backends import open_backend  # noqa: E402
from generator.ai.bots import ladder_bot  # noqa: E402
from generator.engine.simulate import bot_seed  # noqa: E402

DEFAULT_BOTS = "random,greedy,search:48,search:192,ismcts:10,ismcts:40"  # the ladder in the README
_GAMES: dict = {}


def _game(players: int, edition: str):
    import pyspiel

    import generator.ai.openspiel  # noqa: F401 (registers county_uppy)

    key = (players, edition)
    if key not in _GAMES:
        _GAMES[key] = pyspiel.load_game("county_uppy", {"manifest": str(ROOT / "cards.yaml"), "players": players,
                                                         "edition": edition})
    return _GAMES[key]


class Player:
    """One seat's bot (any bot on the ladder, generator/ai/bots.py), deciding on the OpenSpiel state's engine State."""

    def __init__(self, name: str):
        self.name = name
        self.bot = ladder_bot(name)

    def choose(self, state, rng: random.Random) -> int:
        engine = state.engine
        seat = engine.current_player()
        legal = engine.legal_actions()
        action = self.bot.choose(engine.view(seat), legal, rng)
        return state.rules.ids.id(action)


def play(job: tuple, chunk: list[tuple]) -> list[tuple]:
    """Play (lineup, deal) games; per game the lineup, the winning seats, and each seat's decisions and seconds."""
    edition = job
    out = []
    for lineup, deal in chunk:
        game = _game(len(lineup), edition)
        seed = game_seed(0, deal)  # game `deal` of `simulate --seed 0`
        state = game.seeded_state(seed)
        rng = random.Random(bot_seed(seed))
        players = [Player(name) for name in lineup]
        decisions = [0] * len(lineup)
        seconds = [0.0] * len(lineup)
        while not state.is_terminal():
            seat = state.current_player()
            t = time.process_time()  # CPU time: the machine may be shared, and wall time would count the others
            action = players[seat].choose(state, rng)
            seconds[seat] += time.process_time() - t
            decisions[seat] += 1
            state.apply_action(action)
        returns = state.returns()
        winners = [s for s, r in enumerate(returns) if r > 0]
        out.append((tuple(lineup), winners, decisions, seconds))
    return out


def schedule(bots: list[str], games2: int, games4: int) -> list[tuple]:
    jobs = []
    for a, b in itertools.combinations(bots, 2):
        for deal in range(games2):
            jobs.append(((a, b) if deal % 2 == 0 else (b, a), deal))
    for four in itertools.combinations(bots, 4):
        for deal in range(games4):
            r = deal % 4
            jobs.append((four[r:] + four[:r], deal))
    return jobs


def pairwise(results: list[tuple]) -> dict[tuple[str, str], int]:
    """wins[(a, b)]: times bot a won a game in which bot b sat (and lost)."""
    wins: dict[tuple[str, str], int] = {}
    for lineup, winners, _d, _s in results:
        for w in winners:
            for s, name in enumerate(lineup):
                if s not in winners and name != lineup[w]:
                    wins[(lineup[w], name)] = wins.get((lineup[w], name), 0) + 1
    return wins


def bradley_terry(bots: list[str], wins: dict[tuple[str, str], int], iterations: int = 500) -> dict[str, float]:
    """Elo-scale ratings (random, or the first bot, at 0) by the MM algorithm; a small prior keeps them finite."""
    prior = 0.5  # half a win each way between every pair: a bot that never lost still has a finite rating
    p = {b: 1.0 for b in bots}
    for _ in range(iterations):
        new = {}
        for i in bots:
            won = sum(wins.get((i, j), 0) + prior for j in bots if j != i)
            denom = sum((wins.get((i, j), 0) + wins.get((j, i), 0) + 2 * prior) / (p[i] + p[j]) for j in bots if j != i)
            new[i] = won / denom
        scale = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        p = {b: v / scale for b, v in new.items()}
    anchor = p["random"] if "random" in p else p[bots[0]]
    return {b: 400 * math.log10(p[b] / anchor) for b in bots}


def rate(bots: list[str], results: list[tuple], bootstrap: int) -> tuple[dict, dict, dict]:
    """Bradley-Terry ratings of `results`, and the 2.5 and 97.5 percentiles over `bootstrap` resamples of whole games."""
    ratings = bradley_terry(bots, pairwise(results))
    rng = random.Random(0)
    samples: dict[str, list[float]] = {b: [] for b in bots}
    for _ in range(bootstrap):
        resample = [results[rng.randrange(len(results))] for _ in results]
        for b, v in bradley_terry(bots, pairwise(resample), iterations=200).items():
            samples[b].append(v)
    low, high = {}, {}
    for b in bots:
        s = sorted(samples[b])
        low[b], high[b] = s[int(0.025 * (len(s) - 1))], s[int(0.975 * (len(s) - 1))]
    return ratings, low, high


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bots", default=DEFAULT_BOTS)
    ap.add_argument("--games2", type=int, default=40, help="games per pair at 2 players (default 40)")
    ap.add_argument("--games4", type=int, default=16, help="games per set of four bots at 4 players (default 16)")
    ap.add_argument("--edition", default="the-og")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--bootstrap", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--save", type=Path, help="also write every game's result (lineup, winners, decisions, seconds) here")
    ap.add_argument("--load", type=Path, help="rate the games a --save run wrote instead of playing")
    args = ap.parse_args()
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if args.load:
        saved = json.loads(args.load.read_text())
        results = [(tuple(g[0]), g[1], g[2], g[3]) for g in saved["games"]]
        wall = saved["seconds"]
        bots = saved["bots"]
        args.games2, args.games4 = saved["games2"], saved["games4"]
        complete = saved.get("complete", True)
    else:
        complete = True
        jobs = schedule(bots, args.games2, args.games4)
        random.Random(0).shuffle(jobs)  # mixed 2- and 4-player games throughout: a run stopped early is still a sample
        chunks = [jobs[i:i + 4] for i in range(0, len(jobs), 4)]
        start = time.perf_counter()
        results = []

        def save(complete: bool) -> None:
            if args.save:
                args.save.write_text(json.dumps({"bots": bots, "games2": args.games2, "games4": args.games4,
                                                 "edition": args.edition, "complete": complete,
                                                 "seconds": round(time.perf_counter() - start, 1),
                                                 "games": [list(g) for g in results]}))

        with open_backend(None, args.workers, work=len(chunks)) as backend:
            for k, part in enumerate(backend.map_chunks(play, args.edition, chunks)):
                results.extend(part)
                if k % 25 == 24:
                    save(False)  # so far: --load rates the games played until then
        wall = time.perf_counter() - start
        save(True)
    rated = {"all": rate(bots, results, args.bootstrap)}
    for n in (2, 4):
        rated[n] = rate(bots, [g for g in results if len(g[0]) == n], args.bootstrap)
    rows = []
    for b in bots:
        share = {}
        for n in (2, 4):
            mine = [(lineup, winners) for lineup, winners, _d, _s in results if len(lineup) == n and b in lineup]
            won = sum(1 for lineup, winners in mine if any(lineup[w] == b for w in winners))
            share[n] = (won, len(mine))
        dec = sum(d[s] for lineup, _w, d, _s in results for s, name in enumerate(lineup) if name == b)
        sec = sum(t[s] for lineup, _w, _d, t in results for s, name in enumerate(lineup) if name == b)
        row = {"bot": b, "decisions": dec, "ms_per_decision": round(1000 * sec / max(dec, 1), 3),
               "wins_2p": share[2], "wins_4p": share[4]}
        for key, (elo, low, high) in rated.items():
            suffix = "" if key == "all" else f"_{key}p"
            row.update({"elo" + suffix: round(elo[b]), "low" + suffix: round(low[b]), "high" + suffix: round(high[b])})
        rows.append(row)
    rows.sort(key=lambda r: -r["elo"])
    if args.json:
        print(json.dumps({"games": len(results), "games_2p": sum(1 for g in results if len(g[0]) == 2),
                          "games_4p": sum(1 for g in results if len(g[0]) == 4), "complete": complete,
                          "scheduled": len(schedule(bots, args.games2, args.games4)), "seconds": round(wall, 1),
                          "rows": rows}, indent=1))
        return 0
    n2, n4 = (sum(1 for g in results if len(g[0]) == n) for n in (2, 4))
    planned = len(schedule(bots, args.games2, args.games4))
    print(f"{len(results)} games: {n2} at 2 players ({args.games2} a pair scheduled), {n4} at 4 players "
          f"({args.games4} a set of four scheduled); edition {args.edition}, {wall:.0f} s"
          + ("" if complete else f"; stopped early: {len(results)} of the {planned} games scheduled, "
                                 "a seeded shuffle of them"))
    print("| bot | rating (Elo, random = 0) | 95% interval | at 2 players | at 4 players | wins at 2 players | "
          "wins at 4 players | ms per decision |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        w2, g2 = r["wins_2p"]
        w4, g4 = r["wins_4p"]
        print(f"| `{r['bot']}` | {r['elo']} | {r['low']} to {r['high']} | {r['elo_2p']} ({r['low_2p']} to {r['high_2p']}) | "
              f"{r['elo_4p']} ({r['low_4p']} to {r['high_4p']}) | {w2}/{g2} ({100 * w2 / max(g2, 1):.0f}%) | "
              f"{w4}/{g4} ({100 * w4 / max(g4, 1):.0f}%) | {r['ms_per_decision']:g} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
