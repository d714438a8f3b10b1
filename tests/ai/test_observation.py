"""Observations show a seat what it may see and nothing more."""

import random
from pathlib import Path

import pytest

from generator.ai.observation import Layout, Table, information_state_string, observation_string
from generator.deck.manifest import load
from generator.engine import Game

ROOT = Path(__file__).resolve().parents[2]


def resample(state, seat, rng):
    return state.resample(seat, rng)  # the engine's determinization, which OpenSpiel's resample_from_infostate uses


@pytest.mark.parametrize("players, options", [(3, {}), (4, {"teams": True})])
def test_hidden_cards_dealt_again_change_nothing_a_seat_sees(players, options):
    game = Game(load(ROOT / "cards.yaml"), "the-og", players, options)
    layout = Layout(game)
    for seed in range(8):
        state, rng, table = game.new_initial_state(seed), random.Random(seed), Table(game)
        for _ in range(40):
            if state.is_terminal():
                break
            seat = state.current_player()
            legal = state.legal_actions()
            for who in range(players):
                other = resample(state, who, random.Random(who))
                assert (other.hands, other.draw) != (state.hands, state.draw) or state.draw_size < 2
                if who == seat:  # what a seat may do follows from what it sees (Teams too, R7.2)
                    assert [str(a) for a in other.legal_actions()] == [str(a) for a in legal]
                assert layout.information_state(state.view(who), table) == \
                       layout.information_state(other.view(who), table)
                assert information_state_string(state.view(who), table) == \
                       information_state_string(other.view(who), table)
            action = legal[int(rng.random() * len(legal))]
            state.apply(action)
            table.note(seat, action)


def test_a_tensor_holds_what_the_layout_says():
    game = Game(load(ROOT / "cards.yaml"), "keep-it-simple", 3)
    layout = Layout(game)
    state = game.new_initial_state(4)
    state.current_player()  # the first turn's draw
    view = state.view(1)
    t = layout.information_state(view, Table(game))
    assert len(t) == layout.size and layout.size == layout.observation_size + 2 * 3 * len(game.codes)
    o = layout.offsets
    assert sum(t[o["hand"]:o["hand"] + len(game.codes)]) == len(state.hands[1])
    # seat-relative: slot 0 is the seat itself, slot 1 the next seat
    assert t[o["hand_sizes"]:o["hand_sizes"] + 3] == [len(state.hands[s]) for s in (1, 2, 0)]
    assert t[o["turn"] + (state.turn - 1) % 3] == 1
    assert "hand " + " ".join(view.hand) in observation_string(view)
    assert not any(game.codes[c] in observation_string(view).split("hand ")[1].split("\n")[0].split()
                   for c in state.hands[0] if game.codes[c] not in view.hand)
