"""The invariant sweep (docs/rules.md R8), shared by the test and the larger optional run.

    python -m tests.engine.sweep 20000                         # a bigger run from the repository root
    python -m tests.engine.sweep --per-edition 10000 --players 4   # N default games of every edition
"""

from __future__ import annotations

import itertools
import random
import time

from generator.engine import Game, from_position, make_record, replay, to_position
from tests.conftest import MANIFEST

EDITIONS = ("the-og", "keep-it-simple", "only-chaos", "its-wild-time", "math-is-fun")
OPTION_VALUES = {
    "wild_sets_target": (False, True),
    "all_out": ("sixteen_wins", "draw"),
    "invert_through_wilds": (False, True),
    "play2_draws": (1, 2),
    "sixteen_hits": ("others", "opponents"),
}


def configs():
    """Editions x 2..8 players x option values, cycled so every value meets every edition and count."""
    combos = list(itertools.product(*OPTION_VALUES.values()))
    for k in itertools.count():
        edition = EDITIONS[k % len(EDITIONS)]
        players = 2 + (k // len(EDITIONS)) % 7
        options = dict(zip(OPTION_VALUES, combos[k % len(combos)]))
        teams = players % 2 == 0 and players >= 4 and (k // 3) % 2 == 0
        if not teams:
            options.pop("sixteen_hits")
        options["teams"] = teams
        if k % 7 == 0:
            options["speed_seconds"] = 10
        options["dealer"] = k % players
        yield edition, players, options


def check_state(state, universe: list[int]) -> None:
    """Invariants that hold after every decision."""
    cards = state.draw + state.discard + state.in_play
    for h in state.hands:
        cards = cards + h
    assert sorted(cards) == universe, "a card was lost or duplicated"
    assert 0 <= state.count < state.game.target, f"count {state.count} rests outside 0..target-1"
    for s in state.out_order:
        assert not state.hands[s], f"seat {s} is out but holds cards"
    assert len(set(state.out_order)) == len(state.out_order)
    if not state.done:
        if not state.owed:  # a player who went out mid-turn keeps `turn` only while others discard
            assert not state.out[state.turn], f"seat {state.turn} is out but has the turn"
        actor = state.current_player()
        assert actor >= 0 and not state.out[actor], f"seat {actor} is out but acts"
        assert state.legal_actions(), "a live game offers no decision"


def play_checked(game: Game, seed: int, *, check_every: int = 1) -> tuple[object, dict]:
    """Play one random game from `seed`, checking invariants; return (state, record)."""
    state = game.new_initial_state(seed)
    universe = sorted(game.edition_cards)
    rng = random.Random(seed + 1)
    speed = game.options.speed_seconds is not None
    n = 0
    check_state(state, universe)
    while not state.is_terminal():
        legal = state.legal_actions()
        if state.is_terminal():
            break
        if speed and not state.owed and rng.random() < 0.05:
            state.apply("late")
        else:
            state.apply(legal[rng.randrange(len(legal))])
        n += 1
        if n % check_every == 0 or state.is_terminal():
            check_state(state, universe)
    return state, make_record(state, ["random"] * game.players)


def sweep(games: int, seed: int = 0, *, replay_every: int = 3, roundtrip_every: int = 5) -> dict:
    """Play and check `games` games; every `replay_every`th is replayed and re-dealt from its record."""
    from generator.deck.manifest import load

    deck = load(MANIFEST)
    stopped = 0
    turns = 0
    cache: dict = {}
    for i, (edition, players, options) in zip(range(games), configs()):
        key = (edition, players, tuple(sorted(options.items())))
        game = cache.get(key) or cache.setdefault(key, Game(deck, edition, players, options))
        game_seed = seed * 1_000_003 + i
        state, record = play_checked(game, game_seed)
        stopped += state.stopped
        turns += state.turns
        if i % replay_every == 0:
            again, _ = play_checked(game, game_seed)
            assert make_record(again, record["bots"]) == record, "the same seed gave a different game"
            replayed, same = replay(deck, record)
            assert same and to_position(replayed) == to_position(state), "a replay ended elsewhere"
        if i % roundtrip_every == 0:
            pos = to_position(state)
            assert to_position(from_position(deck, pos)) == pos
    return {"games": games, "stopped": stopped, "turns": turns}


def per_edition(games: int, players: int, seed: int = 0) -> dict[str, dict]:
    """`games` random games of every edition with default options, each checked after every decision."""
    from generator.deck.manifest import load

    deck = load(MANIFEST)
    out = {}
    for edition in EDITIONS:
        game = Game(deck, edition, players)
        stopped = turns = 0
        for i in range(games):
            state, _ = play_checked(game, seed * 1_000_003 + i)
            stopped += state.stopped
            turns += state.turns
        out[edition] = {"games": games, "unfinished": stopped, "mean_turns": round(turns / games, 2)}
    return out


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="?", type=int, default=20000, help="games of the mixed sweep")
    ap.add_argument("seed", nargs="?", type=int, default=1)
    ap.add_argument("--per-edition", type=int, metavar="N", help="instead: N games of every edition, default options")
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args()
    t = time.perf_counter()
    if args.per_edition:
        for edition, r in per_edition(args.per_edition, args.players, args.seed).items():
            print(f"{edition:16} {r}")
    else:
        print(sweep(args.games, seed=args.seed))
    print(f"{time.perf_counter() - t:.1f} s")
