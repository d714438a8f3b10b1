"""Change game parameters of a manifest in memory, then check the result exactly as `validate` would.

A balance sweep plays decks that differ from cards.yaml in a number or two (the target, the
hand size, a card's copies, a wild's parameter). Rather than trusting those numbers, the
sweep edits the manifest's data and runs it through the manifest checks, so a swept deck is
always one that `county-uppy validate` would accept, and a mistake says which line it breaks.

Names:
- `target`, `hand_size`: the `game:` entries;
- `copies.CODE`: how many copies of card CODE (a number or dual card made by a run of values
  is split out of its run, in place, so the deck's card order does not change);
- `params.CODE.NAME`: the parameter NAME of wild CODE (`params.x2.factor`);
- `params.CODE.STEP.ARG` (`params.HALF.count.divide`, `params.GIFT.draw.cards`) or, for a step
  written with one number, `params.CODE.STEP` (`params.GIFT.skip`): a number of a wild written
  with `does:` steps. When a card has two steps of one kind, they are STEP1, STEP2 in order
  (`params.DRAWS.draw2.cards`).
Each edition's `expect:` follows a change of copies of the cards it holds.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Mapping

from generator.deck.manifest import card_entries, check, expand_values
from generator.deck.model import Deck
from generator.deck.problems import cut, escape, suggest
from generator.deck.yaml_source import Loc, Source

#: Game parameters under `game:` that a sweep may change.
GAME_KEYS = ("target", "hand_size")


class TweakError(ValueError):
    """A parameter name that names nothing in this manifest."""


@dataclass(frozen=True)
class Tweakable:
    """The parameter names a manifest offers, for checking names and suggesting near misses."""

    codes: tuple[str, ...]  #: every card code (copies.CODE)
    wild_params: tuple[str, ...]  #: every "CODE.NAME" of a wild's parameter (params.CODE.NAME)

    def names(self) -> list[str]:
        return [*GAME_KEYS, *(f"copies.{c}" for c in self.codes), *(f"params.{p}" for p in self.wild_params)]

    def check(self, name: str) -> None:
        """Raise TweakError unless `name` is a parameter of this manifest."""
        head, _, rest = name.partition(".")
        if name in GAME_KEYS:
            return
        if head == "copies" and rest in self.codes:
            return
        if head == "params" and rest in self.wild_params:
            return
        if head == "copies":
            raise TweakError(f"no card with the code '{shown_name(rest)}'{suggest(rest, self.codes)}")
        if head == "params":
            raise TweakError(f"no wild parameter '{shown_name(rest)}'{suggest(rest, self.wild_params)} "
                             f"(wild parameters here: {', '.join(self.wild_params) or 'none'})")
        raise TweakError(f"unknown parameter '{shown_name(name)}'{suggest(name, self.names())}")


def shown_name(name: str) -> str:
    """A parameter name as a message echoes it: on one line, at most 60 characters."""
    return escape(cut(name, 60))


def tweakable(deck: Deck) -> Tweakable:
    wilds = [f"{c.code}.{k}" for c in deck.cards if c.effect is not None for k, _ in c.effect.params]
    wilds += [f"{c.code}.{name}" for c in deck.cards if c.effect is not None and not c.effect.name
              for name in step_numbers(c.effect.steps)]
    return Tweakable(tuple(c.code for c in deck.cards), tuple(wilds))


def step_numbers(steps: tuple) -> dict[str, tuple[int, str]]:
    """The sweepable numbers of a wild's steps by name ("count.divide", "skip", "draw2.cards"):
    (the step's index, the argument's name)."""
    kinds = [s.kind for s in steps]
    out: dict[str, tuple[int, str]] = {}
    seen: dict[str, int] = {}
    for i, s in enumerate(steps):
        seen[s.kind] = seen.get(s.kind, 0) + 1
        label = s.kind if kinds.count(s.kind) == 1 else f"{s.kind}{seen[s.kind]}"
        for name, value in s.args:
            if type(value) is int:
                out[label if name == s.kind else f"{label}.{name}"] = (i, name)
    return out


def tweak(src: Source, deck: Deck, changes: Mapping[str, int]) -> Deck:
    """The deck of `src` with `changes` applied ({"target": 14, "copies.x2": 5, ...}).

    `deck` is `src`'s own (valid) deck. Raises TweakError for a name that names nothing, and
    InputError with the manifest's own located messages when the changed manifest is not valid.
    """
    names = tweakable(deck)
    for name in changes:
        names.check(name)
    return check(tweaked_source(src, deck, changes))


def tweaked_source(src: Source, deck: Deck, changes: Mapping[str, int]) -> Source:
    """A copy of `src` whose data carries `changes` (positions kept, for located messages)."""
    data = copy.deepcopy(src.data)
    values, keys = dict(src.values), dict(src.keys)
    entries = card_entries(src) if any(n.startswith("copies.") for n in changes) else {}
    expect_delta: dict[str, int] = {}
    # Copies first, from the last entry to the first: splitting a run inserts entries, and
    # working backwards keeps the indices of the entries still to change.
    copies = sorted(((entries[n.split(".", 1)[1]], n.split(".", 1)[1], v) for n, v in changes.items()
                     if n.startswith("copies.")), key=lambda t: -t[0])
    for index, code, value in copies:
        old = deck.card(code).copies
        for edition in deck.editions:
            if code in edition.codes:
                expect_delta[edition.key] = expect_delta.get(edition.key, 0) + value - old
        entry = data["cards"][index]
        if entry.get("kind") in ("number", "dual"):
            _split_run(data, values, keys, index, deck.card(code).value, value)
        else:
            entry["copies"] = value
    for name, value in changes.items():
        head, _, rest = name.partition(".")
        if name in GAME_KEYS:
            data["game"][name] = value
        elif head == "params":
            code, _, key = rest.partition(".")
            entry = next(e for e in data["cards"] if isinstance(e, dict) and e.get("code") == code)
            if "does" in entry:
                index, arg = step_numbers(deck.card(code).effect.steps)[key]  # type: ignore[union-attr]
                (kind, args), = entry["does"][index].items()
                entry["does"][index] = {kind: value if arg == kind else {**args, arg: value}}
            else:
                entry["params"] = {**(entry.get("params") or {}), key: value}
    for i, edition in enumerate(deck.editions):
        if edition.expect is not None and expect_delta.get(edition.key):
            data["editions"][i]["expect"] = edition.expect + expect_delta[edition.key]
    return Source(src.path, data, values, keys, src.folder)


def _split_run(data: dict, values: dict[Loc, tuple[int, int]], keys: dict[Loc, tuple[int, int]],
               index: int, card_value: int | None, copies: int) -> None:
    """Give one value of a run of number cards its own entry with `copies`, between the values
    before it and those after it, so the cards keep their order."""
    entry = data["cards"][index]
    run = expand_values(entry["values"])
    at = run.index(card_value)
    parts = [(run[:at], entry["copies"]), ([card_value], copies), (run[at + 1:], entry["copies"])]
    new = [{**entry, "values": vals, "copies": n} for vals, n in parts if vals]
    data["cards"][index:index + 1] = new
    shift = len(new) - 1
    if not shift:
        return
    for table in (values, keys):
        moved: dict[Loc, Any] = {}
        for loc, pos in table.items():
            if len(loc) > 1 and loc[0] == "cards" and isinstance(loc[1], int):
                if loc[1] > index:
                    moved[("cards", loc[1] + shift, *loc[2:])] = pos
                    continue
                if loc[1] == index:  # the new entries stand where the run was written
                    for k in range(len(new)):
                        moved[("cards", index + k, *loc[2:])] = pos
                    continue
            moved[loc] = pos
        table.clear()
        table.update(moved)
