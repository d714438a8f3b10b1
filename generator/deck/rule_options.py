"""The rule options (docs/rules.md, "All rule options"): names, allowed values, defaults, checks.

Declared here, in the deck layer, because a manifest may adopt a variant as its printed rule
(`game: {options: {invert_through_wilds: true}}`): the manifest's check (deck/shape.py), the
quick reference, the rulebook and the engine's `Options` (generator/engine/options.py) all read
this one table. The engine's defaults for a deck are the deck's options; a command's `--option`
overrides them.
"""

from __future__ import annotations

from typing import Any

from generator.deck.problems import MAX_DIGITS, cut, suggest, whole_number

#: docs/rules.md R7.5: SPEED's tempo limit in seconds when SPEED is asked for without one.
SPEED_SECONDS_DEFAULT = 10
#: The shortest and longest tempo limit a game may set, in seconds.
SPEED_SECONDS_RANGE = (1, 3600)

#: Allowed values of each option; the first is the default. None means "any value the parser accepts".
CHOICES: dict[str, tuple[Any, ...] | None] = {
    "wild_sets_target": (False, True),
    "all_out": ("sixteen_wins", "draw"),
    "invert_through_wilds": (False, True),
    "play2_draws": (1, 2),
    "sixteen_hits": ("others", "opponents"),
    "max_turns": None,
    "dealer": None,
    "teams": (False, True),
    "speed_seconds": None,
}

#: Every option's default: the first choice, or for the open-ended ones the rulebook's.
DEFAULTS: dict[str, Any] = {
    **{name: choices[0] for name, choices in CHOICES.items() if choices},
    "max_turns": 2000,
    "dealer": 0,
    "speed_seconds": None,
}
DEFAULTS = {name: DEFAULTS[name] for name in CHOICES}  # in the table's order

#: Options that only steer the engine (how long a simulated game may run, which seat deals):
#: the rulebook names them in its section for designers, never on the players' pages.
ENGINE_ONLY = ("max_turns", "dealer")


class RuleOptionError(ValueError):
    """An unknown rule option or a value it does not take (the engine raises it as OptionError)."""


def parse_option(name: str, raw: Any) -> Any:
    """Check one option and convert CLI text ("true", "2") to its value; raise RuleOptionError."""
    if name not in CHOICES:
        raise RuleOptionError(f"unknown option '{name}'{suggest(name, CHOICES)}; options are {', '.join(CHOICES)}")
    choices = CHOICES[name]
    if name in ("max_turns", "dealer"):
        value = _int(name, raw)
        if value < (1 if name == "max_turns" else 0):
            raise RuleOptionError(f"option {name} must be {'positive' if name == 'max_turns' else 'a seat number'}, not {raw!r}")
        return value
    if name == "speed_seconds":
        if raw is None or (isinstance(raw, str) and raw.lower() in ("none", "off", "null", "")):
            return None
        try:
            value = float(raw) if not isinstance(raw, bool) else None
        except (TypeError, ValueError):
            value = None
        lo, hi = SPEED_SECONDS_RANGE
        if value is None or not lo <= value <= hi:  # also refuses nan (no comparison holds) and inf
            raise RuleOptionError(f"option speed_seconds must be a positive number of seconds ({lo} to {hi}) "
                                  f"or none, not {raw if isinstance(raw, str) else show(raw)}")
        return value
    assert choices is not None
    if isinstance(choices[0], bool):
        value = _bool(raw)
    elif isinstance(choices[0], int):
        value = _int(name, raw) if not isinstance(raw, bool) else raw
    else:
        value = raw
    if value not in choices or type(value) is not type(choices[0]):
        shown = ", ".join(show(c) for c in choices)
        raise RuleOptionError(f"option {name} takes {shown}, not {show(raw)}{suggest(str(raw), [show(c) for c in choices])}")
    return value


def show(value: Any) -> str:
    """A value as it is written in JSON or on the command line: true, null, 3, "three" -> three."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


def _bool(raw: Any) -> Any:
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.lower() in ("true", "yes", "on", "1"):
        return True
    if isinstance(raw, str) and raw.lower() in ("false", "no", "off", "0"):
        return False
    return raw


def _int(name: str, raw: Any) -> int:
    if isinstance(raw, bool):
        raise RuleOptionError(f"option {name} takes a whole number, not {show(raw)}")
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str):
        value = whole_number(raw)
        if value is not None:
            return value
    if not isinstance(raw, str):
        raise RuleOptionError(f"option {name} takes a whole number, not {show(raw)}")
    raise RuleOptionError(f"option {name} takes a whole number of at most {MAX_DIGITS} digits, not {cut(raw)!r}")
