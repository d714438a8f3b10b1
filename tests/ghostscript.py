"""Tests that need Ghostscript or its SWOP press profile (the print-shop checks).

On a user's machine without Ghostscript they skip with the reason; CI sets
COUNTY_UPPY_REQUIRE_GHOSTSCRIPT=1 (.ci/run installs it), and then a missing Ghostscript or
profile is a failure, not a skip.
"""

from __future__ import annotations

import os
import shutil

import pytest

REQUIRE = "COUNTY_UPPY_REQUIRE_GHOSTSCRIPT"


def _missing(reason: str) -> None:
    if os.environ.get(REQUIRE, "").strip() not in ("", "0"):
        pytest.fail(f"{reason} ({REQUIRE} is set, so this is a failure, not a skip)", pytrace=False)
    pytest.skip(reason)


def need_ghostscript() -> str:
    """The `gs` command; skip the calling test (fail when REQUIRE is set) if there is none."""
    found = shutil.which("gs")
    if found is None:
        _missing("needs Ghostscript (apt-get install ghostscript)")
    return found


def need_press_profile():
    """The SWOP press profile (render/press/cmyk.py); skip (or fail) when the machine has none."""
    from generator.products.render.press.cmyk import press_profile

    found = press_profile()
    if found is None:
        _missing("needs a CMYK press profile: Ghostscript's default_cmyk.icc (apt-get install ghostscript)")
    return found
