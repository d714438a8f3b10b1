"""`watch`'s "play this version": a web table on the manifest being edited, which says when the
manifest changes under a game and finishes that game on the deck it began with."""

from __future__ import annotations

import shutil

import pytest

from tests.conftest import MANIFEST
from tests.preview.watching import Watch, edit

WAIT = 60_000


@pytest.mark.slow  # a watch, its first build and a table: 40-80 s on 2 cores
def test_play_this_version_notes_an_edit_and_keeps_its_deck(browser, tmp_path):
    manifest, out = tmp_path / "cards.yaml", tmp_path / "out"
    shutil.copy(MANIFEST, manifest)
    with Watch(manifest, out) as watch:
        page = browser.new_page()
        page.goto(watch.url, wait_until="load")
        page.wait_for_selector("body[data-status=ok]", timeout=WAIT)  # the first build
        with page.context.expect_page(timeout=WAIT) as opened:
            page.click("#play-link")
        table = opened.value
        table.wait_for_selector("#free button[data-seat='0']", timeout=WAIT)
        table.click("#free button[data-seat='0']")
        table.wait_for_function("() => document.getElementById('who').textContent === 'you are seat 0'", timeout=WAIT)
        # the build's card images are at the table
        table.wait_for_function("() => [...document.querySelectorAll('#hand img')].some((i) => i.complete && "
                                "i.naturalWidth > 0)", timeout=WAIT)
        text = table.evaluate("fetch('/deck.json').then((r) => r.json()).then((d) => d.cards['+1'].text)")
        assert text == "Draw one extra card."
        edit(manifest, "text: Draw {count:word} extra card{count:/s}.", "text: Draw two extra cards.")
        table.wait_for_selector("#banner:not([hidden])", timeout=WAIT)
        assert "this game finishes on the deck it started with" in table.inner_text("#banner")
        # the game in progress keeps its deck
        text = table.evaluate("fetch('/deck.json').then((r) => r.json()).then((d) => d.cards['+1'].text)")
        assert text == "Draw one extra card."
