"""`county-uppy replay FILE [--json]`: re-play a game record and check its result."""

from __future__ import annotations

import argparse
import json

from generator.commands.common import fail, load_deck, read_json, report
from generator.problems import InputError


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("replay", help="re-play a game record and check its result",
                       description="Deal the record's game from its seed, apply its decisions and print the final "
                                   "position. Exit 1 if the result differs from the record's or a decision is illegal.")
    p.add_argument("file", metavar="FILE", help="a game record JSON file (simulate --record writes them)")
    p.add_argument("--json", action="store_true", help="print the final position (and the check) as JSON")
    return p


def run(args: argparse.Namespace) -> int:
    from generator.engine import DecisionError, EngineError, describe_position, replay, to_position
    from generator.engine.record import result_of

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
    if args.json:
        print(json.dumps({"position": position, "result": result_of(state), "matches": same}, indent=2))
    else:
        print(describe_position(position))
    if not same:
        return fail(args.file, f"the replayed result {result_of(state)} differs from the record's {record.get('result')}", 1)
    return 0
