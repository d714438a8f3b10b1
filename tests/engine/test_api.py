"""The public API: actions, errors by cause, options, effects' parameters, views, positions."""

from __future__ import annotations

import dataclasses

import pytest

from generator.deck.effects import CATALOGUE
from generator.deck.steps import STEPS
from generator.engine import (
    Action,
    ActionSyntaxError,
    Game,
    IllegalActionError,
    OptionError,
    Options,
    PositionError,
    from_position,
    run_scenario,
    to_position,
)


def test_every_step_has_a_rule_and_every_effect_is_made_of_steps():
    from generator.engine.steps import STEP_RULES

    assert set(STEP_RULES) == set(STEPS)
    assert all(kind in STEPS for e in CATALOGUE.values() for kind, _ in e.steps)


@pytest.mark.parametrize("text", ["play C5", "play STEAL 2", "play REDEAL 0", "discard G7", "give 2 M-1", "late", "play +/-"])
def test_action_text_round_trips(text):
    action = Action.parse(text)
    assert str(action) == text
    assert eval(repr(action)) == action


@pytest.mark.parametrize("text", ["", "plya C5", "play", "play C5 x", "discard", "give C5", "late now", "play C5 -1"])
def test_bad_action_text_is_a_syntax_error(text):
    with pytest.raises(ActionSyntaxError):
        Action.parse(text)


def test_errors_are_value_errors():
    for cls in (ActionSyntaxError, IllegalActionError, OptionError, PositionError):
        assert issubclass(cls, ValueError)


def test_unknown_code_is_a_syntax_error(game4):
    with pytest.raises(ActionSyntaxError, match="unknown card code 'C55'"):
        game4.action("play C55")


def test_illegal_actions_say_why(game4):
    state = game4.new_initial_state(1)
    seat = state.current_player()
    missing = next(code for code in game4.codes if game4.index[code] not in state.hands[seat])
    with pytest.raises(IllegalActionError, match=f"has no {missing}"):
        state.apply(f"play {missing}")
    with pytest.raises(IllegalActionError, match="nobody owes a discard"):
        state.apply(f"discard {game4.codes[state.hands[seat][0]]}")
    with pytest.raises(IllegalActionError, match="only for the Teams"):
        state.apply("give 2 C5")
    with pytest.raises(IllegalActionError, match="SPEED"):
        state.apply("late")


def test_seat_cards_need_a_valid_seat(deck):
    pos = {"players": 3, "hands": [["STEAL", "TRADE", "REDEAL"], ["C1"], []], "draw": ["G1"], "out": [2]}
    state = from_position(deck, pos)
    legal = [str(a) for a in state.legal_actions()]
    assert "play STEAL 1" in legal and "play STEAL 0" not in legal and "play STEAL 2" not in legal
    assert "play REDEAL 0" in legal and "play REDEAL 1" in legal and "play REDEAL 2" not in legal
    with pytest.raises(IllegalActionError, match="needs a seat"):
        state.apply("play STEAL")
    with pytest.raises(IllegalActionError, match="another player"):
        state.apply("play TRADE 0")
    with pytest.raises(IllegalActionError, match="seat 2 is out"):
        state.apply("play TRADE 2")
    with pytest.raises(IllegalActionError, match="names no seat"):
        state.apply("play G1 1")


def test_options_validate_names_and_values():
    with pytest.raises(OptionError, match="did you mean 'all_out'"):
        Options.from_dict({"all_outs": "draw"})
    with pytest.raises(OptionError, match="takes sixteen_wins, draw"):
        Options.from_dict({"all_out": "nobody"})
    with pytest.raises(OptionError):
        Options.from_dict({"play2_draws": 3})
    with pytest.raises(OptionError):
        Options.from_dict({"max_turns": 0})
    o = Options.from_dict({"play2_draws": "2", "wild_sets_target": "true", "speed_seconds": "7.5", "teams": "yes"})
    assert (o.play2_draws, o.wild_sets_target, o.speed_seconds, o.teams) == (2, True, 7.5, True)
    assert Options().to_dict() == {}


def test_game_checks_players_teams_and_edition(deck):
    with pytest.raises(OptionError, match="players"):
        Game(deck, "the-og", 9)
    with pytest.raises(OptionError, match="Teams"):
        Game(deck, "the-og", 3, {"teams": True})
    with pytest.raises(OptionError, match="did you mean 'the-og'"):
        Game(deck, "the-ogg", 4)
    with pytest.raises(OptionError, match="dealer"):
        Game(deck, "the-og", 4, {"dealer": 4})
    with pytest.raises(OptionError, match="only to the Teams variant"):
        Game(deck, "the-og", 4, {"sixteen_hits": "opponents"})


def test_deal_and_dealer(deck):
    game = Game(deck, "keep-it-simple", 5, {"dealer": 2})
    state = game.new_initial_state(3)
    assert state.turn == 3
    assert [len(h) for h in state.hands] == [5] * 5
    assert len(state.draw) == 90 - 25
    assert sorted(state.draw + sum(state.hands, [])) == sorted(game.edition_cards)


