"""Hypothesis profiles for the fuzz suite (imported by each fuzz module): `ci` (seeded, a few hundred cases, under a minute) by
default, `long` (thousands of cases, random seeds) with FUZZ_LONG=1."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                                     HealthCheck.filter_too_much, HealthCheck.data_too_large],
               print_blob=True)
#: Seeded: the same cases on every run, so CI is repeatable; each test sets its own share of cases.
settings.register_profile("ci", derandomize=True, database=None, **_COMMON)
#: Random seeds and 20 times the cases; failures are saved in .hypothesis/ to replay.
settings.register_profile("long", derandomize=False, **_COMMON)
LONG = os.environ.get("FUZZ_LONG") == "1"
settings.load_profile("long" if LONG or os.environ.get("HYPOTHESIS_PROFILE") == "long" else "ci")


def examples(ci: int) -> int:
    """How many cases a test runs: `ci` in the CI profile, 20 times as many with FUZZ_LONG=1."""
    return ci * 20 if LONG else ci
