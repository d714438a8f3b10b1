"""The JSON Schema that cards.yaml points editors at."""

from __future__ import annotations

import json

import jsonschema
import pytest
import yaml

from generator.cli import main
from generator.deck.schema import json_schema
from tests.conftest import MANIFEST, ROOT

SCHEMA_FILE = ROOT / "cards.schema.json"


def test_committed_schema_is_current():
    assert SCHEMA_FILE.read_text() == json_schema(), "run `county-uppy schema --write` and commit cards.schema.json"


def test_manifest_points_editors_at_the_schema(manifest_text):
    assert manifest_text.splitlines()[0] == "# yaml-language-server: $schema=./cards.schema.json"


def test_schema_accepts_the_shipped_manifest():
    jsonschema.validate(yaml.safe_load(MANIFEST.read_text()), json.loads(SCHEMA_FILE.read_text()))


@pytest.mark.parametrize("old,new", [("copies: 4}", "copies: four}"), ("kind: blank", "kind: blanc"), ("hand_size: 5", "handsize: 5")])
def test_schema_rejects_mistakes(manifest_text, old, new):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(yaml.safe_load(manifest_text.replace(old, new)), json.loads(SCHEMA_FILE.read_text()))


def test_schema_command_prints_it(capsys):
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out)["title"].startswith("County Uppy card manifest")
