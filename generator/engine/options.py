"""Rule options by their docs/rules.md names, validated, with their defaults first."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Mapping

from generator.deck import rule_options
from generator.deck.model import Deck
from generator.deck.rule_options import CHOICES, DEFAULTS, ENGINE_ONLY, SPEED_SECONDS_DEFAULT, SPEED_SECONDS_RANGE, RuleOptionError
from generator.engine.errors import OptionError

#: The table of options lives in the deck layer (a manifest may set them); the engine reads it.
__all__ = ["CHOICES", "DEFAULTS", "ENGINE_ONLY", "SPEED_SECONDS_DEFAULT", "SPEED_SECONDS_RANGE", "Options",
           "option_names", "parse_option"]


@dataclass(frozen=True)
class Options:
    """The rule options of one game (docs/rules.md). Defaults are the rulebook's rules."""

    wild_sets_target: bool = DEFAULTS["wild_sets_target"]  #: R4.4: a wild becomes the match target (every card matches it)
    all_out: str = DEFAULTS["all_out"]  #: R5.2: "sixteen_wins" or "draw" when nobody is left
    invert_through_wilds: bool = DEFAULTS["invert_through_wilds"]  #: R6.2: a +/- waits through wilds for a number card
    play2_draws: int = DEFAULTS["play2_draws"]  #: R6.8: 2 = draw again before the second play
    sixteen_hits: str = DEFAULTS["sixteen_hits"]  #: Teams: who discards on a 16, "others" or "opponents"
    max_turns: int = DEFAULTS["max_turns"]  #: R5.3: stop (unfinished) after this many turns
    dealer: int = DEFAULTS["dealer"]  #: R3.2: the dealer's seat; the next seat starts
    teams: bool = DEFAULTS["teams"]  #: the Teams variant (even players, 4+)
    speed_seconds: float | None = DEFAULTS["speed_seconds"]  #: SPEED: the tempo limit in seconds; None = not SPEED (SPEED_SECONDS_DEFAULT is the rulebook's)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> "Options":
        """Options from a mapping of names to values (JSON types or CLI strings)."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise OptionError(f"options must be a mapping of option names to values, not {_kind(data)}")
        values: dict[str, Any] = {}
        for name, raw in data.items():
            values[name] = parse_option(name, raw)
        return cls(**values)

    @classmethod
    def for_deck(cls, deck: Deck, data: Mapping[str, Any] | None = None) -> "Options":
        """The options a game of `deck` plays by: the rule options its manifest prints
        (`game: {options: ...}`, every other option at its default), with `data` (a command's
        `--option`s) over them."""
        if data is not None and not isinstance(data, Mapping):
            raise OptionError(f"options must be a mapping of option names to values, not {_kind(data)}")
        return cls.from_dict({**deck.params.rule_options, **(data or {})})

    def to_dict(self, *, changed_only: bool = True) -> dict[str, Any]:
        """The options as JSON values; by default only those that differ from the rulebook's
        defaults (docs/rules.md), not the deck's: a record or position read back with
        `from_dict` plays by the same options whatever its manifest prints."""
        out = asdict(self)
        if not changed_only:
            return out
        default = Options()
        return {k: v for k, v in out.items() if getattr(default, k) != v}

    def replace(self, **changes: Any) -> "Options":
        data = asdict(self)
        data.update({k: parse_option(k, v) for k, v in changes.items()})
        return Options(**data)


def option_names() -> tuple[str, ...]:
    return tuple(f.name for f in fields(Options))


def parse_option(name: str, raw: Any) -> Any:
    """Check one option and convert CLI text ("true", "2") to its value; raise OptionError."""
    try:
        return rule_options.parse_option(name, raw)
    except RuleOptionError as exc:
        raise OptionError(str(exc)) from None


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", type(None): "null"}.get(type(value), rule_options.show(value))
