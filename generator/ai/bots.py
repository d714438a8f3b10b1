"""Every bot on the rated ladder by name, for report, sweep and benchmarks/bench_bots.py.

The engine's bots (`random`, `greedy`, `search`, `search:N`: generator/engine/bots.py) and
OpenSpiel's information-set MCTS through the adapter (`ismcts`, `ismcts:N`: N simulations a
decision, generator/ai/ismcts.py). This module needs only the engine; `ismcts` needs the `ai`
extra, and asking for it without the extra is an OptionError naming the extra (a command's exit 2).
"""

from __future__ import annotations

from generator.engine.bots import BOTS, Bot, SearchBot, make_bot, search_rollouts
from generator.engine.errors import OptionError, suggest

#: The ladder's bots beyond the engine's: OpenSpiel's ISMCTS, with the `ai` extra.
ISMCTS = "ismcts"
#: Every bot name a command takes (`search` and `ismcts` also as `search:N`, `ismcts:N`).
LADDER = (*BOTS, ISMCTS)
#: Simulations a decision of a bare `ismcts`.
DEFAULT_SIMULATIONS = 20
#: The fewest simulations ISMCTS can decide on: its first simulation only opens the search tree's
#: root, so after one there is no visited move to choose from (OpenSpiel asserts).
MIN_SIMULATIONS = 2
#: The modules of the ai extra that ISMCTS imports (and their own dependencies).
EXTRA_MODULES = ("open_spiel", "pyspiel", "numpy")
#: What to install for ISMCTS.
EXTRA = "pip install 'county-uppy[ai]' (from a checkout: pip install -e '.[ai]')"


def ladder_bot(name: str) -> Bot:
    """A new bot by name, any bot on the ladder; OptionError for an unknown name or a missing extra."""
    base, colon, arg = name.partition(":")
    if base != ISMCTS:
        try:
            return make_bot(name)
        except OptionError as err:
            if base in BOTS:
                raise
            raise OptionError(f"unknown bot '{name[:40]}'{suggest(name, LADDER)}; bots are {', '.join(LADDER)} "
                              f"(search:N and ismcts:N too)") from err
    simulations = search_rollouts(arg) if colon else None
    if colon and simulations is None:
        raise OptionError(f"'{name[:40]}': ISMCTS's simulations are a positive whole number, as in ismcts:50")
    if simulations is not None and simulations < MIN_SIMULATIONS:
        raise OptionError(f"'{name}': ISMCTS needs at least {MIN_SIMULATIONS} simulations a decision (its first only "
                          f"opens the search tree), as in ismcts:{MIN_SIMULATIONS}")
    try:
        from generator.ai.ismcts import IsmctsBot  # lazy: needs the optional ai extra (open_spiel)
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in EXTRA_MODULES:
            raise  # a fault of the project, not a missing extra
        raise OptionError(f"bot '{name[:40]}' is OpenSpiel's ISMCTS, which needs the optional ai extra "
                          f"({exc.name} is not installed): {EXTRA}") from None
    return IsmctsBot(simulations or DEFAULT_SIMULATIONS)


def describe(name: str) -> str:
    """A bot in a few plain words, for the reports: "ismcts:50: OpenSpiel's information-set MCTS, 50 simulations a decision"."""
    base, colon, arg = name.partition(":")
    if base == "random":
        return "random: picks any legal move (the weakest)"
    if base == "greedy":
        return "greedy: one-move rules of thumb"
    if base == "search":
        return f"{name}: the project's search, {arg if colon else SearchBot().rollouts} greedy rollouts a decision"
    if base == ISMCTS:
        return f"{name}: OpenSpiel's information-set MCTS, {arg if colon else DEFAULT_SIMULATIONS} simulations a decision"
    return name


def bot_base(name: str) -> str:
    """The bot's kind without its count: `search` of `search:800`."""
    return name.partition(":")[0]
