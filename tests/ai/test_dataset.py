"""`simulate --dataset DIR`: the games simulate plays, every decision as a row of training data."""

import json
from pathlib import Path

from generator.cli import main
from tests.ai.extra import need

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["simulate", "--manifest", str(ROOT / "cards.yaml"), "--games", "12", "--players", "4", "--seed", "3",
        "--bots", "greedy,random", "--option", "teams=true", "--workers", "1"]


def test_the_dataset_holds_every_decision_of_the_same_games(tmp_path, capsys):
    np = need("numpy")
    assert main([*ARGS, "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    out = tmp_path / "data"
    assert main([*ARGS, "--dataset", str(out), "--record", str(tmp_path / "rec")]) == 0
    assert f"wrote {out}: {summary['decisions']} decisions of 12 games" in capsys.readouterr().out
    info = json.loads((out / "dataset.json").read_text())
    assert info["format"] == "county-uppy-dataset/1" and info["decisions"] == summary["decisions"]
    assert info["wins"] == summary["wins_by_team"] and info["wins_by"] == "team"
    arrays = {name: np.load(out / spec["file"]) for name, spec in info["arrays"].items()}
    n = summary["decisions"]
    obs, legal, actions = arrays["observations"], arrays["legal"], arrays["actions"]
    assert obs.shape == (n, info["observation"]["size"]) and obs.dtype == np.float32
    assert legal.shape == (n, info["actions"]["size"]) and legal.dtype == np.uint8
    assert (legal[np.arange(n), actions] == 1).all(), "every action taken was legal"
    assert legal.sum(axis=1).min() >= 1
    # the rows of game 5 are its record's decisions, in order
    record = json.loads((tmp_path / "rec" / "game-000005.json").read_text())
    from generator.ai.actions import ActionIds
    from generator.deck.manifest import load
    from generator.engine import Game
    ids = ActionIds(Game(load(ROOT / "cards.yaml"), "the-og", 4, {"teams": True}))
    rows = arrays["games"] == 5
    assert [str(ids.action(int(a))) for a in actions[rows]] == record["decisions"]
    # returns: the acting seat's team won (+1) or lost (-1)
    winner = record["result"]["winner"]
    seats = arrays["seats"][rows]
    assert list(arrays["returns"][rows]) == [1.0 if s % 2 == winner else -1.0 for s in seats]
    # the hand segment counts the acting seat's cards
    seg = {s["name"]: s for s in info["observation"]["segments"]}
    hand = obs[:, seg["hand"]["offset"]:seg["hand"]["offset"] + seg["hand"]["size"]]
    assert (hand.sum(axis=1) >= 1).all()


def test_a_dataset_folder_that_cannot_be_written_is_a_usage_error(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main([*ARGS, "--dataset", str(blocker)]) == 2
    assert "exists and is not a folder" in capsys.readouterr().err
