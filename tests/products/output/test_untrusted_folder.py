"""An earlier build's files in the output folder, damaged or edited: every build equals what a
plain build makes; a bad build.json gets one warning and a full build, never a traceback or a
hang, and the preview shows what it can."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest


from tests.conftest import MANIFEST, run

ONLY = "deck,cards"


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def listed(out: Path) -> dict[str, str]:
    record = json.loads((out / "build.json").read_text())
    found = {a["path"]: hashlib.sha256((out / a["path"]).read_bytes()).hexdigest() for a in record["artifacts"]}
    assert all(a["sha256"] == found[a["path"]] for a in record["artifacts"])
    found.pop("changes.json")
    return found


def build(capsys, out: Path, only: str = ONLY) -> tuple[int, str, str]:
    return run(capsys, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only", only)


@pytest.fixture()
def outside(tmp_path):
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "precious.txt").write_text("not the tool's\n")
    return folder


# --- an earlier build's files, damaged or edited -------------------------------------------------

def deep(n: int) -> str:
    return "[" * n + "]" * n


def edit_build_json(out: Path, how: str) -> None:
    path = out / "build.json"
    record = json.loads(path.read_text())
    if how == "pages-text":
        record["artifacts"][0]["pages"] = "x"
    elif how == "million-entries":
        entry = record["artifacts"][0]
        record["artifacts"] = [dict(entry, path=f"cards/X{i}.png") for i in range(1_000_000)]
    elif how == "nested":
        path.write_text('{"artifacts": ' + deep(100_000) + "}")
        return
    elif how == "not-json":
        path.write_bytes(b"\xff\xfe garbage")
        return
    elif how == "fifo":
        path.unlink()
        os.mkfifo(path)
        return
    elif how == "outside-path":
        record["artifacts"][0]["path"] = "../outside.png"
    path.write_text(json.dumps(record))


@pytest.mark.parametrize("how", ["pages-text", "million-entries", "nested", "not-json", "fifo", "outside-path"])
def test_a_damaged_build_json_gets_one_warning_and_a_full_build(build_copy, built_once, capsys, how):
    out = build_copy(ONLY)
    edit_build_json(out, how)
    status, stdout, err = build(capsys, out)
    assert status == 0, err
    assert stdout.count(f"warning: {out / 'build.json'} is not as a build writes it") == 1
    assert listed(out) == listed(built_once(ONLY))


@pytest.mark.parametrize("how", ["code-int", "params-list", "nested", "cards-text"])
def test_a_damaged_deck_json_means_nothing_to_compare(build_copy, built_once, capsys, how):
    out = build_copy(ONLY)
    path = out / "deck.json"
    doc = json.loads(path.read_text())
    if how == "code-int":
        doc["cards"][0]["code"] = 5
    elif how == "params-list":
        next(c for c in doc["cards"] if c.get("effect"))["effect"]["params"] = [1, 2]
    elif how == "cards-text":
        doc["cards"] = "all of them"
    path.write_text(deep(100_000) if how == "nested" else json.dumps(doc))
    status, stdout, err = build(capsys, out)
    assert status == 0, err
    assert listed(out) == listed(built_once(ONLY))


@pytest.mark.parametrize("content", ['{"summary": 5}', '{"summary": [1, {"a": 2}]}', deep(100_000), "[]"])
def test_a_damaged_changes_json_never_stops_the_preview(build_copy, capsys, content):
    from generator.preview.output import read_output
    from generator.preview.rebuild import _changes_line

    out = build_copy(ONLY)
    (out / "changes.json").write_text(content)
    view = read_output(out)
    assert view["built"] is True and len(view["cards"]) > 0
    assert isinstance(_changes_line(out), str)
    status, _, err = build(capsys, out)
    assert status == 0, err


def test_a_cache_stamp_that_is_not_one_is_ignored(build_copy, built_once, capsys):
    out = build_copy(ONLY)
    stamp = out / ".cache" / "build-json.stamp"
    stamp.unlink()
    os.mkfifo(stamp)
    status, _, err = build(capsys, out)
    assert status == 0, err
    assert listed(out) == listed(built_once(ONLY))
