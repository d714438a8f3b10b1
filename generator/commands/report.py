"""`county-uppy report`: simulate a grid of games and write the balance report (HTML + JSON)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from contextlib import nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator.commands.common import load_deck
from generator.commands.common import report as report_problems
from generator.deck.problems import InputError, escape
from generator.engine.errors import EngineError
from generator.engine.limits import MAX_GAMES, MAX_WORKERS
from generator.engine.options import Options, parse_option
from generator.progress import ProgressBar

if TYPE_CHECKING:
    from generator.backends import Backend
    from generator.deck.model import Deck

#: The default cap of a sequential run (kept equal to generator.report.rounds.MAX_GAMES_PER_CELL,
#: which tests check; repeated here so that building the parser imports nothing of the report).
MAX_GAMES_PER_CELL = 20_000

DEFAULT_BOTS = "greedy"
#: Where the web table and the terminal game save their records: read by default when it exists.
DEFAULT_RECORDS = "output/games"
#: Seconds a turn takes at the table, for minutes per game (kept equal to report.words.SECONDS_PER_TURN, which a
#: test checks; repeated here so that building the parser imports nothing of the report).
SECONDS_PER_TURN = 6.0

EPILOG = """\
Compare a tweak: --against OTHER.yaml (another manifest) and/or --option NAME=VALUE (a rule
option) plays the design (this manifest, default rules) and the tweak side by side on the
same seeds, and marks the differences that are statistically significant.

Ctrl-C stops the run: the report is written from the games that finished, says it is
partial, and the exit status is 130 (so scripts can tell it from a complete run, status 0).
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("report", help="simulate many games and write the balance report (balance.html, balance.json)",
                       description="Simulate a grid of editions x player counts x bots and write DIR/balance.html "
                                   "and DIR/balance.json: seat win rates, game length, card play, penalties, "
                                   "a verdict per edition.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=None, metavar="N",
                   help=f"exactly N games per cell of the grid, 1..{MAX_GAMES} (default: play in rounds until "
                        "every verdict is settled: first 400 games per cell for 2 players, 1200 for 4, 2000 for 6, "
                        "then each unsettled cell on to the games its verdict asks for, up to --max-games)")
    p.add_argument("--seconds-per-turn", type=float, default=SECONDS_PER_TURN, metavar="S",
                   help=f"how long a turn takes at the table, for minutes per game (default {SECONDS_PER_TURN:g})")
    p.add_argument("--max-games", type=int, default=None, metavar="N",
                   help=f"without --games: the most games a cell plays before its verdict is left open, "
                        f"1..{MAX_GAMES} (default {MAX_GAMES_PER_CELL})")
    p.add_argument("--players", default=None, metavar="LIST",
                   help="player counts, comma-separated (default: every count the manifest allows, 2 to 8)")
    p.add_argument("--edition", action="append", metavar="KEY", help="an edition to include (repeatable; default all)")
    bots = p.add_argument("--bots", action="append", metavar="MIX",
                          help="a bot mix: names comma-separated, given to seats in turn, e.g. greedy or greedy,random "
                               f"(repeatable: each mix is a row of the grid; default {DEFAULT_BOTS})")
    bots.names = "ladder"  # type: ignore[attr-defined]  # run() takes any bot on the ladder: completion offers them
    p.add_argument("--seed", type=int, default=0, metavar="S", help="run seed; game i uses the same seed as in simulate (default 0)")
    p.add_argument("--workers", type=int, default=None, metavar="W", help="worker processes (default: all cores)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run the games on a Dask cluster, e.g. tcp://10.0.0.5:8786 (needs the cluster extra); "
                        "the same results as on this machine")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule option for the tweak side of a comparison (repeatable)")
    p.add_argument("--against", metavar="PATH", help="another manifest to compare with (the tweak side)")
    p.add_argument("--out", default="output", metavar="DIR", help="where to write balance.html and balance.json (default output/)")
    p.add_argument("--records", default=None, metavar="DIR",
                   help="game records to set beside the bots' games: the web table's, the terminal game's and "
                        "simulate --record's (default: output/games, when it exists)")
    p.add_argument("--no-card-effects", action="store_true",
                   help="skip measuring each card's effect (by replaying the deals with one seat that may not play it)")
    return p


class UsageError(Exception):
    pass


