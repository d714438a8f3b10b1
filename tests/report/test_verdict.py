"""Verdicts: balanced, unbalanced, small effect and inconclusive, from made-up tallies."""


import pytest

from generator.deck.manifest import load
from generator.report.summarize import Cell, add_verdicts, summarize
from generator.report.tally import Tally
from tests.conftest import MANIFEST

DECK = load(MANIFEST)


def cell_with(wins: list[int]) -> dict:
    tally = Tally(len(wins))
    for seat, w in enumerate(wins):
        for _ in range(w):
            tally.add_game(index=0, finished=True, winner_seats=[seat], turns=40, plays=[(seat, "C1")], penalties={"mismatch": 1})
    return summarize(DECK, Cell("the-og", len(wins), "greedy"), tally)


@pytest.mark.parametrize("wins, label", [
    ([2500, 2500, 2500, 2500], "balanced"),
    ([1000, 600, 600, 600], "unbalanced"),
    ([2700, 2400, 2450, 2450], "small seat effect"),
    ([30, 25, 22, 23], "inconclusive"),
])
def test_verdicts(wins, label):
    cells = [cell_with(wins)]
    add_verdicts(cells)
    assert cells[0]["verdict"]["label"] == label


def test_seats_are_listed_in_order_of_play():
    c = cell_with([10, 20, 30, 40])
    assert [s["seat"] for s in c["sides"]] == [1, 2, 3, 0]
    assert c["sides"][0]["label"] == "seat 1 (plays first)"
    assert c["sides"][-1]["label"] == "seat 0 (dealer, plays last)"
    assert c["first_player"]["rate"] == 0.2
