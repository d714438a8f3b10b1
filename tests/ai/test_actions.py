"""Decision ids: one per decision, the same for every edition and player count of a manifest,
and every legal action of real games maps to an id and back."""

import random
from pathlib import Path

import pytest

from generator.ai.actions import ActionIds, main
from generator.deck.manifest import load
from generator.engine import Game

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def deck():
    return load(ROOT / "cards.yaml")


def test_the_shipped_manifest_table(deck):
    ids = ActionIds(Game(deck, "the-og", 4))
    k = len(ids.game.codes)
    assert ids.size == 18 * k + 2
    assert str(ids.action(0)) == f"play {ids.game.codes[0]}"
    steal = ids.game.index["STEAL"]
    assert str(ids.action(k + 8 * steal + 2)) == "play STEAL 2"
    assert str(ids.action(9 * k + 5)) == f"discard {ids.game.codes[5]}"
    assert str(ids.action(ids.size - 2)) == "late"
    assert str(ids.action(ids.size - 1)) == "no give"  # R7.2: the teammate asked keeps its cards
    with pytest.raises(ValueError, match="names seat 5, but there are 4 players"):
        ids.action(k + 8 * steal + 5)
    with pytest.raises(ValueError, match="is not 0.."):
        ids.action(ids.size)


def test_ids_do_not_depend_on_edition_players_or_options(deck):
    a = ActionIds(Game(deck, "the-og", 2))
    b = ActionIds(Game(deck, "only-chaos", 8, {"teams": True}))
    assert a.size == b.size
    assert [(i, t) for i, t in a.rows() if t.count(" ") < 2 or t.startswith("discard")] == \
           [(i, t) for i, t in b.rows() if t.count(" ") < 2 or t.startswith("discard")]


@pytest.mark.parametrize("edition, players, options", [
    ("the-og", 3, {}), ("only-chaos", 4, {"teams": True}), ("its-wild-time", 8, {"play2_draws": 2}),
])
def test_every_legal_action_has_an_id_that_maps_back(deck, edition, players, options):
    game = Game(deck, edition, players, options)
    ids = ActionIds(game)
    seen = set()
    for seed in range(25):
        state, rng = game.new_initial_state(seed), random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            numbers = [ids.id(a) for a in legal]
            assert len(set(numbers)) == len(numbers)
            assert [ids.action(i) for i in numbers] == legal
            seen.update(a.kind for a in legal)
            state.apply(legal[int(rng.random() * len(legal))])
    assert {"play", "discard"} <= seen and ("give" in seen) == bool(options.get("teams"))


def test_the_table_prints(capsys):
    assert main(["--manifest", str(ROOT / "cards.yaml")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("# ") and "\tplay STEAL 0" in "\n".join(out) and out[-2].endswith("\tlate") and out[-1].endswith("\tno give")


def test_the_docs_give_the_shipped_manifest_numbers(deck):
    ids = ActionIds(Game(deck, "the-og", 4))
    text = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    assert f"K = {ids.cards} and there are {ids.size:,} ids" in text
