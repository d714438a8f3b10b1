"""Invariant sweep: seeded random games over every edition, 2..8 players and option values."""

from __future__ import annotations

import os

import pytest

from .sweep import sweep

#: Games in the CI sweep; SWEEP_GAMES=20000 for a longer run (or `python -m tests.engine.sweep`).
GAMES = int(os.environ.get("SWEEP_GAMES", "5000"))


@pytest.mark.slow  # 10-11 s of CPU on one core
def test_invariant_sweep():
    result = sweep(GAMES)
    assert result["stopped"] <= max(1, GAMES // 1000), "games reaching max_turns must be rare (<0.1%)"


@pytest.mark.skipif(not os.environ.get("SWEEP_LONG"), reason="set SWEEP_LONG=1 for the 20000-game sweep")
def test_long_invariant_sweep():
    assert sweep(20000, seed=7)["stopped"] <= 20
