"""Manifest strings are text, never markup: jinja2 autoescapes everything the manifest says."""

from __future__ import annotations

from generator.products.rulebook import page as rulebook
from tests.products.rulebook.conftest import MANIFEST, build_rulebook
from tests.products.rulebook.page import read

ATTACK = "<script>alert(1)</script>"


def test_a_script_in_the_manifest_shows_as_text(tmp_path):
    text = MANIFEST.read_text(encoding="utf-8")
    text = text.replace("  name: County Uppy\n", f'  name: "County {ATTACK} Uppy"\n', 1)
    text = text.replace("text: Draw {count:word} extra card{count:/s}.", f'text: "Draw an extra card. {ATTACK}"', 1)
    text = text.replace("description: Play with all cards.", f'description: "Play with all cards. {ATTACK}"', 1)
    assert text.count(ATTACK) == 3
    manifest = tmp_path / "cards.yaml"
    manifest.write_text(text, encoding="utf-8")
    html = build_rulebook(manifest, tmp_path / "out")
    assert "<script" not in html.lower()
    assert html.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 5  # title, h1, footer, wild text, alt, edition
    assert not read(html).all("script")
    alts = [img["alt"] for img in read(html).all("img")]
    assert f"+1 Card card: Draw an extra card. {ATTACK}" in alts  # the parser unescapes attributes


def test_the_environment_autoescapes_and_is_strict():
    import jinja2
    import pytest

    env = rulebook.environment()
    assert env.autoescape is True
    assert env.from_string("{{ x }}").render(x=ATTACK) == "&lt;script&gt;alert(1)&lt;/script&gt;"
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ missing }}").render()
