"""`county-uppy replay FILE [--json]`: re-play a game record and check its result."""

from __future__ import annotations

import argparse
import json
import sys

from generator.commands.common import fail, load_deck, read_json, report
from generator.deck.problems import InputError, escape


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("replay", help="re-play a game record and check its result",
                       description="Deal the record's game from its seed, apply its decisions and print the final "
                                   "position. Exit 1 if the result differs from the record's or a decision is illegal, "
                                   "2 if the file is unreadable or not a game record. A record without a \"result\" "
                                   "replays with nothing to check.")
    p.add_argument("file", metavar="FILE", help="a game record JSON file (simulate --record writes them)")
    p.add_argument("--json", action="store_true", help="print the final position (and the check) as JSON")
    return p


def run(args: argparse.Namespace) -> int:
    # lazy: loaded when this command runs, not whenever cli builds every command's parser
    from generator.engine import DecisionError, EngineError, describe_position, replay, to_position
    from generator.engine.record import result_differences, result_of  # lazy: start-up

    try:
        deck = load_deck(args.manifest)
        record = read_json(args.file)
    except InputError as err:
        return report(err)
    try:
        state, same = replay(deck, record)
    except DecisionError as exc:
        return fail(args.file, str(exc), 1)
    except EngineError as exc:
        return fail(args.file, str(exc), 2)
    position = to_position(state)
    result = result_of(state)
    if args.json:
        print(json.dumps({"position": position, "result": result, "matches": same}, indent=2))
    else:
        print(describe_position(position))
    if same is None:
        print(escape(f"{args.file}: the record has no 'result' to check; its decisions replayed without error"),
              file=sys.stderr)
    elif not same:
        differences = "; ".join(result_differences(record["result"], result))
        return fail(args.file, f"the replayed result differs from the record's: {differences}", 1)
    return 0
