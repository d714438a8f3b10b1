"""`simulate` and `report` print the same 95% interval for the same win counts."""

from __future__ import annotations

import html
import re

from generator.cli import main
from generator.engine.simulate import Z95, wilson as simulate_wilson
from generator.report import stats
from tests.conftest import MANIFEST_ARG as MANIFEST


def test_one_interval_function_for_every_count():
    # 1.96 and 1.95996 print differently at one decimal for some counts (0 of 3, 3 of 3, 0 of 12...)
    for n in range(0, 120):
        for k in range(n + 1):
            assert stats.wilson(k, n) == simulate_wilson(k, n), (k, n)
    assert stats.Z95 == Z95


def test_simulate_and_report_print_the_same_intervals(tmp_path, capsys):
    games, seed = 300, 5
    assert main(["simulate", "--games", str(games), "--players", "3", "--seed", str(seed), "--bots",
                 "greedy,greedy,greedy", "--workers", "1", "--manifest", MANIFEST]) == 0
    text = capsys.readouterr().out
    assert f"finished {games}, unfinished 0" in text  # the report counts finished games only
    printed = {int(seat): (int(wins), low, high) for seat, wins, low, high in re.findall(
        r"seat (\d) \(greedy\): (\d+) wins \([\d.]+%, 95% CI ([\d.]+)%-([\d.]+)%\)", text)}
    assert sorted(printed) == [0, 1, 2]

    assert main(["report", "--games", str(games), "--players", "3", "--edition", "the-og", "--bots", "greedy",
                 "--seed", str(seed), "--workers", "1", "--out", str(tmp_path), "--manifest", MANIFEST]) == 0
    page = html.unescape((tmp_path / "balance.html").read_text(encoding="utf-8"))
    shown = {int(seat): (low, high) for seat, low, high in re.findall(
        r"<title>design seat (\d) \([^)]*\): [\d.]+% \(95% CI ([\d.]+)–([\d.]+)%\)</title>", page)}
    assert sorted(shown) == [0, 1, 2]
    for seat, (wins, low, high) in printed.items():
        assert shown[seat] == (low, high), f"seat {seat}, {wins} wins of {games}"
        lo, hi = simulate_wilson(wins, games)
        assert (low, high) == (f"{lo:.1%}"[:-1], f"{hi:.1%}"[:-1])
