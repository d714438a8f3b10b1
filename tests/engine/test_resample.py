"""State.resample(seat, rng): a world the seat cannot tell from the real one, and nothing more.

It keeps what the seat sees (its hand, every hand's size, the piles it can see, the public
table), deals again only what it cannot see (the other hands and the draw pile) from cards it
has not seen, depends on nothing hidden (two games that look the same to the seat give the same
sample), leaves the real game as it was, and plays on by the rules. A view hands out samples,
never the State.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from generator.engine import Game, GreedyBot, to_position
from generator.engine.state import State
from generator.engine.view import PlayerView

#: (edition, players, options) the positions come from: two-player, four-player, Teams, many wilds.
TABLES = [
    ("the-og", 4, {}),
    ("the-og", 2, {}),
    ("its-wild-time", 5, {"wild_sets_target": True}),
    ("only-chaos", 6, {"teams": True}),
    ("the-og", 4, {"teams": True, "play2_draws": 2}),
]


def positions(game: Game, games: int = 3, every: int = 3):
    """(state, seat) pairs along seeded greedy games: every `every`-th decision, and the end."""
    bot = GreedyBot()
    found = []
    for seed in range(games):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        n = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            if n % every == 0:
                found.append((state.clone(), state.current_player()))
                found.append((state.clone(), (state.current_player() + 1) % game.players))  # a seat not to act
            state.apply(bot.choose(state.view(state.current_player()), legal, rng))
            n += 1
        found.append((state, 0))
    return found


def public(state: State, seat: int) -> dict:
    """Everything `seat` may see."""
    return {
        "own hand": list(state.hands[seat]),
        "hand sizes": [len(h) for h in state.hands],
        "draw size": state.draw_size,
        "discard": list(state.discard),
        "in play": list(state.in_play),
        "count": state.count,
        "match": state.match,
        "turn": state.turn,
        "direction": state.direction,
        "out": list(state.out),
        "out order": list(state.out_order),
        "owed": list(state.owed),
        "winner": state.winner,
        "turns": state.turns,
        "pending": (state.played, state.play2, state.play2_next, state.to_skip, state.gave, state.invert, state.drawn),
        "history": [str(a) for a in state.history],
        "penalties": list(state.penalties),
    }


def hidden_from(state: State, seat: int) -> Counter:
    """The cards `seat` cannot see: the draw pile and every other hand (Teams too: R7.2 shows none)."""
    cards = Counter(state.draw)
    for s, hand in enumerate(state.hands):
        if s != seat:
            cards.update(hand)
    return cards


@pytest.fixture(scope="module", params=TABLES, ids=lambda t: f"{t[0]}-{t[1]}{'-teams' if t[2].get('teams') else ''}")
def table(request, deck):
    edition, players, options = request.param
    game = Game(deck, edition, players, options)
    return game, positions(game)


def test_resample_keeps_everything_the_seat_sees(table):
    game, found = table
    for state, seat in found:
        world = state.resample(seat, random.Random(1))
        assert public(world, seat) == public(state, seat)
        assert world.card_counts() == state.card_counts()  # the same cards (R8.1), only placed anew
        if not state.is_terminal() and state.current_player() == seat:
            # the same decisions to choose from: its own cards (to play, discard or give)
            assert [str(a) for a in world.legal_actions()] == [str(a) for a in state.legal_actions()]


def test_resample_deals_only_unseen_cards_and_depends_on_nothing_hidden(table):
    game, found = table
    for state, seat in found:
        world = state.resample(seat, random.Random(3))
        # what was dealt is exactly what the seat could not see (view.unseen: the game's cards less what it saw)
        unseen = PlayerView(state, seat).unseen()
        assert hidden_from(world, seat) == unseen == hidden_from(state, seat)
        # another game the seat cannot tell from this one gives the very same sample for the same rng:
        # the sample is a function of what the seat sees
        lookalike = state.resample(seat, random.Random(99))
        again = lookalike.resample(seat, random.Random(3))
        assert again.hands == world.hands and again.draw == world.draw and again.seed == world.seed


def test_resampled_hidden_cards_vary_with_the_rng(deck):
    game = Game(deck, "the-og", 4)
    state = game.new_initial_state(11)
    state.legal_actions()  # seat 1's draw
    seat = state.current_player()
    deals = {tuple(tuple(h) for s, h in enumerate(state.resample(seat, random.Random(k)).hands) if s != seat)
             for k in range(20)}
    assert len(deals) == 20  # every sample is another deal
    piles = {tuple(state.resample(seat, random.Random(k)).draw[-5:]) for k in range(20)}
    assert len(piles) == 20
    truth = tuple(tuple(h) for s, h in enumerate(state.hands) if s != seat)
    assert truth not in deals
    # the game's future random draws are hidden too: a new seed from the rng, not the game's
    seeds = {state.resample(seat, random.Random(k)).seed for k in range(20)}
    assert len(seeds) == 20 and state.seed not in seeds


def test_resample_leaves_the_game_as_it_was_and_it_replays_exactly(deck):
    """Sampling worlds mid-game changes nothing in the real game: the same seed plays the same game."""
    game = Game(deck, "its-wild-time", 4)
    for seed in range(4):
        plain, sampled = game.new_initial_state(seed), game.new_initial_state(seed)
        sampled.resample(0, random.Random(seed))  # before the deal's shuffle is finished
        r1, r2 = random.Random(seed), random.Random(seed)
        sampler = random.Random(7)
        while not plain.is_terminal():
            legal = sampled.legal_actions()
            before = to_position(sampled)
            for seat in range(game.players):
                sampled.resample(seat, sampler)
            assert to_position(sampled) == before and sampled.legal_actions() is legal
            plain.apply(r1.choice(plain.legal_actions()))
            sampled.apply(r2.choice(legal))
        assert [str(a) for a in sampled.history] == [str(a) for a in plain.history]
        assert sampled.winner == plain.winner and sampled.turns == plain.turns


@pytest.mark.parametrize("edition,players,options", [
    ("the-og", 4, {}),
    ("only-chaos", 3, {"invert_through_wilds": True}),
    ("its-wild-time", 6, {"teams": True, "sixteen_hits": "opponents"}),
])
def test_a_resampled_game_plays_on_by_the_rules(deck, edition, players, options):
    """Any state, terminal or not, resamples to a legal State that plays to its end keeping every card (R8)."""
    game = Game(deck, edition, players, options)
    ends = 0
    for state, seat in positions(game, games=2, every=5):
        cards = state.card_counts()
        world = state.resample(seat, random.Random(5))
        if state.is_terminal():
            assert world.is_terminal() and world.legal_actions() == [] and world.returns() == state.returns()
            ends += 1
            continue
        rng = random.Random(6)
        while not world.is_terminal():
            legal = world.legal_actions()
            assert legal and not world.out[world.current_player()]  # R8.3
            world.apply(rng.choice(legal))
            assert 0 <= world.count < game.target  # R8.2
            assert world.card_counts() == cards  # R8.1
        assert world.returns() != [0.0] * players or world.winner is None
    assert ends == 2


def test_the_view_gives_samples_never_the_state(game4):
    state = game4.new_initial_state(2)
    view = state.view(state.current_player())
    assert not hasattr(view, "copy_state")
    for name in dir(view):
        if name.startswith("_") or name == "sample_world":
            continue
        value = getattr(view, name)
        assert not isinstance(value, State), f"PlayerView.{name} hands out the State"
    world = view.sample_world(random.Random(4))
    assert isinstance(world, State) and world is not state
    assert world.hands[view.seat] == state.hands[view.seat]
    assert world.hands != state.hands  # the other hands are dealt anew
