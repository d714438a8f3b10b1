"""Bots by name, for simulate, report and play: `make_bot("greedy")`, `make_bot("search:800")`.

The bots themselves live in simple_bots.py (random, greedy) and search.py (which plays its
rollouts with greedy); this registry sits above both, so neither imports the other's registry.
"""

from __future__ import annotations

from typing import Callable

from generator.engine.errors import OptionError, suggest
from generator.engine.search import SearchBot
from generator.engine.simple_bots import Bot, GreedyBot, RandomBot

__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "SearchBot", "make_bot"]


def _search_bot(rollouts: int | None = None) -> SearchBot:
    return SearchBot() if rollouts is None else SearchBot(rollouts=rollouts)


#: The most rollouts a search bot may make per decision (search:N); more would take hours a move.
MAX_ROLLOUTS = 100_000


def search_rollouts(arg: str) -> int | None:
    """N of `search:N` if it is a whole number 1..MAX_ROLLOUTS (ASCII digits, length checked
    before conversion), else None."""
    if not (arg.isascii() and arg.isdigit()) or len(arg) > len(str(MAX_ROLLOUTS)):
        return None
    n = int(arg)
    return n if 1 <= n <= MAX_ROLLOUTS else None


#: Bot factories by name.
BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "greedy": GreedyBot, "search": _search_bot}


def make_bot(name: str) -> Bot:
    """A new bot by registry name; raise OptionError with a suggestion for an unknown name.

    `search:N` is the search bot with N rollouts per decision (cost grows with N).
    """
    base, colon, arg = name.partition(":")
    if base == "search" and colon:
        rollouts = search_rollouts(arg)
        if rollouts is None:
            raise OptionError(f"'{name[:40]}': the search bot's rollouts are a positive whole number up to "
                              f"{MAX_ROLLOUTS:,}, as in search:800")
        return _search_bot(rollouts)
    try:
        return BOTS[name]()
    except KeyError:
        raise OptionError(f"unknown bot '{name}'{suggest(name, BOTS)}; bots are {', '.join(BOTS)}") from None