def parse_players(text: str | None, deck: Deck) -> list[int]:
    lo, hi = max(2, deck.params.min_players), deck.params.max_players
    if text is None:
        return list(range(lo, hi + 1))
    try:
        counts = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise UsageError(f"--players takes whole numbers separated by commas, not {text!r}") from None
    bad = [n for n in counts if not lo <= n <= hi]
    if not counts or bad:
        raise UsageError(f"--players must be between {lo} and {hi}, not {text!r}")
    return sorted(set(counts))


def parse_options(items: list[str]) -> dict[str, Any]:
    raw: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--option takes NAME=VALUE, not {item!r}")
        raw[name.strip()] = value.strip()
    Options.from_dict(raw)  # each checked, with its message
    return {name: parse_option(name, value) for name, value in raw.items()}  # over the deck's own (Options.for_deck)


def run(args: argparse.Namespace) -> int:
    # lazy: the report's modules load only when `report` runs, not whenever cli builds every command's parser
    from generator.backends import BackendError, ClusterError, DaskBackend
    from generator.ai.bots import ladder_bot
    from generator.engine import Game
    from generator.report.run import Variant
    from generator.report.summarize import Cell, games_needed
    from generator.report.words import rests_on

    try:
        deck = load_deck(args.manifest)
        other = load_deck(args.against) if args.against else None
    except InputError as err:
        return report_problems(err)
    try:
        if args.games is not None and not 1 <= args.games <= MAX_GAMES:
            raise UsageError(f"--games must be 1..{MAX_GAMES}, not {args.games}")
        if args.max_games is not None:
            if args.games is not None:
                raise UsageError("--max-games caps a run that plays until its verdicts are settled; "
                                 "with --games every cell plays exactly that many")
            if not 1 <= args.max_games <= MAX_GAMES:
                raise UsageError(f"--max-games must be 1..{MAX_GAMES}, not {args.max_games}")
        if args.workers is not None and not 1 <= args.workers <= MAX_WORKERS:
            raise UsageError(f"--workers must be 1..{MAX_WORKERS}, not {args.workers}")
        players = parse_players(args.players, deck)
        if not 0 < args.seconds_per_turn <= 3600:
            raise UsageError(f"--seconds-per-turn must be more than 0 and at most 3600, not {args.seconds_per_turn:g}")
        editions = args.edition or [e.key for e in deck.editions]
        mixes = args.bots or [DEFAULT_BOTS]
        tweak = parse_options(args.option)
        for mix in mixes:
            for name in mix.split(","):
                ladder_bot(name.strip())  # any bot on the ladder; ISMCTS without the ai extra: exit 2, naming it
        mixes = list(dict.fromkeys(",".join(n.strip() for n in mix.split(",")) for mix in mixes))
        editions = list(dict.fromkeys(editions))  # one cell each, however often it is named
        variants = [Variant("design", args.manifest, deck, {}, args.manifest)]
        if other is not None or args.option:
            label = (args.against or args.manifest) + "".join(f" + {k}={show(v)}" for k, v in tweak.items())
            variants.append(Variant("tweak", label, other or deck, tweak, args.against or args.manifest))
        cells = [Cell(e, n, mix) for e in editions for n in players for mix in mixes]
        for variant in variants:
            for cell in cells:
                if variant.deck is deck or any(e.key == cell.edition for e in variant.deck.editions):
                    Game(variant.deck, cell.edition, cell.players, variant.options)
        check_out(args.out)
        if args.records is not None:
            try:
                found = Path(args.records).is_dir()
            except OSError as exc:  # a name the file system cannot look up (too long, say)
                raise UsageError(f"--records {args.records}: cannot be read as a folder: {exc.strerror or exc}") from None
            if not found:
                raise UsageError(f"--records {args.records}: no such folder (it holds the game records to read)")
    except (UsageError, EngineError) as err:
        print(escape(f"county-uppy report: {err}"), file=sys.stderr)
        return 2
    # The design side never plays Teams, so its seats set how many games a verdict needs.
    games = {cell: args.games or games_needed(1 / cell.players) for cell in cells}
    by_players = {str(n): args.games or games_needed(1 / n) for n in players}
    cap = args.max_games or MAX_GAMES_PER_CELL
    settings = {"games": args.games or "auto", "games_by_players": by_players, "players": players, "editions": editions, "bots": mixes, "seed": args.seed,
                "manifest": args.manifest, "against": args.against, "options": tweak,
                "seconds_per_turn": args.seconds_per_turn, "verdict_bots": mixes[0],
                "verdict_rests_on": rests_on(mixes[0])}
    changes = deck_changes(deck, other) if other is not None else None
    folder = args.records or (DEFAULT_RECORDS if Path(DEFAULT_RECORDS).is_dir() else None)
    if folder is not None:
        from generator.report.records import read_records  # lazy: only when there are records to read

        read = read_records(folder, deck)
        for warning in read.warnings:
            print(f"county-uppy report: warning: {warning}", file=sys.stderr)
        settings["records"] = folder
    else:
        read = None
    try:
        backend = DaskBackend(args.scheduler) if args.scheduler is not None else None
    except BackendError as err:
        print(escape(f"county-uppy report: {err}"), file=sys.stderr)
        return 2
    try:
        with backend or nullcontext():
            return play_and_write(args, deck, variants, cells, games, by_players, cap, settings, backend, changes, read)
    except ClusterError as err:  # the cluster failed mid-run: no report rather than a wrong one
        print(escape(f"county-uppy report: {err}"), file=sys.stderr)
        return 1


