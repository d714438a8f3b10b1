"""`county-uppy play`: a person plays County Uppy against bots in the terminal."""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path

from generator.commands.common import load_deck, report
from generator.deck.problems import InputError, cut, escape
from generator.engine.options import SPEED_SECONDS_DEFAULT, SPEED_SECONDS_RANGE

EPILOG = """\
At a terminal the screen is redrawn after every move and a SPEED timer counts down while you
type. Otherwise one answer is read per line of standard input (a number from 1, or the
decision itself such as 'play C5'), so a game can be scripted. Bad answers are asked again;
'?' shows the rules, 'log' the whole log; 'q', end of input or Ctrl-C end the game.

--web serves the table in the browser instead: people and bots, one device each or hot-seat;
see docs/commands.md, "play --web".

The game record is written as the game goes, a decision a line, and saved whole at the end
(default output/games/play-DATE-seedS.json); `county-uppy replay FILE` plays back either
form. Exit status: 0 when the game ends or you leave it,
130 after Ctrl-C, 2 for bad options.
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("play", help="play against bots in the terminal",
                       description="Play County Uppy against bots: you are one seat, bots play the others.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--players", type=int, default=4, metavar="N", help="players at the table, you included (default 4)")
    p.add_argument("--edition", default="the-og", metavar="KEY", help="which cards are shuffled in (default the-og)")
    p.add_argument("--bots", default="greedy", metavar="LIST",
                   help="bot names for the other seats, comma-separated, repeated in turn (default greedy)")
    p.add_argument("--teams", action="store_true", help="the Teams variant (an even number of players, 4 or more)")
    p.add_argument("--speed", type=float, nargs="?", const=float(SPEED_SECONDS_DEFAULT), default=None, metavar="SECONDS",
                   help=f"SPEED: seconds you have for each play, {SPEED_SECONDS_RANGE[0]} to {SPEED_SECONDS_RANGE[1]} "
                        f"(default {SPEED_SECONDS_DEFAULT} when given without a value); late costs a discard")
    p.add_argument("--seed", type=int, default=None, metavar="S", help="deal this game (default: a new random deal)")
    p.add_argument("--seat", type=int, default=0, metavar="N", help="your seat (default 0, the dealer: you play last)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a rule option (repeatable)")
    p.add_argument("--record", default=None, metavar="PATH",
                   help="where to save the game record (default output/games/play-DATE-seedS.json; with --web the folder for the records, default OUT/games)")
    p.add_argument("--hints", action="store_true",
                   help="mark the cards in your hand whose play would cost you a discard, and why")
    p.add_argument("--delay", type=float, default=0.7, metavar="SECONDS",
                   help="pause after each bot move at a terminal, and before each bot move on the web page, "
                        "0 to 60 (default 0.7)")
    web = p.add_argument_group("in the browser (docs/commands.md, \"play --web\")")
    web.add_argument("--web", action="store_true", help="serve the table as a web page instead of playing in the terminal")
    web.add_argument("--seats", default=None, metavar="LIST",
                     help="with --web: who sits at each seat, comma-separated: human or a bot name "
                          "(default: human, then --bots for the other seats)")
    web.add_argument("--host", default="127.0.0.1", metavar="ADDR",
                     help="with --web: the address to listen on (default 127.0.0.1; 0.0.0.0 opens it to the network)")
    web.add_argument("--port", type=int, default=8765, metavar="N", help="with --web: the port (default 8765, 0 for any free one)")
    web.add_argument("--reconnect-timeout", type=float, default=60.0, metavar="SECONDS",
                     help="with --web: seconds a person's seat may be away (no device connected) before anyone "
                          "with the join link may take it, and the table may give it to a bot or free it, "
                          "0 to 86400 (default 60)")
    web.add_argument("--host-controls", action="store_true",
                     help="with --web: only the host link (printed at start) may give an away seat to a bot or "
                          "free it; without it any player at the table may")
    web.add_argument("--out", default="output", metavar="DIR",
                     help="with --web: the build's output folder, whose card images the table shows (default output)")
    return p


def run(args: argparse.Namespace) -> int:
    # lazy: rich and the terminal game load when `play` runs, not whenever cli builds every command's parser
    from rich.console import Console
    from rich.panel import Panel
    from rich.text import Text

    from generator.workers import stopped_by

    from generator.engine import EngineError, Game, make_bot, make_record
    from generator.engine.journal import RecordJournal
    from generator.play.inputs import LineInput, TerminalInput
    from generator.play.session import Session

    try:
        deck = load_deck(args.manifest)
    except InputError as err:
        return report(err)
    options: dict[str, object] = {}
    try:
        for item in args.option:
            name, sep, value = item.partition("=")
            if not sep:
                raise EngineError(f"--option takes NAME=VALUE, not {item!r}")
            options[name.strip()] = value.strip()
        if args.teams:
            options["teams"] = True
        if args.speed is not None:
            lo, hi = SPEED_SECONDS_RANGE
            if not lo <= args.speed <= hi:  # nan and inf included
                raise EngineError(f"--speed must be a number of seconds from {lo} to {hi}, not {args.speed:g}")
            options["speed_seconds"] = args.speed
        game = Game(deck, args.edition, args.players, options)
        if not 0 <= args.delay <= 60:  # nan and inf included
            raise EngineError(f"--delay must be a number of seconds from 0 to 60, not {args.delay:g}")
        if not 0 <= args.seat < args.players:
            raise EngineError(f"--seat must be 0..{args.players - 1}, not {args.seat}")
        names = [n.strip() for n in args.bots.split(",") if n.strip()] or ["greedy"]
        for n in names:
            make_bot(n)
    except EngineError as exc:
        print(escape(f"county-uppy play: {exc}"), file=sys.stderr)
        return 2
    if args.web:
        return _run_web(args, deck, options)
    from generator.commands.simulate import writable_folder  # lazy: the record's folder, checked before the game

    # before anyone plays: a record that cannot be saved would be learnt only at the end of the game
    problem = (f"{args.record} is a folder; --record names the record's file" if args.record and Path(args.record).is_dir()
               else writable_folder(str(Path(args.record).parent if args.record else Path("output") / "games")))
    if problem:
        print(escape(cut(f"county-uppy play: {problem} (where the game record goes; --record PATH for another)")),
              file=sys.stderr)
        return 2
    others = [s for s in range(args.players) if s != args.seat]
    bot_names = ["human"] * args.players
    for k, s in enumerate(others):
        bot_names[s] = names[k % len(names)]
    from generator.engine.game import random_seed  # lazy: the engine, only for a game

    seed = args.seed if args.seed is not None else random_seed()
    interactive = _is_tty(sys.stdin) and _is_tty(sys.stdout) and _has_termios()
    console = Console(highlight=False)
    if interactive:
        inp = TerminalInput(console, delay=args.delay)
    else:
        inp = LineInput(sys.stdin, console)
    path = Path(args.record) if args.record else Path("output") / "games" / f"play-{time.strftime('%Y%m%d-%H%M%S')}-seed{seed}.json"
    session = Session(game, seed, args.seat, bot_names, inp, hints=args.hints)
    # written as the game goes (a decision a line): a SIGKILL or a power cut loses at most the decision in flight
    journal = RecordJournal(path, session.state, bot_names)
    session.after_decision = journal.sync
    try:
        outcome = session.run()
    except Exception:  # noqa: BLE001 -- only when a stop came: the terminal went away while it was drawn on
        if stopped_by() is None:
            raise
        outcome = "interrupted"
    # The whole record is saved before anything more is shown: after SIGHUP (the terminal closed)
    # the screen may be gone, and the game must not be lost with it.
    shown = escape(cut(str(path)))  # printed as it is: no markup, no control character
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        journal.finish(make_record(session.state, bot_names))
    except OSError as exc:
        saved = None
        print(f"county-uppy play: could not save the game record to {shown}: {escape(exc.strerror or str(exc))}",
              file=sys.stderr)
    else:
        saved = Text(f"game record saved to {shown}; play it back with: county-uppy replay {shown}")
    if outcome == "interrupted" and stopped_by() == signal.SIGHUP:
        return 130  # the terminal closed: nothing left to show the end on (the CLI makes it 129)
    session.screen.acting = -1 if session.state.is_terminal() else session.screen.acting
    session.screen.banner = ""
    session.screen.ended = True  # the header names the seed now (also after a stop mid-draw)
    inp.show(session.screen)
    if interactive:  # the whole game's log stays on the terminal, why you went out included
        console.print(Panel(session.screen.full_log(), title="the whole game", title_align="left", border_style="dim"))
    console.print(session.result_text(), style="bold", soft_wrap=True)
    if saved is None:
        return 1
    console.print(saved, soft_wrap=True)
    return 130 if outcome == "interrupted" else 0


def _run_web(args: argparse.Namespace, deck, options: dict[str, object]) -> int:
    # lazy: the web server (Starlette, uvicorn) loads only for play --web
    from generator.engine import EngineError, Game  # lazy: loaded when this command runs
    from generator.web.run import serve_table  # lazy: play --web only
    from generator.web.server import Settings  # lazy: play --web only
    from generator.web.table import parse_seats  # lazy: play --web only

    players = args.players
    try:
        if args.seats is not None:
            seats = parse_seats(args.seats, None)
            players = len(seats)
        else:
            bots = [n.strip() for n in args.bots.split(",") if n.strip()] or ["greedy"]
            seats = ["human"] + [bots[k % len(bots)] for k in range(players - 1)]
        Game(deck, args.edition, players, options)
        if not 0 <= args.port <= 65535:
            raise EngineError(f"--port must be 0..65535, not {args.port}")
        if not 0 <= args.reconnect_timeout <= 86400:  # nan and inf included
            raise EngineError(f"--reconnect-timeout must be a number of seconds from 0 to 86400, not {args.reconnect_timeout:g}")
    except EngineError as exc:
        print(escape(f"county-uppy play: {exc}"), file=sys.stderr)
        return 2
    from generator.commands.simulate import writable_folder  # lazy: play --web only

    out = Path(args.out)
    records = Path(args.record) if args.record else out / "games"
    problem = writable_folder(str(records))  # before anyone plays: each finished game's record goes there
    if problem:
        print(escape(f"county-uppy play: {problem} (the game records' folder; --record DIR for another)"), file=sys.stderr)
        return 2
    if not (out / "cards").is_dir():
        print(f"county-uppy play: no card images in {out / 'cards'} (run county-uppy build): cards are shown as text",
              file=sys.stderr)
    settings = Settings(manifest=Path(args.manifest), edition=args.edition, seats=seats, options=options, out=out,
                        records=records, delay=args.delay, seed=args.seed, load=load_deck,
                        reconnect_timeout=args.reconnect_timeout, host_controls=args.host_controls)
    try:
        web, interrupted = serve_table(settings, deck, args.host, args.port, print)
    except OSError as exc:
        print(escape(f"county-uppy play: cannot serve on {args.host}:{args.port}: {exc.strerror or exc}"), file=sys.stderr)
        return 2
    path = web.save_record()
    for saved in web.saved:
        shown = escape(cut(str(saved)))  # the folder is the user's --record or --out: one line, however it was typed
        print(f"game record saved to {shown}; play it back with: county-uppy replay {shown}")
    for why in web.unsaved:
        print(escape(f"county-uppy play: {why}"), file=sys.stderr)
    if path is None and not web.saved and not web.unsaved:
        print("no game was played: no record saved")
    return 130 if interrupted else 0


def _has_termios() -> bool:
    try:
        # lazy: optional, POSIX only; whether it imports is the answer
        import termios  # noqa: F401
    except ImportError:  # Windows: answers are read line by line
        return False
    return True


def _is_tty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
