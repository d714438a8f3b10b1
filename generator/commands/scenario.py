"""`county-uppy scenario FILE [--json]`: load a position, apply its decisions, print the result."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from generator.commands.common import load_deck, report
from generator.problems import InputError


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("scenario", help="apply a scenario's decisions to its position and print the result",
                       description="Load a position (CONTRACT.md) plus its \"decisions\", apply them and print "
                                   "the resulting position. Exit 1 if a decision is illegal, 2 if the file is unreadable.")
    p.add_argument("file", metavar="FILE", help="a scenario JSON file: a position plus \"decisions\": [...]")
    p.add_argument("--json", action="store_true", help="print the resulting position as JSON")
    return p


def read_json(path: str) -> Any:
    """The JSON in `path`; raise InputError (status 2) with a one-line `FILE[:LINE:COL]: message`."""
    from generator.problems import Problem

    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise InputError([Problem(path, 0, 0, "no such file")], status=2) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError([Problem(path, 0, 0, f"cannot read: {exc.__class__.__name__}: {exc}")], status=2) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError([Problem(path, exc.lineno, exc.colno, f"not valid JSON: {exc.msg}")], status=2) from None


def fail(path: str, message: str, status: int) -> int:
    print(f"{path}: {message}", file=sys.stderr)
    return status


def run(args: argparse.Namespace) -> int:
    from generator.engine import DecisionError, EngineError, describe_position, run_scenario

    try:
        deck = load_deck(args.manifest)
        data = read_json(args.file)
    except InputError as err:
        return report(err)
    if not isinstance(data, dict):
        return fail(args.file, f"a scenario is a JSON object (a position plus \"decisions\"), not {type(data).__name__}", 2)
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
