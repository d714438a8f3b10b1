"""`report --records DIR`: people's games from the web table and the terminal game beside the bots',
another manifest's records set apart and named, a damaged record a located warning."""

import json

import pytest

from generator.cli import main
from generator.engine import Game, make_bot, make_record
from generator.engine.simulate import game_seed, play_game
from tests.conftest import MANIFEST_ARG


@pytest.fixture(scope="module")
def records(tmp_path_factory, deck=None):
    from generator.deck.manifest import load
    from tests.conftest import MANIFEST

    deck = load(MANIFEST)
    folder = tmp_path_factory.mktemp("games")
    game = Game(deck, "the-og", 3)
    for i in range(20):  # a person at the terminal (random play stands in for a beginner) against two bots
        s = play_game(game, [make_bot("random"), make_bot("greedy"), make_bot("greedy")], game_seed(9, i))
        (folder / f"play-20261207-1000{i:02d}-seed{i}.json").write_text(json.dumps(make_record(s, ["human", "greedy", "greedy"])))
    for i in range(20):  # two people at the web table
        s = play_game(game, [make_bot("random"), make_bot("random"), make_bot("greedy")], game_seed(8, i))
        (folder / f"web-20261207-1000{i:02d}-seed{i}-game{i}.json").write_text(
            json.dumps(make_record(s, ["human", "human", "greedy"])))
    s = play_game(Game(deck, "keep-it-simple", 2), [make_bot("greedy")] * 2, game_seed(1, 0))
    (folder / "game-000000.json").write_text(json.dumps(make_record(s, ["greedy", "greedy"])))  # simulate --record
    other = make_record(play_game(game, [make_bot("greedy")] * 3, game_seed(2, 0)), ["human", "greedy", "greedy"])
    (folder / "web-other.json").write_text(json.dumps({**other, "edition": "deluxe"}))
    cut = make_record(play_game(game, [make_bot("random")] * 3, game_seed(3, 0)), ["human", "human", "human"])
    head = {k: v for k, v in cut.items() if k != "result"}
    lines = [json.dumps({**head, "decisions": []}), *(json.dumps(d) for d in cut["decisions"][:12])]
    (folder / "web-in-progress.json").write_text("\n".join(lines) + "\n")  # a table stopped mid-game
    (folder / "broken.json").write_text('{"seed": 1,\n "players": 3, oops}')
    return folder


def test_people_beside_bots_with_a_plain_sentence_where_they_differ(records, tmp_path, capsys):
    out = tmp_path / "out"
    status = main(["report", "--manifest", MANIFEST_ARG, "--edition", "the-og", "--players", "3", "--games", "300",
                   "--workers", "1", "--no-card-effects", "--records", str(records), "--out", str(out)])
    assert status == 0
    captured = capsys.readouterr()
    assert f"{records / 'broken.json'}:2:" in captured.err
    data = json.loads((out / "balance.json").read_text())
    rec = data["records"]
    assert rec["files"] == 44
    [group] = rec["groups"]
    assert group["edition"] == "the-og" and group["players"] == 3 and group["records"] == 41
    assert group["people"]["games"] == 41 and group["people"]["finished"] == 40 and group["bots"]["games"] == 300
    assert group["bots_from"] == "this report's games"
    assert len(group["people"]["seats"]) == 3 and all(s["low"] <= s["rate"] <= s["high"] for s in group["people"]["seats"])
    said = [d for d in group["differences"] if d["significant"]]
    assert said, group["differences"]  # random play misses and busts far more than greedy
    assert any(d["what"] == "discards per turn: card did not match" and "more discards" in d["sentence"] for d in said)
    assert [a["records"] for a in rec["apart"]] == [1] and "'deluxe'" in rec["apart"][0]["why"]
    assert rec["bots_records"] == [{"edition": "keep-it-simple", "edition_name": "Keep it Simple", "players": 2, "records": 1}]
    html = (out / "balance.html").read_text()
    assert "People's games beside the bots'" in html and said[0]["sentence"].replace("'", "&#39;") in html
    assert "web-other.json" in html and "broken.json:2:16" in html
    assert said[0]["sentence"] in captured.out


def test_records_default_to_output_games_and_a_missing_folder_is_refused(records, tmp_path, monkeypatch, capsys):
    (tmp_path / "output").mkdir()
    (records).rename(tmp_path / "output" / "games")
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "rep"
    assert main(["report", "--manifest", MANIFEST_ARG, "--edition", "the-og", "--players", "3", "--games", "40",
                 "--workers", "1", "--no-card-effects", "--out", str(out)]) == 0
    data = json.loads((out / "balance.json").read_text())
    assert data["settings"]["records"] == "output/games" and data["records"]["groups"][0]["records"] == 41
    (tmp_path / "output" / "games").rename(records)
    assert main(["report", "--manifest", MANIFEST_ARG, "--games", "10", "--records", "nowhere", "--out", str(out)]) == 2
    assert "--records nowhere: no such folder" in capsys.readouterr().err
