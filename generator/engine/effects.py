"""Wild effects (docs/rules.md R6): a wild card's steps compiled into its rule, and the `Turn` rules see.

A card's rule is `fn(turn, arg)`: `turn` is the `Turn` below and `arg` the seat the decision
names (a card with a choosing step), else -1. It is compiled once per Game from the card's
steps (`compile_rule`; each step's rule is in engine/steps.py), so the loop pays for no
interpretation. Rules resolve before penalties: the rules loop checks the count the rule leaves.

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
- helpers: `draw(seat)` (R4.1, reshuffling if needed), `owe(seat, n)` (R6.14: discards owed,
  made before the card's penalties), `next_in(seat)`, `previous_in(seat)`, `order_from(seat)`,
  `seats_in()`, all in the current `direction`.

The loop makes a `Turn` for each wild played (six fields) and takes `count` and `match` back
after the rule; the other fields reach the State directly. A wild costs one small object and a
handful of attribute operations, and number cards nothing (benchmarks/README.md). The Turn
refers to its State but the State never to a Turn, so a finished game is freed at once rather
than left to the cycle collector.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from generator.engine.errors import EngineError
from generator.engine.state_protocol import GameState
from generator.engine.steps import STEP_RULES, Rule

if TYPE_CHECKING:
    from generator.deck.model import Step


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

    def previous_in(self, seat: int) -> int:
        """The seat still in before `seat`, in the current direction (the one whose next is `seat`)."""
        return self._state.previous_in(seat)

    def owe(self, seat: int, n: int) -> None:
        """R6.14: `seat` owes `n` discards, made by R4.6 before the card's own penalties."""
        self._state.owed.extend([seat] * n)

    def order_from(self, seat: int) -> list[int]:
        """Seats still in, in order of play, from `seat`."""
        return self._state.order_from(seat)

    def seats_in(self) -> list[int]:
        """Seats still in, ascending."""
        return self._state.seats_in()


def compile_rule(steps: "tuple[Step, ...]") -> Rule:
    """A card's steps (deck.model.Step) as the one function the rules loop calls, `fn(turn, arg)`:
    the step's own function for one step, else one that calls each in order."""
    rules = tuple(_step_rule(step) for step in steps)
    if len(rules) == 1:
        return rules[0]

    def in_order(turn: Turn, arg: int) -> None:
        for fn in rules:
            fn(turn, arg)
    return in_order


def _step_rule(step: "Step") -> Rule:
    """The rule of one step; a step the deck knows but the engine cannot play is an error, not a no-op."""
    try:
        factory = STEP_RULES[step.kind]
    except KeyError:
        raise EngineError(f"step '{step.kind}' has no rule: add a function '{step.kind}' to generator/engine/steps.py "
                          "(README, \"Adding a wild\")") from None
    return factory(step.mapping)
