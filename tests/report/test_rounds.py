"""`report` without --games: rounds until every verdict is settled, up to a stated cap per cell."""

import json
from pathlib import Path

from generator.cli import main
from generator.commands import report as report_command
from generator.progress import ProgressBar
from generator.report import rounds
from tests.conftest import MANIFEST_ARG as MANIFEST


def report(tmp_path: Path, name: str, *extra: str) -> tuple[int, dict]:
    out = tmp_path / name
    status = main(["report", "--manifest", MANIFEST, "--workers", "1", "--no-card-effects", "--out", str(out), *extra])
    return status, json.loads((out / "balance.json").read_text()) if status in (0, 130) else {}


def cells(data: dict) -> dict[str, dict]:
    return {f"{c['edition']}/{c['players']}": c for c in data["cells"]["design"]}


def test_the_default_plays_on_until_each_verdict_is_settled_and_says_how_many_games(tmp_path, capsys):
    status, data = report(tmp_path, "auto", "--edition", "the-og", "--players", "4")
    printed = capsys.readouterr()
    assert status == 0 and data["complete"]
    cell = cells(data)["the-og/4"]
    # 1200 games (the first round for 4 players) leave this cell inconclusive; the next round settles it.
    assert [r["cells"] for r in data["settings"]["rounds"]] == [{"the-og/4p/greedy": 1200},
                                                               {"the-og/4p/greedy": cell["games"]}]
    assert cell["games"] >= 2400 and cell["verdict"]["label"] != "inconclusive"
    assert data["settings"]["games"] == "auto" and data["settings"]["max_games"] == rounds.MAX_GAMES_PER_CELL
    assert data["games_played"] == cell["games"]
    assert "round 1: 1200 games" in printed.err and "round 2: 1 cell(s) not settled yet" in printed.err
    assert f"at most {rounds.MAX_GAMES_PER_CELL} games per cell" in printed.err
    assert f"games per cell: 4 players {cell['games']} ({cell['verdict']['label']})" in printed.out
    html = (tmp_path / "auto" / "balance.html").read_text()
    assert "until each verdict is settled, in 2 round(s)" in html and f"{cell['games']} games" in html


def test_a_longer_run_extends_a_shorter_one_game_for_game(tmp_path):
    _, auto = report(tmp_path, "auto", "--edition", "the-og", "--players", "4")
    n = cells(auto)["the-og/4"]["games"]
    _, fixed = report(tmp_path, "fixed", "--edition", "the-og", "--players", "4", "--games", str(n))
    a, b = cells(auto)["the-og/4"], cells(fixed)["the-og/4"]
    for key in ("games", "finished", "sides", "length", "cards", "penalties", "seat_test"):
        assert a[key] == b[key], key
    assert "rounds" not in fixed["settings"] and fixed["settings"]["games"] == n


def test_the_cap_stops_an_unsettled_cell_and_the_verdict_says_so(tmp_path, capsys):
    status, data = report(tmp_path, "cap", "--edition", "the-og", "--players", "4", "--max-games", "300")
    assert status == 0
    cell = cells(data)["the-og/4"]
    assert cell["games"] == 300 and len(data["settings"]["rounds"]) == 1
    assert cell["verdict"]["label"] == "inconclusive"
    assert "stopped at its cap of 300 games per cell (--max-games raises it)" in cell["verdict"]["text"]
    assert "stopped at its cap of 300" in capsys.readouterr().out


def test_max_games_is_checked_and_only_applies_without_games(tmp_path, capsys):
    status, _ = report(tmp_path, "x", "--games", "40", "--max-games", "100")
    assert status == 2 and "--max-games caps a run" in capsys.readouterr().err
    status, _ = report(tmp_path, "y", "--max-games", "0")
    assert status == 2 and "--max-games must be 1.." in capsys.readouterr().err


def test_the_parsers_cap_is_the_reports():
    assert report_command.MAX_GAMES_PER_CELL == rounds.MAX_GAMES_PER_CELL


def test_ctrl_c_in_a_later_round_keeps_every_finished_game(tmp_path, monkeypatch, capsys):
    class Interrupting(ProgressBar):
        """The second round's bar: Ctrl-C once 100 of its games are done."""
        rounds = 0

        def __init__(self, total, label, **kw):
            super().__init__(total, label, **kw)
            Interrupting.rounds += 1
            self.round = Interrupting.rounds

        def set(self, done):
            if self.round == 2 and done >= 100:
                raise KeyboardInterrupt

    monkeypatch.setattr(report_command, "ProgressBar", Interrupting)
    status, data = report(tmp_path, "ctrl-c", "--edition", "the-og", "--players", "4")
    assert status == 130
    assert not data["complete"] and data["games_played"] == 1300
    assert cells(data)["the-og/4"]["games"] == 1300
    assert "interrupted" in capsys.readouterr().err