def play_and_write(args: argparse.Namespace, deck: Deck, variants: list, cells: list, games: dict, by_players: dict,
                   cap: int, settings: dict[str, Any], backend: Backend | None, changes: list[str] | None = None,
                   records=None) -> int:
    """Play the grid (on `backend`, or local workers) and write the report; the exit status."""
    # lazy: the report's modules (jinja2 among them) load only when `report` runs
    from generator.report.assemble import assemble
    from generator.report.render import write
    from generator.report.rounds import Round, rounds_json, run_until_settled
    from generator.report.run import run as run_grid

    workers = backend.slots if backend is not None else args.workers or os.cpu_count() or 1
    where = "Dask worker thread(s)" if backend is not None else "worker(s)"
    sides = ' x 2 sides' if len(variants) == 2 else ''
    start = time.perf_counter()
    if args.games is not None:
        planned = sum(games[c] for v in variants for c in cells if any(e.key == c.edition for e in v.deck.editions))
        print(f"playing {planned} games ({len(cells)} cells x {'/'.join(map(str, by_players.values()))} games"
              f"{sides}) on {min(workers, planned)} {where}...", file=sys.stderr)
        with ProgressBar(planned, "games", transient=False) as bar:
            outcome = run_grid(variants, cells, games, seed=args.seed, workers=args.workers,
                               progress=lambda done, planned: bar.set(done), backend=backend)
    else:
        settings["max_games"] = cap
        print(f"playing until every verdict is settled, at most {cap} games per cell, on {workers} {where}",
              file=sys.stderr)
        bars: list[ProgressBar] = []

        def announce(this: Round):
            for bar in bars:
                bar.close()
            bars.clear()
            counts = sorted(set(this.games.values()))
            sizes = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
            lead = (f"round 1: {this.planned} games ({len(this.games)} cell(s) x {'/'.join(map(str, dict.fromkeys(this.games.values())))} games{sides})"
                    if this.number == 1 else
                    f"round {this.number}: {len(this.games)} cell(s) not settled yet, on to {sizes} games "
                    f"({this.planned} more games{sides})")
            print(f"{lead}...", file=sys.stderr)
            bar = ProgressBar(this.planned, "games", transient=False)
            bars.append(bar)
            return lambda done, planned: bar.set(done)

        try:
            outcome, rounds = run_until_settled(variants, cells, games, cap=cap, seed=args.seed, workers=args.workers,
                                                backend=backend, announce=announce)
        finally:
            for bar in bars:
                bar.close()
        settings["rounds"] = rounds_json(rounds)
        planned = outcome.games_planned
    effects: dict = {}
    if not args.no_card_effects and not outcome.interrupted:
        try:
            effects = card_effects(args, variants[0], cells, outcome, settings, backend)
        except KeyboardInterrupt:
            outcome.interrupted = True
            print("county-uppy report: interrupted while measuring the card effects; the report is written without them",
                  file=sys.stderr)
    seconds = time.perf_counter() - start
    data = assemble(variants, cells, outcome, settings, changes, effects, records)
    try:
        html_path, json_path = write(data, args.out, deck.params.name)
    except OSError as exc:
        where = exc.filename or args.out
        print(escape(f"county-uppy report: cannot write the report to {where}: {exc.strerror or exc}"), file=sys.stderr)
        return 1
    for line in headline_lines(data, per_cell=args.games is None):
        print(escape(line))
    print(escape(f"wrote {html_path} and {json_path} ({outcome.games_done} games in {seconds:.1f} s)"))
    if outcome.interrupted:
        print(f"county-uppy report: interrupted; the report counts the {outcome.games_done} of {planned} games "
              f"that finished", file=sys.stderr)
        return 130
    return 0


