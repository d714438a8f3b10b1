"""Finding headless Chromium for the browser tests, or saying plainly why they do not run.

The tests use the Chromium the build prints the rulebook with, found the same way
(generator/products/rulebook/chromium.py, `find_chromium`: COUNTY_UPPY_CHROMIUM, else the headless
shell, else the full browser, on PATH). Playwright drives the headless shell as it drives the
full browser, so the tests need nothing else.

Without Chromium the browser tests are skipped with the reason (pytest's summary shows it), so
the README's test command passes on a fresh machine. CI sets COUNTY_UPPY_REQUIRE_BROWSER=1
(`.ci/run` does, and installs Chromium), which turns that skip into a failure: there the
browser tests must run.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator

import pytest

from generator.products.rulebook import chromium

#: Set to 1 (CI does) to fail, rather than skip, when Chromium cannot be found.
REQUIRE = "COUNTY_UPPY_REQUIRE_BROWSER"
#: The Chromium binary to use, when it is not the one found on PATH.
CHROMIUM = chromium.CHROMIUM_ENV
#: The build's flags for Chromium (no sandbox as root, nothing that reaches for the network), but
#: those Playwright gives it itself.
FLAGS = [flag for flag in chromium.FLAGS if flag not in ("--headless", "--remote-debugging-pipe")]


def chromium_path() -> str:
    """The Chromium binary; skip the calling test (fail when REQUIRE is set) if there is none."""
    path, why = chromium.find_chromium()
    if path is None:
        unavailable(f"browser tests skipped: {why} ({chromium.INSTALL})")
    return path


def unavailable(reason: str) -> None:
    """Skip with `reason`, or fail with it when the browser tests are required."""
    if os.environ.get(REQUIRE, "").strip() not in ("", "0"):
        pytest.fail(f"{reason} ({REQUIRE} is set, so this is a failure, not a skip)", pytrace=False)
    pytest.skip(reason)


@contextmanager
def launched() -> Iterator:
    """Headless Chromium through Playwright, closed on the way out (skips or fails as above)."""
    path = chromium_path()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, headless=True, args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()
