"""Helpers shared by commands: loading the deck and reporting input problems."""

from __future__ import annotations

import sys

from generator.manifest import load
from generator.model import Deck
from generator.problems import InputError


def report(error: InputError) -> int:
    """Print each problem as `PATH:LINE:COL: message` to stderr; return the exit status."""
    for problem in error.problems:
        print(problem, file=sys.stderr)
    return error.status


def load_deck(path: str) -> Deck:
    """The deck, or InputError for the command to `report`."""
    return load(path)
