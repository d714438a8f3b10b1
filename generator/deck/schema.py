"""The shape of cards.yaml as pydantic models: types, allowed keys, and the JSON Schema.

Imported only when an entry is not plainly well-formed (shape.py checks those without
pydantic, for a quick start-up) and to write the JSON Schema.

pydantic checks every key and type of the document in one pass and reports each mistake
with its location in the document, which manifest.py turns into `cards.yaml:LINE:COL`.
Meaning (does this colour exist? is this code unique?) is checked in manifest.py.
"""

from __future__ import annotations

import json
from typing import Annotated, Literal, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt
from pydantic_core import PydanticCustomError

from generator.deck.effects import CATALOGUE
from generator.deck.model import KINDS
from generator.deck.shape import (COLOUR_CODE, COLOUR_NAME, EDITION_KEY, INTERIORS, MAX_CODE, MAX_COPIES, MAX_DESCRIPTION,
                                  MAX_NAME, MAX_TEXT, MAX_TITLE, PRINT_HEX, SET_KEY, SHAPES)

Kind = Literal[KINDS]  # type: ignore[valid-type]


def _known_effect(name: str) -> str:
    """An effect name of the catalogue as it stands when the manifest is read (a test may add one)."""
    if name not in CATALOGUE:
        expected = ", ".join(repr(n) for n in CATALOGUE)
        raise PydanticCustomError("literal_error", "Input should be one of {expected}", {"expected": expected})
    return name


EffectName = Annotated[str, AfterValidator(_known_effect)]
Values = Union[StrictInt, str, list[Union[StrictInt, str]]]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Players(_Strict):
    min: StrictInt = Field(ge=1, description="fewest players")
    max: StrictInt = Field(ge=1, description="most players")


class GameEntry(_Strict):
    name: str = Field(max_length=MAX_TITLE, description="the game's name, printed on every card's back")
    target: StrictInt = Field(ge=1, description="the count to reach exactly (16)")
    hand_size: StrictInt = Field(ge=1, description="cards dealt to each player (5)")
    players: Players


class ColourEntry(_Strict):
    name: str = Field(pattern=f"^{COLOUR_NAME}$", description="lower-case colour name")
    code: str = Field(pattern=f"^{COLOUR_CODE}$", description="one capital letter used in card codes")
    print: str = Field(pattern=f"^{PRINT_HEX}$", description="print colour, sRGB hex")
    shape: Literal[SHAPES]  # type: ignore[valid-type]


class SetEntry(_Strict):
    key: str = Field(pattern=f"^{SET_KEY}$")
    name: str = Field(max_length=MAX_TITLE)
    interior: Literal[INTERIORS]  # type: ignore[valid-type]


class CardEntry(_Strict):
    kind: Kind
    set: str
    copies: StrictInt = Field(ge=1, le=MAX_COPIES, description="how many of each card type are printed")
    colour: str | None = Field(None, description="number cards: the colour")
    colours: list[str] | None = Field(None, description="dual cards: the two colours")
    values: Values | None = Field(None, description="a number, a range such as -2..7, or a list of both")
    code: str | None = Field(None, max_length=MAX_CODE, description="card code (wild, reference and blank cards)")
    name: str | None = Field(None, max_length=MAX_NAME, description="title as printed")
    effect: EffectName | None = Field(None, description="what a wild card does in the rules engine")
    params: dict[str, StrictInt] | None = Field(None, description="the effect's parameters")
    text: str | None = Field(None, max_length=MAX_TEXT, description="effect text as printed")


class Filter(_Strict):
    set: str | list[str] | None = None
    kind: Kind | list[Kind] | None = None


class EditionEntry(_Strict):
    key: str = Field(pattern=f"^{EDITION_KEY}$")
    name: str = Field(max_length=MAX_TITLE)
    description: str = Field("", max_length=MAX_DESCRIPTION)
    include: list[Filter] = Field(min_length=1)
    expect: StrictInt | None = Field(None, ge=0, description="the playing-card count the designer expects")


class BuildEntry(_Strict):
    editions: list[str] = Field([],
                                description="editions whose own print files every `county-uppy build` makes (keys)")
    papers: list[Literal["letter", "a4"]] | None = Field(None, min_length=1,
                                                         description="paper sizes of the print sheets (default: both)")


class Manifest(_Strict):
    game: GameEntry
    colours: list[ColourEntry] = Field(min_length=1)
    sets: list[SetEntry] = Field(min_length=1)
    cards: list[CardEntry] = Field(min_length=1)
    editions: list[EditionEntry] = Field(min_length=1)
    build: BuildEntry | None = Field(None, description="what a plain `county-uppy build` makes besides the complete set")


def json_schema() -> str:
    """The JSON Schema of cards.yaml, as committed in cards.schema.json."""
    schema = Manifest.model_json_schema()
    effect = schema["$defs"]["CardEntry"]["properties"]["effect"]["anyOf"][0]
    effect["enum"] = list(CATALOGUE)  # the names the catalogue holds, as a Literal would list them
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "County Uppy card manifest (cards.yaml)"
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"
