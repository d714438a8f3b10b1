"""Chance as it happens in the OpenSpiel game: the deal card by card, every later random event a
chance node when it happens, and nothing a seat sees fixing what it cannot see."""

import random
from collections import Counter
from pathlib import Path

from generator.deck.manifest import load
from generator.engine import from_position

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = str(ROOT / "cards.yaml")


def sample(state, rng):
    outcomes, probs = zip(*state.chance_outcomes())
    assert abs(sum(probs) - 1) < 1e-9
    return rng.choices(outcomes, probs)[0]


def test_the_deal_is_a_chance_node_per_card_with_the_cards_left_as_outcomes(pyspiel):
    game = pyspiel.load_game("county_uppy", {"manifest": MANIFEST, "players": 4, "edition": "the-og"})
    engine = game.engine
    left = Counter(engine.edition_cards)
    state, rng, dealt = game.new_initial_state(), random.Random(1), []
    for _ in range(engine.deal_size):
        assert state.is_chance_node()
        total = sum(left.values())
        assert dict(state.chance_outcomes()) == {c: k / total for c, k in left.items() if k}
        card = sample(state, rng)
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, card) == f"chance: deal {engine.codes[card]}"
        state.apply_action(card)
        dealt.append(card)
        left[card] -= 1
    # one card at a time from the seat left of the dealer, as the engine deals (R3)
    assert state.engine.hands == engine.hands_of(dealt)
    # the first turn's draw: a chance node over the cards not dealt, each as likely as its copies
    assert state.is_chance_node()
    total = sum(left.values())
    assert state.chance_outcomes() == [(c, left[c] / total) for c in sorted(left) if left[c]]
    first = engine.first_seat
    card = sample(state, rng)
    state.apply_action(card)
    assert state.current_player() == first and state.engine.hands[first][-1] == card


