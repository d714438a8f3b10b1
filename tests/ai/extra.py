"""The `ai` extra in the tests: skipped without it, with the reason, unless CI requires it.

CI (`.ci/run`) installs the extra and sets COUNTY_UPPY_REQUIRE_AI=1, which turns a missing
package into a failure, so OpenSpiel's and PettingZoo's own tests always run there.
"""

from __future__ import annotations

import importlib
import os

import pytest

REQUIRE = "COUNTY_UPPY_REQUIRE_AI"


def need(module: str):
    """Import `module` (from the ai extra), or skip saying how to get it (fail when REQUIRE is set)."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        reason = f"needs the ai extra ({module}: {exc}); pip install -e '.[ai]'"
        if os.environ.get(REQUIRE, "").strip() not in ("", "0"):
            pytest.fail(f"{reason} ({REQUIRE} is set, so this is a failure, not a skip)", pytrace=False)
        pytest.skip(reason)