def test_hand_size_and_target_come_from_the_manifest(deck):
    params = dataclasses.replace(deck.params, target=12, hand_size=3)
    small = dataclasses.replace(deck, params=params)
    game = Game(small, "the-og", 4)
    state = game.new_initial_state(0)
    assert [len(h) for h in state.hands] == [3] * 4
    pos = run_scenario(small, {"players": 2, "count": 6, "match": "C4", "hands": [["x2"], ["C1", "C2"]], "draw": ["G1"],
                               "decisions": ["play x2"]})
    assert pos["pending"]["owed"] == [1] and pos["count"] == 0  # 6 x2 = 12 hits the new target


def _with_effect_param(deck, code, key, value):
    cards = tuple(
        dataclasses.replace(c, effect=dataclasses.replace(c.effect, params=((key, value),),
                                                          steps=CATALOGUE[c.effect.name].resolve({key: value})))
        if c.code == code else c
        for c in deck.cards
    )
    return dataclasses.replace(deck, cards=cards)


def test_multiply_factor_comes_from_the_manifest(deck):
    x3 = _with_effect_param(deck, "x2", "factor", 3)
    pos = {"players": 2, "count": 5, "match": "C4", "hands": [["x2"], ["C1"]], "draw": ["G1"], "decisions": ["play x2"]}
    assert run_scenario(x3, pos)["count"] == 15
    assert run_scenario(deck, pos)["count"] == 10


def test_set_count_value_comes_from_the_manifest(deck):
    eq12 = _with_effect_param(deck, "=15", "value", 12)
    pos = {"players": 2, "count": 5, "match": "C4", "hands": [["=15"], ["C1"]], "draw": ["G1"], "decisions": ["play =15"]}
    assert run_scenario(eq12, pos)["count"] == 12
    assert run_scenario(deck, pos)["count"] == 15


def test_view_shows_own_hand_and_only_sizes_of_others(game4):
    state = game4.new_initial_state(5)
    seat = state.current_player()
    view = state.view(seat)
    assert view.hand == [game4.codes[c] for c in state.hands[seat]]
    assert view.hand_sizes == [len(h) for h in state.hands]
    assert (view.count, view.match, view.direction, view.in_play) == (0, "start", 1, [])
    assert not hasattr(view, "hands")
    unseen = view.unseen()
    assert sum(unseen.values()) == 201 - len(view.hand)


def test_position_round_trips(game4):
    state = game4.new_initial_state(11)
    for _ in range(25):
        state.apply(state.legal_actions()[0])
    pos = to_position(state)
    again = to_position(from_position(game4.deck, pos))
    assert again == pos


@pytest.mark.parametrize("pos, message", [
    ({"hands": "x"}, "'hands' must be"),
    ({"hands": [["C5"], ["Q9"]]}, "unknown card code 'Q9'"),
    ({"hands": [["C5"], []], "players": 3}, "'players' is 3"),
    ({"hands": [["C5"], []], "turn": 5}, "'turn' must be a seat"),
    ({"hands": [["C5"], []], "match": "x2"}, "only option wild_sets_target"),
    ({"hands": [["C5"], []], "colour": 1}, "unknown key 'colour'"),
    ({"hands": [["C5"], []], "pending": {"owe": [1]}}, "did you mean 'owed'"),
    ({"hands": [["C5"], ["C1"]], "out": [1]}, "out but holds cards"),
    ({"hands": [["C5"], []], "options": {"teams": 1}}, "teams"),
])
def test_bad_positions(deck, pos, message):
    with pytest.raises((PositionError, OptionError), match=message):
        from_position(deck, pos)


def test_teams_give_is_the_giver_s_decision_before_the_first_play_only(deck):
    """R7.2: after seat 0's draw its teammate seat 2 decides: a card of its own hand or none. Seat 0,
    about to play, is never offered (nor shown) a card of seat 2's hand."""
    pos = {"players": 4, "options": {"teams": True}, "hands": [["C1"], ["M2"], ["C5", "G3"], ["M3"]], "draw": ["G1"]}
    state = from_position(deck, pos)
    assert state.current_player() == 2 and state.phase() == "give" and state.turn == 0
    assert [str(a) for a in state.legal_actions()] == ["give 2 C5", "give 2 G3", "no give"]
    assert state.view(0).giver == 2 and state.view(1).giver == 2
    state.apply("no give")
    assert state.current_player() == 0 and state.phase() == "play"
    legal = [str(a) for a in state.legal_actions()]
    assert legal == ["play C1", "play G1"] and not any(code in " ".join(legal) for code in ("C5", "G3"))
    state.apply("play C1")
    assert state.turn == 1 and state.current_player() == 3  # seat 1's teammate is asked in its turn
    assert all(a.kind in ("give", "no give") and (a.kind != "give" or a.seat == 3) for a in state.legal_actions())
    state.apply("give 3 M3")
    assert state.current_player() == 1 and state.view(1).hand == ["M2", "M3"]
    with pytest.raises(IllegalActionError, match="only once per turn"):
        state.apply("no give")


