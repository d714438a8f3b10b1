"""Located problems with user input, reported as `PATH:LINE:COL: message`."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True, order=True)
class Problem:
    """One mistake in an input file; line and column count from 1 (0 when unknown)."""

    path: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        if self.line:
            return f"{self.path}:{self.line}:{self.column}: {self.message}"
        return f"{self.path}: {self.message}"

    def as_json(self) -> dict:
        return {"path": self.path, "line": self.line, "column": self.column, "message": self.message}


class InputError(Exception):
    """Problems that stop a command. `status` is the exit status: 1 invalid, 2 unreadable."""

    def __init__(self, problems: Iterable[Problem], status: int = 1, deck: object = None):
        self.problems = sorted(problems)
        self.status = status
        #: the deck when it could be built despite the problems (only counts missed `expect`)
        self.deck = deck
        super().__init__("\n".join(str(p) for p in self.problems))


def suggest(word: object, choices: Iterable[object]) -> str:
    """' (did you mean 'cyan'?)' for a near miss, else ''.

    The one near-miss helper of the project: the manifest, the engine (card codes, options,
    editions) and the commands all word their suggestions the same way. Choices that are not
    text (an option's values) are compared as text.
    """
    if not isinstance(word, str):
        return ""
    pool = [str(c) for c in choices]
    close = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in pool}
        close = [lowered[word.lower()]] if word.lower() in lowered else []
    return f" (did you mean '{close[0]}'?)" if close else ""
