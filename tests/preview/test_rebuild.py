"""A rebuild of `watch` reads a save that may still be on its way (preview/rebuild.py's settled):
the watcher starts it a few milliseconds after the first change, so a manifest renamed away or
cut short by an editor is waited for, and a mistake that stays is shown once the files rest."""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from generator.deck.problems import InputError
from generator.preview.rebuild import SETTLE_SECONDS, settled
from tests.conftest import MANIFEST, ROOT

TYPO = ("colour: cyan, values: -2..7", "colour: cyna, values: -2..7")


def _signature(path: Path):
    """As watch's: the file's time and size (nothing while it is not there)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


def _later(seconds: float, act) -> threading.Thread:
    def run() -> None:
        time.sleep(seconds)
        act()
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize("on_the_way", ["cut short", "renamed away"])
def test_a_save_still_being_written_is_read_once_it_is_whole(tmp_path: Path, on_the_way: str):
    manifest = tmp_path / "cards.yaml"
    shutil.copytree(ROOT / "art", tmp_path / "art")  # the pictures it names, there before the save
    whole = MANIFEST.read_text(encoding="utf-8")
    if on_the_way == "cut short":  # truncated, the editor's write not yet in
        manifest.write_text(whole[:len(whole) // 3], encoding="utf-8")
    writer = _later(0.1, lambda: manifest.write_text(whole, encoding="utf-8"))
    started = time.monotonic()
    deck = settled(manifest, lambda: _signature(manifest))
    writer.join(5)
    assert len(deck.cards) == 98
    assert time.monotonic() - started < 0.1 + SETTLE_SECONDS + 2  # read again as soon as it changed


def test_a_mistake_that_stays_is_raised_located_once_the_files_rest(tmp_path: Path):
    manifest = tmp_path / "cards.yaml"
    text = MANIFEST.read_text(encoding="utf-8")
    manifest.write_text(text.replace(*TYPO), encoding="utf-8")
    line = next(n for n, row in enumerate(manifest.read_text(encoding="utf-8").splitlines(), 1) if TYPO[1] in row)
    started = time.monotonic()
    with pytest.raises(InputError) as caught:
        settled(manifest, lambda: _signature(manifest))
    waited = time.monotonic() - started
    assert SETTLE_SECONDS <= waited < SETTLE_SECONDS + 5
    (problem,) = caught.value.problems
    assert (problem.line, problem.message) == (line, "unknown colour 'cyna' (did you mean 'cyan'?)")


def test_a_good_manifest_is_read_at_once(tmp_path: Path):
    manifest = tmp_path / "cards.yaml"
    manifest.write_text(MANIFEST.read_text(encoding="utf-8"), encoding="utf-8")
    looked: list[int] = []

    def signature():
        looked.append(1)
        return _signature(manifest)

    assert len(settled(manifest, signature).cards) == 98
    assert len(looked) == 1  # taken once before reading; nothing waited for
