"""Property-based damage to an output folder's earlier build: whatever happens to build.json,
deck.json, changes.json, the commit journal or the face cache's packs, the next build equals a
cold build (sha256 for sha256, every file build.json lists) or refuses with one clear line, and
never prints a traceback.

Mutations: bytes flipped, cut, inserted or the file replaced by noise; for the JSON files, a
value anywhere replaced by a value of another type (deeply nested ones included); a journal
written from nothing. The short profile runs in CI; FUZZ_LONG=1 runs twenty times as many.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.cli import main
from generator.products.output.commit import JOURNAL_NAME, STAGING_PREFIX
from tests.conftest import MANIFEST
from tests.fuzz.profiles import examples

ONLY = "deck,cards"
JSON_FILES = ("build.json", "deck.json", "changes.json", JOURNAL_NAME)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def listed(out: Path) -> dict[str, str]:
    record = json.loads((out / "build.json").read_text())
    found = {a["path"]: hashlib.sha256((out / a["path"]).read_bytes()).hexdigest() for a in record["artifacts"]}
    assert all(a["sha256"] == found[a["path"]] for a in record["artifacts"]), "build.json lists a wrong sha256"
    found.pop("changes.json")
    return found


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """A built folder (its face cache included), and the files a cold build lists."""
    out = tmp_path_factory.mktemp("fuzz-out") / "out"
    status, _, err = run("build", "--manifest", str(MANIFEST), "--out", str(out), "--only", ONLY)
    assert status == 0, err
    # a journal as a killed build leaves it, to damage too
    return out, listed(out)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)


def replace_somewhere(data: st.DataObject, value: Any) -> Any:
    """`value` with one node, reached by random steps, replaced by a random JSON value."""
    if isinstance(value, dict) and value and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(value)))
        return {**value, key: replace_somewhere(data, value[key])}
    if isinstance(value, list) and value and data.draw(st.booleans()):
        i = data.draw(st.integers(0, len(value) - 1))
        return [*value[:i], replace_somewhere(data, value[i]), *value[i + 1:]]
    choice = data.draw(st.sampled_from(["value", "deep", "drop", "huge"]))
    if choice == "deep":
        n = data.draw(st.integers(500, 50_000))
        return json.loads("[" * min(n, 900) + "]" * min(n, 900))  # what json can hold; deeper ones go in as text
    if choice == "drop":
        return None
    if choice == "huge":
        return ["x" * 10] * data.draw(st.integers(1000, 200_000))
    return data.draw(json_values)


def damage_bytes(data: st.DataObject, raw: bytes) -> bytes:
    how = data.draw(st.sampled_from(["flip", "cut", "insert", "noise", "empty", "nest"]))
    if how == "flip" and raw:
        at = data.draw(st.integers(0, len(raw) - 1))
        n = data.draw(st.integers(1, 16))
        return raw[:at] + bytes(b ^ 0xA5 for b in raw[at:at + n]) + raw[at + n:]
    if how == "cut":
        return raw[:data.draw(st.integers(0, max(0, len(raw) - 1)))]
    if how == "insert":
        at = data.draw(st.integers(0, len(raw)))
        return raw[:at] + data.draw(st.binary(min_size=1, max_size=64)) + raw[at:]
    if how == "noise":
        return data.draw(st.binary(max_size=4096))
    if how == "nest":
        return b"[" * 100_000 + b"]" * 100_000
    return b""


@settings(max_examples=examples(8))
@given(data=st.data())
def test_any_damage_to_an_earlier_build_then_a_build_equals_a_cold_build(reference, tmp_path_factory, data):
    built, cold = reference
    out = tmp_path_factory.mktemp("case") / "out"
    shutil.copytree(built, out, symlinks=True)
    packs = sorted(p.name for p in (out / ".cache").glob("*.pack"))
    targets = data.draw(st.lists(st.sampled_from([*JSON_FILES, *(f".cache/{p}" for p in packs)]), min_size=1,
                                 max_size=3, unique=True))
    for name in targets:
        path = out / name
        if name == JOURNAL_NAME:  # a journal as a killed build leaves it, before the damage
            (out / f"{STAGING_PREFIX}killed" / "out").mkdir(parents=True)
            path.write_text(json.dumps({"staging": f"{STAGING_PREFIX}killed", "move": [], "remove": [], "pid": 1}))
        raw = path.read_bytes()
        if name in JSON_FILES and data.draw(st.booleans()):
            text = json.dumps(replace_somewhere(data, json.loads(raw)))
            path.write_text(text)
        else:
            path.write_bytes(damage_bytes(data, raw))
    status, stdout, err = run("build", "--manifest", str(MANIFEST), "--out", str(out), "--only", ONLY)
    assert "Traceback" not in stdout + err and "internal error" not in err
    if status == 0:
        assert listed(out) == cold, "the build after the damage differs from a cold build"
    else:
        assert status in (1, 2) and len(err.strip().splitlines()) == 1, err
    shutil.rmtree(out.parent, ignore_errors=True)
