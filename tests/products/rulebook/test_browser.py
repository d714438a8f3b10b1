"""The rulebook in a real browser: headless Chromium (Debian package `chromium`) via Playwright.

Without Chromium these tests are skipped, saying how to install it; with
COUNTY_UPPY_REQUIRE_BROWSER=1 (CI) they fail instead (tests/browser.py). Set
COUNTY_UPPY_CHROMIUM to use a Chromium somewhere other than on PATH or /usr/bin/chromium.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.browser import launched

WIDTHS = (375, 1280)
#: Printable width of A4 and Letter in CSS pixels with the stylesheet's 14 mm side margins.
PRINT_WIDTHS = {"A4": round((210 - 28) / 25.4 * 96), "Letter": round((215.9 - 28) / 25.4 * 96)}

CONTRAST_JS = """() => {
  const parse = (c) => { const m = c.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
                               return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const background = (el) => { for (; el; el = el.parentElement) { const c = parse(getComputedStyle(el).backgroundColor);
                                 if (c[3] > 0) return c; } return [255, 255, 255, 1]; };
  const worst = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('svg')) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const box = el.getBoundingClientRect();
    if (!own || box.width === 0 || box.height === 0) continue;
    const a = lum(parse(getComputedStyle(el).color)), b = lum(background(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) worst.push([el.tagName, el.textContent.trim().slice(0, 40), ratio.toFixed(2)]);
  }
  return worst;
}"""


@pytest.fixture(scope="module")
def browser():
    with launched() as b:
        yield b


def open_page(browser, built: Path, width: int, media: str = "screen"):
    """Load the rulebook; return the page and the problems seen while loading it."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"failed request: {r.url[:80]}"))
    page.on("request", lambda r: None if r.url.startswith(("file:", "data:")) else problems.append(f"network request: {r.url}"))
    page.emulate_media(media=media)
    page.goto((built / "rulebook.html").resolve().as_uri(), wait_until="load")
    return page, problems


@pytest.mark.parametrize("width", WIDTHS)
def test_loads_cleanly_and_fits_the_screen(browser, built, width):
    page, problems = open_page(browser, built, width)
    try:
        assert problems == []
        overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{overflow} px of horizontal scrolling at {width} px"
        wide = page.evaluate("""(w) => [...document.querySelectorAll('body *')]
            .filter((el) => el.getBoundingClientRect().right > w + 0.5).map((el) => el.tagName + '.' + el.className)""", width)
        assert wide == [], f"elements wider than the {width} px screen"
        broken = page.evaluate("() => [...document.images].filter((i) => !i.complete || i.naturalWidth === 0).map((i) => i.alt)")
        assert broken == []
        assert page.evaluate("() => document.images.length") >= 1
        font = page.evaluate("() => getComputedStyle(document.body).fontFamily")
        assert "sans-serif" in font, f"the stylesheet did not apply (body font {font!r})"
    finally:
        page.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_text_contrast_is_at_least_wcag_aa(browser, built, width):
    page, _ = open_page(browser, built, width)
    try:
        assert page.evaluate(CONTRAST_JS) == []
    finally:
        page.close()


@pytest.mark.parametrize("paper", sorted(PRINT_WIDTHS))
def test_prints_to_pdf_with_sections_on_new_pages(browser, built, tmp_path, paper):
    width = PRINT_WIDTHS[paper]
    page, problems = open_page(browser, built, width, media="print")
    try:
        assert problems == []
        assert page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
        breaks = page.evaluate("() => [...document.querySelectorAll('main section.chapter > h2')].map((h) => getComputedStyle(h).breakBefore)")
        assert len(breaks) >= 5 and set(breaks) == {"page"}
        images = page.evaluate("""() => [...document.images].map((i) => [getComputedStyle(i).breakInside,
            getComputedStyle(i.closest('li, figure, article, div') || i).breakInside, i.getBoundingClientRect().right])""")
        for own, holder, right in images:
            assert own == "avoid" and holder == "avoid" and right <= width
        pdf = tmp_path / f"rulebook-{paper}.pdf"
        page.pdf(path=str(pdf), format=paper, print_background=True, prefer_css_page_size=True)
        data = pdf.read_bytes()
        assert data.startswith(b"%PDF")
        pages = len(re.findall(rb"/Type\s*/Page\b(?!s)", data))
        assert pages >= len(breaks), f"{pages} pages for {len(breaks)} sections"
    finally:
        page.close()
