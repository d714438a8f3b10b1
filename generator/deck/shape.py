"""The shape of cards.yaml, declared once: every section, key, type, default, limit and per-kind rule.

Everything else that knows the manifest's shape is derived from the declaration below:

- the fast check (`build`, here): a plainly well-formed entry is accepted by plain Python and
  returned as a record with the entry's attributes, without importing pydantic, whose import
  and model building cost more than everything else `county-uppy validate` does;
- the pydantic models (deck/schema.py builds them from these records with `create_model`),
  which word every mistake with its location when an entry is not plainly well-formed;
- the JSON Schema that editors read (`county-uppy schema`, committed as cards.schema.json; a
  test checks the committed file is the generated one), per-kind rules included;
- which keys each kind of card takes and needs (`KINDS_FIELDS`), and the limits of a manifest.

The fast check only ever accepts what the models accept, with the same values
(tests/deck/test_shape.py compares the two on mutated entries), so it can make a check
faster but never change its answer. Meaning (does this colour exist? is this code unique?)
is checked in deck/manifest.py.

To add a key, add a `Key` to its record; to add a section, a `Key` holding a `Record` (nested
records and lists of records are checked and derived like the others); a measurement takes
`Number(unit="mm")`. A new kind of value is one `Type` subclass: its `fast` check and its
pydantic `annotation`.
"""

from __future__ import annotations

import copy
import math
import re
from abc import ABC, abstractmethod
from types import SimpleNamespace
from typing import Annotated, Any, Callable, Literal, Union

from generator.deck import look
from generator.deck.effects import CATALOGUE
from generator.deck.model import KINDS, RULEBOOK_OPTIONAL, RULEBOOK_SECTIONS, RULES
from generator.deck.steps import STEPS, Arg
from generator.deck.rule_options import CHOICES, DEFAULTS, SPEED_SECONDS_RANGE

# --- limits -------------------------------------------------------------------------------
#: Copies of one card type, and the characters of a code, a card's title and its effect text
#: (the longest shipped are 6, 15 and 144): what fits on a card.
MAX_COPIES, MAX_CODE, MAX_NAME, MAX_TEXT = 1000, 10, 24, 200
#: Characters of the game's name (printed on the back), a set's or an edition's name, and an
#: edition's description (the longest shipped are 11, 5, 14 and 92).
MAX_TITLE, MAX_DESCRIPTION = 40, 500
MAX_RULEBOOK_TEXT = 5000  #: a rulebook section of the designer's own, in characters
#: Characters of a set's or an edition's key (the longest shipped is 14): an edition's key is part
#: of its print files' names, which a file system holds to 255 bytes.
MAX_KEY = 40
#: Card values print in a corner index: at most three digits. A range makes at most MAX_RUN card types.
MAX_VALUE, MAX_RUN = 999, 100
#: Card types (one face each) and printed cards (copies counted) a manifest may define: the
#: largest manifest accepted still builds in minutes within the memory docs/commands.md states (the
#: shipped one has 113 card types and 212 printed cards).
MAX_CARD_TYPES, MAX_PRINTED = 400, 2000

SHAPES = ("circle", "triangle", "square", "diamond", "star", "hexagon")
INTERIORS = ("white", "black")
PAPERS = ("letter", "a4")

#: What the fast check returns for a value it does not plainly accept (pydantic then answers).
NO = object()
#: The default of a key the entry must give.
REQUIRED = object()


# --- the kinds of value -------------------------------------------------------------------
class Type(ABC):
    """A kind of value. `fast` accepts it strictly, in plain Python: the value (records built)
    or NO; `annotation` is its pydantic form (called only by deck/schema.py, pydantic loaded),
    `model` giving the pydantic model of a record it holds."""

    #: Shown in place of "has the wrong form" when a text does not match its pattern.
    hint: str | None = None

    @abstractmethod
    def fast(self, value: Any) -> Any:
        """The value as the manifest means it (records built), or NO."""

    @abstractmethod
    def annotation(self, model: Callable[[Record], Any]) -> Any:
        """The pydantic annotation of the value."""

    def records(self) -> list[Record]:
        """The records this type holds (nested sections, list entries)."""
        return []


