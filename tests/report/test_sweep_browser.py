"""The sweep's pages in headless Chromium, as the designer reads them on a 390 px phone and a
1280 px laptop: the page never scrolls sideways, its tables stack on the phone with each
value's column named, and a heatmap too wide for the phone scrolls inside its own box, whole
on the laptop (tests/browser.py finds Chromium or says why not)."""

from pathlib import Path

import pytest

from generator.cli import main
from tests.browser import launched

ROOT = Path(__file__).resolve().parents[2]

#: Elements whose right edge passes the viewport's, leaving out what a heatmap's own box scrolls.
OVERFLOW_JS = """() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll('body *')]
    .filter((e) => e.getClientRects().length && !e.closest('.heat-box > *'))
    .filter((e) => e.getBoundingClientRect().right > width + 0.5)
    .map((e) => `${e.tagName.toLowerCase()}.${e.className && e.className.baseVal !== undefined ? e.className.baseVal : e.className}`
                + ` right=${Math.round(e.getBoundingClientRect().right)}: ${(e.textContent || '').trim().slice(0, 30)}`)
    .slice(0, 8);
}"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep")
    # nine targets: a heatmap wider than a phone
    status = main(["sweep", "--manifest", str(ROOT / "cards.yaml"), "--param", "target=12..20", "--param", "hand_size=4,5",
                   "--players", "3", "--games", "10", "--workers", "1", "--no-progress", "--out", str(out)])
    assert status == 0
    return {"sweep": out / "sweep.html", "cell": out / "cells" / "cell-0000.html"}


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("which", ["sweep", "cell"])
def test_no_sideways_scroll_and_tables_readable(pages, which, width):
    with launched() as browser:
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.goto(pages[which].as_uri())
        scroll, client = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert client == width and scroll <= client, f"{which}.html scrolls sideways at {width} px ({scroll} px wide)"
        assert page.evaluate(OVERFLOW_JS) == []
        # every number of a table row is on screen, with its column's name before it on a phone
        cell = page.locator("td.num").nth(1)
        box = cell.bounding_box()
        assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= width
        label = page.evaluate("""() => getComputedStyle(document.querySelector('td[data-label]'), '::before').content""")
        if width == 390:
            assert label.startswith('"') and label.endswith(': "'), label
        else:
            assert label in ("none", "normal"), label
        if which == "sweep":
            boxes = page.evaluate("""() => [...document.querySelectorAll('.heat-box')].map((b) => {
                const r = b.getBoundingClientRect();
                return [r.left, r.right, b.scrollWidth > b.clientWidth];
            })""")
            assert boxes and all(0 <= left and right <= width for left, right, _ in boxes)
            # the laptop shows every heatmap whole; the phone scrolls the wide ones in their box
            assert any(scrolls for *_, scrolls in boxes) == (width == 390)
            head = page.locator("table.heat th.rowhead").first.bounding_box()
            assert head is not None and head["height"] < 40, "the heatmap's corner label is broken letter by letter"
