"""The browser that prints the rulebook (generator/products/rulebook/chromium.py): one headless
Chromium spoken to over its pipes prints several pages at once, says why when it cannot, and
leaves nothing running or on disk."""

from __future__ import annotations

import stat
import subprocess
import tempfile
import time
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from generator.products.rulebook import chromium
from generator.products.rulebook.booklet import PAGE_MM
from generator.products.rulebook.pdf import for_print
from tests.browser import chromium_path

PAGE = (b'<!doctype html><html><head><meta charset="utf-8">'
        b'<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; style-src \'unsafe-inline\'">'
        b"<title>t</title></head><body><h1>Objective</h1><p>Play to exactly 16.</p></body></html>")


@pytest.fixture
def scratch(tmp_path, monkeypatch) -> Path:
    """The folder the browser's profile is made in, to see that nothing is left there."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def running(folder: Path) -> list[str]:
    """The processes whose command line names `folder` (a browser's profile in it)."""
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True, check=True).stdout
    return [line for line in ps.splitlines() if str(folder) in line and "ps -eo" not in line]


def program(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_one_browser_prints_several_pages_at_once_at_the_rulebook_size(scratch):
    pages = {"sixteen": for_print(PAGE), "twenty-one": for_print(PAGE.replace(b"exactly 16", b"exactly 21"))}
    browser = chromium.Browser(chromium_path())
    try:
        printed = browser.print_pages(pages)
    finally:
        browser.close()
    both = tuple(v * 72 / 25.4 for v in PAGE_MM)  # the rulebook's page (the booklet's)
    for name, data in printed.items():
        doc = pdfium.PdfDocument(data)
        try:
            assert len(doc) == 1
            assert doc[0].get_size() == pytest.approx(both, abs=0.5)
            assert f"exactly {16 if name == 'sixteen' else 21}" in doc[0].get_textpage().get_text_range()
        finally:
            doc.close()
    assert not list(scratch.iterdir()) and not running(scratch)


def test_a_font_the_page_refuses_is_an_error_not_a_quiet_fallback(scratch):
    # the page's content policy allows no fonts: without for_print's allowance the cards'
    # typeface would be refused and Chromium would print in whatever sans-serif it has
    refused = for_print(PAGE).replace(b"; font-src data:", b"")
    browser = chromium.Browser(chromium_path())
    try:
        with pytest.raises(chromium.Failed, match=r"the fonts of a4 did not load \(County Uppy Cards\)"):
            browser.print_pages({"a4": refused})
    finally:
        browser.close()
    assert not running(scratch)


def test_a_program_that_is_not_chromium_says_what_it_said(tmp_path, scratch):
    browser = chromium.Browser(program(tmp_path, "not-chromium", 'echo "no such option: --remote-debugging-pipe" >&2; exit 3'))
    try:
        with pytest.raises(chromium.Failed, match=r"Chromium (quit|stopped listening) \(exit status 3: no such option"):
            browser.print_pages({"a4": PAGE})
    finally:
        browser.close()
    assert not list(scratch.iterdir())


def test_a_browser_that_never_answers_is_stopped_at_the_time_limit(tmp_path, scratch, monkeypatch):
    monkeypatch.setattr(chromium, "TIMEOUT", 1)
    browser = chromium.Browser(program(tmp_path, "silent", "sleep 6131"))
    started = time.monotonic()
    try:
        with pytest.raises(chromium.Failed, match="did not finish printing within 1 s"):
            browser.print_pages({"a4": PAGE})
    finally:
        browser.close()
    assert time.monotonic() - started < 30
    assert browser.status is not None and not running(tmp_path)
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True, check=True).stdout
    assert "sleep 6131" not in ps  # the browser's own processes went with it


def test_a_kept_browser_prints_again_without_a_start_closes_its_tabs_and_is_replaced_once_dead(scratch):
    """chromium.keep(): `watch`'s one browser for every print of its session."""
    binary = chromium_path()
    keeper = chromium.keep()
    try:
        first = chromium.browser(binary)
        pages = [first.print_pages({"rulebook": PAGE})["rulebook"] for _ in range(2)]
        assert chromium.browser(binary) is first and keeper.started == 1 and not first.ended()
        assert pages[0][:5] == pages[1][:5] == b"%PDF-"
        deadline = time.monotonic() + 10
        while True:  # each print's tab closed (a tab goes a moment after the browser says it is closed)
            tabs = first._answer(first._send("Target.getTargets"), deadline)["targetInfos"]
            printed = [t for t in tabs if t["type"] == "page" and t["url"].startswith("file:")]
            if not printed or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert printed == []
        first.kill()  # crashed
        assert first.ended()
        second = chromium.browser(binary)
        assert second is not first and keeper.started == 2
        assert second.print_pages({"rulebook": PAGE})["rulebook"][:5] == b"%PDF-"
    finally:
        keeper.close()
    assert running(scratch) == [] and list(scratch.iterdir()) == []  # stopped, its profile removed
    fresh = chromium.browser(binary)  # after close(): a build's own browser again
    try:
        assert not fresh.kept
    finally:
        fresh.close()


def test_a_tab_opened_before_its_page_is_made_prints_it_as_a_tab_opened_for_it(scratch):
    """The build opens the print's tab while the page is still being made (Browser.open_tab): the
    page printed in it is the same PDF, once settled, as in a tab opened when the page came."""
    from generator.products.render.stamp import Stamp
    from generator.products.rulebook.pdf import settled

    made = Stamp("1.0", "3f2a9c01b7de", 1700000000)
    browser = chromium.Browser(chromium_path())
    try:
        tab = browser.open_tab()
        early = browser.print_pages({"rulebook": for_print(PAGE)}, {"rulebook": tab})["rulebook"]
        late = browser.print_pages({"rulebook": for_print(PAGE)})["rulebook"]
    finally:
        browser.close()
    assert early[:5] == b"%PDF-" and settled(early, "T", made) == settled(late, "T", made)
    assert running(scratch) == [] and list(scratch.iterdir()) == []


def test_a_kept_browser_closes_a_tab_opened_for_a_print_not_made(scratch):
    """`watch`'s browser opens a tab for a print that is then taken from the cache: the tab is
    closed, so a session's browser does not grow."""
    keeper = chromium.keep()
    try:
        browser = chromium.browser(chromium_path())

        def pages() -> list[dict]:
            deadline = time.monotonic() + 10
            return [t for t in browser._answer(browser._send("Target.getTargets"), deadline)["targetInfos"]
                    if t["type"] == "page"]
        before = len(pages())
        tab = browser.open_tab()
        assert len(pages()) == before + 1
        browser.close_tab(tab)
        deadline = time.monotonic() + 10
        while len(pages()) != before and time.monotonic() < deadline:  # a tab goes a moment after it is closed
            time.sleep(0.05)
        assert len(pages()) == before and not browser.ended()
    finally:
        keeper.close()
    assert running(scratch) == []
