"""One build of the rulebook per session (shipped manifest), plus one of a tweaked manifest."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import MANIFEST


def build_rulebook(manifest: Path, out: Path) -> str:
    """`county-uppy build --only rulebook`, through the same code path; the page's text."""
    from generator.deck.manifest import load
    from generator.products.build import BuildRequest, build

    build(load(manifest), BuildRequest(manifest, out, only=("rulebook",)))
    return (out / "rulebook.html").read_text(encoding="utf-8")


def tweak(text: str, target: int = 21, factor: int = 3) -> str:
    """The shipped manifest with another target and another factor on the x2 card."""
    new, n = re.subn(r"(?m)^(\s*target:\s*)\d+", rf"\g<1>{target}", text)
    assert n == 1, "cards.yaml has no 'target:' line to tweak"
    new, n = re.subn(r"params:\s*\{factor:\s*\d+\}", f"params: {{factor: {factor}}}", new)
    assert n == 1, "cards.yaml has no 'params: {factor: N}' to tweak"
    return new


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """The output folder of a rulebook build from the shipped cards.yaml."""
    out = tmp_path_factory.mktemp("rulebook")
    build_rulebook(MANIFEST, out)
    return out


@pytest.fixture(scope="session")
def html(built: Path) -> str:
    return (built / "rulebook.html").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def designer_html(built: Path) -> str:
    return (built / "rulebook-designer.html").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def tweaked(tmp_path_factory) -> tuple[Path, Path]:
    """(manifest, output folder) of a build with target 21 and x2's factor 3."""
    folder = tmp_path_factory.mktemp("tweaked")
    manifest = folder / "cards.yaml"
    manifest.write_text(tweak(MANIFEST.read_text(encoding="utf-8")), encoding="utf-8")
    out = folder / "output"
    build_rulebook(manifest, out)
    return manifest, out


def visible_text(page: str) -> str:
    """The page's text as a reader sees it: no tags, no style block, no image data."""
    import html as html_lib

    page = re.sub(r"(?s)<style>.*?</style>", " ", page).replace("<wbr>", "")
    page = re.sub(r"(?s)<[^>]+>", " ", page)
    return re.sub(r"\s+", " ", html_lib.unescape(page))
