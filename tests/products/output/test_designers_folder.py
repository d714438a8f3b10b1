"""The output folder is the designer's too (issue 36): a roll-forward touches only files the
interrupted build made, a leftover of any depth is removed, and every number read back from
build.json or a face-cache pack is bounded, so an edited or crafted file costs a warning and a
full build, never a designer's file, an internal error or a stalled preview."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from generator.products.output.commit import JOURNAL_NAME, STAGING_PREFIX
from tests.products.output.test_untrusted_folder import ONLY, build, listed

DESIGNERS = {"notes.txt": "my notes\n", "games/g.json": '{"seed": 1}\n'}


def _designers_files(out):
    for rel, text in DESIGNERS.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_text(text)


def _still_there(out) -> bool:
    return all((out / rel).is_file() and (out / rel).read_text() == text for rel, text in DESIGNERS.items())


@pytest.mark.parametrize("journal", [
    {"move": [], "remove": ["notes.txt", "games/g.json"]},
    {"move": ["notes.txt", "games/g.json"], "remove": []},  # from a staging folder that holds them
    {"move": ["cards/C5.png"], "remove": ["notes.txt"]},  # a listed file beside the designer's
])
def test_a_journal_naming_the_designers_own_files_touches_none_of_them(build_copy, built_once, capsys, journal):
    out = build_copy(ONLY)
    _designers_files(out)
    staging = f"{STAGING_PREFIX}crafted"
    for rel in journal["move"]:  # what the staging folder would move into place
        (out / staging / "out" / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / staging / "out" / rel).write_text("not the designer's\n")
    (out / staging / "out").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(out / "build.json", out / staging / "out" / "build.json")  # the build's own listing
    (out / JOURNAL_NAME).write_text(json.dumps({"staging": staging, "pid": 1, **journal}))
    status, stdout, err = build(capsys, out)
    assert status == 0, err
    assert _still_there(out)
    assert f"warning: {out / JOURNAL_NAME} is not as a build writes it (it would " in stdout + err
    assert "which the build's build.json does not list" in stdout + err or "no earlier build.json lists" in stdout + err
    assert listed(out) == listed(built_once(ONLY)) and not (out / staging).exists()


def test_a_journal_the_build_wrote_is_still_rolled_forward(build_copy, built_once, capsys):
    """The check lets a true journal through: a file the interrupted build listed moves into place."""
    out = build_copy(ONLY)
    _designers_files(out)
    staging = f"{STAGING_PREFIX}killed"
    (out / staging / "out" / "cards").mkdir(parents=True)
    shutil.copyfile(out / "build.json", out / staging / "out" / "build.json")
    os.replace(out / "cards" / "C5.png", out / staging / "out" / "cards" / "C5.png")
    (out / JOURNAL_NAME).write_text(json.dumps({"staging": staging, "move": ["cards/C5.png", "build.json"],
                                                "remove": [], "pid": 1}))
    status, stdout, err = build(capsys, out)
    assert status == 0, err
    assert "finished moving an interrupted build (process 1)" in stdout + err and "2 more files moved" in stdout + err
    assert _still_there(out) and listed(out) == listed(built_once(ONLY))


@pytest.fixture
def deep():
    """`deep(folder)`: `folder`/a/a/... 3,000 deep, made relative to each folder: the whole path is
    past what the system takes, and a recursive walk past Python's stack. Removed after the test
    (pytest's own clean-up of old temporary folders recurses and would fail on it)."""
    from generator.files import remove_tree

    made = []
    yield lambda folder: made.append(folder) or _deep(folder)
    for folder in made:
        remove_tree(folder)


def _deep(folder, levels: int = 3000) -> None:
    folder.mkdir(parents=True)
    fd = os.open(folder, os.O_RDONLY)
    for _ in range(levels):
        os.mkdir("a", dir_fd=fd)
        inner = os.open("a", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = inner
    os.close(fd)


def test_a_leftover_3000_folders_deep_is_removed(build_copy, built_once, capsys, deep):
    out = build_copy(ONLY)
    leftover = out / f"{STAGING_PREFIX}deep"
    deep(leftover)
    status, _, err = build(capsys, out)
    assert status == 0, err
    assert not leftover.exists() and listed(out) == listed(built_once(ONLY))


def test_a_designers_folder_3000_deep_in_a_products_folder_is_left_alone(build_copy, built_once, capsys, deep):
    out = build_copy(ONLY)
    deep(out / "cards" / "mine")
    (out / "cards" / "mine" / "a" / "sketch.txt").write_text("mine\n")
    status, stdout, err = build(capsys, out)
    assert status == 0, err
    assert "cards/mine/a/sketch.txt" in stdout + err  # named as not the tool's, and left
    assert (out / "cards" / "mine" / "a" / "sketch.txt").read_text() == "mine\n"
    assert (out / "cards" / "mine" / "a" / "a").is_dir() and listed(out) == listed(built_once(ONLY))


def test_a_build_json_claiming_a_hundred_million_pages_is_not_used(build_copy, built_once, capsys):
    from generator.preview.output import read_output

    out = build_copy("deck,print")
    record = json.loads((out / "build.json").read_text())
    sheet = next(a for a in record["artifacts"] if a["path"].endswith(".pdf"))
    sheet["pages"] = 100_000_000
    record["seconds"] = 1e308
    (out / "build.json").write_text(json.dumps(record))
    view = read_output(out)  # watch's page: no list of 100 million thumbnails
    shown = next(s for s in view["sheets"] if s["path"] == sheet["path"])
    assert shown["pages"] == 0 and shown["thumbs"] == [] and view["seconds"] is None
    status, stdout, err = build(capsys, out, "deck,print")
    assert status == 0, err
    assert f"{sheet['path']}: its pages is 100000000" in stdout + err
    assert listed(out) == listed(built_once("deck,print"))


def test_a_pack_of_more_entries_than_a_build_keeps_is_set_aside_unindexed(build_copy, built_once, capsys):
    """A crafted pack of tiny entries (each with a right checksum) was indexed whole: millions of
    them under the 1 GiB cap took gigabytes and the build segfaulted. The index stops at
    MAX_PACK_ENTRIES and the pack is rebuilt."""
    from generator.products.pipeline import face_cache
    from generator.products.pipeline.face_cache import MAX_PACK_ENTRIES, RenderCache, _header

    out = build_copy(ONLY)
    pack = out / ".cache" / "tgc.pack"
    with open(pack, "wb") as fh:
        fh.write(face_cache._MAGIC)
        for n in range(MAX_PACK_ENTRIES * 3):
            fh.write(_header(f"k{n}", b""))
    cache = RenderCache(out)
    assert cache.get("tgc", "k1") is None
    assert len(cache._packs["tgc"].index) == 0
    cache.close()
    assert any(f"more than {MAX_PACK_ENTRIES:,} entries" in w for w in cache.warnings)
    status, stdout, err = build(capsys, out)
    assert status == 0, err
    assert f"more than {MAX_PACK_ENTRIES:,} entries, more than a build ever keeps" in stdout + err
    assert pack.stat().st_size < 50 * MAX_PACK_ENTRIES  # written anew with the build's own entries
    assert listed(out) == listed(built_once(ONLY))
