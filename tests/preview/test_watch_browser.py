"""`county-uppy watch` in real Chromium: the page follows an edit, shows a typo located, recovers.

Without Chromium this is skipped with the reason; with COUNTY_UPPY_REQUIRE_BROWSER=1 (CI) it
fails instead (tests/browser.py). Every wait is bounded; the watch is stopped with Ctrl-C's
signal and must end with 130 and no traceback.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.browser import launched
from tests.conftest import MANIFEST
from tests.preview.watching import Watch, edit

#: How long the page may take to show a rebuild (the rebuild itself takes about a second).
FOLLOW_MS = 20_000
CARD = 'figure[data-code="+1"]'

#: WCAG contrast of each text of the page's dark header against the header (solid colours only).
HEADER_CONTRAST_JS = """() => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => { const [r, g, b] = rgb(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
                       return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const back = lum(getComputedStyle(document.querySelector('header.top')).backgroundColor);
  return [...document.querySelectorAll('header.top h1, header.top .where, header.top a, #play-link, #status-text')].map((e) => {
    const l = lum(getComputedStyle(e).color);
    return [e.id || e.className || e.tagName, Math.round(100 * (Math.max(l, back) + 0.05) / (Math.min(l, back) + 0.05)) / 100];
  });
}"""


#: Records every list of products on their way the page shows: [hidden, [product, ...]] each time it changes.
WATCH_ON_THE_WAY = """() => { window.__way = []; const box = document.getElementById('pending');
  const note = () => window.__way.push([box.hidden, [...box.querySelectorAll('li')].map((li) => li.dataset.product)]);
  new MutationObserver(note).observe(box, {attributes: true, childList: true, subtree: true}); }"""
#: What a rebuild makes after the card images.
REST = ("rulebook", "rulebook-pdf", "print", "pod", "tts")


@pytest.fixture()
def browser():
    with launched() as b:
        yield b


def test_the_preview_follows_an_edit_and_a_typo(browser, tmp_path: Path):
    manifest, out = tmp_path / "cards.yaml", tmp_path / "out"
    shutil.copy(MANIFEST, manifest)
    with Watch(manifest, out) as watch:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        problems: list[str] = []
        page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        page.goto(watch.url, wait_until="load")
        page.wait_for_selector("body[data-status=ok]", timeout=60_000)  # the first build
        faces = page.locator("figure.card")
        assert faces.count() == 98
        # the header reads on its dark ground: every text, the "play this version" link too, at 4.5:1 or more
        contrast = page.evaluate(HEADER_CONTRAST_JS)
        assert len(contrast) == 4 and all(ratio >= 4.5 for _, ratio in contrast), contrast
        before = page.get_attribute(f"{CARD} img", "src")
        assert "Draw one extra card." in page.inner_text(CARD)

        # the edition filter: Only Chaos has no +1 and 59 faces
        page.click("button[data-edition=only-chaos]")
        page.wait_for_function("() => document.querySelectorAll('figure.card').length === 59", timeout=5_000)
        assert page.locator(CARD).count() == 0
        page.click("button[data-edition=all]")
        page.wait_for_function("() => document.querySelectorAll('figure.card').length === 98", timeout=5_000)

        # the sheets' thumbnails, the rulebook
        page.wait_for_function("() => { const i = document.querySelector('details.sheet[open] img');"
                               " return i && i.complete && i.naturalWidth === 240; }", timeout=FOLLOW_MS)
        rulebook = page.frame_locator("#rulebook-frame")
        assert "County Uppy" in rulebook.locator("h1").first.inner_text(timeout=FOLLOW_MS)

        # an edit: the new text and a new face
        edit(manifest, "text: Draw {count:word} extra card{count:/s}.", "text: Draw two extra cards.")
        page.wait_for_function(f"() => document.querySelector('{CARD}').innerText.includes('Draw two extra cards.')",
                               timeout=FOLLOW_MS)
        after = page.get_attribute(f"{CARD} img", "src")
        assert after != before
        page.wait_for_function(f"() => {{ const i = document.querySelector('{CARD} img');"
                               " return i.complete && i.naturalWidth === 825; }", timeout=FOLLOW_MS)
        assert "card +1 changed" in page.inner_text("#changes")

        # a typo: the located error, the faces stay
        edit(manifest, "colour: cyan, values: -2..7", "colour: cyna, values: -2..7")
        page.wait_for_selector("#error:not([hidden])", timeout=FOLLOW_MS)
        line = next(n for n, text in enumerate(manifest.read_text().splitlines(), 1) if "colour: cyna" in text)
        column = manifest.read_text().splitlines()[line - 1].index("cyna") + 1
        banner = page.inner_text("#error")
        assert f"{manifest}:{line}:{column}: unknown colour 'cyna' (did you mean 'cyan'?)" in banner
        assert page.inner_text("#error mark") == "cyna"
        # on a phone the source line wraps, so the marked mistake is on screen without scrolling sideways
        page.set_viewport_size({"width": 390, "height": 844})
        mark = page.locator("#error mark").bounding_box()
        assert mark is not None and 0 <= mark["x"] and mark["x"] + mark["width"] <= 390, mark
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        page.set_viewport_size({"width": 1280, "height": 900})
        assert faces.count() == 98
        assert page.get_attribute(f"{CARD} img", "src") == after
        assert page.evaluate("() => [...document.querySelectorAll('figure.card img')].filter("
                             "(i) => i.complete && i.naturalWidth === 0).length") == 0

        # fixed: the error goes
        edit(manifest, "colour: cyna, values: -2..7", "colour: cyan, values: -2..7")
        page.wait_for_selector("body[data-status=ok] #error[hidden]", state="attached", timeout=FOLLOW_MS)
        assert faces.count() == 98
        assert problems == []
        status = watch.stop()
    assert status == 130, "".join(watch.stderr)[-6000:]
    assert not any("Traceback" in line for line in watch.stderr), watch.stderr
    assert watch.stderr[-1].startswith("county-uppy watch: stopped")


def test_the_changed_card_comes_first_and_the_page_scrolls_to_it(browser, tmp_path: Path):
    """A one-card edit: the card images are committed before the rest (the terminal says "cards
    in" before "rebuilt"), the page shows the new face while the sheets and the rulebook are on
    their way, scrolls to the changed card far down the page and marks it."""
    manifest, out = tmp_path / "cards.yaml", tmp_path / "out"
    shutil.copy(MANIFEST, manifest)
    skip = 'figure[data-code="SKIP"]'
    with Watch(manifest, out) as watch:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(watch.url, wait_until="load")
        page.wait_for_selector("body[data-status=ok]", timeout=60_000)
        assert page.evaluate("() => window.scrollY") == 0
        before = page.get_attribute(f"{skip} img", "src")
        page.evaluate(WATCH_ON_THE_WAY)
        edit(manifest, "text: Skip the next player's turn.", "text: Skip the next player's turn, twice.")
        page.wait_for_function(f"() => {{ const i = document.querySelector('{skip} img');"
                               f" return i.getAttribute('src') !== {before!r} && i.complete && i.naturalWidth === 825; }}",
                               timeout=FOLLOW_MS)
        # scrolled to it, on screen and marked
        box = page.locator(skip).bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 900, box
        assert page.evaluate("() => window.scrollY") > 900
        assert "focus" in page.get_attribute(skip, "class")
        assert page.evaluate("() => document.body.dataset.focus") == "SKIP"
        state = watch.wait_for(lambda s: s["status"] == "ok" and s["builds"] == 2 and not s["pending"], what="the rest")
        assert state["focus"] == ["SKIP"]
        shows = state["last"]["stages"]["page_shows_image"]  # the page said so, and the rest went on
        assert shows is not None and 0 <= shows < 0.5, state["last"]
        page.wait_for_function(f"() => document.body.dataset.builds === '2' && document.body.dataset.pending === 'false'",
                               timeout=FOLLOW_MS)
        # the products still being made were listed by name (and only those), then the list went
        way = page.evaluate("() => window.__way")
        listed = [names for hidden, names in way if not hidden and names]
        assert listed and all(set(names) <= set(REST) for names in listed), way
        assert way[-1][0] is True and page.is_hidden("#pending")
        assert "card SKIP changed" in page.inner_text("#changes")
        lines = list(watch.stdout)
        first = next(i for i, line in enumerate(lines) if " cards in " in line)
        done = next(i for i, line in enumerate(lines) if i > first and " rebuilt in " in line)
        assert "card SKIP changed" in lines[first] and first < done
        assert float(lines[first].split(" cards in ")[1].split(" s")[0]) <= float(lines[done].split(" rebuilt in ")[1].split(" s")[0])

        # a look: edit changes no card of the manifest, only C5's image: the page goes to C5 all the same
        c5 = 'figure[data-code="C5"]'
        before = page.get_attribute(f"{c5} img", "src")
        edit(manifest, "\nlook:\n", '\nlook:\n  cards:\n    C5: {value: {colour: "#7A1A1A"}}\n')
        page.wait_for_function(f"() => {{ const i = document.querySelector('{c5} img');"
                               f" return i.getAttribute('src') !== {before!r} && i.complete && i.naturalWidth === 825; }}",
                               timeout=FOLLOW_MS)
        page.wait_for_function("() => document.body.dataset.focus === 'C5'", timeout=FOLLOW_MS)
        box = page.locator(c5).bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 900, box
        assert "focus" in page.get_attribute(c5, "class") and "focus" not in page.get_attribute(skip, "class")
        state = watch.wait_for(lambda s: s["status"] == "ok" and s["builds"] == 3 and not s["pending"], what="the rest")
        assert state["focus"] == ["C5"]
        assert watch.stop() == 130
