"""`county-uppy simulate`: play many seeded games between bots and summarise them."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from generator.commands.common import load_deck, report
from generator.deck.problems import InputError, escape
from generator.engine.limits import MAX_GAMES, MAX_WORKERS
from generator.progress import ProgressBar, is_terminal


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("simulate", help="play many games between bots and summarise them",
                       description="Play N seeded games between bots. Game i uses a seed derived from --seed and i, "
                                   "so any game replays alone; results do not depend on --workers.")
    p.add_argument("--games", type=int, required=True, metavar="N", help=f"how many games to play (1..{MAX_GAMES})")
    p.add_argument("--players", type=int, required=True, metavar="P", help="players per game (2..8)")
    p.add_argument("--edition", default="the-og", metavar="KEY", help="edition key (default: the-og)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="run seed (default: 0)")
    p.add_argument("--bots", default="greedy", metavar="a,b,..",
                   help="bot per seat, repeated cyclically: random, greedy, search, search:N (default: greedy, "
                        "as in report, sweep and play)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule option (docs/rules.md), e.g. all_out=draw; repeatable")
    p.add_argument("--workers", type=int, default=None, metavar="W", help="worker processes (default: all cores)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run the games on a Dask cluster, e.g. tcp://10.0.0.5:8786 (needs the cluster extra); "
                        "the same results as on this machine")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--record", default=None, metavar="DIR", help="save every game's record as DIR/game-NNNNNN.json")
    p.add_argument("--dataset", default=None, metavar="DIR",
                   help="write every decision as training data into DIR: observation tensors, legal masks, actions "
                        "(docs/formats.md), and DIR/dataset.json instead of the summary")
    p.add_argument("--no-progress", action="store_true", help="no progress bar even on a terminal")
    return p


def run(args: argparse.Namespace) -> int:
    # lazy: loaded when this command runs, not whenever cli builds every command's parser
    from generator.engine import EngineError, Game, format_summary, make_bot, simulate
    from generator.backends import BackendError, ClusterError  # lazy: start-up (multiprocessing)

    def usage(message: str) -> int:
        print(escape(f"county-uppy simulate: {message}"), file=sys.stderr)
        return 2

    if not 1 <= args.games <= MAX_GAMES:
        return usage(f"--games must be 1..{MAX_GAMES}, not {args.games}")
    if args.workers is not None and not 1 <= args.workers <= MAX_WORKERS:
        return usage(f"--workers must be 1..{MAX_WORKERS}, not {args.workers}")
    options = {}
    for item in args.option:
        name, sep, value = item.partition("=")
        if not sep or not name:
            return usage(f"--option takes NAME=VALUE, not {item!r}")
        options[name.strip()] = value.strip()
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not bots:
        return usage("--bots needs at least one bot name")
    try:
        deck = load_deck(args.manifest)
    except InputError as err:
        return report(err)
    try:
        for name in bots:
            make_bot(name)
        Game(deck, args.edition, args.players, options)
    except EngineError as exc:
        return usage(str(exc))
    for folder in (args.record, args.dataset):
        if folder is not None:
            problem = writable_folder(folder)
            if problem:
                return usage(problem)
    bar = ProgressBar(args.games, "simulating", enabled=not args.no_progress and is_terminal())
    if args.dataset is not None:
        return write_dataset(args, deck, bots, options, bar)
    try:
        summary = simulate(deck, games=args.games, players=args.players, edition=args.edition, seed=args.seed,
                           bots=bots, options=options, workers=args.workers, record_dir=args.record,
                           progress=bar.advance if bar.enabled else None, scheduler=args.scheduler)
    except ClusterError as exc:  # the cluster failed mid-run (not a usage problem)
        print(escape(f"county-uppy simulate: {exc}"), file=sys.stderr)
        return 1
    except (EngineError, BackendError) as exc:
        return usage(str(exc))
    except OSError as exc:  # a game record could not be written (a full disk), or no worker could start
        where = f"cannot write {exc.filename}: " if exc.filename else ""
        print(escape(f"county-uppy simulate: {where}{exc.strerror or exc}"), file=sys.stderr)
        return 1
    finally:
        bar.close()
    print(json.dumps(summary, indent=2) if args.json else format_summary(summary))
    return 0


def write_dataset(args: argparse.Namespace, deck, bots: list[str], options: dict, bar: ProgressBar) -> int:
    """--dataset: play the same games and write every decision as training data."""
    from generator.ai.dataset import export  # lazy: only a dataset run needs it
    from generator.backends import BackendError, ClusterError  # lazy: start-up (multiprocessing)
    from generator.engine import EngineError  # lazy: the engine loads only when a command plays

    try:
        info = export(deck, args.dataset, games=args.games, players=args.players, edition=args.edition,
                      seed=args.seed, bots=bots, options=options, workers=args.workers, record_dir=args.record,
                      progress=bar.advance if bar.enabled else None, scheduler=args.scheduler, manifest=args.manifest)
    except ClusterError as exc:
        print(escape(f"county-uppy simulate: {exc}"), file=sys.stderr)
        return 1
    except (EngineError, BackendError) as exc:
        print(escape(f"county-uppy simulate: {exc}"), file=sys.stderr)
        return 2
    except OSError as exc:
        where = f"cannot write {exc.filename}: " if exc.filename else ""
        print(escape(f"county-uppy simulate: {where}{exc.strerror or exc}"), file=sys.stderr)
        return 1
    finally:
        bar.close()
    if args.json:
        print(json.dumps(info, indent=2))
    else:
        print(escape(f"wrote {args.dataset}: {info['decisions']} decisions of {info['games']} games "
                     f"({info['observation']['size']} observation values and {info['actions']['size']} action ids "
                     f"a decision); {Path(args.dataset) / 'dataset.json'} describes the arrays"))
    return 0


def writable_folder(path: str) -> str | None:
    """Make sure `path` is a folder that files can be written into (creating it); else say why not."""
    import tempfile  # lazy: start-up

    folder = Path(path)
    try:
        if folder.exists() and not folder.is_dir():
            return f"{path} exists and is not a folder"
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        return f"cannot write {path}: {exc.strerror or exc}"
    return None

