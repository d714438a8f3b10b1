"""The pydantic-free shape check (deck/shape.py) never changes an answer of the pydantic models.

It may only pass an entry on to pydantic more often than needed; whatever it accepts,
pydantic accepts too, with the same values. The shipped manifest takes the fast path whole.
"""

import copy
import random

import pytest
import yaml
from pydantic import ValidationError

from generator.deck import schema, shape
from tests.conftest import MANIFEST


SECTIONS = {"colours": "ColourEntry", "sets": "SetEntry", "cards": "CardEntry", "editions": "EditionEntry"}


def data() -> dict:
    with open(MANIFEST, encoding="utf-8") as f:
        return yaml.safe_load(f)


def entries():
    d = data()
    yield "GameEntry", d["game"]
    for section, model in SECTIONS.items():
        for item in d[section]:
            yield model, item


def plain(value):
    """A record or model as plain data, to compare the two paths."""
    if hasattr(value, "model_dump"):
        return value.model_dump()
    if hasattr(value, "__dict__"):
        return {k: plain(v) for k, v in vars(value).items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def test_every_entry_of_the_shipped_manifest_takes_the_fast_path_with_pydantic_s_values():
    for model, entry in entries():
        fast = shape.build(model, entry)
        assert fast is not None, (model, entry)
        assert plain(fast) == getattr(schema, model).model_validate(entry).model_dump()


def test_the_field_tables_are_the_models():
    for model, fields in shape.FIELDS.items():
        m = getattr(schema, model)
        assert list(fields) == list(m.model_fields), model
        for name, (_, default) in fields.items():
            info = m.model_fields[name]
            assert (default is shape.REQUIRED) == info.is_required(), (model, name)
            if default is not shape.REQUIRED:
                assert default == info.default, (model, name)
    assert shape.SECTIONS == tuple(schema.Manifest.model_fields)


ODD = [None, True, False, 0, -1, 1, 2, 1000, 1001, 1.5, "", "x", "5", "Cyan", "cyan\n", "#12345G", "#a0B1c2", "A", "AB",
       "wild", "square", "white", "multiply", "-2..7", "y" * 11, "z" * 25, "t" * 201, [], ["cyan"], ["cyan", 3], [1, "2"],
       {}, {"factor": 2}, {"factor": True}, {"factor": "2"}, {"set": "base"}, [{"set": "base"}], [{"kind": "boat"}],
       [{"kind": ["wild", "dual"]}], {"min": 2, "max": 8}, {"min": 0, "max": 8}, {"min": 2}]


@pytest.mark.parametrize("seed", range(6))
def test_fast_acceptance_implies_pydantic_acceptance_with_the_same_values(seed):
    rng = random.Random(seed)
    base = list(entries())
    agreed = fallbacks = 0
    for _ in range(700):
        model, entry = rng.choice(base)
        entry = copy.deepcopy(entry)
        for _ in range(rng.randint(1, 2)):
            action = rng.random()
            keys = list(shape.FIELDS[model])
            if action < 0.7:
                entry[rng.choice(keys)] = copy.deepcopy(rng.choice(ODD))
            elif action < 0.85 and entry:
                entry.pop(rng.choice(list(entry)))
            else:
                entry[rng.choice(["extra", "colur", "kind ", "Values"])] = 1
        fast = shape.build(model, entry)
        try:
            slow = getattr(schema, model).model_validate(entry).model_dump()
        except ValidationError:
            slow = None
        if fast is not None:
            assert slow is not None and plain(fast) == slow, (model, entry)
            agreed += 1
        elif slow is not None:
            fallbacks += 1  # allowed: pydantic then gives the answer
    assert agreed > 50  # the mutations do leave many entries valid, so the check is exercised
