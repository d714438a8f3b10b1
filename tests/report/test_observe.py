"""The report's game loop plays exactly the games the engine's simulator plays."""


import pytest

from generator.deck.manifest import load
from generator.engine import Game, game_seed, make_bot, play_game
from generator.report.observe import observe_game
from tests.conftest import MANIFEST

DECK = load(MANIFEST)


@pytest.mark.parametrize("edition, players, bots", [("the-og", 4, "greedy"), ("only-chaos", 3, "random"),
                                                    ("its-wild-time", 4, "greedy,random")])
def test_same_games_as_simulate(edition, players, bots):
    game = Game(DECK, edition, players)
    names = bots.split(",")
    seat_bots = [make_bot(names[s % len(names)]) for s in range(players)]
    for i in range(15):
        seed = game_seed(3, i)
        seen = observe_game(game, seat_bots, seed)
        state = play_game(game, seat_bots, seed)
        assert [str(a) for a in seen.state.history] == [str(a) for a in state.history]
        assert seen.state.winner == state.winner
        assert len(seen.plays) == sum(1 for a in state.history if a.kind == "play")
        discards = sum(1 for a in state.history if a.kind == "discard")
        assert sum(seen.penalties.values()) >= discards  # owed discards of players who went out are not made