class Int(Type):
    """A whole number (not true/false), within ge..le."""

    def __init__(self, ge: int | None = None, le: int | None = None):
        self.ge, self.le = ge, le

    def fast(self, v: Any) -> Any:
        ok = type(v) is int and (self.ge is None or v >= self.ge) and (self.le is None or v <= self.le)
        return v if ok else NO

    def annotation(self, model: Callable[[Record], Any]) -> Any:
        from pydantic import Field, StrictInt  # lazy: pydantic, only to word a mistake or write the JSON Schema

        return Annotated[StrictInt, Field(ge=self.ge, le=self.le)]


class Number(Type):
    """A number, whole or not (not true/false, not infinite), within ge..le, in `unit` (say "mm")."""

    def __init__(self, ge: float | None = None, le: float | None = None, unit: str = ""):
        self.ge, self.le, self.unit = ge, le, unit

    def fast(self, v: Any) -> Any:
        if type(v) not in (int, float) or not math.isfinite(v):
            return NO
        ok = (self.ge is None or v >= self.ge) and (self.le is None or v <= self.le)
        return float(v) if ok else NO

    def annotation(self, model: Callable[[Record], Any]) -> Any:
        from pydantic import Field, StrictFloat  # lazy: pydantic, only to word a mistake or write the JSON Schema

        return Annotated[StrictFloat, Field(ge=self.ge, le=self.le, allow_inf_nan=False)]


class Text(Type):
    """Text, matching `pattern` (whole) and at most `max_length` characters; `hint` says what
    the pattern asks for, in words ("must be one capital letter")."""

    def __init__(self, pattern: str | None = None, max_length: int | None = None, hint: str | None = None):
        self.pattern, self.max_length, self.hint = pattern, max_length, hint
        self._full = re.compile(pattern) if pattern else None

    def fast(self, v: Any) -> Any:
        ok = (type(v) is str and (self.max_length is None or len(v) <= self.max_length)
              and (self._full is None or self._full.fullmatch(v) is not None))
        return v if ok else NO

    def annotation(self, model: Callable[[Record], Any]) -> Any:
        from pydantic import Field  # lazy: pydantic, only to word a mistake or write the JSON Schema

        pattern = f"^{self.pattern}$" if self.pattern else None
        return Annotated[str, Field(pattern=pattern, max_length=self.max_length)]


class OneOf(Type):
    """One of a fixed tuple of words, or of `choices()` as they stand when the manifest is read
    (the effect catalogue: a test may register an effect)."""

    def __init__(self, choices: tuple[str, ...] | Callable[[], tuple[str, ...]]):
        self.choices = choices

    def current(self) -> tuple[str, ...]:
        return self.choices() if callable(self.choices) else self.choices

    def fast(self, v: Any) -> Any:
        return v if type(v) is str and v in self.current() else NO

    def annotation(self, model: Callable[[Record], Any]) -> Any:
        from pydantic import AfterValidator, Field  # lazy: pydantic, only to word a mistake or write the JSON Schema
        from pydantic_core import PydanticCustomError  # lazy: pydantic, only to word a mistake or write the JSON Schema

        if not callable(self.choices):
            return Literal[self.choices]  # type: ignore[valid-type]

        def known(name: str) -> str:
            if name not in self.current():
                expected = ", ".join(repr(n) for n in self.current())
                raise PydanticCustomError("literal_error", "Input should be one of {expected}", {"expected": expected})
            return name

        return Annotated[str, AfterValidator(known), Field(json_schema_extra=lambda s: s.update(enum=list(self.current())))]


class Bool(Type):
    """true or false (YAML's yes/no/on/off read as true/false too)."""

    def fast(self, v: Any) -> Any:
        return v if type(v) is bool else NO

    def annotation(self, model: Callable[[Record], Any]) -> Any:
        from pydantic import StrictBool  # lazy: pydantic, only to word a mistake or write the JSON Schema

        return StrictBool


