"""Helpers shared by commands: loading the deck and reporting input problems."""

from __future__ import annotations

import json
import sys
from typing import Any

from generator.manifest import load
from generator.model import Deck
from generator.problems import InputError, Problem


def report(error: InputError) -> int:
    """Print each problem as `PATH:LINE:COL: message` to stderr; return the exit status."""
    for problem in error.problems:
        print(problem, file=sys.stderr)
    return error.status


def load_deck(path: str) -> Deck:
    """The deck, or InputError for the command to `report`."""
    return load(path)


def read_json(path: str) -> Any:
    """The JSON in `path`; raise InputError (status 2) with a one-line `FILE[:LINE:COL]: message`."""
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