def test_from_a_seat_s_information_no_other_hand_or_draw_order_can_be_looked_up(pyspiel):
    """The 200-deal attack: deal 200 games in which seat 0 is dealt the same cards (everything it
    knows once the deal is done is the same) and chance deals the rest. If anything a seat sees fixed
    the hidden cards, a table from seat 0's information to the other hands would have one entry;
    here the other hands and the cards to come differ from game to game."""
    game = pyspiel.load_game("county_uppy", {"manifest": MANIFEST, "players": 2, "edition": "the-og", "dealer": 1})
    engine = game.engine
    rng = random.Random(7)
    mine = None
    seen: dict[str, set] = {}
    lookups = Counter()
    for _ in range(200):
        state = game.new_initial_state()
        for t in range(engine.deal_size):
            if t % 2 == 0 and mine is not None:  # seat 0 (left of dealer 1) is dealt the same cards each game
                state.apply_action(mine[t // 2])
            else:
                state.apply_action(sample(state, rng))
        if mine is None:
            mine = state.engine.hands[0][:]
        info = state.information_state_string(0)  # all seat 0 knows: its hand, the sizes, the table
        other = tuple(state.engine.hands[1])
        to_come = []
        probe = state.clone()
        while len(to_come) < 3 and not probe.is_terminal():  # the next cards drawn, as chance deals them
            if probe.is_chance_node():
                card = sample(probe, rng)
                to_come.append(card)
                probe.apply_action(card)
            else:
                probe.apply_action(rng.choice(probe.legal_actions()))
        seen.setdefault(info, set()).add((other, tuple(to_come)))
        lookups[info] += 1
    # seat 0's information is the same in every game ...
    assert list(lookups.values()) == [200]
    # ... and each time it is, the hidden cards are different: no lookup can recover them
    for info, count in lookups.items():
        assert len(seen[info]) == count, f"{count} games with one information state share hidden cards"


def chance_state(pyspiel, position, players=3):
    """An OpenSpiel state at an engine position whose random events are chance's."""
    from generator.ai.chance import Chance

    game = pyspiel.load_game("county_uppy", {"manifest": MANIFEST, "players": players, "edition": "only-chaos"})
    engine_state = from_position(load(MANIFEST), {"players": players, **position})
    engine_state.rng = Chance()
    return game, game.state_at(engine_state)


def test_a_reshuffle_steal_s_pick_and_re_deal_s_shuffle_are_chance_nodes_when_they_happen(pyspiel):
    # a reshuffle: nothing to draw, so the discard pile is the new pile, and its top card is chance's
    game, state = chance_state(pyspiel, {"turn": 0, "hands": [["C1"], ["G2"], ["M3"]], "draw": [],
                                         "discard": ["C5", "C5", "G7"]})
    assert state.is_chance_node()
    assert sorted(state.chance_outcomes()) == sorted([(game.engine.index["C5"], 2 / 3), (game.engine.index["G7"], 1 / 3)])
    state.apply_action(game.engine.index["G7"])
    assert state.current_player() == 0 and sorted(state.engine.view(0).hand) == ["C1", "G7"]
    assert state.engine.draw_size == 2  # the other two cards still unordered: chance's at their draw

    # Steal's pick: which card of the hand it takes, each as likely
    steal = next(c for c in game.engine.codes if game.engine.effect_name[game.engine.index[c]] == "steal")
    game, state = chance_state(pyspiel, {"turn": 0, "hands": [[steal, "C1"], ["G2", "G3", "M4"], ["M3"]],
                                         "draw": ["C9"]})
    state.apply_action(game.ids.id(game.engine.action(f"play {steal} 1")))
    assert state.is_chance_node() and state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "chance: card 3 of 3 of the hand"
    state.apply_action(2)
    assert "M4" in state.engine.view(0).hand and state.engine.view(1).hand == ["G2", "G3"]

    # Re-Deal: the pooled hands are dealt again, each card chance's in turn
    redeal = next(c for c in game.engine.codes if game.engine.effect_name[game.engine.index[c]] == "redeal")
    game, state = chance_state(pyspiel, {"turn": 0, "hands": [[redeal, "C1"], ["G2", "G3"], ["M3"]],
                                         "draw": ["C9"]})
    state.apply_action(game.ids.id(game.engine.action(f"play {redeal} 1")))
    pool = Counter(game.engine.index[c] for c in ("C1", "C9", "G2", "G3", "M3"))  # C9: the turn's draw
    steps = 0
    while state.is_chance_node():
        outcomes = dict(state.chance_outcomes())
        assert set(outcomes) <= set(pool) and len(outcomes) >= 1
        card = sample(state, random.Random(steps))
        state.apply_action(card)
        steps += 1
    assert steps >= 3  # one per card placed (the last falls into place)
    assert Counter(c for h in state.engine.hands for c in h) == pool


def test_a_game_of_chance_serializes_copies_and_resamples_keeping_what_a_seat_sees(pyspiel):
    game = pyspiel.load_game("county_uppy", {"manifest": MANIFEST, "players": 4, "teams": True})
    rng = random.Random(11)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal() and steps < 300:
        if state.is_chance_node():
            state.apply_action(sample(state, rng))
            continue
        if steps % 25 == 0:
            again = game.deserialize_state(state.serialize())
            assert again.history() == state.history() and str(again) == str(state)
            for who in range(4):
                world = state.resample_from_infostate(who, random.Random(steps + who).random)
                assert world.information_state_string(who) == state.information_state_string(who)
                assert world.information_state_tensor(who) == state.information_state_tensor(who)
        copy = state.clone()
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        copy.apply_action(action)
        while copy.is_chance_node() and state.is_chance_node():
            outcome = sample(state, rng)
            state.apply_action(outcome)
            copy.apply_action(outcome)
        assert str(copy) == str(state)
        steps += 1


def test_a_reset_lists_no_more_outcomes_than_the_cards_it_deals(pyspiel):
    """A reset deals card by card: its chance nodes list at most one outcome per card type (the
    65,536-deal list of old is gone). Its time is in benchmarks/bench_reset.py."""
    game = pyspiel.load_game("county_uppy", {"manifest": MANIFEST, "players": 4})
    state, listed = game.new_initial_state(), 0
    rng = random.Random(0)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        listed += len(outcomes)
        state.apply_action(sample(state, rng))
    kinds = len(set(game.engine.edition_cards))
    assert listed <= (game.engine.deal_size + 1) * kinds


def test_the_state_answers_its_queries_as_pyspiel_s_own_definitions_do(pyspiel):
    """is_chance_node and legal_actions answer in Python (a reset asks them ~50 times); OpenSpiel's C++
    asks current_player, chance_outcomes and _legal_actions instead, through legal_actions_mask and
    its own algorithms: both must agree at every node of whole games, chance nodes included."""
    game = pyspiel.load_game("county_uppy", {"manifest": MANIFEST, "players": 3, "edition": "the-og"})
    rng = random.Random(5)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            player = state.current_player()
            assert state.is_chance_node() == (player == pyspiel.PlayerId.CHANCE)
            mask = state.legal_actions_mask()
            legal = state.legal_actions()
            assert [a for a, m in enumerate(mask) if m] == sorted(legal)
            if state.is_chance_node():
                assert legal == [a for a, _ in state.chance_outcomes()] == state.legal_actions(0)
                state.apply_action(sample(state, rng))
                continue
            assert legal == state.legal_actions(player)
            assert all(state.legal_actions(s) == [] for s in range(3) if s != player)
            state.apply_action(rng.choice(legal))
        assert state.legal_actions() == [] and not state.is_chance_node()


def test_games_of_chance_leave_nothing_for_the_cycle_collector(pyspiel):
    """A chance node's waiting decision keeps its NeedChance without the traceback, whose frames
    held the state that caught it: a cycle per chance node, freed only by Python's collector (it
    kept each trial State alive and took a tenth of an rl_environment reset)."""
    import gc

    game = pyspiel.load_game("county_uppy", {"manifest": MANIFEST, "players": 4, "edition": "the-og"})
    rng = random.Random(3)
    gc.collect()
    gc.disable()
    try:
        for _ in range(5):
            state = game.new_initial_state()
            for _ in range(60):
                if state.is_terminal():
                    break
                state.apply_action(sample(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
            state.information_state_tensor(0)
        del state
        assert gc.collect() == 0
    finally:
        gc.enable()
