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


def test_the_models_are_the_declaration():
    """schema.py's models hold nothing of their own: each key, default and description is shape.py's."""
    for name, record in shape.RECORDS.items():
        m = getattr(schema, name)
        assert list(m.model_fields) == list(record.keys), name
        for key_name, key in record.keys.items():
            info = m.model_fields[key_name]
            assert (key.default is shape.REQUIRED) == info.is_required(), (name, key_name)
            if key.default is not shape.REQUIRED:
                assert key.default == info.default, (name, key_name)
            assert (info.description or "") == key.doc
    assert shape.SECTIONS == tuple(schema.Manifest.model_fields) == ("game", "colours", "sets", "cards", "editions",
                                                                      "build", "look", "rulebook")
    assert shape.OPTIONAL_SECTIONS == ("build", "look", "rulebook")


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
            keys = list(shape.RECORDS[model].keys)
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


KIND_EXAMPLES = {
    "number": {"kind": "number", "set": "base", "copies": 1, "colour": "cyan", "values": 5},
    "dual": {"kind": "dual", "set": "base", "copies": 1, "colours": ["cyan", "green"], "values": 5},
    "wild": {"kind": "wild", "set": "base", "copies": 1, "code": "W", "name": "W", "effect": "skip", "text": "t",
             "corner": "W"},
    "reference": {"kind": "reference", "set": "base", "copies": 1, "code": "R", "name": "R"},
    "blank": {"kind": "blank", "set": "base", "copies": 1, "code": "B", "name": "B"},
}

#: Values of the keys only a wild takes besides its example's (a wild gives `effect` or `does`).
WILD_ONLY = {"params": {"factor": 2}, "does": [{"skip": 1}], "rule": "table", "short": "Skip."}


@pytest.mark.parametrize("kind", list(shape.KINDS_FIELDS))
def test_the_json_schema_and_validate_agree_on_what_each_kind_of_card_takes(kind):
    """The per-kind rules are declared once (shape.KINDS_FIELDS): the checker and the JSON Schema
    that editors read both refuse a key a kind does not take and a missing key it needs."""
    import json

    import jsonschema

    from generator.deck.manifest import check
    from generator.deck.problems import InputError
    from generator.deck.yaml_source import Source

    card_schema = json.loads(schema.json_schema())
    validator = jsonschema.Draft202012Validator(card_schema)
    manifest = data()

    def refused(card: dict) -> tuple[bool, list[str]]:
        doc = copy.deepcopy(manifest)
        doc["cards"] = doc["cards"] + [card]
        by_schema = not validator.is_valid(doc)
        try:
            check(Source("cards.yaml", doc))
            messages = []
        except InputError as err:
            messages = [p.message for p in err.problems]
        return by_schema, messages

    good = KIND_EXAMPLES[kind]
    assert refused(good)[0] is False
    for name, needed in shape.KINDS_FIELDS[kind].items():
        if needed:
            by_schema, messages = refused({k: v for k, v in good.items() if k != name})
            assert by_schema and f"a {kind} card needs '{name}'" in messages, (name, messages)
    for name in shape.CARD.keys:
        if name not in shape.KINDS_FIELDS[kind] and name not in shape.CARD_COMMON:
            other = next((e[name] for e in KIND_EXAMPLES.values() if name in e), WILD_ONLY.get(name))
            by_schema, messages = refused(dict(good, **{name: other}))
            assert by_schema and any(m.startswith(f"a {kind} card takes no '{name}'") for m in messages), (name, messages)


LOOK = shape.Record("FinishEntry", {
    "margin": shape.Key(shape.Number(ge=0, le=10, unit="mm"), 3, "space inside the cut line"),
    "corner": shape.Key(shape.Record("CornerEntry", {
        "radius": shape.Key(shape.Number(ge=0, unit="mm")),
        "style": shape.Key(shape.OneOf(("round", "square")), "round"),
    }), None),
    "layers": shape.Key(shape.ListOf(shape.Record("LayerEntry", {"name": shape.Key(shape.Text(r"[a-z]+", hint="must be a lower-case word"))}), 1), None),
})


