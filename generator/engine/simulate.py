"""Play many seeded games between bots and summarise them (the balance report's data)."""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from collections import Counter
from itertools import repeat
from math import floor
from operator import add, is_
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from generator.backends import open_backend
from generator.files import write_replacing
from generator.deck.model import Deck
from generator.engine.actions import PLAY
from generator.engine.bots import make_bot
from generator.engine.errors import IllegalActionError
from generator.engine.game import Game
from generator.engine.limits import MAX_GAMES, MAX_WORKERS  # noqa: F401 (their old home: callers import them from here)
from generator.engine.options import Options
from generator.engine.record import make_record
from generator.engine.simple_bots import RandomBot
from generator.engine.view import PlayerView


def game_seed(run_seed: int, index: int) -> int:
    """The seed of game `index` of a run: stable across machines, Python versions and worker counts."""
    digest = hashlib.sha256(f"county-uppy:{run_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def bot_seed(seed: int) -> int:
    """The seed of the bots' own RNG in a game (separate from the game's, so replays need only decisions)."""
    return seed ^ 0x2545F4914F6CDD1D


def play_game(game: Game, bots: Sequence, seed: int, stats: list[int] | None = None,
              observer: Callable[[Any, int, Any], None] | None = None, start: tuple | None = None):
    """Play one game from `seed` with one bot per seat; return the final State.

    `start`, if given, is (state, bots' random.Random) of this game at a decision, to play on from
    there instead of dealing `seed` (a State and a Random of its own: both are played on).

    `stats`, if given, is a list of 2 * len(game.codes) counters: plays per card, then the
    plays of it that cost its player a discard. `observer(state, seat, action)`, if given, is
    called after each decision is applied, with the seat that made it; the State then shows
    what followed (`last_penalty`, `last_count`, `sixteen_by`, `penalties`, `owed`, ...).
    """
    state, rng = (game.new_initial_state(seed), random.Random(bot_seed(seed))) if start is None else start
    rnd = rng.random
    ncards = len(game.codes)
    # RandomBot.choose is inlined for the seats that use it (the same draw from the same RNG).
    choosers = [None if getattr(type(bot), "choose", None) is RandomBot.choose else bot.choose for bot in bots]
    if observer is None and not any(choosers):
        # Random bots only: the loop `county-uppy simulate` runs (its workers pass `stats`), in the State.
        state.play_out(rnd, [0] * (2 * ncards) if stats is None else stats)
        return state
    legal_actions = state.legal_actions
    apply = state.advance
    hooks = stats is not None or observer is not None
    views = [PlayerView(state, s) for s in range(game.players)]  # views are live: one per seat is enough
    while not state.done:
        legal = legal_actions()
        if not legal:
            continue
        owed = state.owed
        seat = owed[0] if owed else state.turn if state.giver < 0 else state.giver  # R7.2: a teammate asked to give
        choose = choosers[seat]
        if choose is None:
            action = legal[floor(rnd() * len(legal))]
        else:
            action = choose(views[seat], legal, rng)
            if not any(map(is_, legal, repeat(action))):
                if action not in legal:
                    raise IllegalActionError(f"bot {bots[seat].name} chose {action}, which is not legal")
                action = legal[legal.index(action)]
        apply(action)
        if hooks:
            if stats is not None and action.kind == PLAY:
                stats[action.card] += 1
                stats[ncards + action.card] += state.last_penalty
            if observer is not None:
                observer(state, seat, action)
    return state


# --- one chunk of games (runs in a worker process) ------------------------------------
def _run_chunk(args: tuple) -> tuple[list[tuple], list[int]]:
    """Play a chunk of games: one result row per game, and the chunk's per-card counters (see play_game)."""
    deck, edition, players, options, bot_names, run_seed, indices, record_dir = args
    game = Game(deck, edition, players, options)
    bots = [make_bot(name) for name in bot_names]
    rows = []
    stats = [0] * (2 * len(game.codes))  # summed over the chunk: the same totals for any chunking
    for i in indices:
        seed = game_seed(run_seed, i)
        state = play_game(game, bots, seed, stats)
        if record_dir is not None:
            rec = make_record(state, bot_names)
            write_replacing(Path(record_dir) / f"game-{i:06d}.json", (json.dumps(rec, indent=1) + "\n").encode("utf-8"))
        rows.append((i, state.winner, state.stopped, state.turns, len(state.history)))
    return rows, stats


def _run_indices(run: tuple, indices: range) -> tuple[list[tuple], list[int]]:
    """One chunk on a backend: `run` is what every chunk shares (deck, edition, players, options,
    bot_names, run_seed, record_dir), sent once per worker; the chunk is only its game indices."""
    deck, edition, players, options, bot_names, run_seed, record_dir = run
    return _run_chunk((deck, edition, players, options, bot_names, run_seed, indices, record_dir))


def simulate(deck: Deck, *, games: int, players: int, edition: str = "the-og", seed: int = 0,
             bots: Sequence[str] = ("random",), options: Mapping[str, Any] | Options | None = None,
             workers: int | None = None, record_dir: str | Path | None = None,
             progress: Callable[[int], None] | None = None, scheduler: str | None = None) -> dict[str, Any]:
    """Play `games` games and return the summary dict (see `county-uppy simulate --json`).

    `bots` names one bot per seat, or fewer to repeat cyclically (`("greedy", "random")`).
    Game i uses seed `game_seed(seed, i)`; results are the same for any `workers`
    (None = all cores) and on a Dask cluster (`scheduler`, an address such as
    tcp://host:8786; BackendError if it cannot be reached). `progress(n)` is called as n more
    games finish. Games are handed out in chunks made as they are needed, and only counts are
    kept, so memory does not grow with `games`. On KeyboardInterrupt the work is stopped at
    once and it propagates.
    """
    game = Game(deck, edition, players, options)  # validates edition, players, options
    bot_names = [bots[s % len(bots)] for s in range(players)]
    for name in set(bot_names):
        make_bot(name)
    if record_dir is not None:
        Path(record_dir).mkdir(parents=True, exist_ok=True)
    backend = open_backend(scheduler, workers, work=games)
    run = (deck, edition, players, game.options, bot_names, seed, None if record_dir is None else str(record_dir))
    counts = _Counts(game)
    start = time.perf_counter()
    with backend:
        slots = backend.slots
        chunk = max(1, min(200 * backend.chunk_scale, games // (slots * 4) or 1))
        chunks = (range(lo, min(lo + chunk, games)) for lo in range(0, games, chunk))
        for rows, stats in backend.map_chunks(_run_indices, run, chunks):
            counts.add(rows, stats)
            if progress:
                progress(len(rows))
    seconds = time.perf_counter() - start
    return summarise(game, counts, bot_names, seed, seconds, slots)


class _Counts:
    """What the summary needs from the games of a run, counted as chunks come in (in any order)."""

    def __init__(self, game: Game):
        self.games = self.finished = self.draws = self.decisions = 0
        self.wins = [0] * game.players  #: by seat, or (Teams) by team
        self.turns: Counter[int] = Counter()  #: games by their number of turns
        self.totals = [0] * (2 * len(game.codes))  #: play_game's per-card counters, summed

    def add(self, rows: Iterable[tuple], stats: Sequence[int]) -> None:
        turns = self.turns
        for _i, winner, stopped, nturns, ndecisions in rows:
            self.games += 1
            turns[nturns] += 1
            self.decisions += ndecisions
            if not stopped:
                self.finished += 1
            if winner is None:
                self.draws += 0 if stopped else 1
            else:
                self.wins[winner] += 1
        self.totals = [*map(add, self.totals, stats)]

    def median_turns(self) -> float | int:
        """statistics.median of the games' turns, from their counts."""
        n = self.games
        if not n:
            return 0
        wanted = (n // 2,) if n % 2 else (n // 2 - 1, n // 2)
        found = []
        seen = 0
        for value in sorted(self.turns):
            seen += self.turns[value]
            while len(found) < len(wanted) and wanted[len(found)] < seen:
                found.append(value)
            if len(found) == len(wanted):
                break
        return found[0] if n % 2 else (found[0] + found[1]) / 2


def summarise(game: Game, counts: _Counts, bot_names: list[str], seed: int, seconds: float,
              workers: int) -> dict[str, Any]:
    """The summary dict of a run, from the counts of its games."""
    n = game.players
    teams = game.options.teams
    if teams:  # every seat of the winning team shares the win
        wins_by_team = counts.wins[:2]
        wins_by_seat = [wins_by_team[s % 2] for s in range(n)]
    else:
        wins_by_seat = list(counts.wins)
    # A bot's wins: the games won by a seat it plays (Teams: by a team it plays in), each game once per bot.
    wins_by_bot: dict[str, int] = {name: 0 for name in bot_names}
    if teams:
        for team, w in enumerate(wins_by_team):
            for name in dict.fromkeys(bot_names[team::2]):
                wins_by_bot[name] += w
    else:
        for s, w in enumerate(wins_by_seat):
            wins_by_bot[bot_names[s]] += w
    games, finished, draws, decisions = counts.games, counts.finished, counts.draws, counts.decisions
    totals = counts.totals
    ncards = len(game.codes)
    all_plays = sum(totals[:ncards]) or 1
    cards = {}
    for c in sorted(set(game.edition_cards)):
        plays = totals[c]
        cards[game.codes[c]] = {
            "plays": plays,
            "play_rate": round(plays / all_plays, 6),
            "penalty_rate": round(totals[ncards + c] / plays, 6) if plays else None,
        }
    total_turns = sum(t * k for t, k in counts.turns.items())
    summary: dict[str, Any] = {
        "games": games,
        "finished": finished,
        "unfinished": games - finished,
        "draws": draws,
        "players": n,
        "edition": game.edition.key,
        "options": game.options.to_dict(),
        "seed": seed,
        "bots": bot_names,
        "wins_by_seat": wins_by_seat,
        "win_rate_by_seat": [round(w / games, 6) if games else 0.0 for w in wins_by_seat],
        "wins_by_bot": wins_by_bot,
        "mean_turns": round(total_turns / games, 4) if games else 0.0,
        "median_turns": counts.median_turns(),
        "max_turns": max(counts.turns, default=0),
        "decisions": decisions,
        "cards": cards,
        "workers": workers,
        "seconds": round(seconds, 4),
        "games_per_second": round(games / seconds, 2) if seconds else None,
        "turns_per_second": round(total_turns / seconds, 1) if seconds else None,
        "decisions_per_second": round(decisions / seconds, 1) if seconds else None,
    }
    if teams:
        summary["wins_by_team"] = wins_by_team
    return summary


#: Summary keys that measure the machine rather than the games.
TIMING_KEYS = ("seconds", "games_per_second", "turns_per_second", "decisions_per_second", "workers")


#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for k successes in n trials; (0, 1) when n is 0.

    The project's one interval: `simulate` prints it and the balance report (report/stats.py)
    imports it, so both show the same interval for the same counts. It lives here, below the
    report, because the engine may not import the report.
    """
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def format_summary(s: Mapping[str, Any]) -> str:
    """The readable text summary `county-uppy simulate` prints without --json."""
    lines = [
        f"{s['games']} games, {s['players']} players, edition {s['edition']}, seed {s['seed']}, bots {','.join(s['bots'])}",
    ]
    if s["options"]:
        lines.append("options: " + ", ".join(f"{k}={v}" for k, v in s["options"].items()))
    lines.append(f"finished {s['finished']}, unfinished {s['unfinished']}, draws {s['draws']}")
    lines.append(f"turns: mean {s['mean_turns']}, median {s['median_turns']}, longest {s['max_turns']}")
    if "wins_by_team" in s:
        for t, w in enumerate(s["wins_by_team"]):
            lo, hi = wilson(w, s["games"])
            lines.append(f"  team {t}: {w} wins ({w / max(1, s['games']):.1%}, 95% CI {lo:.1%}-{hi:.1%})")
    else:
        lines.append("wins by seat:")
        for seat, w in enumerate(s["wins_by_seat"]):
            lo, hi = wilson(w, s["games"])
            lines.append(f"  seat {seat} ({s['bots'][seat]}): {w} wins ({w / max(1, s['games']):.1%}, 95% CI {lo:.1%}-{hi:.1%})")
    lines.append("cards: plays (share)  penalty rate")
    for code, c in s["cards"].items():
        rate = "-" if c["penalty_rate"] is None else f"{c['penalty_rate']:.1%}"
        lines.append(f"  {code:>7} {c['plays']:>8} ({c['play_rate']:.2%})  {rate}")
    lines.append(f"{s['seconds']} s: {s['games_per_second']} games/s, {s['turns_per_second']} turns/s, "
                 f"{s['decisions_per_second']} decisions/s on {s['workers']} worker(s)")
    return "\n".join(lines)
