"""`county-uppy sweep`: the grid, its numbers against simulate and report, determinism, checks, files."""

from __future__ import annotations

import json
import re
import shlex

import pytest

from generator.cli import main
from tests.conftest import MANIFEST

BASE = ["sweep", "--manifest", str(MANIFEST), "--no-progress"]
#: Numbers that measure the machine, not the games.
TIMING = "timing"


def sweep(capsys, *args: str) -> dict:
    assert main([*BASE, *args, "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def without_timing(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != TIMING}


def test_done_when_command_prints_six_cells_with_every_number(capsys):
    data = sweep(capsys, "--param", "target=14,16,18", "--param", "hand_size=4,5", "--players", "4",
                 "--games", "400", "--seed", "3")
    cells = data["cells"]
    assert [c["params"] for c in cells] == [{"target": t, "hand_size": h} for t in (14, 16, 18) for h in (4, 5)]
    for c in cells:
        assert c["players"] == 4 and c["games"] == 400
        assert c["finished"] + c["unfinished"] == 400
        assert sum(s["wins"] for s in c["seats"]) + c["draws"] == c["finished"]
        for s in c["seats"]:
            assert s["low"] <= s["rate"] <= s["high"]
        fp = c["first_player"]
        assert fp["low"] <= fp["rate"] <= fp["high"] and fp["advantage"] == pytest.approx(fp["rate"] - 0.25, abs=1e-4)
        assert c["length"]["median"] > 0 and c["length"]["mean"] > 0
        assert c["verdict"]["label"] in {"balanced", "small seat effect", "inconclusive", "unbalanced"}
        assert "p_adjusted" in c["seat_test"]
        x2 = c["cards"]["x2"]
        assert x2["plays"] > 0 and 0 <= x2["penalty_rate"] <= 1
    # A bigger target makes longer games; a smaller hand, shorter ones.
    median = {(c["params"]["target"], c["params"]["hand_size"]): c["length"]["mean"] for c in cells}
    assert median[(18, 5)] > median[(14, 5)] and median[(16, 4)] < median[(16, 5)]


def test_a_cell_is_simulate_with_its_seed_and_its_manifest(tmp_path, capsys):
    """The cell page's simulate command (with the cell's own manifest) plays the very same games."""
    out = tmp_path / "sw"
    assert main([*BASE, "--param", "copies.x2=6", "--param", "all_out=draw", "--players", "3",
                 "--games", "60", "--bots", "random", "--out", str(out)]) == 0
    capsys.readouterr()
    cell = json.loads((out / "sweep.json").read_text())["cells"][0]
    page = (out / "cells" / "cell-0000.html").read_text()
    command = re.findall(r"<pre>(county-uppy simulate [^<]*)</pre>", page)[-1]
    assert "variant-0000.yaml" in command and "--option all_out=draw" in command
    assert main([*shlex.split(command)[1:], "--json", "--workers", "1"]) == 0
    sim = json.loads(capsys.readouterr().out)
    assert sim["wins_by_seat"] == [next(s["wins"] for s in cell["seats"] if s["seat"] == k) for k in range(3)]
    assert sim["draws"] == cell["draws"] and sim["unfinished"] == cell["unfinished"]
    assert sim["cards"]["x2"]["plays"] == cell["cards"]["x2"]["plays"]
    assert {k: v["penalty_rate"] for k, v in sim["cards"].items()} == {k: v["penalty_rate"] for k, v in cell["cards"].items()}
    # the manifest written for the cell is valid and has six x2
    assert main(["validate", "--manifest", str(out / "manifests" / "variant-0000.yaml"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["editions"]["the-og"] == 204
    # the icon files the shipped look names sit beside it, as they are beside cards.yaml
    assert (out / "manifests" / "art" / "icons" / "skip.svg").read_bytes() == (MANIFEST.parent / "art" / "icons" / "skip.svg").read_bytes()


def test_same_results_for_any_workers_and_any_grid(capsys):
    args = ["--param", "target=15,17", "--param", "play2_draws=1,2", "--players", "2,4", "--games", "30", "--seed", "9"]
    one = sweep(capsys, *args, "--workers", "1")
    two = sweep(capsys, *args, "--workers", "2")
    assert json.dumps(without_timing(one)) == json.dumps(without_timing(two))
    # a cell's games depend on its values, not on its place in the grid
    alone = sweep(capsys, "--param", "target=17", "--param", "play2_draws=2", "--players", "4", "--games", "30",
                  "--seed", "9", "--workers", "1")["cells"][0]
    same = next(c for c in one["cells"] if c["params"] == {"target": 17, "play2_draws": 2} and c["players"] == 4)
    for key in ("seed", "seats", "length", "cards", "unfinished", "first_player"):
        assert alone[key] == same[key], key


def test_verdicts_are_the_reports(capsys, tmp_path):
    """With nothing changed, a sweep cell's seat numbers and verdict are report's for the same games."""
    from generator.report.summarize import add_verdicts, summarize
    from generator.report.sweep.summary import tally_of  # noqa: F401 (the bridge under test)

    data = sweep(capsys, "--param", "dealer=0", "--players", "4", "--games", "200", "--seed", "5")
    cell = data["cells"][0]
    # replay the same seeds through the report's own game observer and summariser
    from generator.deck.manifest import load
    from generator.engine import Game, game_seed, make_bot
    from generator.report.observe import observe_game
    from generator.report.summarize import Cell
    from generator.report.tally import Tally

    deck = load(MANIFEST)
    game = Game(deck, "the-og", 4)
    bots = [make_bot("greedy") for _ in range(4)]
    tally = Tally(4)
    for i in range(200):
        seen = observe_game(game, bots, game_seed(cell["seed"], i))
        tally.add_game(index=i, finished=not seen.state.stopped, winner_seats=seen.winner_seats, turns=seen.state.turns,
                       plays=seen.plays, penalties=seen.penalties)
    expected = summarize(deck, Cell("the-og", 4, "greedy"), tally)
    add_verdicts([expected])
    assert cell["seats"] == expected["sides"]
    assert cell["first_player"] == expected["first_player"] and cell["length"] == expected["length"]
    assert cell["verdict"] == expected["verdict"] and cell["penalties"] == expected["penalties"]


@pytest.mark.parametrize("param, message", [
    ("target=0", "--param target=0 makes a manifest that `validate` refuses:\n  "),
    ("target=14,0", "'target' must be at least 1, not 0"),
    ("hand_size=40", "too few to deal 40 to each of 8 players"),
    ("params.x2.factor=1", "'factor' must be at least 2"),
    ("params.=15.value=1000", "'value' must be 0..999"),
    ("copies.x2=0,2", "'copies' must be at least 1, not 0"),
    ("copies.C55=2", "no card with the code 'C55' (did you mean 'C5'?)"),
    ("targt=14", "unknown parameter 'targt' (did you mean 'target'?)"),
    ("params.x2.facter=3", "no wild parameter 'x2.facter' (did you mean 'x2.factor'?)"),
    ("target=20..14", "the range 20..14 starts above where it ends (did you mean 14..20?)"),
    ("target=14,,16", "an empty value"),
    ("target=fourteen", "'target' takes whole numbers of at most 18 digits, not 'fourteen'"),
    # a manifest holds whole numbers of at most 18 digits; int() alone took these
    ("target=1234567890123456789", "'target' takes whole numbers of at most 18 digits, not '1234567890123456789'"),
    ("target=1_6", "'target' takes whole numbers of at most 18 digits, not '1_6'"),
    ("target=\u0661\u0666", "'target' takes whole numbers of at most 18 digits, not '\u0661\u0666'"),
    ("max_turns=99999999999999999999", "option max_turns takes a whole number of at most 18 digits, not '9999"),
    ("dealer=1_0", "option dealer takes a whole number of at most 18 digits, not '1_0'"),
    ("target=14,14", "the value 14 is listed twice"),
    ("all_out=drew", "option all_out takes sixteen_wins, draw, not drew (did you mean 'draw'?)"),
    ("max_turns=0..2", "option max_turns must be positive"),
    ("target", "write NAME=VALUE,VALUE,..."),
])
def test_every_value_is_checked_before_a_game_is_played(capsys, param, message):
    assert main([*BASE, "--param", param, "--games", "5"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("county-uppy sweep: ") and message in err and "Traceback" not in err
    if "validate" in message or "must be" in message and "option" not in message:
        assert re.search(r"cards\.yaml:\d+:\d+: ", err), err


def test_checks_that_need_the_whole_cell(capsys):
    assert main([*BASE, "--param", "teams=true", "--players", "3", "--games", "5"]) == 2
    assert "--param teams=true at 3 players:" in capsys.readouterr().err
    assert main([*BASE, "--param", "target=14", "--param", "target=15", "--games", "5"]) == 2
    assert "--param target is given twice" in capsys.readouterr().err
    assert main([*BASE, "--games", "5"]) == 2
    assert "give at least one --param" in capsys.readouterr().err
    assert main([*BASE, "--param", "target=14", "--players", "9"]) == 2
    assert "--players must be between 2 and 8" in capsys.readouterr().err
    assert main([*BASE, "--param", "target=14", "--bots", "greedy,clever"]) == 2
    assert "clever" in capsys.readouterr().err


def test_copies_move_the_edition_counts_along(capsys):
    """copies.C5=5 adds two cards to every edition holding C5; validate's expect check follows."""
    data = sweep(capsys, "--param", "copies.C5=1,5", "--players", "2", "--games", "20", "--edition", "keep-it-simple",
                 "--bots", "random")
    plays = [c["cards"]["C5"]["plays"] for c in data["cells"]]
    assert plays[0] < plays[1]


def test_out_writes_the_page_with_heatmaps_and_a_page_per_cell(tmp_path, capsys):
    out = tmp_path / "sweep"
    assert main([*BASE, "--param", "target=14..16", "--param", "hand_size=4,5", "--param", "play2_draws=1,2",
                 "--players", "3", "--games", "20", "--bots", "random", "--out", str(out), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    written = json.loads((out / "sweep.json").read_text())
    assert printed == written and len(written["cells"]) == 12
    html = (out / "sweep.html").read_text()
    # three pairs of parameters, a fairness and a length map each
    assert html.count('<table class="heat">') == 6
    assert "target × hand_size" in html and "hand_size × play2_draws" in html and "Best cells" in html
    links = set(re.findall(r'href="(cells/cell-\d+\.html)"', html))
    assert links and all((out / link).is_file() for link in links)
    assert len(list((out / "cells").glob("cell-*.html"))) == 12
    assert "<script" not in html and "http://" not in html and "https://" not in html
    cell_page = (out / "cells" / "cell-0000.html").read_text()
    assert "<svg" in cell_page and "Going first wins" in cell_page and "../sweep.html" in cell_page
    # hand_size and target are game parameters: one manifest per combination of them
    assert len(list((out / "manifests").glob("*.yaml"))) == 12


def test_a_cell_page_names_each_card_as_its_own_manifest_prints_it(tmp_path, capsys):
    """The cards table gives each code the card's name, as the balance report's does, from the
    cell's own deck: x2 made x3 by the sweep is named x3 there."""
    out = tmp_path / "sweep"
    assert main([*BASE, "--param", "params.x2.factor=2,3", "--players", "2", "--games", "4", "--bots", "random",
                 "--out", str(out)]) == 0
    pages = [(out / "cells" / f"cell-{k:04d}.html").read_text() for k in range(2)]
    assert all('<code>C0</code> <span class="muted">Cyan 0</span>' in page for page in pages)
    assert '<code>x2</code> <span class="muted">x2</span>' in pages[0]
    assert '<code>x2</code> <span class="muted">x3</span>' in pages[1]


def test_out_that_is_a_file_is_refused_before_playing(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main([*BASE, "--param", "target=14", "--out", str(blocker)]) == 2
    assert "exists and is not a folder" in capsys.readouterr().err


def test_chunks_are_smaller_with_slow_bots_and_never_span_cells():
    from generator.report.sweep.run import CHUNK, chunk_size

    assert chunk_size(1_000_000, 10_000, 2) == CHUNK
    assert chunk_size(1_000_000, 10_000, 2, 10) == 10 * CHUNK
    assert chunk_size(1_000_000, 10_000, 2, 1, "greedy,search") == CHUNK // 100
    assert chunk_size(800, 100, 2) == 100  # four chunks per slot would be 100 each: one cell
    assert chunk_size(30, 3, 8) == 1


def test_a_smaller_sweep_into_the_same_folder_leaves_no_stale_page(tmp_path, capsys):
    out = tmp_path / "sweep"
    common = ["--players", "3", "--games", "10", "--bots", "random", "--out", str(out), "--json"]
    assert main([*BASE, "--param", "target=14..16", "--param", "hand_size=4,5", *common]) == 0
    (out / "cells" / "notes.txt").write_text("mine")
    assert len(list((out / "cells").glob("cell-*.html"))) == 6 and len(list((out / "manifests").glob("*.yaml"))) == 6
    assert main([*BASE, "--param", "target=15,16", *common]) == 0
    capsys.readouterr()
    assert sorted(p.name for p in (out / "cells").iterdir()) == ["cell-0000.html", "cell-0001.html", "notes.txt"]
    # the manifests' pictures (art/: the shipped icon files) stay beside the ones left
    assert sorted(p.name for p in (out / "manifests").iterdir()) == ["art", "variant-0000.yaml", "variant-0001.yaml"]
    html = (out / "sweep.html").read_text()
    assert set(re.findall(r'href="(cells/cell-\d+\.html)"', html)) == {"cells/cell-0000.html", "cells/cell-0001.html"}
