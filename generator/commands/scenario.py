"""`county-uppy scenario FILE [--json]`: load a position, apply its decisions, print the result."""

from __future__ import annotations

import argparse
import json

from generator.commands.common import fail, load_deck, read_json, report
from generator.deck.problems import InputError


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("scenario", help="apply a scenario's decisions to its position and print the result",
                       description="Load a position (docs/formats.md) plus its \"decisions\", apply them and print "
                                   "the resulting position. Exit 1 if a decision is illegal, 2 if the file is unreadable.")
    p.add_argument("file", metavar="FILE", help="a scenario JSON file: a position plus \"decisions\": [...]")
    p.add_argument("--json", action="store_true", help="print the resulting position as JSON")
    return p


def run(args: argparse.Namespace) -> int:
    # lazy: loaded when this command runs, not whenever cli builds every command's parser
    from generator.engine import DecisionError, EngineError, describe_position, run_scenario
    from generator.engine.errors import kind_of  # lazy: start-up

    try:
        deck = load_deck(args.manifest)
        data = read_json(args.file)
    except InputError as err:
        return report(err)
    if not isinstance(data, dict):
        return fail(args.file, f"a scenario is a JSON object (a position plus \"decisions\"), not {kind_of(data)}", 2)
    try:
        position = run_scenario(deck, data)
    except DecisionError as exc:
        return fail(args.file, str(exc), 1)
    except EngineError as exc:
        return fail(args.file, str(exc), 2)
    if args.json:
        print(json.dumps(position, indent=2))
    else:
        print(describe_position(position))
    return 0
