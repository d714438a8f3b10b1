"""`county-uppy sweep`: the balance report's numbers over a grid of rule parameters."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from generator.commands.common import report as report_problems
from generator.commands.report import UsageError as ReportUsage
from generator.commands.report import parse_players as report_players
from generator.deck.problems import InputError, escape, escape_json
from generator.engine.limits import DEFAULT_MAX_CELLS, MAX_CELLS, MAX_GAMES, MAX_WORKERS
from generator.progress import ProgressBar, is_terminal

DEFAULT_PLAYERS = "4"
#: --until-settled's default cap on a cell's games (the report's, generator.report.rounds.MAX_GAMES_PER_CELL,
#: which a test checks; repeated here so that building the parser imports nothing of the report).
MAX_GAMES_PER_CELL = 20_000
DEFAULT_BOTS = "greedy"

EPILOG = """\
NAME is a game parameter of the manifest (target, hand_size, copies.CODE for a card's
copies, params.CODE.NAME for a wild's parameter, e.g. params.x2.factor) or a rule option
(wild_sets_target, all_out, invert_through_wilds, play2_draws, sixteen_hits, max_turns,
dealer, teams, speed_seconds). Values: V1,V2,... or a range A..B (target=14..20).
Every value is checked as `validate` checks cards.yaml before a game is played.

Ctrl-C (or SIGTERM) stops the games: the cells that finished are printed and written, marked
"complete": false with the missing cells listed, and the exit status is 130 (143 after SIGTERM).

examples:
  county-uppy sweep --param target=14,16,18 --param hand_size=4,5 --players 4 --games 400 --seed 3
  county-uppy sweep --param copies.x2=1..5 --param play2_draws=1,2 --players 3,4,6 --out output/sweep
  county-uppy sweep --param target=12..20 --scheduler tcp://10.0.0.5:8786 --games 10000 --json
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("sweep", help="balance numbers over a grid of rule parameters (sweep.html, sweep.json)",
                       description="Play every combination of the --param values at every player count and give "
                                   "each cell the balance report's numbers: seat win rates with 95% intervals, the "
                                   "first player's advantage, game length, unfinished games, card play and "
                                   "penalty rates and a fairness verdict.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--param", action="append", default=[], metavar="NAME=V1,V2,...",
                   help="a parameter and its values (repeatable: the grid is every combination)")
    p.add_argument("--players", default=DEFAULT_PLAYERS, metavar="LIST",
                   help=f"player counts, comma-separated (default {DEFAULT_PLAYERS})")
    p.add_argument("--edition", default="the-og", metavar="KEY", help="edition key (default: the-og)")
    bots = p.add_argument("--bots", default=DEFAULT_BOTS, metavar="MIX",
                          help=f"bot names, comma-separated, given to seats in turn (default {DEFAULT_BOTS})")
    bots.names = "ladder"  # type: ignore[attr-defined]  # run() takes any bot on the ladder: completion offers them
    p.add_argument("--games", type=int, default=None, metavar="N",
                   help=f"games per cell, 1..{MAX_GAMES} (default: as many as a verdict needs: "
                        "400 for 2 players, 1200 for 4, 2000 for 6; the most of the player counts asked for)")
    p.add_argument("--until-settled", action="store_true",
                   help="after the first --games, play each inconclusive cell on to the games its verdict asks for, "
                        "in rounds, until every verdict is settled or its cell reaches --max-games")
    p.add_argument("--max-games", type=int, default=None, metavar="N",
                   help=f"with --until-settled: the most games a cell plays, 1..{MAX_GAMES} (default 20000)")
    p.add_argument("--max-cells", type=int, default=DEFAULT_MAX_CELLS, metavar="N",
                   help=f"play a grid of at most N cells, 1..{MAX_CELLS} (default {DEFAULT_MAX_CELLS}): a larger one is "
                        "refused, with the number of games it would play")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="run seed; each cell's seed is derived from it and the cell's values (default 0)")
    p.add_argument("--workers", type=int, default=None, metavar="W", help="local worker processes (default: all cores)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run the games on a Dask cluster, e.g. tcp://10.0.0.5:8786 (needs the cluster extra)")
    p.add_argument("--json", action="store_true", help="print every cell as JSON")
    p.add_argument("--out", default=None, metavar="DIR", help="write DIR/sweep.html, DIR/sweep.json and a page per cell")
    p.add_argument("--no-progress", action="store_true", help="no progress bar even on a terminal")
    return p


class UsageError(Exception):
    pass


