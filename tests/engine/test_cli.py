"""The scenario, replay and simulate commands through generator.cli.main, errors included."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import ROOT, run as run_command, MANIFEST_ARG as MANIFEST

SCENARIO = ROOT / "tests" / "scenarios" / "r6_6_x2_to_target.json"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """The command with the shipped manifest."""
    return run_command(capsys, *argv, "--manifest", MANIFEST)


def write(tmp_path: Path, name: str, data) -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_scenario_json_and_text(capsys):
    status, out, err = run(capsys, "scenario", str(SCENARIO), "--json")
    assert status == 0 and err == ""
    assert json.loads(out)["hands"] == [["G1"], ["M3"], ["G2"]]
    status, out, _ = run(capsys, "scenario", str(SCENARIO))
    assert status == 0 and "seat 1: M3" in out and "game in progress" in out


@pytest.mark.parametrize("content, status, message", [
    (None, 2, "no such file"),
    ("{not json", 2, ":1:2: not valid JSON"),
    ("[1, 2]", 2, "a scenario is a JSON object"),
    ({"hands": [["C5", "Q1"], []]}, 2, "unknown card code 'Q1'"),
    ({"hands": [["C5"], []], "options": {"all_outs": "draw"}}, 2, "did you mean 'all_out'"),
    ({"hands": [["C5"], ["M1"]], "draw": ["G1"], "decisions": ["play C5", "play C5"]}, 1, "decision 1 ('play C5'): seat 1 has no C5"),
    ({"hands": [["C5"], ["M1"]], "decisions": ["jump C5"]}, 1, "decision 0 ('jump C5'): unknown decision"),
])
def test_scenario_errors_are_one_line(capsys, tmp_path, content, status, message):
    path = str(tmp_path / "missing.json") if content is None else write(tmp_path, "s.json", content)
    got, out, err = run(capsys, "scenario", path)
    assert got == status
    assert err.count("\n") == 1 and err.startswith(path) and message in err
    assert "Traceback" not in err


def test_scenario_checks_its_expected_result(capsys, tmp_path):
    """docs/formats.md: `expected` lists keys of the resulting position; a difference exits 1 naming it."""
    scenario = json.loads(SCENARIO.read_text(encoding="utf-8"))
    status, out, err = run(capsys, "scenario", str(SCENARIO))
    assert status == 0 and err == ""
    wrong = dict(scenario, expected=dict(scenario["expected"], count=5, hands=[["G1"], ["M2"], ["G2"]]))
    status, out, err = run(capsys, "scenario", write(tmp_path, "wrong.json", wrong), "--json")
    assert status == 1
    assert json.loads(out)["count"] == 0  # the position is still printed
    assert err.count("\n") == 1 and "the result differs from 'expected'" in err
    assert "count: expected 5, got 0" in err and "hands: expected" in err
    odd = dict(scenario, expected={"hands": 7, "bogus": 1})
    status, _, err = run(capsys, "scenario", write(tmp_path, "odd.json", odd))
    assert status == 1 and "hands: expected 7" in err and "unknown expected key 'bogus'" in err
    status, _, err = run(capsys, "scenario", write(tmp_path, "list.json", dict(scenario, expected=[1])))
    assert status == 2 and "'expected' must be an object" in err


def test_scenario_checks_its_expected_error(capsys, tmp_path):
    legal = {"hands": [["C5"], ["M1"]], "draw": ["G1"], "decisions": ["play C5"], "expected_error": "has no C5"}
    status, _, err = run(capsys, "scenario", write(tmp_path, "legal.json", legal))
    assert status == 1 and "every decision was legal, but the scenario expects an error containing 'has no C5'" in err
    other = dict(legal, decisions=["play C5", "play C5"], expected_error="not your turn")
    status, _, err = run(capsys, "scenario", write(tmp_path, "other.json", other))
    assert status == 1 and "seat 1 has no C5" in err and "expects an error containing 'not your turn'" in err


def test_simulate_record_and_replay(capsys, tmp_path):
    status, out, err = run(capsys, "simulate", "--games", "6", "--players", "3", "--seed", "4", "--workers", "1",
                           "--bots", "greedy,random", "--json", "--record", str(tmp_path))
    assert status == 0, err
    summary = json.loads(out)
    for key in ("games", "finished", "wins_by_seat", "mean_turns", "median_turns", "cards", "games_per_second",
                "turns_per_second"):
        assert key in summary
    assert summary["games"] == 6 and sum(summary["wins_by_seat"]) + summary["draws"] + summary["unfinished"] == 6
    records = sorted(tmp_path.glob("game-*.json"))
    assert len(records) == 6
    status, out, err = run(capsys, "replay", str(records[3]), "--json")
    assert status == 0, err
    assert json.loads(out)["matches"] is True
    record = json.loads(records[3].read_text())
    record["result"]["winner"] = ((record["result"]["winner"] or 0) + 1) % 3  # another seat of the 3
    status, out, err = run(capsys, "replay", write(tmp_path, "bad.json", record))
    assert status == 1 and "differs" in err
    record["decisions"][0] = "discard ZZ"
    status, out, err = run(capsys, "replay", write(tmp_path, "bad2.json", record))
    assert status == 1 and "decision 0" in err and err.count("\n") == 1


def test_replay_errors(capsys, tmp_path):
    status, _, err = run(capsys, "replay", write(tmp_path, "r.json", {"seed": 1, "players": 3, "decisions": [], "edition": "the-ogg"}))
    assert status == 2 and "did you mean 'the-og'" in err
    status, _, err = run(capsys, "replay", write(tmp_path, "r.json", {"seed": 1}))
    assert status == 2 and "missing key 'players'" in err


def test_simulate_text_summary(capsys):
    status, out, _ = run(capsys, "simulate", "--games", "4", "--players", "4", "--workers", "1", "--edition", "only-chaos",
                         "--option", "all_out=draw", "--option", "teams=true")
    assert status == 0
    assert "4 games, 4 players, edition only-chaos" in out and "team 0:" in out and "all_out=draw" in out


@pytest.mark.parametrize("argv, message", [
    (["--edition", "og"], "unknown edition 'og'"),
    (["--bots", "greedy,smart"], "unknown bot 'smart'"),
    (["--option", "all_out=nobody"], "option all_out takes"),
    (["--option", "max_turn=5"], "did you mean 'max_turns'"),
    (["--option", "nonsense"], "NAME=VALUE"),
    (["--players", "9"], "players must be"),
])
def test_simulate_bad_values_exit_2(capsys, argv, message):
    args = ["simulate", "--games", "2", "--players", "4", "--workers", "1"]
    if "--players" in argv:
        args = ["simulate", "--games", "2", "--workers", "1"]
    status, _, err = run(capsys, *args, *argv)
    assert status == 2 and message in err and err.count("\n") == 1
