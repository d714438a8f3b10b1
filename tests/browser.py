"""Finding headless Chromium for the browser tests, or saying plainly why they do not run.

Without Chromium the browser tests are skipped with the reason (pytest's summary shows it), so
the README's test command passes on a fresh machine. CI sets COUNTY_UPPY_REQUIRE_BROWSER=1
(`.ci/run` does, and installs Chromium), which turns that skip into a failure: there the
browser tests must run.
"""

from __future__ import annotations

import os
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

#: Set to 1 (CI does) to fail, rather than skip, when Chromium cannot be found.
REQUIRE = "COUNTY_UPPY_REQUIRE_BROWSER"
#: The Chromium binary to use, when it is not `chromium` on PATH or /usr/bin/chromium.
CHROMIUM = "COUNTY_UPPY_CHROMIUM"
#: Headless Chromium as root, with nothing that reaches for the network (a closed machine refuses it).
FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
INSTALL = "install the Debian package (apt-get install -y chromium) or set COUNTY_UPPY_CHROMIUM to its path"


def chromium_path() -> str:
    """The Chromium binary; skip the calling test (fail when REQUIRE is set) if there is none."""
    chosen = os.environ.get(CHROMIUM)
    path = chosen or shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
    if not Path(path).is_file():
        where = f"{CHROMIUM}={chosen} is not a file" if chosen else "Chromium was not found"
        unavailable(f"browser tests need headless Chromium and {where}: {INSTALL}")
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
