"""Wild effects (docs/rules.md R6): the rules, in a registry keyed by the catalogue's effect names.

A rule is `fn(turn, param, arg)`: `turn` is the `Turn` below, `param` the card's parameter
from the manifest (`multiply: {factor: 2}` gives 2, `set_count: {value: 15}` gives 15,
`draw_extra: {count: 1}` gives 1, else
None) and `arg` the seat the decision names (an effect whose catalogue entry names a seat),
else -1. Rules resolve before penalties: the rules loop checks the count the rule leaves.

The contract between the rules loop and a rule is `Turn`, and only `Turn`: a rule gets no
State. What it may read and write is what `Turn` has, and everything it writes takes effect:

- read and write: `count`; `match` (the match target, a card index or `START`; under
  `wild_sets_target` the wild becomes the target unless the rule sets another); `direction`
  (1 clockwise, -1); the pending parts of a turn, `invert` (a +/- waits for the next number
  card), `play2_next` (a Play 2 waits for the next player to take a turn) and `to_skip`
  (players to pass over when this turn ends); and the hands, `hands[seat]` (lists of card
  indices: cards move between hands, or from the draw pile with `draw(seat)`; none may appear
  or vanish);
- read only: `seat` (who played the card), `played` (cards played this turn, this one
  included) and `hands` (the list itself; the hands in it may change): the loop checks them
  when the rule returns and raises AttributeError naming the rule if one was reassigned;
  `out` (per seat), `players`, `options`, `target`, `START` and `rng` (the game's RNG, for
  anything random) raise AttributeError at once when assigned;
- helpers: `draw(seat)` (R4.1, reshuffling if needed), `next_in(seat)`, `order_from(seat)`,
  `seats_in()`, all in the current `direction`.

The loop makes a `Turn` for each wild played (six fields) and takes `count` and `match` back
after the rule; the other fields reach the State directly. A wild costs one small object and a
handful of attribute operations, and number cards nothing (benchmarks/README.md). The Turn
refers to its State but the State never to a Turn, so a finished game is freed at once rather
than left to the cycle collector.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from generator.engine.shuffling import shuffle
from generator.engine.state_protocol import GameState


class Turn:
    """What a wild's rule may read and write while it resolves (see the module docstring)."""

    __slots__ = ("count", "match", "seat", "played", "hands", "_state")

    def __init__(self, state: GameState, count: int, match: int, seat: int, played: int):
        self._state = state
        self.count = count  #: the count; the loop checks what the rule leaves here
        self.match = match  #: the match target (card index or START)
        self.seat = seat  #: read only: the seat that played the wild
        self.played = played  #: read only: cards played this turn, the wild included (2: a Play 2 turn's second)
        self.hands = state.hands  #: read only: every seat's hand (change the hands, not the list)

    # --- read only ------------------------------------------------------------------
    @property
    def out(self) -> tuple[bool, ...]:
        return tuple(self._state.out)

    @property
    def players(self) -> int:
        return self._state.game.players

    @property
    def options(self) -> Any:
        """The game's rule options (generator.engine.options.Options)."""
        return self._state.game.options

    @property
    def target(self) -> int:
        return self._state.game.target

    @property
    def START(self) -> int:
        """The match target "0 of all colours" (every card matches it)."""
        return self._state.game.START

    @property
    def rng(self) -> random.Random:
        return self._state.rng

    # --- read and write, kept on the State ----------------------------------------------
    @property
    def direction(self) -> int:
        return self._state.direction

    @direction.setter
    def direction(self, value: int) -> None:
        self._state.direction = value

    @property
    def invert(self) -> bool:
        return self._state.invert

    @invert.setter
    def invert(self, value: bool) -> None:
        self._state.invert = value

    @property
    def play2_next(self) -> bool:
        return self._state.play2_next

    @play2_next.setter
    def play2_next(self, value: bool) -> None:
        self._state.play2_next = value

    @property
    def to_skip(self) -> int:
        return self._state.to_skip

    @to_skip.setter
    def to_skip(self, value: int) -> None:
        self._state.to_skip = value

    # --- helpers ------------------------------------------------------------------------
    def draw(self, seat: int) -> None:
        """R4.1: `seat` draws one card (the discard pile is reshuffled into an empty draw pile)."""
        self._state.draw_card(seat)

    def next_in(self, seat: int) -> int:
        """The next seat still in after `seat`, in the current direction."""
        return self._state.next_in(seat)

    def order_from(self, seat: int) -> list[int]:
        """Seats still in, in order of play, from `seat`."""
        return self._state.order_from(seat)

    def seats_in(self) -> list[int]:
        """Seats still in, ascending."""
        return self._state.seats_in()