def test_returns(deck):
    state = from_position(deck, {"players": 2, "count": 10, "match": "C5", "hands": [["C6"], []], "draw": ["G1"]})
    state.apply("play C6")
    assert state.is_terminal() and state.winner == 0
    assert state.returns() == [1.0, -1.0]
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="over"):
        state.apply("play G1")


def test_a_game_decided_at_the_draw_after_the_last_decision_is_over(deck):
    """R4.2/R5.1: seat 0's play passes the turn to seat 1, who holds nothing with nothing to draw:
    out at that draw, and seat 0 wins. No decision follows, so is_terminal, returns and a
    record's result must see it without legal_actions or current_player being asked first,
    and the documented loop (`while not state.is_terminal(): ... legal_actions()[0]`) ends."""
    from generator.engine.record import result_of

    position = {"players": 2, "count": 2, "match": "C4", "in_play": ["C4"], "hands": [["C1"], []]}
    for ask in ("is_terminal", "returns", "result_of"):
        state = from_position(deck, position)
        state.apply("play C1")
        if ask == "is_terminal":
            assert state.is_terminal() and state.winner == 0
        elif ask == "returns":
            assert state.returns() == [1.0, -1.0]
        else:  # R5.3: seat 1's turn ended the game, so only seat 0's counts
            assert result_of(state) == {"winner": 0, "finished": True, "turns": 1, "out": [1]}
    state = from_position(deck, position)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert state.winner == 0 and [str(a) for a in state.history] == ["play C1"]


def test_late_is_never_listed_but_accepted_in_speed(deck):
    state = from_position(deck, {"players": 2, "options": {"speed_seconds": 5}, "hands": [["C1", "C2"], ["M1"]], "draw": ["G1"]})
    assert all(a.kind != "late" for a in state.legal_actions())
    state.apply("late")
    assert state.owed == [0] and state.phase() == "discard"
    with pytest.raises(IllegalActionError, match="owes a discard"):
        state.apply("late")


def test_penalty_causes_and_last_count(deck):
    # C9 on C9 matches; 9 + 9 = 18 busts: one discard, cause "bust", and the count reached 18.
    state = from_position(deck, {"players": 2, "count": 9, "match": "C9", "hands": [["C9", "G1"], ["M1", "M2"]],
                                 "draw": ["G2", "G3"]})
    state.apply("play C9")
    assert (state.count, state.last_count, state.last_penalty, state.sixteen_by) == (0, 18, 1, -1)
    assert state.penalties_by_cause() == {"mismatch": 0, "bust": 1, "target": 0, "late": 0}
    assert to_position(state)["last_count"] == 18
    # M7 on a count of 9 matching C9: no match, and 16: the others owe.
    state = from_position(deck, {"players": 3, "count": 9, "match": "C9", "hands": [["M7", "G1"], ["M1"], ["M2"]],
                                 "draw": ["G2"]})
    state.apply("play M7")
    assert (state.last_count, state.sixteen_by) == (16, 0)
    assert state.penalties_by_cause() == {"mismatch": 1, "bust": 0, "target": 2, "late": 0}


def test_play_game_observer_sees_every_decision(game4):
    from generator.engine import bot_seed, make_bot, play_game

    seen = []
    state = play_game(game4, [make_bot("random")] * 4, 3, observer=lambda s, seat, a: seen.append((seat, str(a))))
    assert [a for _, a in seen] == [str(a) for a in state.history]
    assert isinstance(bot_seed(3), int)


def test_result_of_is_unfinished_until_the_game_is_over(game4):
    from generator.engine.record import result_of

    state = game4.new_initial_state(1)
    state.apply(state.legal_actions()[0])
    assert result_of(state)["finished"] is False


def test_lazy_deal_is_the_eager_shuffle_and_deal(deck):
    """The draw pile is shuffled only as far as it is drawn; it must equal the plain Fisher-Yates deal."""
    import random

    from generator.engine.shuffling import shuffle

    for players, edition in ((4, "the-og"), (2, "keep-it-simple"), (8, "its-wild-time")):
        game = Game(deck, edition, players)
        for seed in (0, 1, 2026, 2**62 + 7):
            rng = random.Random(seed)
            draw = list(game.edition_cards)
            shuffle(rng, draw)
            hands = [[] for _ in range(players)]
            for _ in range(game.hand_size):
                for k in range(players):
                    hands[(1 + k) % players].append(draw.pop())
            state = game.new_initial_state(seed)
            assert state.hands == hands
            after = rng.getstate()
            assert state.rng.random() == rng.random()  # the game's RNG stands where the eager shuffle left it
            finished = game.new_initial_state(seed)
            assert finished.draw == draw  # the deal's own Random finishes the shuffle and goes on as the game's RNG
            rng.setstate(after)
            assert finished.rng.random() == rng.random()
            top = state.draw[-1] if draw else None
            assert state.draw == draw and top == (draw[-1] if draw else None)
            # drawing part-way, then looking, gives the same pile
            state = game.new_initial_state(seed)
            for _ in range(30):
                if state.is_terminal():
                    break
                state.apply(state.legal_actions()[0])
            clone = state.clone()
            assert clone.draw == state.draw and to_position(clone) == to_position(state)
