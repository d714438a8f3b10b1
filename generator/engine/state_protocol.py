"""GameState: the State as a seat's view (view.PlayerView) and a wild's Turn (effects.Turn) use it.

state.py imports view.py (State.view) and effects.py (the rules loop makes a Turn), so those two
must not import state.py back, not even for their annotations: the engine's import graph would
hold a circle (one that a static import-graph tool counts). They annotate with this Protocol
instead; State satisfies it structurally without naming it, and tests/engine/test_state_protocol.py
checks that it still does. Only annotations use it: nothing here runs while a game is played.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class GameState(Protocol):
    """The members of generator.engine.state.State that PlayerView and Turn read and write."""

    #: the Game (deck, edition, options, card tables); game.py imports state.py, so it is not named here
    game: Any
    hands: list[list[int]]
    discard: list[int]
    in_play: list[int]
    count: int
    match: int
    direction: int
    turn: int
    out: list[bool]
    n_in: int
    played: int
    play2: int
    play2_next: bool
    to_skip: int
    owed: list[int]
    giver: int
    invert: bool
    done: bool
    winner: int | None

    @property
    def rng(self) -> random.Random: ...

    @property
    def draw_size(self) -> int: ...

    def draw_card(self, seat: int) -> None: ...

    def next_in(self, seat: int) -> int: ...

    def previous_in(self, seat: int) -> int: ...

    def order_from(self, seat: int) -> list[int]: ...

    def seats_in(self) -> list[int]: ...

    def card_counts(self) -> Counter[int]: ...

    def resample(self, seat: int, rng: random.Random) -> GameState: ...