def run(args: argparse.Namespace) -> int:
    # lazy: start-up (the engine, the sweep's report, Dask when asked for)
    from generator.backends import BackendError, ClusterError, open_backend
    from generator.deck.manifest import check
    from generator.deck.yaml_source import read
    from generator.ai.bots import ladder_bot
    from generator.engine import EngineError
    from generator.report.summarize import games_needed
    from generator.report.words import rests_on
    from generator.report.sweep import grid
    from generator.report.sweep.page import OutError, check_out, write
    from generator.report.sweep.run import Context, Played
    from generator.report.sweep.run import run as run_cells
    from generator.report.sweep.summary import document

    def usage(message: str) -> int:
        lines = f"county-uppy sweep: {message}".split("\n")  # a refused tweak lists the manifest's problems below
        print("\n".join(map(escape, lines)), file=sys.stderr)
        return 2

    try:
        src = read(args.manifest)
        deck = check(src)
    except InputError as err:
        return report_problems(err)
    try:
        if not args.param:
            raise UsageError("give at least one --param NAME=V1,V2,... (see county-uppy sweep --help)")
        if args.games is not None and not 1 <= args.games <= MAX_GAMES:
            raise UsageError(f"--games must be 1..{MAX_GAMES}, not {args.games}")
        if args.workers is not None and not 1 <= args.workers <= MAX_WORKERS:
            raise UsageError(f"--workers must be 1..{MAX_WORKERS}, not {args.workers}")
        players = parse_players(args.players, deck)
        bots = ",".join(n.strip() for n in args.bots.split(","))
        for name in bots.split(","):
            ladder_bot(name)  # any bot on the ladder; ISMCTS without the ai extra: exit 2, naming it
        axes = [grid.parse_axis(text, deck) for text in args.param]
        grid.check_axes(axes)
        if args.max_games is not None and not args.until_settled:
            raise UsageError("--max-games caps --until-settled; without it every cell plays --games games")
        if args.max_games is not None and not 1 <= args.max_games <= MAX_GAMES:
            raise UsageError(f"--max-games must be 1..{MAX_GAMES}, not {args.max_games}")
        if not 1 <= args.max_cells <= MAX_CELLS:
            raise UsageError(f"--max-cells must be 1..{MAX_CELLS}, not {args.max_cells}")
        games = args.games or max(games_needed(1 / n) for n in players)
        grid.check_size(axes, players, games, args.max_cells)
        variants = grid.variants(axes, src, deck)
        cells = grid.cells(variants, players, args.edition, args.seed)
        if games * len(cells) > MAX_GAMES:
            raise UsageError(f"the sweep asks for {games * len(cells)} games ({len(cells)} cells x {games}); "
                             f"at most {MAX_GAMES}")
        if args.out is not None:
            check_out(args.out)
    except (UsageError, grid.GridError, EngineError, OutError) as err:
        return usage(str(err))
    ctx = Context(tuple(v.deck for v in variants), tuple(v.options for v in variants), args.edition, bots)
    settings = {"params": {a.name: list(a.values) for a in axes}, "players": players, "edition": args.edition,
                "bots": bots, "verdict_bots": bots, "verdict_rests_on": rests_on(bots), "games": games, "seed": args.seed, "manifest": args.manifest}
    if args.until_settled:
        settings["until_settled"] = True
        settings["max_games"] = cap = args.max_games or MAX_GAMES_PER_CELL
    planned = games * len(cells)
    played = None
    start = time.perf_counter()
    try:
        backend = open_backend(args.scheduler, args.workers, work=planned)
        print(f"playing {planned} games ({len(cells)} cells x {games}) on {backend.slots} "
              f"{'Dask worker thread(s)' if args.scheduler is not None else 'worker(s)'}; the verdicts rest on {rests_on(bots)}...",
              file=sys.stderr)
        bar = ProgressBar(planned, "sweeping", enabled=not args.no_progress and is_terminal())
        with backend:
            with bar:
                played = run_cells(backend, ctx, cells, games, progress=bar.advance if bar.enabled else None)
            if args.until_settled:
                settings["rounds"] = [{"round": 1, "cells": len(cells), "games": planned}]
                played = play_until_settled(backend, ctx, cells, variants, played, cap, settings, args)
    except ClusterError as err:
        print(escape(f"county-uppy sweep: {err}"), file=sys.stderr)
        return 1
    except BackendError as err:
        return usage(str(err))
    except KeyboardInterrupt:  # while the backend opened or closed (during the games, run_cells keeps what finished)
        if played is None:
            played = Played([], games)
        played.interrupted = True
    done = played.finished()
    if not done:
        where = f"; nothing was written, {args.out} is as it was" if args.out is not None else ""
        print(escape(f"county-uppy sweep: interrupted before any of the {len(cells)} cells finished{where}"),
              file=sys.stderr)
        return 130
    seconds = time.perf_counter() - start
    data = document(settings, cells, variants, played.counts, done, edition=args.edition, bots=bots)
    played_games = sum(c.games for c in played.counts)
    turns = sum(t * k for c in played.counts for t, k in c.turns.items())
    data["timing"] = {"seconds": round(seconds, 3),
                      "games_per_second": round(played_games / seconds, 1) if seconds else None,
                      "turns_per_second": round(turns / seconds, 1) if seconds else None,
                      "backend": backend.name, "slots": backend.slots}
    if args.out is not None:
        try:
            html_path = write(data, [cells[k] for k in done], variants, [played.counts[k] for k in done], src, deck,
                              args.out, deck.params.name, to_json(data))
        except OSError as exc:
            print(escape(f"county-uppy sweep: cannot write to {exc.filename or args.out}: {exc.strerror or exc}"), file=sys.stderr)
            return 1
    if args.json:
        print(to_json(data))
    else:
        print(escape(f"the verdicts rest on {data['settings']['verdict_rests_on']}"))
        for line in table(data):
            print(line)
    if args.out is not None:
        print(escape(f"wrote {html_path} and {html_path.with_name('sweep.json')}"), file=sys.stderr if args.json else sys.stdout)
    if played.interrupted:
        listed = " (sweep.json lists them)" if args.out is not None else ' (listed under "missing")' if args.json else ""
        print(f"county-uppy sweep: interrupted; {len(done)} of {len(cells)} cells finished and are shown, "
              f"{len(cells) - len(done)} missing{listed}" if not data["complete"] else
              "county-uppy sweep: interrupted as the sweep ended; every cell had finished", file=sys.stderr)
        return 130
    return 0