def card_effects(args: argparse.Namespace, design, cells: list, outcome, settings: dict[str, Any],
                 backend: Backend | None) -> dict:
    """Each card's effect (report/card_effects.py) in every cell of the first bot mix, on the cell's own
    deals; without --games, first on the deals a seat verdict usually needs, then on until each verdict
    is settled (at most CARD_ROUNDS times those, and --max-games). Returns {cell: EffectTally}."""
    from generator.report import card_effects as ce  # lazy: only when the command runs
    from generator.report.summarize import games_needed  # lazy: as above

    options = Options.for_deck(design.deck, design.options)
    mine = [c for c in cells if c.bots == settings["verdict_bots"] and (0, c) in outcome.tallies
            and outcome.tallies[(0, c)].games]
    # The first round measures the cards on the deals a verdict usually needs (the cell's first round),
    # or on all the cell's games if it played fewer (--games, a cap); later rounds go on from there.
    targets = []
    for c in mine:
        fair = 1 / (2 if options.teams else c.players)
        first = outcome.tallies[(0, c)].games if args.games is not None else \
            min(outcome.tallies[(0, c)].games, games_needed(fair))
        targets.append(ce.Target(ce.Setup(design.deck, dict(design.options), c.edition, c.players, tuple(c.bot_list()),
                                          args.seed), fair, first))
    cap = None if args.games is not None else settings["max_games"]
    bars: list[ProgressBar] = []

    def announce(number: int, planned: int):
        for bar in bars:
            bar.close()
        bars.clear()
        print(f"card effects, round {number}: {planned} deals, each played again without each card a seat held...",
              file=sys.stderr)
        bar = ProgressBar(planned, "deals", transient=False)
        bars.append(bar)
        return bar.set

    try:
        tallies = ce.measure(targets, cap=cap, rounds=ce.CARD_ROUNDS, workers=args.workers, backend=backend,
                             announce=announce)
    finally:
        for bar in bars:
            bar.close()
    settings["card_effects"] = {"deals": {c.key: t.played for c, t in zip(mine, tallies)},
                                "restricted_games": sum(t.restricted_games for t in tallies)}
    return dict(zip(mine, tallies))


def deck_changes(design: Deck, other: Deck) -> list[str]:
    """What `county-uppy diff` says changed from the design's deck to the other manifest's."""
    from generator.deck.compare import compare, summary  # lazy: only an --against run needs them
    from generator.products.deck_json import deck_document  # lazy: only an --against run needs it

    return summary(compare(deck_document(design), deck_document(other)))


def check_out(out: str) -> None:
    """Before any game is played: --out must be a folder (made if missing) that the report can be written into."""
    from generator.commands.simulate import writable_folder  # lazy: only when the command runs
    from generator.report.render import FILES  # lazy: render loads jinja2, only when the command runs

    problem = writable_folder(out)
    if problem:
        raise UsageError(problem)
    folder = Path(out)
    for name in FILES:
        if (folder / name).is_dir():
            raise UsageError(f"{folder / name} is a folder, where the report's file goes")


def show(value: Any) -> str:
    """An option value as it is typed on the command line."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def headline_lines(data: dict[str, Any], *, per_cell: bool = False) -> list[str]:
    """The verdicts on the terminal; `per_cell`: also how many games each cell took (a sequential run)."""
    lines = [f"verdicts rest on {data['settings']['verdict_rests_on']}"]
    if data.get("changes"):
        lines.append("the other manifest: " + "; ".join(data["changes"]))
    for row in data["headline"]:
        for k, v in enumerate(row["variants"]):
            if v is None:
                continue
            who = f" [{data['variants'][k]['name']}]" if len(data["variants"]) == 2 else ""
            lines.append(f"{row['edition_name']}{who}: {v['answer']} {v['sentence']}".rstrip())
            if per_cell:
                took = "; ".join(f"{n} players {g['games']} ({g['label']})" for n, g in v["verdicts"].items())
                lines.append(f"  games per cell: {took}")
        if "differences" in row:
            lines.append(f"  {row['differences']} significant difference(s) between design and tweak")
    if data.get("in_plain_words"):
        lines.append(f"card effects: {data['in_plain_words']}")
    for g in (data.get("records") or {}).get("groups", ()):
        lines.append(f"people's games: {g['edition_name']}, {g['players']} players: {g['records']} record(s)")
        for d in g["differences"]:
            if d["significant"]:
                lines.append(f"  {d['sentence']}")
    for s in data.get("suggestions") or ():
        lines.append(f"try: {s['text']}")
        lines.append(f"  {s['command']}")
    return lines

