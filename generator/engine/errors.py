"""Engine errors, split by cause. All are ValueErrors, so callers may catch them broadly."""

from __future__ import annotations

import json

from generator.deck.problems import suggest  # re-exported: the engine's modules import it from here

__all__ = ["EngineError", "ActionSyntaxError", "IllegalActionError", "OptionError", "PositionError", "suggest", "shown",
           "kind_of"]


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


def shown(value: object, limit: int = 60) -> str:
    """A value as JSON writes it (null, true, "3", [1, 2]), shortened to `limit` characters, for
    messages about input (a long text is cut before it is dumped: a 30 MB string costs no more)."""
    if isinstance(value, str) and len(value) > limit:
        value = value[:limit]
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
