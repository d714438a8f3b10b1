"""Rule options by their docs/rules.md names, validated, with their defaults first."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Mapping

from generator.engine.errors import OptionError, suggest

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


@dataclass(frozen=True)
class Options:
    """The rule options of one game (docs/rules.md). Defaults are the rulebook's rules."""

    wild_sets_target: bool = False  #: R4.4: a wild becomes the match target (every card matches it)
    all_out: str = "sixteen_wins"  #: R5.2: "sixteen_wins" or "draw" when nobody is left
    invert_through_wilds: bool = False  #: R6.2: a +/- waits through wilds for a number card
    play2_draws: int = 1  #: R6.8: 2 = draw again before the second play
    sixteen_hits: str = "others"  #: Teams: who discards on a 16, "others" or "opponents"
    max_turns: int = 2000  #: R5.3: stop (unfinished) after this many turns
    dealer: int = 0  #: R3.2: the dealer's seat; the next seat starts
    teams: bool = False  #: the Teams variant (even players, 4+)
    speed_seconds: float | None = None  #: SPEED: the tempo limit in seconds; None = not SPEED (SPEED_SECONDS_DEFAULT is the rulebook's)

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

    def to_dict(self, *, changed_only: bool = True) -> dict[str, Any]:
        """The options as JSON values; by default only those that differ from the defaults."""
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
    if name not in CHOICES:
        raise OptionError(f"unknown option '{name}'{suggest(name, CHOICES)}; options are {', '.join(CHOICES)}")
    choices = CHOICES[name]
    if name in ("max_turns", "dealer"):
        value = _int(name, raw)
        if value < (1 if name == "max_turns" else 0):
            raise OptionError(f"option {name} must be {'positive' if name == 'max_turns' else 'a seat number'}, not {raw!r}")
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
            raise OptionError(f"option speed_seconds must be a positive number of seconds ({lo} to {hi}) "
                              f"or none, not {raw if isinstance(raw, str) else _show(raw)}")
        return value
    assert choices is not None
    if isinstance(choices[0], bool):
        value = _bool(raw)
    elif isinstance(choices[0], int):
        value = _int(name, raw) if not isinstance(raw, bool) else raw
    else:
        value = raw
    if value not in choices or type(value) is not type(choices[0]):
        shown = ", ".join(_show(c) for c in choices)
        raise OptionError(f"option {name} takes {shown}, not {_show(raw)}{suggest(str(raw), [_show(c) for c in choices])}")
    return value


def _show(value: Any) -> str:
    """A value as it is written in JSON or on the command line: true, null, 3, "three" -> three."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "text", type(None): "null"}.get(type(value), _show(value))


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
        raise OptionError(f"option {name} takes a whole number, not {_show(raw)}")
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str):
        try:
            return int(raw.strip())
        except ValueError:
            pass
    raise OptionError(f"option {name} takes a whole number, not {_show(raw) if not isinstance(raw, str) else repr(raw)}")