def test_a_new_section_with_nested_records_and_units_is_derived_like_the_others(monkeypatch):
    """What a section such as `finish:` would be: a record holding a record and a list of records, with
    measurements in mm. Declared once, it gets the fast check, the pydantic model, the JSON Schema
    and located, worded mistakes, with nothing written for it anywhere else."""
    from generator.deck.manifest import _Checker
    from generator.deck.yaml_source import Source

    for name, record in {r.name: r for r in LOOK.records()}.items():
        monkeypatch.setitem(shape.RECORDS, name, record)
    good = {"margin": 2.5, "corner": {"radius": 3}, "layers": [{"name": "art"}]}
    fast = shape.build("FinishEntry", good)
    assert fast.margin == 2.5 and fast.corner.radius == 3.0 and fast.corner.style == "round"
    assert fast.layers[0].name == "art"
    assert plain(fast) == schema.model(LOOK).model_validate(good).model_dump()
    assert shape.build("FinishEntry", {}).margin == 3

    model_schema = schema.model(LOOK).model_json_schema()
    assert model_schema["properties"]["margin"]["maximum"] == 10
    assert model_schema["$defs"]["CornerEntry"]["properties"]["radius"]["type"] == "number"

    bad = {"margin": 12, "corner": {"radius": "wide", "style": "rond"}, "layers": [{"name": "Art"}], "colour": 1}
    assert shape.build("FinishEntry", bad) is None
    src = Source("cards.yaml", {"finish": bad}, values={("finish",): (90, 1)})
    checker = _Checker(src)
    assert checker.typed(("finish",), bad, "FinishEntry") is None
    messages = sorted(p.message for p in checker.problems)
    assert messages == sorted([
        "'margin' must be at most 10 mm, not 12",
        "'radius' must be a number of mm, not 'wide'",
        "unknown style 'rond' (did you mean 'round'?); expected one of round, square",
        "'name' must be a lower-case word, not 'Art'",
        "unknown key 'colour'",
    ])


def test_the_documented_limits_are_the_declared_ones():
    """docs/commands.md lists the manifest's limits; each number there is the one declared."""
    from generator.deck import yaml_source

    docs = (MANIFEST.parent / "docs" / "commands.md").read_text(encoding="utf-8")
    paragraph = " ".join(docs[docs.index("Limits, each refused"):].split("\n\n")[0].split())
    for phrase in [
        f"the file at most {yaml_source.MAX_FILE_BYTES // 1024} KiB",
        f"at most {yaml_source.MAX_NODES:,} values", f"at most {yaml_source.MAX_EXPANDED:,} more repeated",
        f"whole numbers of at most {yaml_source.MAX_DIGITS} digits",
        f"at most {shape.MAX_CARD_TYPES} card types and {shape.MAX_PRINTED:,} printed cards",
        f"card values -{shape.MAX_VALUE}..{shape.MAX_VALUE}", f"a range of at most {shape.MAX_RUN} values",
        f"at most {shape.MAX_COPIES:,} copies of a card", f"codes {shape.MAX_CODE} characters",
        f"card names {shape.MAX_NAME}", f"card texts {shape.MAX_TEXT}",
        f"the game's, sets' and editions' names {shape.MAX_TITLE}", f"sets' and editions' keys {shape.MAX_KEY}",
        f"an edition's description {shape.MAX_DESCRIPTION}",
    ]:
        assert phrase in paragraph, phrase


def test_a_declared_section_is_read_from_the_file_with_located_mistakes(monkeypatch, tmp_path):
    """Declaring a section in shape.MANIFEST is all it takes for `cards.yaml` to accept it and for
    its mistakes to be reported at their line and column (its meaning is then manifest.py's)."""
    from generator.deck import manifest
    from generator.deck.problems import InputError

    monkeypatch.setitem(shape.MANIFEST.keys, "finish", shape.Key(LOOK, None, "how the cards look"))
    for name, record in {r.name: r for r in LOOK.records()}.items():
        monkeypatch.setitem(shape.RECORDS, name, record)
    monkeypatch.setattr(manifest, "SECTIONS", tuple(shape.MANIFEST.keys))
    text = MANIFEST.read_text(encoding="utf-8")
    path = tmp_path / "cards.yaml"
    path.write_text(text + "finish:\n  margin: 2.5\n  corner: {radius: 3}\n", encoding="utf-8")
    assert manifest.load(path).printed == 212
    path.write_text(text + "finish:\n  margin: 2.5\n  corner: {radius: -1, style: rond}\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        manifest.load(path)
    line = len(text.splitlines()) + 3
    assert [str(p) for p in err.value.problems] == [
        f"{path}:{line}:20: 'radius' must be at least 0 mm, not -1",
        f"{path}:{line}:31: unknown style 'rond' (did you mean 'round'?); expected one of round, square",
    ]
