"""The sweep's grid: `--param NAME=V1,V2,...` read and checked, the cells and their seeds.

Every value is checked before a game is played: a game parameter by building the changed
manifest and running the manifest's own checks (generator.deck.tweak), a rule option by the
engine's option parser, and every cell by setting up its Game. Errors name the `--param`.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from generator.deck.model import Deck
from generator.deck.problems import MAX_DIGITS, InputError, cut, escape, suggest, whole_number
from generator.deck.tweak import TweakError, shown_name, tweak, tweakable
from generator.deck.yaml_source import Source
from generator.engine.errors import EngineError
from generator.engine.game import Game
from generator.engine.limits import MAX_CELLS
from generator.engine.options import CHOICES, Options, parse_option

_RANGE = re.compile(r"^(-?[0-9]{1,%d})\.\.(-?[0-9]{1,%d})$" % (MAX_DIGITS, MAX_DIGITS))  # longer: no value a game takes
#: The most values one range may give.
MAX_RANGE = 1000


class GridError(ValueError):
    """A --param or a cell that cannot be played; the message names it."""


@dataclass(frozen=True)
class Axis:
    """One --param: a name and the values it takes, in the order given."""

    name: str
    values: tuple[Any, ...]
    option: bool  #: a rule option (else a game parameter of the manifest)


@dataclass(frozen=True)
class Variant:
    """One combination of the axes' values: the deck and options its games use."""

    params: dict[str, Any]  #: name -> value, in --param order
    deck: Deck
    options: Options
    tweaked: bool  #: the deck differs from the manifest's (a game parameter was swept)


@dataclass(frozen=True)
class SweepCell:
    """One point of the grid: a variant at a player count."""

    index: int
    variant: int
    players: int
    seed: int  #: the cell's run seed: game i plays game_seed(seed, i), as `simulate --seed` does


def parse_axis(text: str, deck: Deck) -> Axis:
    """`NAME=V1,V2,...` (values or ranges A..B) into an Axis; GridError naming the --param if wrong."""
    name, sep, raw = text.rpartition("=")  # card codes may hold "=" (=15); values never do
    name = name.strip()
    where = f"--param {escape(cut(text))}"  # one line, however the value was typed
    if not sep or not name or not raw.strip():
        raise GridError(f"{where}: write NAME=VALUE,VALUE,... (e.g. target=14,16,18 or target=14..20)")
    option = name in CHOICES
    if not option:
        try:
            tweakable(deck).check(name)
        except TweakError as exc:
            problem = str(exc) if "." in name else \
                f"unknown parameter '{shown_name(name)}'{suggest(name, [*tweakable(deck).names(), *CHOICES])}"
            raise GridError(f"{where}: {problem}; parameters are target, hand_size, copies.CODE, params.CODE.NAME "
                            f"and the rule options {', '.join(CHOICES)}") from None
    values: list[Any] = []
    for item in (v.strip() for v in raw.split(",")):
        if not item:
            raise GridError(f"{where}: an empty value (two commas, or a comma at the end)")
        m = _RANGE.match(item)
        if m and (not option or isinstance((CHOICES[name] or (0,))[0], int)):
            lo, hi = int(m.group(1)), int(m.group(2))
            if lo > hi:
                raise GridError(f"{where}: the range {item} starts above where it ends (did you mean {hi}..{lo}?)")
            if hi - lo >= MAX_RANGE:
                raise GridError(f"{where}: the range {item} holds {hi - lo + 1} values; at most {MAX_RANGE}")
            items: list[Any] = list(range(lo, hi + 1))
        else:
            items = [item]
        if option:
            try:
                values.extend(parse_option(name, x) for x in items)
            except EngineError as exc:
                raise GridError(f"{where}: {exc}") from None
        elif m:
            values.extend(items)
        else:
            value = whole_number(item)
            if value is None:
                raise GridError(f"{where}: '{name}' takes whole numbers of at most {MAX_DIGITS} digits, "
                                f"not {cut(repr(item))}")
            values.append(value)
    seen = set()
    for v in values:
        if v in seen:
            raise GridError(f"{where}: the value {show(v)} is listed twice")
        seen.add(v)
    return Axis(name, tuple(values), option)


