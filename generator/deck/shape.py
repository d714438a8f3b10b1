"""The fast path of the manifest's shape check: well-formed entries without importing pydantic.

Importing pydantic and building the models of schema.py costs more than everything else
`county-uppy validate` does, and a designer runs it after every tweak. Almost every entry of
a manifest is well-formed, so each entry is first checked here by plain Python, strictly:
an entry is accepted only when it has exactly the types, keys and limits schema.py allows,
and it is then returned as a plain record with the same attributes as the pydantic model.
Anything else (a mistake, or merely something unusual) goes to the pydantic models, which
either accept it or word the mistake with its location. So this module can only make a
check faster, never change its answer (tests/deck/test_shape.py compares the two).

The limits and choices live here, and schema.py builds its models from them.
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any, Callable

from generator.deck.effects import CATALOGUE
from generator.deck.model import KINDS

#: Limits that keep a card printable and a manifest quick to check: copies of one card type,
#: and the characters of a code, a title and an effect text (the longest shipped are 6, 15, 144).
MAX_COPIES, MAX_CODE, MAX_NAME, MAX_TEXT = 1000, 10, 24, 200
#: Characters of the game's name (printed on the back), a set's or an edition's name, and an
#: edition's description (the longest shipped are 11, 5, 14 and 92).
MAX_TITLE, MAX_DESCRIPTION = 40, 500
SHAPES = ("circle", "triangle", "square", "diamond", "star", "hexagon")
INTERIORS = ("white", "black")
#: The patterns of schema.py's text fields (anchored there with ^...$).
COLOUR_NAME, COLOUR_CODE, PRINT_HEX = r"[a-z][a-z-]*", r"[A-Z]", r"#[0-9A-Fa-f]{6}"
SET_KEY, EDITION_KEY = r"[a-z][a-z0-9-]*", r"[a-z0-9][a-z0-9-]*"

#: The top-level sections, in the order the manifest lists them.
SECTIONS = ("game", "colours", "sets", "cards", "editions", "build")
#: Sections a manifest may leave out.
OPTIONAL_SECTIONS = ("build",)
PAPERS = ("letter", "a4")

Check = Callable[[Any], bool]


def _int(lo: int | None = None, hi: int | None = None) -> Check:
    return lambda v: type(v) is int and (lo is None or v >= lo) and (hi is None or v <= hi)


def _text(pattern: str | None = None, max_length: int | None = None) -> Check:
    full = re.compile(pattern) if pattern else None
    return lambda v: (type(v) is str and (max_length is None or len(v) <= max_length)
                      and (full is None or full.fullmatch(v) is not None))


def _one_of(choices: tuple[str, ...]) -> Check:
    return lambda v: type(v) is str and v in choices


def _list_of(check: Check, min_length: int = 0) -> Check:
    return lambda v: type(v) is list and len(v) >= min_length and all(check(i) for i in v)


def _optional(check: Check) -> Check:
    return lambda v: v is None or check(v)


def _any(*checks: Check) -> Check:
    return lambda v: any(c(v) for c in checks)


_STR = _text()
_TITLE = _text(max_length=MAX_TITLE)
_KIND = _one_of(KINDS)
_EFFECT: Check = lambda v: type(v) is str and v in CATALOGUE  # noqa: E731 (read at each check: effects can be registered)
_PARAMS: Check = lambda v: type(v) is dict and all(type(k) is str and _int()(x) for k, x in v.items())  # noqa: E731

#: Per model of schema.py: field -> (check, default); `REQUIRED` marks a field without a default.
REQUIRED = object()
FIELDS: dict[str, dict[str, tuple[Check, Any]]] = {
    "Players": {"min": (_int(1), REQUIRED), "max": (_int(1), REQUIRED)},
    "GameEntry": {"name": (_TITLE, REQUIRED), "target": (_int(1), REQUIRED), "hand_size": (_int(1), REQUIRED),
                  "players": (lambda v: build("Players", v) is not None, REQUIRED)},
    "ColourEntry": {"name": (_text(COLOUR_NAME), REQUIRED), "code": (_text(COLOUR_CODE), REQUIRED),
                    "print": (_text(PRINT_HEX), REQUIRED), "shape": (_one_of(SHAPES), REQUIRED)},
    "SetEntry": {"key": (_text(SET_KEY), REQUIRED), "name": (_TITLE, REQUIRED), "interior": (_one_of(INTERIORS), REQUIRED)},
    "CardEntry": {
        "kind": (_KIND, REQUIRED), "set": (_STR, REQUIRED), "copies": (_int(1, MAX_COPIES), REQUIRED),
        "colour": (_optional(_STR), None), "colours": (_optional(_list_of(_STR)), None),
        "values": (_optional(_any(_int(), _STR, _list_of(_any(_int(), _STR)))), None),
        "code": (_optional(_text(max_length=MAX_CODE)), None), "name": (_optional(_text(max_length=MAX_NAME)), None),
        "effect": (_optional(_EFFECT), None), "params": (_optional(_PARAMS), None),
        "text": (_optional(_text(max_length=MAX_TEXT)), None),
    },
    "Filter": {"set": (_optional(_any(_STR, _list_of(_STR))), None), "kind": (_optional(_any(_KIND, _list_of(_KIND))), None)},
    "EditionEntry": {"key": (_text(EDITION_KEY), REQUIRED), "name": (_TITLE, REQUIRED),
                     "description": (_text(max_length=MAX_DESCRIPTION), ""),
                     "include": (_list_of(lambda v: build("Filter", v) is not None, 1), REQUIRED),
                     "expect": (_optional(_int(0)), None)},
    "BuildEntry": {"editions": (_list_of(_STR), []), "papers": (_optional(_list_of(_one_of(PAPERS), 1)), None)},
}
#: Fields holding nested models, built as records too.
_NESTED = {("GameEntry", "players"): "Players", ("EditionEntry", "include"): "Filter"}


def build(model: str, value: Any) -> SimpleNamespace | None:
    """`value` as a record with the model's attributes if it is plainly well-formed, else None (ask pydantic)."""
    fields = FIELDS[model]
    if type(value) is not dict or not all(type(k) is str and k in fields for k in value):
        return None
    out: dict[str, Any] = {}
    for name, (check, default) in fields.items():
        if name not in value:
            if default is REQUIRED:
                return None
            out[name] = default
            continue
        v = value[name]
        if not check(v):
            return None
        nested = _NESTED.get((model, name))
        if nested is not None:
            v = [build(nested, i) for i in v] if type(v) is list else build(nested, v)
        out[name] = v
    return SimpleNamespace(**out)