def play_until_settled(backend, ctx, cells: list, variants: list, played, cap: int, settings: dict[str, Any],
                       args: argparse.Namespace):
    """Rounds after the first: each inconclusive cell on to the games its verdict asks for (at most
    `cap`), until none is left or Ctrl-C; `settings["rounds"]` gets a line per round."""
    from generator.report.sweep.run import run as run_cells  # lazy: as in run()
    from generator.report.sweep.summary import summaries  # lazy: as in run()

    while not played.interrupted:
        now = summaries(cells, variants, played.counts, edition=args.edition, bots=ctx.bots)
        targets = [c.games for c in played.counts]
        for k, s in enumerate(now):
            if s["verdict"]["label"] == "inconclusive":
                targets[k] = max(targets[k], min(cap, s["verdict"]["games_needed"]))
        more = sum(t - c.games for t, c in zip(targets, played.counts))
        if not more:
            break
        grown = sum(t > c.games for t, c in zip(targets, played.counts))
        number = len(settings["rounds"]) + 1
        print(f"round {number}: {grown} cell(s) not settled yet, {more} more games...", file=sys.stderr)
        settings["rounds"].append({"round": number, "cells": grown, "games": more})
        bar = ProgressBar(more, "sweeping", enabled=not args.no_progress and is_terminal())
        with bar:
            played = run_cells(backend, ctx, cells, targets, progress=bar.advance if bar.enabled else None,
                               played=played)
    return played


def to_json(data: dict[str, Any]) -> str:
    """The sweep as JSON: the same for the same inputs wherever it ran (but for `timing`), and safe
    to print (escape_json: a path or value holding control characters keeps its value, escaped)."""
    return escape_json(json.dumps(data, indent=1, ensure_ascii=False))


def parse_players(text: str, deck) -> list[int]:
    try:
        return report_players(text, deck)
    except ReportUsage as err:
        raise UsageError(str(err)) from None


def table(data: dict[str, Any]) -> list[str]:
    """One line per cell: its values, the verdict, the first player's rate, length, unfinished games
    (every value escaped for the terminal before the columns are measured)."""
    names = list(data["settings"]["params"])
    head = [*map(escape, names), "players", "games", "verdict", "worst seat", "first player (95% CI)", "median turns", "unfinished",
            "to settle"]
    rows = []
    for c in data["cells"]:
        fp = c["first_player"]
        rows.append([*(escape(show(c["params"][n])) for n in names), str(c["players"]), str(c["games"]), c["verdict"]["label"],
                     f"{c['worst_seat_off'] * 100:.0f}% off", f"{fp['rate']:.1%} ({fp['low']:.1%}-{fp['high']:.1%})",
                     f"{c['length']['median']:g}", str(c["unfinished"]),
                     f"{c['verdict']['more_games']:,} more games" if "more_games" in c["verdict"] else ""])
    widths = [max(len(h), *(len(r[k]) for r in rows)) for k, h in enumerate(head)]
    line = lambda cols: "  ".join(col.ljust(w) for col, w in zip(cols, widths)).rstrip()  # noqa: E731
    return [line(head), line(["-" * w for w in widths]), *(line(r) for r in rows)]


def show(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)

