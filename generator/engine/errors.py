"""Engine errors, split by cause. All are ValueErrors, so callers may catch them broadly."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises for bad input."""


class ActionSyntaxError(EngineError):
    """A decision string that does not parse (`plya C5`, `play` with no card, a bad seat)."""


class IllegalActionError(EngineError):
    """A well-formed action that the rules do not allow in this state."""


class OptionError(EngineError):
    """An unknown rule option or a value it does not take."""


class PositionError(EngineError):
    """A position dict (or game record) that does not describe a possible game."""


def suggest(word: object, choices) -> str:
    """' (did you mean 'x'?)' for a near miss, else ''."""
    import difflib

    if not isinstance(word, str):
        return ""
    pool = [str(c) for c in choices]
    close = difflib.get_close_matches(word, pool, n=1, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in pool}
        close = [lowered[word.lower()]] if word.lower() in lowered else []
    return f" (did you mean '{close[0]}'?)" if close else ""


def shown(value: object, limit: int = 60) -> str:
    """A value as JSON writes it (null, true, "3", [1, 2]), shortened, for messages about input."""
    import json

    try:
        text = json.dumps(value, ensure_ascii=False)
        text.encode("utf-8")
    except (TypeError, ValueError, UnicodeEncodeError):
        try:
            text = json.dumps(value)
        except (TypeError, ValueError):
            text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def kind_of(value: object) -> str:
    """What a JSON value is, in plain words: null, true, false, a whole number, a number, text, a list, an object."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "something else"
