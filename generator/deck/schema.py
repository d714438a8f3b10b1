"""The pydantic models of cards.yaml, derived from the declaration in deck/shape.py, and the JSON Schema.

Imported only when an entry is not plainly well-formed (shape.py's fast check accepts the
well-formed ones without pydantic, for a quick start-up) and to write the JSON Schema.

pydantic checks every key and type of an entry in one pass and reports each mistake with its
location in the entry, which manifest.py turns into `cards.yaml:LINE:COL`. The models are
built from shape.py's records, so they hold nothing of their own: a key, a type, a limit or a
description is changed there.
"""

from __future__ import annotations

import json
from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, Field, create_model

from generator.deck import shape

_CONFIG = ConfigDict(extra="forbid", frozen=True)
_MODELS: dict[int, type[BaseModel]] = {}


def model(record: shape.Record) -> type[BaseModel]:
    """The pydantic model of a record of shape.py (built once)."""
    built = _MODELS.get(id(record))
    if built is None:
        fields: dict[str, Any] = {}
        for name, key in record.keys.items():
            annotation = key.type.annotation(model)
            if key.default is None:
                annotation = Optional[annotation]
            default = ... if key.default is shape.REQUIRED else key.default
            fields[name] = (annotation, Field(default, description=key.doc or None))
        built = create_model(record.name, __config__=_CONFIG, __doc__=record.doc or None,
                             __module__=__name__, **fields)
        _MODELS[id(record)] = built
    return built


def __getattr__(name: str) -> type[BaseModel]:
    """`schema.CardEntry` and the like: the model of shape.py's record of that name."""
    if name in shape.RECORDS:
        return model(shape.RECORDS[name])
    raise AttributeError(name)


def json_schema() -> str:
    """The JSON Schema of cards.yaml, as committed in cards.schema.json."""
    schema = model(shape.MANIFEST).model_json_schema()
    card = schema["$defs"][shape.CARD.name]
    card["allOf"] = [_kind_rule(kind, keys) for kind, keys in shape.KINDS_FIELDS.items()]
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "County Uppy card manifest (cards.yaml)"
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def _kind_rule(kind: str, keys: dict[str, bool]) -> dict[str, Any]:
    """A card of this kind needs these keys and takes no other (shape.KINDS_FIELDS), for editors."""
    takes = set(shape.CARD_COMMON) | set(keys)
    return {
        "if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
        "then": {"required": [k for k, needed in keys.items() if needed],
                 "properties": {k: False for k in shape.CARD.keys if k not in takes}},
    }
