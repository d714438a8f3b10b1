"""`county-uppy replay FILE [--json]`: re-play a game record and check its result."""

from __future__ import annotations

import argparse
import json
import sys

from generator.commands.common import fail, load_deck, read_record_file, report
from generator.deck.problems import InputError, cut, escape


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("replay", help="re-play a game record and check its result",
                       description="Deal the record's game from its seed, apply its decisions and print the final "
                                   "position. Exit 1 if the result differs from the record's or a decision is illegal, "
                                   "2 if the file is unreadable or not a game record. A record without a \"result\" "
                                   "replays with nothing to check.")
    p.add_argument("file", metavar="FILE", help="a game record JSON file (simulate --record and play write them; "
                                                "a record in progress too)")
    p.add_argument("--json", action="store_true", help="print the final position (and the check) as JSON")
    p.add_argument("--steps", action="store_true",
                   help="step through the game: every decision's log line and the position after it (at a terminal: "
                        "Enter for the next, b back, a number to jump, q to stop)")
    p.add_argument("--html", metavar="OUT", default=None,
                   help="write the replay as one self-contained HTML page (no server needed) to OUT")
    p.add_argument("--web", action="store_true", help="serve the replay page in the browser and print a share link")
    p.add_argument("--host", default="127.0.0.1", metavar="ADDR", help="with --web: the address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8766, metavar="N", help="with --web: the port (default 8766, 0 for any free one)")
    return p


def run(args: argparse.Namespace) -> int:
    # lazy: loaded when this command runs, not whenever cli builds every command's parser
    from generator.engine import DecisionError, EngineError, describe_position, replay, to_position
    from generator.engine.record import result_differences, result_of  # lazy: start-up

    usage = ("--html needs the name of the file to write" if args.html is not None and not args.html.strip() else
             f"--port must be 0..65535, not {args.port}" if args.web and not 0 <= args.port <= 65535 else "")
    if usage:
        print(f"county-uppy replay: {usage}", file=sys.stderr)
        return 2
    try:
        deck = load_deck(args.manifest)
        record, in_progress = read_record_file(args.file)
    except InputError as err:
        return report(err)
    try:
        state, same = replay(deck, record)
    except DecisionError as exc:
        return fail(args.file, str(exc), 1)
    except EngineError as exc:
        return fail(args.file, str(exc), 2)
    if args.html or args.web:
        return _page(args, deck, record, same)
    if args.steps:
        _steps(deck, record)
    position = to_position(state)
    result = result_of(state)
    if args.json:
        print(json.dumps({"position": position, "result": result, "matches": same}, indent=2))
    else:
        print(describe_position(position))
    if same is None and in_progress:
        print(escape(f"{args.file}: the record of a game in progress (it stopped before its end was saved): its "
                     f"{len(record['decisions'])} decisions replayed without error"), file=sys.stderr)
    elif same is None:
        print(escape(f"{args.file}: the record has no 'result' to check; its decisions replayed without error"),
              file=sys.stderr)
    elif not same:
        differences = "; ".join(result_differences(record["result"], result))
        return fail(args.file, f"the replayed result differs from the record's: {differences}", 1)
    elif not args.json:
        print("the replayed result matches the record's")
    return 0


def _steps(deck, record) -> None:
    """Every decision's line and the position after it: all at once, or one by one at a terminal."""
    from generator.engine import Game, Options, decision_line, describe_position, to_position  # lazy: this command only

    game = Game(deck, record.get("edition", "the-og"), record["players"], Options.from_dict(record.get("options")))
    state = game.new_initial_state(record["seed"])
    frames = [("the deal", describe_position(to_position(state)))]
    for decision in record["decisions"]:
        before = state.clone()
        action = game.action(decision)
        state.apply(action)
        frames.append((decision_line(before, action, state), describe_position(to_position(state))))
    last = len(frames) - 1
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        for k, (line, picture) in enumerate(frames):
            print(escape(f"step {k} of {last}: {line}"))
            print(picture)
        return
    k, shown = 0, -1
    while True:
        if k != shown:
            line, picture = frames[k]
            print()
            print(escape(f"step {k} of {last}: {line}"))  # (escape would show a line break inside it as \n)
            print(picture)
            shown = k
        try:
            typed = input("Enter: next, b: back, a number: go to that step, q: stop > ").strip()
        except EOFError:
            return
        answer = typed.lower()
        if answer in ("q", "quit"):
            return
        if answer == "b":
            k = max(0, k - 1)
        elif answer.isascii() and answer.isdigit():  # '²' is a digit to str.isdigit, not to int()
            k = min(last, int(answer[:10]))
        elif answer:  # a typo (or an arrow key's escape sequence) neither steps on nor ends the replay
            print(escape(f"'{cut(typed, 40)}' is not a step: press Enter for the next, b to go back, "
                         f"type a step from 0 to {last}, or q to stop"))
        elif k < last:
            k += 1
        else:
            return


def _page(args: argparse.Namespace, deck, record, same) -> int:
    from pathlib import Path  # lazy: --html and --web only

    from generator.files import write_replacing  # lazy: --html only
    from generator.web.replay import standalone_html, steps_of  # lazy: --html and --web only

    steps = steps_of(deck, record)
    if args.html:
        out = Path(args.html)
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            write_replacing(out, standalone_html(steps, f"County Uppy replay, seed {steps['seed']}").encode("utf-8"))
        except OSError as exc:
            return fail(args.html, f"cannot write the replay page: {exc.strerror or exc}", 1)
        print(escape(f"wrote {cut(str(out))}: open it in any browser, no server needed"))
    status = 0 if same is not False else 1
    print(steps["check"])
    if not args.web:
        return status
    import secrets  # lazy: --web only

    from generator.web.run import serve_replay  # lazy: --web only
    from generator.web.server import make_app  # lazy: --web only

    token = secrets.token_urlsafe(16)
    try:
        interrupted = serve_replay(make_app(None, token=token, deck=deck, steps=steps), token, args.host, args.port,
                                   print, steps["share"])
    except OSError as exc:
        return fail(args.file, f"cannot serve on {args.host}:{args.port}: {exc.strerror or exc}", 2)
    return 130 if interrupted else status