Rule = Callable[[Turn, "int | None", int], None]

#: Rule functions by the catalogue's effect name (generator.deck.effects.CATALOGUE).
EFFECTS: dict[str, Rule] = {}


def rule(fn: Rule) -> Rule:
    """Register `fn` as the rule of the effect named like the function."""
    EFFECTS[fn.__name__] = fn
    return fn


@rule
def draw_extra(turn: Turn, param: int | None, arg: int) -> None:
    """R6.1 +1 Card: draw the card's count of cards now (1 for +1; reshuffling if needed)."""
    for _ in range(param):  # type: ignore[arg-type]
        turn.draw(turn.seat)


@rule
def invert_next(turn: Turn, param: int | None, arg: int) -> None:
    """R6.2 +/-: the next number card's sign flips; with invert_through_wilds two cancel."""
    turn.invert = not turn.invert if turn.options.invert_through_wilds else True


@rule
def reverse(turn: Turn, param: int | None, arg: int) -> None:
    """R6.3 Reverse: flip the direction of play."""
    turn.direction = -turn.direction


@rule
def steal(turn: Turn, param: int | None, arg: int) -> None:
    """R6.4 Steal a Card: a random card of the chosen player's hand (none if it is empty)."""
    victim = turn.hands[arg]
    if victim:
        turn.hands[turn.seat].append(victim.pop(turn.rng.randrange(len(victim))))


@rule
def trade_hands(turn: Turn, param: int | None, arg: int) -> None:
    """R6.5 Trade Hands: swap hands with the chosen player."""
    hands = turn.hands
    me = turn.seat
    hands[me], hands[arg] = hands[arg], hands[me]


@rule
def multiply(turn: Turn, param: int | None, arg: int) -> None:
    """R6.6 x2: multiply the count by the card's factor."""
    turn.count *= param  # type: ignore[operator]


@rule
def set_count(turn: Turn, param: int | None, arg: int) -> None:
    """R6.7 =15: set the count to the card's value."""
    turn.count = param  # type: ignore[assignment]


@rule
def play_two(turn: Turn, param: int | None, arg: int) -> None:
    """R6.8 Play 2: the next player to take a turn plays two cards (no stacking)."""
    turn.play2_next = True


@rule
def redeal(turn: Turn, param: int | None, arg: int) -> None:
    """R6.9 Re-Deal: pool the hands of everyone still in, shuffle, deal from the chosen seat."""
    hands = turn.hands
    pool = [card for s in turn.seats_in() for card in hands[s]]
    shuffle(turn.rng, pool)
    order = turn.order_from(arg)  # everyone still in, from the chosen seat
    k = len(order)
    for i, s in enumerate(order):  # one card at a time round the table: the i-th seat gets every k-th card
        hands[s] = pool[i::k]


@rule
def rotate_hands(turn: Turn, param: int | None, arg: int) -> None:
    """R6.10 Rotate Hands: every player still in passes their hand to the next one in."""
    hands = turn.hands
    order = turn.order_from(turn.seat)
    moved = [hands[s] for s in order]
    k = len(order)
    for i, s in enumerate(order):
        hands[order[(i + 1) % k]] = moved[i]


@rule
def skip(turn: Turn, param: int | None, arg: int) -> None:
    """R6.11 Skip: the next player still in loses their turn (two Skips, two players)."""
    turn.to_skip += 1
