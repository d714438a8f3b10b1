"""The sweep settles or says how: games that would settle an inconclusive cell, --until-settled,
"Best cells" across the player counts then per count, and column names that never break inside
a word at 1280 or 390 px."""

import json

import pytest

from generator.cli import main
from tests.browser import launched
from tests.conftest import MANIFEST_ARG

BASE = ["sweep", "--manifest", MANIFEST_ARG, "--param", "target=14,16,18", "--param", "hand_size=4,5",
        "--players", "3,4", "--workers", "2", "--no-progress"]

#: Words of a visible column name that the browser laid out over more than one line.
BROKEN_WORDS_JS = """() => {
  const broken = [];
  for (const th of document.querySelectorAll('th')) {
    if (!th.getClientRects().length) continue;
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const re = /\\S+/g; let m;
      while ((m = re.exec(node.data))) {
        const range = document.createRange();
        range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
        if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""


@pytest.fixture(scope="module")
def settled(tmp_path_factory):
    out = tmp_path_factory.mktemp("settled")
    status = main([*BASE, "--games", "100", "--until-settled", "--max-games", "400", "--out", str(out)])
    assert status == 0
    return out, json.loads((out / "sweep.json").read_text())


def test_until_settled_plays_inconclusive_cells_on_up_to_the_cap(settled):
    _, data = settled
    s = data["settings"]
    assert s["until_settled"] and s["max_games"] == 400 and s["rounds"][0] == {"round": 1, "cells": 12, "games": 1200}
    assert len(s["rounds"]) >= 2
    games = [c["games"] for c in data["cells"]]
    assert all(100 <= g <= 400 for g in games) and max(games) > 100
    for c in data["cells"]:
        if c["games"] == 100:  # not played on: settled after the first round
            assert c["verdict"]["label"] != "inconclusive"
        if c["verdict"]["label"] == "inconclusive":  # still open: at the cap, saying how many more would do
            assert c["games"] == 400 and c["verdict"]["more_games"] == c["verdict"]["games_needed"] - 400 > 0


def test_a_cell_played_on_holds_the_same_first_games(settled, tmp_path):
    """Game i of a cell is the same game in any round: a cell that played on to N games equals --games N."""
    _, data = settled
    cell = next(c for c in data["cells"] if c["games"] > 100)
    out = tmp_path / "plain"
    assert main(["sweep", "--manifest", MANIFEST_ARG, "--param", f"target={cell['params']['target']}",
                 "--param", f"hand_size={cell['params']['hand_size']}", "--players", str(cell["players"]),
                 "--games", str(cell["games"]), "--workers", "1", "--no-progress", "--out", str(out)]) == 0
    [plain] = json.loads((out / "sweep.json").read_text())["cells"]
    assert plain["seed"] == cell["seed"]
    assert [s["wins"] for s in plain["seats"]] == [s["wins"] for s in cell["seats"]]
    assert plain["length"] == cell["length"]


def test_best_cells_rank_values_across_the_player_counts_then_per_count(settled):
    out, data = settled
    best = data["best"]
    across = best["across"]
    assert len(across) == 6 and all(set(v["verdicts"]) == {"3", "4"} for v in across)
    fair = [v["fair_for_all"] for v in across]
    assert fair == sorted(fair, reverse=True)  # the values fair at every count come first
    for v in across:
        assert v["fair_for_all"] == all(x in ("balanced", "small seat effect") for x in v["verdicts"].values())
    assert set(best["by_players"]) == {"3", "4"}
    for n, ks in best["by_players"].items():
        assert sorted(ks) == [k for k, c in enumerate(data["cells"]) if c["players"] == int(n)]
    html = (out / "sweep.html").read_text()
    assert "Parameter values that work for every player count" in html
    assert "Best cells at 3 players" in html and "Best cells at 4 players" in html


def test_an_inconclusive_cell_says_how_many_more_games_would_settle_it(tmp_path, capsys):
    out = tmp_path / "quick"
    assert main([*BASE, "--games", "30", "--out", str(out)]) == 0
    data = json.loads((out / "sweep.json").read_text())
    open_cells = [c for c in data["cells"] if c["verdict"]["label"] == "inconclusive"]
    assert open_cells
    printed = capsys.readouterr().out
    for c in open_cells:
        assert c["verdict"]["more_games"] == c["verdict"]["games_needed"] - 30 > 0
        assert f"{c['verdict']['more_games']:,} more games" in printed
    html = (out / "sweep.html").read_text()
    assert f"about {open_cells[0]['verdict']['more_games']:,} more games would settle it" in html


def test_max_games_needs_until_settled(capsys):
    assert main([*BASE, "--games", "30", "--max-games", "100"]) == 2
    assert "--max-games caps --until-settled" in capsys.readouterr().err


@pytest.mark.parametrize("width", [1280, 390])
def test_column_names_never_break_inside_a_word(settled, width):
    out, _ = settled
    with launched() as browser:
        for page_file in (out / "sweep.html", out / "cells" / "cell-0000.html"):
            page = browser.new_page(viewport={"width": width, "height": 900})
            page.goto(page_file.as_uri())
            assert page.evaluate(BROKEN_WORDS_JS) == [], page_file.name
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