def check_axes(axes: Sequence[Axis]) -> None:
    names = [a.name for a in axes]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice:
        raise GridError(f"--param {twice} is given twice; list all its values in one --param")


def size(axes: Sequence[Axis], players: Sequence[int]) -> int:
    """How many cells the grid of `axes` at `players` has (before any variant is built)."""
    n = len(players)
    for axis in axes:
        n *= len(axis.values)
    return n


def check_size(axes: Sequence[Axis], players: Sequence[int], games: int, max_cells: int) -> None:
    """GridError when the grid has more cells than `max_cells` allows, saying how many games it
    would play; checked before any variant is built or game played."""
    n = size(axes, players)
    if n > max_cells:
        more = "" if max_cells >= MAX_CELLS else f" (up to {MAX_CELLS:,})"
        raise GridError(f"the sweep has {n:,} cells, which would play {n * games:,} games ({n:,} cells x {games:,}); "
                        f"at most {max_cells:,} cells unless --max-cells allows more{more}")


def variants(axes: Sequence[Axis], src: Source, deck: Deck) -> list[Variant]:
    """Every combination of the axes' values, each deck checked as `validate` checks cards.yaml.

    Each game-parameter value is first checked alone (so the message names one --param), then
    each combination of them (hand_size and copies together decide whether a deal fits)."""
    game_axes = [a for a in axes if not a.option]
    for axis in game_axes:
        for value in axis.values:
            _deck(src, deck, {axis.name: value})
    decks: dict[tuple, Deck] = {}
    out = []
    for combo in itertools.product(*(a.values for a in axes)):
        params = dict(zip((a.name for a in axes), combo))
        changes = {a.name: params[a.name] for a in game_axes}
        key = tuple(changes.items())
        if key not in decks:
            decks[key] = _deck(src, deck, changes) if changes else deck
        options = Options.for_deck(decks[key], {a.name: params[a.name] for a in axes if a.option})
        out.append(Variant(params, decks[key], options, bool(changes)))
    return out


def _deck(src: Source, deck: Deck, changes: Mapping[str, int]) -> Deck:
    try:
        return tweak(src, deck, changes)
    except InputError as err:
        shown = " ".join(f"--param {k}={show(v)}" for k, v in changes.items())
        lines = "\n".join(f"  {p}" for p in err.problems)
        raise GridError(f"{shown} makes a manifest that `validate` refuses:\n{lines}") from None


def cells(variants_: Sequence[Variant], players: Sequence[int], edition: str, seed: int) -> list[SweepCell]:
    """The grid's cells, variant by variant (first --param slowest), then by player count; each
    cell's Game is set up once here, so a value that cannot be played stops the sweep before it starts."""
    out = []
    for v, variant in enumerate(variants_):
        for n in players:
            try:
                Game(variant.deck, edition, n, variant.options)
            except EngineError as exc:
                shown = " ".join(f"--param {k}={show(x)}" for k, x in variant.params.items())
                raise GridError(f"{shown} at {n} players: {exc}") from None
            out.append(SweepCell(len(out), v, n, cell_seed(seed, variant.params, n)))
    if len(out) > MAX_CELLS:
        raise GridError(f"the sweep has {len(out)} cells; at most {MAX_CELLS}")
    return out


def cell_seed(seed: int, params: Mapping[str, Any], players: int) -> int:
    """A cell's run seed, from --seed, its parameter values and player count (not its place in
    the grid): the same cell plays the same games in any sweep that holds it."""
    key = json.dumps({"seed": seed, "params": dict(sorted(params.items())), "players": players}, sort_keys=True)
    digest = hashlib.sha256(f"county-uppy-sweep:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def show(value: Any) -> str:
    """A value as it is typed on the command line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
