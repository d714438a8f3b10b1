"""The rules of the steps a wild is made of (docs/rules.md R6.12-R6.22), keyed like deck/steps.py.

A step's rule is a factory: given the step's arguments (once per Game) it returns the function
the rules loop calls, `fn(turn, arg)`, with `turn` the wild's `Turn` (engine/effects.py) and
`arg` the seat the play names (a card with a choosing step), else -1. Whatever can be decided
from the arguments is decided in the factory, so a play pays for no interpretation. A card's
steps are compiled into one rule by `engine.effects.compile_rule`.
"""

from __future__ import annotations

from typing import Any, Callable

from generator.engine.shuffling import shuffle

#: What the rules loop calls for a step or a card: fn(turn, arg).
Rule = Callable[[Any, int], None]
#: Step rule factories by the step's key (generator.deck.steps.STEPS).
STEP_RULES: dict[str, Callable[[dict[str, Any]], Rule]] = {}


def step(fn: Callable[[dict[str, Any]], Rule]) -> Callable[[dict[str, Any]], Rule]:
    """Register `fn` as the rule factory of the step named like the function."""
    STEP_RULES[fn.__name__] = fn
    return fn


def seats(who: str) -> Callable[[Any, int], list[int]]:
    """Who a step names (deck/steps.WHO), as a function of the turn and the seat the play names:
    the seats still in, in the order of play from the player of the wild."""
    if who == "me":
        return lambda turn, arg: [turn.seat]
    if who == "next":
        return lambda turn, arg: [turn.next_in(turn.seat)]
    if who == "previous":
        return lambda turn, arg: [turn.previous_in(turn.seat)]
    if who == "others":
        return lambda turn, arg: turn.order_from(turn.seat)[1:]
    if who == "everyone":
        return lambda turn, arg: turn.order_from(turn.seat)
    return lambda turn, arg: [arg]  # chosen, anyone: the seat the play names


def _one_seat(who: str) -> Callable[[Any, int], int]:
    if who == "me":
        return lambda turn, arg: turn.seat
    if who == "next":
        return lambda turn, arg: turn.next_in(turn.seat)
    if who == "previous":
        return lambda turn, arg: turn.previous_in(turn.seat)
    return lambda turn, arg: arg


@step
def count(args: dict[str, Any]) -> Rule:
    """R6.12: the count changes: add N, set N, multiply by N, divide by N rounding down."""
    if "add" in args:
        n = args["add"]

        def add(turn, arg):
            turn.count += n
        return add
    if "set" in args:
        v = args["set"]

        def set_count(turn, arg):
            turn.count = v
        return set_count
    if "multiply" in args:
        f = args["multiply"]

        def multiply(turn, arg):
            turn.count *= f
        return multiply
    d = args["divide"]

    def divide(turn, arg):
        turn.count //= d
    return divide


@step
def draw(args: dict[str, Any]) -> Rule:
    """R6.13: each player named draws N cards, one by one by R4.1, in the order of play from you."""
    n = args["cards"]
    if args["who"] == "me":
        def draw_me(turn, arg):
            for _ in range(n):
                turn.draw(turn.seat)
        return draw_me
    named = seats(args["who"])

    def draw_named(turn, arg):
        for s in named(turn, arg):
            for _ in range(n):
                turn.draw(s)
    return draw_named


@step
def discard(args: dict[str, Any]) -> Rule:
    """R6.14: each player named owes N discards, made by R4.6 before the penalties of the card."""
    n = args["cards"]
    named = seats(args["who"])

    def owe(turn, arg):
        for s in named(turn, arg):
            turn.owe(s, n)
    return owe


@step
def take(args: dict[str, Any]) -> Rule:
    """R6.15: N cards at random from each player named to your hand (fewer if their hand runs out)."""
    n = args["cards"]
    named = seats(args["from"])

    def take_cards(turn, arg):
        hands = turn.hands
        mine = hands[turn.seat]
        for s in named(turn, arg):
            victim = hands[s]
            for _ in range(n):
                if victim:
                    mine.append(victim.pop(turn.rng.randrange(len(victim))))
    return take_cards


@step
def trade_hands(args: dict[str, Any]) -> Rule:
    """R6.16: swap hands with the player named."""
    other = _one_seat(args["with"])

    def trade(turn, arg):
        hands = turn.hands
        me, them = turn.seat, other(turn, arg)
        hands[me], hands[them] = hands[them], hands[me]
    return trade


@step
def pass_hands(args: dict[str, Any]) -> Rule:
    """R6.17: every player still in gives their hand to the next (or previous) player still in."""
    shift = 1 if args["to"] == "next" else -1

    def pass_on(turn, arg):
        hands = turn.hands
        order = turn.order_from(turn.seat)
        moved = [hands[s] for s in order]
        k = len(order)
        for i, s in enumerate(order):
            hands[order[(i + shift) % k]] = moved[i]
    return pass_on


@step
def redeal(args: dict[str, Any]) -> Rule:
    """R6.18: pool the hands of everyone still in, shuffle, deal one at a time from the player named."""
    first = _one_seat(args["first"])

    def deal(turn, arg):
        hands = turn.hands
        pool = [card for s in turn.seats_in() for card in hands[s]]
        shuffle(turn.rng, pool)
        order = turn.order_from(first(turn, arg))
        k = len(order)
        for i, s in enumerate(order):  # one card at a time round the table: the i-th seat gets every k-th card
            hands[s] = pool[i::k]
    return deal


@step
def reverse(args: dict[str, Any]) -> Rule:
    """R6.19: the order of play reverses."""
    def flip(turn, arg):
        turn.direction = -turn.direction
    return flip


@step
def skip(args: dict[str, Any]) -> Rule:
    """R6.20: the next N players still in lose their turn (counted when the turn passes, R4.7)."""
    n = args["skip"]

    def pass_over(turn, arg):
        turn.to_skip += n
    return pass_over


@step
def next_plays(args: dict[str, Any]) -> Rule:
    """R6.21 (R6.8): the next player to take a turn plays two cards (no stacking)."""
    def play_two(turn, arg):
        turn.play2_next = True
    return play_two


@step
def invert_next(args: dict[str, Any]) -> Rule:
    """R6.22 (R6.2): the next number card's sign flips; with invert_through_wilds two cancel."""
    def invert(turn, arg):
        turn.invert = not turn.invert if turn.options.invert_through_wilds else True
    return invert