class Choice(Type):
    """One of a fixed tuple of JSON values of one type (true/false, 1/2, words), strictly typed:
    a rule option's values (deck/rule_options.py)."""

    def __init__(self, choices: tuple[Any, ...]):
        self.choices = choices

    def fast(self, v: Any) -> Any:
        return v if type(v) is type(self.choices[0]) and v in self.choices else NO

    def annotation(self, model: Callable[[Record], Any]) -> Any:
        from pydantic import BeforeValidator  # lazy: pydantic, only to word a mistake or write the JSON Schema
        from pydantic_core import PydanticCustomError  # lazy: pydantic, only to word a mistake or write the JSON Schema

        def typed(value: Any) -> Any:  # Literal[1, 2] would take true for 1: the type must be the choices' own
            if type(value) is not type(self.choices[0]) or value not in self.choices:
                expected = ", ".join(f"'{_json(c)}'" for c in self.choices)
                raise PydanticCustomError("literal_error", "Input should be one of {expected}", {"expected": expected})
            return value

        return Annotated[Literal[self.choices], BeforeValidator(typed)]  # type: ignore[valid-type]


def _json(value: Any) -> str:
    """A value as YAML and JSON write it: true, false, 2, draw."""
    return str(value).lower() if isinstance(value, bool) else str(value)


class ListOf(Type):
    """A list of values of one type, at least `min_length` of them (and at most `max_length`)."""

    def __init__(self, item: Type, min_length: int = 0, max_length: int | None = None):
        self.item, self.min_length, self.max_length = item, min_length, max_length

    def fast(self, v: Any) -> Any:
        if type(v) is not list or len(v) < self.min_length or (self.max_length is not None and len(v) > self.max_length):
            return NO
        out = [self.item.fast(i) for i in v]
        return NO if any(i is NO for i in out) else out

    def annotation(self, model: Callable[[Record], Any]) -> Any:
        from pydantic import Field  # lazy: pydantic, only to word a mistake or write the JSON Schema

        inner = list[self.item.annotation(model)]  # type: ignore[misc]
        if self.min_length or self.max_length is not None:
            return Annotated[inner, Field(min_length=self.min_length or None, max_length=self.max_length)]
        return inner

    def records(self) -> list[Record]:
        return self.item.records()


class MapOf(Type):
    """A mapping of names (text) to values of one type: an effect's parameters."""

    def __init__(self, value: Type):
        self.value = value

    def fast(self, v: Any) -> Any:
        if type(v) is not dict or not all(type(k) is str for k in v):
            return NO
        out = {k: self.value.fast(x) for k, x in v.items()}
        return NO if any(x is NO for x in out.values()) else out

    def annotation(self, model: Callable[[Record], Any]) -> Any:
        return dict[str, self.value.annotation(model)]  # type: ignore[misc]

    def records(self) -> list[Record]:
        return self.value.records()


class AnyOf(Type):
    """Any one of the alternatives, tried in order."""

    def __init__(self, *alternatives: Type):
        self.alternatives = alternatives

    def fast(self, v: Any) -> Any:
        for alternative in self.alternatives:
            out = alternative.fast(v)
            if out is not NO:
                return out
        return NO

    def annotation(self, model: Callable[[Record], Any]) -> Any:
        return Union[tuple(a.annotation(model) for a in self.alternatives)]  # type: ignore[return-value]

    def records(self) -> list[Record]:
        return [r for a in self.alternatives for r in a.records()]


class Steps(Type):
    """A wild's steps (deck/steps.py): a list of one-key mappings. What each step holds is checked
    by deck/manifest.py against the step catalogue, each mistake at its own line; the JSON Schema
    is derived from the catalogue, so an editor knows every step and its arguments."""

    def fast(self, v: Any) -> Any:
        ok = type(v) is list and all(type(i) is dict and len(i) == 1 for i in v)
        return v if ok else NO

    def annotation(self, model: Callable[[Record], Any]) -> Any:
        from pydantic import Field  # lazy: pydantic, only to word a mistake or write the JSON Schema

        def step_schema(schema: dict) -> None:
            schema["items"] = {"type": "object", "minProperties": 1, "maxProperties": 1, "additionalProperties": False,
                               "properties": {k: _step_schema(kind) for k, kind in STEPS.items()}}

        return Annotated[list[dict[str, Any]], Field(json_schema_extra=step_schema)]


def _arg_schema(a: Arg) -> dict:
    if a.kind == "true":
        return {"const": True}
    if a.kind == "who":
        return {"enum": list(a.choices)}
    return {"type": "integer", "minimum": a.lo, "maximum": a.hi}


def _step_schema(kind: Any) -> dict:
    if kind.scalar:
        return _arg_schema(kind.args[0])
    out = {"type": "object", "additionalProperties": False, "properties": {a.name: _arg_schema(a) for a in kind.args}}
    if kind.one_of:
        out.update(minProperties=1, maxProperties=1)
    else:
        out["required"] = [a.name for a in kind.args]
    return out


