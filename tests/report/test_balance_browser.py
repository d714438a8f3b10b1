"""The balance report in headless Chromium: readable at 1280 px, and no sideways scroll on a
390 px phone, with every technical fold opened (tests/browser.py finds Chromium or says why not)."""

from pathlib import Path

import pytest

from generator.cli import main
from tests.browser import launched

ROOT = Path(__file__).resolve().parents[2]

OVERFLOW_JS = """() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll('body *')]
    .filter((e) => e.getClientRects().length && e.getBoundingClientRect().right > width + 0.5)
    .map((e) => `${e.tagName.toLowerCase()}.${e.className && e.className.baseVal !== undefined ? e.className.baseVal : e.className}`
                + ` right=${Math.round(e.getBoundingClientRect().right)}`)
    .slice(0, 8);
}"""


@pytest.fixture(scope="module")
def page_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("balance")
    other = out / "other.yaml"
    other.write_text((ROOT / "cards.yaml").read_text().replace("target: 16", "target: 14", 1))
    status = main(["report", "--manifest", str(ROOT / "cards.yaml"), "--edition", "the-og", "--players", "2,8",
                   "--games", "30", "--workers", "1", "--against", str(other), "--option", "all_out=draw",
                   "--out", str(out)])
    assert status == 0
    return out / "balance.html"


@pytest.mark.parametrize("width", [390, 1280])
def test_no_sideways_scroll_and_the_verdict_is_on_screen(page_file, width):
    with launched() as browser:
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.goto(page_file.as_uri())
        page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        scroll, client = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert client == width and scroll <= client, f"the page scrolls sideways at {width} px ({scroll} px wide)"
        assert page.evaluate(OVERFLOW_JS) == []
        answer = page.locator(".edition .answer").first
        assert answer.is_visible() and answer.inner_text().strip().endswith("players.") or "players" in answer.inner_text()
        box = answer.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        # on a phone the tables stack: each value carries its column's name
        if width == 390:
            label = page.evaluate("""() => getComputedStyle(document.querySelector('td[data-label]'), '::before').content""")
            assert label.startswith('"') and ": " in label
