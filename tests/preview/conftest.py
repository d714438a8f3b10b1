"""One real build of the shipped manifest per session, for the preview's tests to read."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import MANIFEST


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    from generator.deck.manifest import load
    from generator.products.build import BuildRequest, build

    out = tmp_path_factory.mktemp("preview") / "out"
    build(load(MANIFEST), BuildRequest(MANIFEST, out, papers=("letter",)))
    return out
