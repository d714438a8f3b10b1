"""The output folder as untrusted ground: links planted in it, and an earlier build's files
damaged or edited. Nothing outside the folder changes, and every build equals what a plain
build makes; a bad earlier file gets one warning and a full build, never a traceback or a
hang, and the preview shows what it can."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest


from generator.products.output.commit import JOURNAL_NAME, STAGING_PREFIX
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


# --- links planted inside OUT ------------------------------------------------------------------

def test_a_symlinked_cache_folder_is_replaced_not_written_through(build_copy, built_once, outside, capsys):
    out = build_copy(ONLY)
    (outside / "tgc.pack").write_bytes(b"someone's file of the same name")
    (outside / "tts-sheet.pack").write_bytes(b"a retired pack's name: would be removed")
    (outside / "build-json.stamp").write_text("1 2 3 4\n")
    (outside / "tgc").mkdir()
    (outside / "tgc" / "entry").write_bytes(b"an entry folder's name: would be emptied")
    shutil.rmtree(out / ".cache")
    (out / ".cache").symlink_to(outside, target_is_directory=True)
    before = snapshot(outside)
    status, _, err = build(capsys, out)
    assert status == 0, err
    assert snapshot(outside) == before
    assert (out / ".cache").is_dir() and not (out / ".cache").is_symlink()
    assert listed(out) == listed(built_once(ONLY))


def test_a_symlinked_product_folder_is_replaced_and_nothing_in_its_target_removed(build_copy, built_once, outside,
                                                                                 capsys):
    out = build_copy(ONLY)
    shutil.copytree(out / "cards", outside / "cards")
    record = json.loads((out / "build.json").read_text())
    stale = outside / "cards" / "OLD.png"
    stale.write_bytes(b"a card a build once made")
    record["artifacts"].append({"path": "cards/OLD.png", "kind": "png", "cards": 1, "pages": 0, "product": "cards",
                                "sha256": hashlib.sha256(stale.read_bytes()).hexdigest()})
    (out / "build.json").write_text(json.dumps(record))
    shutil.rmtree(out / "cards")
    (out / "cards").symlink_to(outside / "cards", target_is_directory=True)
    before = snapshot(outside)
    status, _, err = build(capsys, out)
    assert status == 0, err
    assert snapshot(outside) == before, "files were written or removed through the link"
    assert not (out / "cards").is_symlink() and listed(out) == listed(built_once(ONLY))


def test_a_symlinked_subfolder_of_listed_files_is_replaced(build_copy, built_once, outside, capsys):
    out = build_copy("pod")
    shutil.copytree(out / "pod" / "mpc", outside / "mpc")
    shutil.rmtree(out / "pod" / "mpc")
    (out / "pod" / "mpc").symlink_to(outside / "mpc", target_is_directory=True)
    before = snapshot(outside)
    status, _, err = build(capsys, out, "pod")
    assert status == 0, err
    assert snapshot(outside) == before
    assert not (out / "pod" / "mpc").is_symlink() and listed(out) == listed(built_once("pod"))


def test_a_journal_whose_staging_folder_is_a_link_moves_nothing_out_of_it(build_copy, built_once, outside, capsys):
    out = build_copy(ONLY)
    (outside / "out" / "cards").mkdir(parents=True)
    (outside / "out" / "cards" / "C5.png").write_bytes(b"someone else's picture")
    staging = f"{STAGING_PREFIX}planted"
    (out / staging).symlink_to(outside, target_is_directory=True)
    (out / JOURNAL_NAME).write_text(json.dumps({"staging": staging, "move": ["cards/C5.png"], "remove": [], "pid": 1}))
    before = snapshot(outside)
    status, stdout, err = build(capsys, out)
    assert status == 0, err
    assert snapshot(outside) == before
    assert f"warning: {out / JOURNAL_NAME} is not as a build writes it (its staging folder is a symlink)" in stdout + err
    assert listed(out) == listed(built_once(ONLY)) and not (out / staging).exists()


def test_files_the_tool_did_not_make_are_never_removed(build_copy, capsys):
    """build.json may list what a build never made (an edit): a game record outside the products'
    folders, or a product's file changed since; neither is removed when no longer made."""
    out = build_copy(ONLY)
    (out / "games").mkdir()
    (out / "games" / "g.json").write_text('{"seed": 1}\n')
    (out / "cards" / "MINE.png").write_bytes(b"the user's own, changed since listed")
    record = json.loads((out / "build.json").read_text())
    record["artifacts"] += [
        {"path": "games/g.json", "kind": "json", "cards": 0, "pages": 0, "product": "cards",
         "sha256": hashlib.sha256(b'{"seed": 1}\n').hexdigest()},
        {"path": "cards/MINE.png", "kind": "png", "cards": 1, "pages": 0, "product": "cards", "sha256": "0" * 64}]
    (out / "build.json").write_text(json.dumps(record))
    status, stdout, err = build(capsys, out)
    assert status == 0, err
    assert (out / "games" / "g.json").read_text() == '{"seed": 1}\n'
    assert (out / "cards" / "MINE.png").read_bytes() == b"the user's own, changed since listed"
    assert "cards/MINE.png" in stdout and "left alone" in stdout


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


@pytest.mark.parametrize("journal", ['{"staging": 5, "move": [], "remove": []}', deep(100_000), "not json",
                                     '{"staging": ".county-uppy-staging-x", "move": "cards", "remove": []}'])
def test_a_damaged_journal_gets_one_warning_and_a_full_build(build_copy, built_once, capsys, journal):
    out = build_copy(ONLY)
    (out / JOURNAL_NAME).write_text(journal)
    status, stdout, err = build(capsys, out)
    assert status == 0, err
    assert (stdout + err).count(f"warning: {out / JOURNAL_NAME} is not as a build writes it") == 1
    assert not (out / JOURNAL_NAME).exists() and listed(out) == listed(built_once(ONLY))


def test_a_cache_stamp_that_is_not_one_is_ignored(build_copy, built_once, capsys):
    out = build_copy(ONLY)
    stamp = out / ".cache" / "build-json.stamp"
    stamp.unlink()
    os.mkfifo(stamp)
    status, _, err = build(capsys, out)
    assert status == 0, err
    assert listed(out) == listed(built_once(ONLY))