class Key:
    """One key of a record: its type, its default (REQUIRED: none; None: it may be left out or
    written empty), and what it means (the JSON Schema's description, which editors show)."""

    def __init__(self, type: Type, default: Any = REQUIRED, doc: str = ""):  # noqa: A002 (the key's type)
        self.type, self.default, self.doc = type, default, doc


class Record(Type):
    """A mapping with exactly these keys (an entry, or a section): a pydantic model of `name`.
    `what` is what a message calls its keys ("unknown element 'cornr'")."""

    def __init__(self, name: str, keys: dict[str, Key], doc: str = "", what: str = "key"):
        self.name, self.keys, self.doc, self.what = name, keys, doc, what

    def fast(self, value: Any) -> Any:
        if type(value) is not dict or not all(type(k) is str and k in self.keys for k in value):
            return NO
        out: dict[str, Any] = {}
        for name, key in self.keys.items():
            if name not in value:
                if key.default is REQUIRED:
                    return NO
                out[name] = copy.copy(key.default)
                continue
            v = value[name]
            if v is None and key.default is None:
                out[name] = None
                continue
            v = key.type.fast(v)
            if v is NO:
                return NO
            out[name] = v
        return SimpleNamespace(**out)

    def annotation(self, model: Callable[[Record], Any]) -> Any:
        return model(self)

    def records(self) -> list[Record]:
        return [self] + [r for key in self.keys.values() for r in key.type.records()]


# --- the manifest -------------------------------------------------------------------------
_ANY_TEXT = Text()
_KIND = OneOf(KINDS)
_SET_KEY = Text(r"[a-z][a-z0-9-]*", MAX_KEY, hint="must be a lower-case slug like 'the-og'")
_EDITION_KEY = Text(r"[a-z0-9][a-z0-9-]*", MAX_KEY, hint="must be a lower-case slug like 'the-og'")
_TITLE = Text(max_length=MAX_TITLE)

