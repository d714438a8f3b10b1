"""`county-uppy scenario FILE [--json]`: load a position, apply its decisions, print the result,
and check it against the scenario's `expected` (or `expected_error`), as docs/formats.md says."""

from __future__ import annotations

import argparse
import json

from generator.commands.common import fail, load_deck, read_json, report
from generator.deck.problems import InputError


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("scenario", help="apply a scenario's decisions to its position and print the result",
                       description="Load a position (docs/formats.md) plus its \"decisions\", apply them and print "
                                   "the resulting position. Exit 1 if a decision is illegal or the result differs "
                                   "from the file's \"expected\", 2 if the file is unreadable.")
    p.add_argument("file", metavar="FILE", help="a scenario JSON file: a position plus \"decisions\": [...]")
    p.add_argument("--json", action="store_true", help="print the resulting position as JSON")
    return p


def run(args: argparse.Namespace) -> int:
    # lazy: loaded when this command runs, not whenever cli builds every command's parser
    from generator.engine import DecisionError, EngineError, compare_expected, describe_position, run_scenario
    from generator.engine.errors import kind_of  # lazy: start-up

    try:
        deck = load_deck(args.manifest)
        data = read_json(args.file)
    except InputError as err:
        return report(err)
    if not isinstance(data, dict):
        return fail(args.file, f"a scenario is a JSON object (a position plus \"decisions\"), not {kind_of(data)}", 2)
    expected, expected_error = data.get("expected"), data.get("expected_error")
    if expected is not None and not isinstance(expected, dict):
        return fail(args.file, f"'expected' must be an object of position keys and their values, not {kind_of(expected)}", 2)
    if expected_error is not None and not isinstance(expected_error, str):
        return fail(args.file, f"'expected_error' must be text (part of the error's message), not {kind_of(expected_error)}", 2)
    try:
        position = run_scenario(deck, data)
    except DecisionError as exc:
        if expected_error is not None and expected_error not in str(exc):
            return fail(args.file, f"{exc} (the scenario expects an error containing {expected_error!r})", 1)
        return fail(args.file, str(exc), 1)
    except EngineError as exc:
        return fail(args.file, str(exc), 2)
    if args.json:
        print(json.dumps(position, indent=2))
    else:
        print(describe_position(position))
    if expected_error is not None:
        return fail(args.file, f"every decision was legal, but the scenario expects an error containing {expected_error!r}", 1)
    if expected is not None:
        differences = compare_expected(expected, position)
        if differences:
            return fail(args.file, f"the result differs from 'expected': {'; '.join(differences)}", 1)
    return 0
