"""`county-uppy report`: files, determinism, comparison, bad input and Ctrl-C."""

import json
from pathlib import Path

import pytest

from generator.cli import main
from generator.commands import report as report_command
from generator.progress import ProgressBar
from tests.conftest import ROOT, MANIFEST_ARG as MANIFEST

SMALL = ["report", "--manifest", MANIFEST, "--games", "40", "--players", "2,4", "--edition", "keep-it-simple",
         "--edition", "only-chaos", "--no-card-effects"]


def run(tmp_path: Path, name: str, *extra: str) -> tuple[int, Path]:
    out = tmp_path / name
    status = main([*SMALL, "--out", str(out), *extra])
    return status, out


def test_writes_html_and_json_with_a_verdict_per_edition(tmp_path, capsys):
    status, out = run(tmp_path, "a", "--workers", "1")
    assert status == 0
    data = json.loads((out / "balance.json").read_text())
    assert data["complete"] and data["games_played"] == 160
    assert [h["edition"] for h in data["headline"]] == ["keep-it-simple", "only-chaos"]
    for h in data["headline"]:
        v = h["variants"][0]
        assert set(v["verdicts"]) == {"2", "4"} and v["players"] in (2, 4)
        assert f"for {v['players']} players" in v["answer"] or "balanced for 2 and 4 players" in v["answer"]
    cell = data["cells"]["design"][0]
    assert {"sides", "length", "cards", "penalties", "unfinished", "verdict", "first_player", "seat_test"} <= set(cell)
    assert sum(s["wins"] for s in cell["sides"]) + cell["draws"] == cell["finished"]
    assert {p["cause"] for p in cell["penalties"]} <= {"mismatch", "bust", "target", "late"}
    html = (out / "balance.html").read_text()
    assert "<svg" in html and "At a glance" in html and "Keep it Simple" in html
    assert "<script" not in html and "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    printed = capsys.readouterr().out
    assert "Keep it Simple: " in printed and " players" in printed and "balance.html" in printed
    assert "verdicts rest on greedy bots in every seat" in printed


def test_same_inputs_give_byte_identical_files_whatever_the_workers(tmp_path):
    _, a = run(tmp_path, "a", "--workers", "1")
    _, b = run(tmp_path, "b", "--workers", "2")
    for name in ("balance.html", "balance.json"):
        assert (a / name).read_bytes() == (b / name).read_bytes()


def test_option_tweak_is_compared_side_by_side(tmp_path):
    status, out = run(tmp_path, "c", "--workers", "1", "--option", "all_out=draw", "--option", "play2_draws=2")
    assert status == 0
    data = json.loads((out / "balance.json").read_text())
    assert [v["name"] for v in data["variants"]] == ["design", "tweak"]
    assert data["variants"][1]["options"] == {"all_out": "draw", "play2_draws": 2}
    rows = data["comparison"][0]["rows"]
    assert {"test", "p", "p_adjusted", "significant"} <= set(rows[0])
    assert any(r["test"] == "Mann-Whitney U" for r in rows)
    html = (out / "balance.html").read_text()
    assert "Design vs tweak" in html


def test_against_another_manifest(tmp_path):
    other = tmp_path / "other.yaml"
    text = (ROOT / "cards.yaml").read_text().replace("target: 16", "target: 12", 1)
    other.write_text(text)
    status, out = run(tmp_path, "d", "--workers", "1", "--against", str(other), "--games", "30")
    assert status == 0
    data = json.loads((out / "balance.json").read_text())
    assert data["variants"][1]["label"] == str(other)
    assert len(data["comparison"]) == 4


@pytest.mark.parametrize("extra, message", [
    (["--edition", "the-ogg"], "did you mean 'the-og'"),
    (["--players", "1,4"], "--players"),
    (["--bots", "greedyy"], "unknown bot"),
    (["--option", "all_out=maybe"], "all_out"),
    (["--option", "nonsense"], "NAME=VALUE"),
])
def test_bad_input_is_a_usage_error(tmp_path, capsys, extra, message):
    status, _ = run(tmp_path, "e", *extra)
    assert status == 2
    assert message in capsys.readouterr().err


def test_ctrl_c_keeps_the_finished_games(tmp_path, monkeypatch, capsys):
    class Interrupting(ProgressBar):  # Ctrl-C once 40 games are done
        def set(self, done):
            if done >= 40:
                raise KeyboardInterrupt

    monkeypatch.setattr(report_command, "ProgressBar", Interrupting)
    monkeypatch.setattr("generator.report.run.CHUNK", 20)
    status, out = run(tmp_path, "f", "--workers", "1")
    assert status == 130
    data = json.loads((out / "balance.json").read_text())
    assert not data["complete"] and data["games_played"] == 40 and data["games_planned"] == 160
    assert "Partial report" in (out / "balance.html").read_text()
    assert "interrupted" in capsys.readouterr().err


def test_unfinished_games_are_named_so_simulate_can_write_their_records(tmp_path):
    status, out = run(tmp_path, "g", "--workers", "1", "--games", "20", "--players", "4", "--edition", "only-chaos",
                      "--bots", "random", "--option", "max_turns=15")
    assert status == 0
    data = json.loads((out / "balance.json").read_text())
    cell = data["cells"]["tweak"][0]
    assert cell["unfinished"] > 0
    command = cell["replay_unfinished"].split()
    assert command[:2] == ["county-uppy", "simulate"] and command[-1] == "DIR"
    records = tmp_path / "records"
    assert main([*command[1:-1], str(records), "--no-progress"]) == 0
    for index in cell["unfinished_games"]:
        record = json.loads((records / f"game-{index:06d}.json").read_text())
        assert record["result"]["finished"] is False


def test_teams_tweak_reports_teams_and_does_not_compare_seats_with_teams(tmp_path):
    status, out = run(tmp_path, "h", "--workers", "1", "--players", "4", "--option", "teams=true")
    assert status == 0
    data = json.loads((out / "balance.json").read_text())
    tweak = data["cells"]["tweak"][0]
    assert [s["label"] for s in tweak["sides"]] == ["team 1 (seats 1, 3)", "team 0 (seats 0, 2)"]
    assert tweak["fair"] == 0.5
    assert not any(r["what"].startswith("win rate") for r in data["comparison"][0]["rows"])