PLAYERS = Record("Players", {
    "min": Key(Int(ge=1), doc="fewest players"),
    "max": Key(Int(ge=1), doc="most players"),
})
#: A manifest may adopt rule options as its printed rules (docs/rules.md, "All rule options"):
#: every option of deck/rule_options.py, with its values and its default.
_OPTION_TYPES: dict[str, Type] = {
    "max_turns": Int(ge=1),
    "dealer": Int(ge=0),
    "speed_seconds": Number(ge=SPEED_SECONDS_RANGE[0], le=SPEED_SECONDS_RANGE[1]),
}
RULE_OPTIONS = Record("RuleOptions", {
    name: Key(_OPTION_TYPES.get(name) or Choice(CHOICES[name] or ()), DEFAULTS[name],
              f"default {'null' if DEFAULTS[name] is None else str(DEFAULTS[name]).lower()} (docs/rules.md)")
    for name in CHOICES
}, "rule options the printed rules adopt; the engine's defaults for this deck (--option overrides)")
GAME = Record("GameEntry", {
    "name": Key(_TITLE, doc="the game's name, printed on every card's back"),
    "target": Key(Int(ge=1), doc="the count to reach exactly (16)"),
    "hand_size": Key(Int(ge=1), doc="cards dealt to each player (5)"),
    "players": Key(PLAYERS),
    "options": Key(RULE_OPTIONS, None, "rule options the printed rules adopt (docs/rules.md); the engine's "
                   "defaults for this deck, which a command's --option overrides"),
})
COLOUR = Record("ColourEntry", {
    "name": Key(Text(r"[a-z][a-z-]*", hint="must be a lower-case word"), doc="lower-case colour name"),
    "code": Key(Text(r"[A-Z]", hint="must be one capital letter"), doc="one capital letter used in card codes"),
    "print": Key(Text(r"#[0-9A-Fa-f]{6}", hint="must be a colour like '#00A3D9'"), doc="print colour, sRGB hex"),
    "shape": Key(OneOf(SHAPES)),
    "cmyk": Key(ListOf(Int(ge=0, le=100), min_length=4, max_length=4), None,
                "the colour's own process CMYK in percent, [c, m, y, k], for a designer who has proofed it: every "
                "CMYK file prints it as it is (docs/printing.md)"),
})
#: A file beside the manifest (a picture, a font): a path relative to the manifest's folder.
MAX_PATH = 500
_PATH = Text(max_length=MAX_PATH)
_LENGTH = Text(look.LENGTH, hint="must be a length like '3mm', '0.125in', '12pt' or '37.5dots' (measured from the trim)")
_COLOUR = Text(r"#[0-9A-Fa-f]{6}", hint="must be a colour like '#00A3D9'")
ART = AnyOf(_PATH, Record("ArtEntry", {
    "file": Key(_PATH, doc="the picture (PNG, JPEG or SVG), relative to the manifest"),
    "fit": Key(OneOf(look.ART_FITS), None, "cover: fill the art box, clipped; contain (the default): all of it, centred"),
    "bleed": Key(Bool(), None, "the box's sides at the trim run on through the bleed (full-bleed art); default false"),
}))
_ART_DOC = "a picture: a path (PNG, JPEG or SVG, relative to the manifest) or {file, fit, bleed}"
_ELEMENT_KEYS: dict[str, Key] = {
    "x": Key(_LENGTH, None, "the box's left edge, from the trim's left"),
    "y": Key(_LENGTH, None, "the box's top edge, from the trim's top"),
    "width": Key(_LENGTH, None, "the box's width"),
    "height": Key(_LENGTH, None, "the box's height"),
    "size": Key(_LENGTH, None, "the largest font size (a text), or a shape's width (colour shapes)"),
    "min_size": Key(_LENGTH, None, "the smallest size a text is shrunk to when fitting"),
    "spacing": Key(_LENGTH, None, "from one colour shape (or ruled line) to the next"),
    "radius": Key(_LENGTH, None, "the box's corner radius"),
    "line": Key(_LENGTH, None, "a line's width (a border, the big value's outline)"),
    "colour": Key(_COLOUR, None, "its colour (default: the face's ink, or the set's interior)"),
    "font": Key(_PATH, None, "a font file (TTF or OTF), relative to the manifest"),
    "bold": Key(Bool(), None, "the bold weight of the deck's typeface"),
    "align": Key(OneOf(tuple(look.ALIGNS)), None, "where a line of text sits in the box"),
    "fit": Key(OneOf(look.TEXT_FITS + look.ART_FITS), None,
               "a text: shrink (one line) or wrap; a picture: cover or contain"),
    "hidden": Key(Bool(), None, "true: not drawn"),
    "file": Key(_PATH, None, "the art box's picture, relative to the manifest"),
    "bleed": Key(Bool(), None, "the art box's sides at the trim run on through the bleed"),
}
ELEMENT = Record("LookElement", _ELEMENT_KEYS, "one element of a face: its box from the trim, and how it draws")
ADDED = Record("LookAddition", {
    "name": Key(Text(r"[a-z][a-z0-9_-]*", hint="must be a lower-case name like 'credit'"),
                doc="the added element's name"),
    "text": Key(Text(max_length=200), None, "a text to print"),
    **_ELEMENT_KEYS,
}, "an element added to a face: a text or a picture (file) in its box")
_ADD = Key(ListOf(ADDED), None, "elements added to the face: texts and pictures")
#: One record per kind of face, its keys the kind's elements (deck/look.py: ELEMENTS).
LOOK_FACES = {kind: Record(f"Look{kind.capitalize()}", {
    **{name: Key(ELEMENT, None) for name in look.ELEMENTS[kind]}, "add": _ADD,
}, f"the elements of the {kind} face" if kind != "back" else "the elements of the back", what="element")
    for kind in look.FACE_KINDS}
#: What `look: sets:` changes for one set: its faces of each kind.
LOOK_SET = Record("LookSet", {kind: Key(LOOK_FACES[kind], None) for kind in look.FACE_KINDS if kind != "back"},
                  "the set's faces, by kind", what="kind of face")
#: What `look: cards:` changes for one card: the elements of its kind.
LOOK_CARD = Record("LookCard", {**{name: Key(ELEMENT, None) for name in look.ALL_ELEMENTS}, "add": _ADD},
                   "the card's elements", what="element")
