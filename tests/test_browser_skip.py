"""Without Chromium the browser tests skip with a visible reason; COUNTY_UPPY_REQUIRE_BROWSER=1
(set by .ci/run) turns the skip into a failure."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from generator.products.rulebook.chromium import NAMES, find_chromium
from tests import browser
from tests.conftest import ROOT

PROBE = """
from tests.browser import chromium_path

def test_needs_a_browser():
    chromium_path()
"""


def run_probe(tmp_path, **env) -> subprocess.CompletedProcess:
    """pytest on a one-test file that asks for Chromium, in a fresh process with `env`."""
    probe = tmp_path / "test_probe.py"
    probe.write_text(PROBE)
    environ = {k: v for k, v in os.environ.items() if k not in (browser.REQUIRE, browser.CHROMIUM)}
    environ.update(env, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", str(probe)],
                          cwd=tmp_path, env=environ, capture_output=True, text=True, timeout=120)


def test_a_missing_chromium_skips_with_the_reason(tmp_path):
    missing = tmp_path / "no-chromium-here"
    done = run_probe(tmp_path, COUNTY_UPPY_CHROMIUM=str(missing))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 skipped" in done.stdout
    (line,) = [ln for ln in done.stdout.splitlines() if ln.startswith("SKIPPED [1] ")]  # the -ra summary line
    # the build's own words for why there is no Chromium (rulebook/chromium.py, find_chromium)
    assert line.endswith(f": browser tests skipped: COUNTY_UPPY_CHROMIUM={missing} is not a program (install Chromium "
                         "(Debian and Ubuntu: apt-get install chromium-headless-shell, or chromium) or set "
                         "COUNTY_UPPY_CHROMIUM to its path)")


def test_the_tests_use_the_chromium_the_build_prints_with(tmp_path, monkeypatch):
    """One search for Chromium: with two on PATH, the tests take the headless shell, as the build does."""
    for name in ("chromium", "chromium-headless-shell"):
        (tmp_path / name).write_text("#!/bin/sh\n")
        (tmp_path / name).chmod(0o755)
    monkeypatch.delenv(browser.CHROMIUM, raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert NAMES.index("chromium-headless-shell") < NAMES.index("chromium")
    assert browser.chromium_path() == find_chromium()[0] == str(tmp_path / "chromium-headless-shell")
    (tmp_path / "chromium-headless-shell").unlink()
    assert browser.chromium_path() == find_chromium()[0] == str(tmp_path / "chromium")


def test_required_browser_tests_fail_without_chromium(tmp_path):
    missing = tmp_path / "no-chromium-here"
    done = run_probe(tmp_path, COUNTY_UPPY_CHROMIUM=str(missing), COUNTY_UPPY_REQUIRE_BROWSER="1")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 failed" in done.stdout
    assert "COUNTY_UPPY_REQUIRE_BROWSER is set, so this is a failure, not a skip" in done.stdout


def test_a_chromium_that_exists_is_used(tmp_path, monkeypatch):
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv(browser.CHROMIUM, str(fake))
    monkeypatch.setenv(browser.REQUIRE, "1")
    assert browser.chromium_path() == str(fake)
    monkeypatch.setenv(browser.CHROMIUM, str(tmp_path / "gone"))
    with pytest.raises(pytest.fail.Exception):
        browser.chromium_path()
    monkeypatch.setenv(browser.REQUIRE, "0")
    with pytest.raises(pytest.skip.Exception):
        browser.chromium_path()
