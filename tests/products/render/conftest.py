"""One build of every card product, shared by the render tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.products.build import BuildRequest, Built, build
from tests.conftest import ROOT

RENDER_PRODUCTS = ("deck", "cards", "print", "pod", "tts")
TTS_URL = "https://example.invalid/county-uppy"


def run_build(deck, out: Path, **kw) -> Built:
    kw.setdefault("only", RENDER_PRODUCTS)
    return build(deck, BuildRequest(ROOT / "cards.yaml", out, tts_url=TTS_URL, **kw))


@pytest.fixture(scope="session")
def built(deck, tmp_path_factory) -> Path:
    """output/ of a full card build (plus one edition's print files), the print sheets in both
    layouts."""
    out = tmp_path_factory.mktemp("render") / "output"
    run_build(deck, out, editions=("keep-it-simple",), layouts=("duplex", "gutterfold"))
    return out


@pytest.fixture(scope="session")
def built_without_look(no_look_deck, tmp_path_factory) -> Path:
    """output/cards of the shipped manifest without its `look:` section."""
    out = tmp_path_factory.mktemp("render-no-look") / "output"
    run_build(no_look_deck, out, only=("cards",))
    return out