LOOK = Record("Look", {
    "fonts": Key(Record("LookFonts", {
        "regular": Key(_PATH, None, "the deck's regular font file (TTF or OTF)"),
        "bold": Key(_PATH, None, "the deck's bold font file"),
    }), None, "font files for the whole deck, relative to the manifest"),
    "icons": Key(MapOf(_PATH), None, "pictures a text names inline as {icon:NAME}"),
    **{kind: Key(LOOK_FACES[kind], None, f"the {kind} cards' elements" if kind != "back" else "the back's elements")
       for kind in look.FACE_KINDS},
    "sets": Key(MapOf(LOOK_SET), None, "changes for one set's faces, by set key"),
    "cards": Key(MapOf(LOOK_CARD), None, "changes for one card, by card code"),
}, "how the cards look: the layout of each kind of face and of the back (docs/formats.md)")
SET = Record("SetEntry", {
    "key": Key(_SET_KEY),
    "name": Key(_TITLE),
    "interior": Key(OneOf(INTERIORS)),
    "art": Key(ART, None, "the picture of the set's cards that have none of their own: " + _ART_DOC[12:]),
})
CARD = Record("CardEntry", {
    "kind": Key(_KIND),
    "set": Key(_ANY_TEXT),
    "copies": Key(Int(ge=1, le=MAX_COPIES), doc="how many of each card type are printed"),
    "colour": Key(_ANY_TEXT, None, "number cards: the colour"),
    "colours": Key(ListOf(_ANY_TEXT), None, "dual cards: the two colours"),
    "values": Key(AnyOf(Int(), _ANY_TEXT, ListOf(AnyOf(Int(), _ANY_TEXT))), None,
                  "a number, a range such as -2..7, or a list of both"),
    "code": Key(Text(max_length=MAX_CODE), None, "card code (wild, reference and blank cards)"),
    "name": Key(Text(max_length=MAX_NAME), None, "title as printed"),
    "effect": Key(OneOf(lambda: tuple(CATALOGUE)), None, "a named wild effect (shorthand for its steps); or give 'does'"),
    "params": Key(MapOf(Int()), None, "the effect's parameters"),
    "does": Key(Steps(), None, "what a wild card does, as a list of steps (docs/rules.md R6.12-R6.22); or give 'effect'"),
    "rule": Key(OneOf(RULES), None, "'table': the players resolve the wild by its text, with 'does: []' (no command plays it)"),
    "short": Key(Text(max_length=MAX_TEXT), None, "the wild's quick-reference line, instead of the one made from its steps"),
    "text": Key(Text(max_length=MAX_TEXT), None, "effect text as printed"),
    "art": Key(ART, None, _ART_DOC),
    "corner": Key(Text(max_length=MAX_NAME), None,
                  "wild cards: the corner index's text, one line at the corner's size (default: the name, "
                  "shortened to its first words when it is too long)"),
})
#: The keys each kind of card takes beyond kind, set and copies: True for a key it needs.
KINDS_FIELDS: dict[str, dict[str, bool]] = {
    "number": {"colour": True, "values": True, "art": False},
    "dual": {"colours": True, "values": True, "art": False},
    "wild": {"code": True, "name": True, "effect": False, "params": False, "does": False, "rule": False, "short": False,
             "text": True, "art": False, "corner": False},
    "reference": {"code": True, "name": True, "text": False, "art": False},
    "blank": {"code": True, "name": True, "text": False, "art": False},
}
#: The keys every kind of card takes (and needs).
CARD_COMMON = ("kind", "set", "copies")
FILTER = Record("Filter", {
    "set": Key(AnyOf(_ANY_TEXT, ListOf(_ANY_TEXT)), None),
    "kind": Key(AnyOf(_KIND, ListOf(_KIND)), None),
})
EDITION = Record("EditionEntry", {
    "key": Key(_EDITION_KEY),
    "name": Key(_TITLE),
    "description": Key(Text(max_length=MAX_DESCRIPTION), ""),
    "include": Key(ListOf(FILTER, min_length=1)),
    "expect": Key(Int(ge=0), None, "the playing-card count the designer expects"),
})
BUILD = Record("BuildEntry", {
    "editions": Key(ListOf(_ANY_TEXT), [], "editions whose own print files every `county-uppy build` makes (keys)"),
    "papers": Key(ListOf(OneOf(PAPERS), min_length=1), None, "paper sizes of the print sheets (default: both)"),
})
RULEBOOK_SECTION = Record("RulebookSection", {
    "title": Key(_TITLE, doc="the section's heading"),
    "after": Key(OneOf(RULEBOOK_SECTIONS), "clarifications", "the section it follows (default: clarifications)"),
    "text": Key(Text(max_length=MAX_RULEBOOK_TEXT), doc="the section's text in Markdown; {target}, {hand_size}, "
                "{min_players}, {max_players} and icons ({cyan}, {icon:skip}) are filled in"),
})
RULEBOOK = Record("RulebookEntry", {
    "title": Key(_TITLE, None, "the cover's title (default: the game's name)"),
    "intro": Key(Text(max_length=MAX_DESCRIPTION), None, "the cover's one-paragraph introduction, with the same "
                 "placeholders as a section's text (default: the built-in one)"),
    "minutes": Key(AnyOf(Int(ge=1, le=999), Text(r"[0-9]{1,3}-[0-9]{1,3}", hint="must be minutes like 20, or a range "
                   "like '15-30'")), None, "the playing time printed on the cover, in minutes: 20, or '15-30'"),
    "leave_out": Key(ListOf(OneOf(RULEBOOK_OPTIONAL)), [], "sections the players' rulebook leaves out"),
    "designer_notes": Key(Bool(), False, "true: the players' rulebook has the designer notes (rule options by "
                          "name) too; rulebook-designer.html always has them"),
    "sections": Key(ListOf(RULEBOOK_SECTION), [], "sections of the designer's own text"),
})
MANIFEST = Record("Manifest", {
    "game": Key(GAME),
    "colours": Key(ListOf(COLOUR, min_length=1)),
    "sets": Key(ListOf(SET, min_length=1)),
    "cards": Key(ListOf(CARD, min_length=1)),
    "editions": Key(ListOf(EDITION, min_length=1)),
    "build": Key(BUILD, None, "what a plain `county-uppy build` makes besides the complete set"),
    "look": Key(LOOK, None, "how the cards look: layout, fonts, pictures (docs/formats.md); default: the shipped look"),
    "rulebook": Key(RULEBOOK, None, "what the rulebook says besides the rules: its cover, sections left out, "
                    "the designer's own sections (docs/formats.md)"),
})

