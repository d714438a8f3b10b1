"""Inline icons in the rulebook: inline SVG in the HTML, labelled in words, one em tall on the
text's baseline in a real browser; the image descriptions (alt) say them in words."""

from __future__ import annotations

import html as htmllib
import re

from generator.deck.manifest import load_bytes
from tests.browser import launched
from tests.deck.test_icons import with_text
from tests.products.rulebook.conftest import build_rulebook


def page_with_icons(manifest_text: str, tmp_path) -> str:
    path = tmp_path / "cards.yaml"
    path.write_text(with_text(manifest_text, "After a {cyan} card, skip two {icon:skip}{icon:skip}; {{x}}.",
                              name="Skip {magenta}"), encoding="utf-8")
    load_bytes(path.read_bytes(), str(path))
    return build_rulebook(path, tmp_path / "out")


def test_icons_are_inline_svg_labelled_in_words(manifest_text, tmp_path):
    page = page_with_icons(manifest_text, tmp_path)
    section = page[page.index('id="wild-skip"'):]
    section = section[:section.index("</li>")]
    assert "{cyan}" not in page and "{icon:" not in page and "{magenta}" not in page
    cyan = re.search(r'<svg class="icon" role="img" aria-label="cyan"[^>]*>(.*?)</svg>', section)
    assert cyan and 'fill="#00A3D9"' in cyan.group(1) and "<polygon" in cyan.group(1)
    assert re.search(r'<h3>Skip <svg class="icon" role="img" aria-label="magenta"', section)
    assert section.count('aria-label="skip"') == 2
    assert "; {x}." in section  # the literal braces
    alt = htmllib.unescape(re.search(r'alt="([^"]*)"', section).group(1))
    # in words, the card's own icon is left out: it would only repeat the card's name ("skipskip" ran on)
    assert alt == "Skip magenta card: After a cyan card, skip two; {x}."
    # the quick reference's wild line names the card with its icon too
    quick = page[page.index('<dt>Skip <svg'):]
    assert quick.index('aria-label="magenta"') < quick.index("</dt>")


def test_icons_stand_on_the_baseline_at_the_text_size_in_a_browser(manifest_text, tmp_path):
    page = page_with_icons(manifest_text, tmp_path)
    (tmp_path / "page.html").write_text(page, encoding="utf-8")
    with launched() as browser:
        tab = browser.new_page(viewport={"width": 1000, "height": 900})
        tab.goto((tmp_path / "page.html").as_uri())
        boxes = tab.evaluate("""() => [...document.querySelectorAll('#wild-skip p svg.icon')].map(svg => {
            const r = svg.getBoundingClientRect();
            const probe = document.createElement('span');  // an empty inline-block sits on the baseline
            probe.style.display = 'inline-block'; probe.style.height = '0';
            svg.after(probe);
            const baseline = probe.getBoundingClientRect().bottom; probe.remove();
            return {top: r.top, bottom: r.bottom, baseline, size: parseFloat(getComputedStyle(svg.parentElement).fontSize)};
        })""")
    assert len(boxes) == 3  # cyan's shape and Skip's icon twice (the shipped icon file, as outlines)
    for b in boxes:
        assert abs((b["bottom"] - b["top"]) - b["size"]) < 1.5  # one em tall
        assert abs((b["baseline"] - b["top"]) - 0.76 * b["size"]) < 1.5  # its baseline on the text's
