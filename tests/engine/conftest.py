"""Fixtures for engine tests: the shipped deck and small helpers."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def game4(deck):
    from generator.engine import Game

    return Game(deck, "the-og", 4)
