"""One build of every card product, shared by the render tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.products.build import BuildContext, build
from tests.conftest import ROOT

RENDER_PRODUCTS = ("deck", "cards", "print", "pod", "tts")
TTS_URL = "https://example.invalid/county-uppy"


def run_build(deck, out: Path, **kw) -> BuildContext:
    only = kw.pop("only", RENDER_PRODUCTS)
    ctx = BuildContext(deck, out, ROOT / "cards.yaml", editions=kw.pop("editions", ()), tts_url=TTS_URL, **kw)
    build(ctx, only)
    return ctx


@pytest.fixture(scope="session")
def built(deck, tmp_path_factory) -> Path:
    """output/ of a full card build (plus one edition's print files)."""
    out = tmp_path_factory.mktemp("render") / "output"
    run_build(deck, out, editions=("keep-it-simple",))
    return out