#: The top-level sections, in the order the manifest lists them, and those it may leave out.
SECTIONS = tuple(MANIFEST.keys)
OPTIONAL_SECTIONS = tuple(k for k, key in MANIFEST.keys.items() if key.default is not REQUIRED)
#: Every record of the manifest by its name (the manifest itself included).
RECORDS: dict[str, Record] = {r.name: r for r in MANIFEST.records()}
assert set(KINDS_FIELDS) == set(KINDS) and all(k in CARD.keys for kind in KINDS_FIELDS.values() for k in kind)
#: The keys whose values are mappings of free names (an effect's parameters, `look: cards:`'s
#: card codes): a location's part after one of them is a name, not a key.
MAP_KEYS = frozenset(name for r in RECORDS.values() for name, key in r.keys.items() if isinstance(key.type, MapOf))


def build(model: str, value: Any) -> SimpleNamespace | None:
    """`value` as a record with the model's attributes if it is plainly well-formed, else None (ask pydantic)."""
    out = RECORDS[model].fast(value)
    return None if out is NO else out


def key_names(record: Record) -> set[str]:
    """Every key name of the record and of the records it holds."""
    return {name for r in record.records() for name in r.keys}


def record_at(record: Record, loc: tuple) -> Record | None:
    """The record at `loc` (keys, list indexes and the names of a mapping such as `look: cards:`)
    inside `record`, or None."""
    current: Record | None = record
    named = False  # the part after a mapping of free names is one of the names
    for part in loc:
        if isinstance(part, int) or current is None:
            continue
        if named:
            named = False
            continue
        key = current.keys.get(part)
        named = key is not None and isinstance(key.type, MapOf)
        inner = key.type.records() if key else []
        current = inner[0] if inner else None
    return current


def key_at(record: Record, loc: tuple) -> Key | None:
    """The declared key at `loc` inside `record` (the last name of `loc`), or None."""
    names = [i for i, p in enumerate(loc) if isinstance(p, str)]
    if not names:
        return None
    parent = record_at(record, loc[: names[-1]])
    return parent.keys.get(loc[names[-1]]) if parent else None
