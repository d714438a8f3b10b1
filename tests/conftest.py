"""Shared fixtures: the shipped manifest and a way to write variants of it."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "cards.yaml"


@pytest.fixture(scope="session")
def manifest_text() -> str:
    return MANIFEST.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def deck():
    from generator.deck.manifest import load

    return load(MANIFEST)
