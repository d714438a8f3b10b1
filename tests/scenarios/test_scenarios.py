"""Every scenario file here runs through the same code path as `county-uppy scenario FILE --json`."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from generator.cli import main
from generator.engine.position import compare_expected
from tests.conftest import MANIFEST

HERE = Path(__file__).resolve().parent
FILES = sorted(HERE.glob("*.json"))


def test_there_are_enough_scenarios():
    assert len(FILES) >= 40


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path: Path):
    scenario = json.loads(path.read_text(encoding="utf-8"))
    assert scenario.get("rule") or scenario.get("description"), "say what the scenario checks"
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(["scenario", str(path), "--json", "--manifest", str(MANIFEST)])
    if "expected_error" in scenario:  # an illegal decision: exit 1, one line naming it and the reason
        # (the command names the expectation when the error is another one: that is a failure too)
        assert status == 1 and scenario["expected_error"] in err.getvalue(), err.getvalue()
        assert "the scenario expects" not in err.getvalue(), err.getvalue()
        return
    assert status == 0, err.getvalue()
    position = json.loads(out.getvalue())
    problems = compare_expected(scenario["expected"], position)
    assert not problems, f"{path.name} ({scenario.get('rule')}):\n  " + "\n  ".join(problems)
