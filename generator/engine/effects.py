"""Wild effects (docs/rules.md R6): a registry keyed by the manifest's effect names.

Each effect is `fn(state, param, arg)`: `state` is the State being played on (the player
who played the card is `state.turn`), `param` the card's parameter from the manifest
(`multiply: {factor: 2}` gives 2, `set_count: {value: 15}` gives 15, else None) and `arg`
the seat the decision names (Steal, Trade, Re-Deal) or -1. Effects resolve before
penalties; the State checks the count afterwards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from generator.engine.state import shuffle

if TYPE_CHECKING:
    from generator.engine.state import State

Effect = Callable[["State", "int | None", int], None]


def draw_extra(state: "State", param: int | None, arg: int) -> None:
    """R6.1 +1 Card: draw one more card now (reshuffling if needed)."""
    state._draw(state.turn)


def invert_next(state: "State", param: int | None, arg: int) -> None:
    """R6.2 +/-: the next number card's sign flips; with invert_through_wilds two cancel."""
    if state.game.options.invert_through_wilds:
        state.invert = not state.invert
    else:
        state.invert = True


def reverse(state: "State", param: int | None, arg: int) -> None:
    """R6.3 Reverse: flip the direction of play."""
    state.direction = -state.direction


def steal(state: "State", param: int | None, arg: int) -> None:
    """R6.4 Steal a Card: a random card of the chosen player's hand (none if it is empty)."""
    victim = state.hands[arg]
    if victim:
        state.hands[state.turn].append(victim.pop(state.rng.randrange(len(victim))))


def trade_hands(state: "State", param: int | None, arg: int) -> None:
    """R6.5 Trade Hands: swap hands with the chosen player."""
    hands = state.hands
    me = state.turn
    hands[me], hands[arg] = hands[arg], hands[me]


def multiply(state: "State", param: int | None, arg: int) -> None:
    """R6.6 x2: multiply the count by the card's factor."""
    state.count *= param  # type: ignore[operator]


def set_count(state: "State", param: int | None, arg: int) -> None:
    """R6.7 =15: set the count to the card's value."""
    state.count = param  # type: ignore[assignment]


def play_two(state: "State", param: int | None, arg: int) -> None:
    """R6.8 Play 2: the next player to take a turn plays two cards (no stacking)."""
    state.play2_next = True


def redeal(state: "State", param: int | None, arg: int) -> None:
    """R6.9 Re-Deal: pool the hands of everyone still in, shuffle, deal from the chosen seat."""
    hands = state.hands
    pool = [card for s in state.seats_in() for card in hands[s]]
    shuffle(state.rng, pool)
    order = state.order_from(arg)  # everyone still in, from the chosen seat
    k = len(order)
    for i, s in enumerate(order):  # one card at a time round the table: the i-th seat gets every k-th card
        hands[s] = pool[i::k]


def rotate_hands(state: "State", param: int | None, arg: int) -> None:
    """R6.10 Rotate Hands: every player still in passes their hand to the next one in."""
    hands = state.hands
    order = state.order_from(state.turn)
    moved = [hands[s] for s in order]
    k = len(order)
    for i, s in enumerate(order):
        hands[order[(i + 1) % k]] = moved[i]


def skip(state: "State", param: int | None, arg: int) -> None:
    """R6.11 Skip: the next player still in loses their turn (two Skips, two players)."""
    state.skip += 1


#: Effect functions by the manifest's effect name (generator.deck.model.EFFECT_PARAMS).
EFFECTS: dict[str, Effect] = {
    "draw_extra": draw_extra,
    "invert_next": invert_next,
    "reverse": reverse,
    "steal": steal,
    "trade_hands": trade_hands,
    "multiply": multiply,
    "set_count": set_count,
    "play_two": play_two,
    "redeal": redeal,
    "rotate_hands": rotate_hands,
    "skip": skip,
}

#: Which seats a seat-naming effect may name: "other" (another player still in) or "any" (anyone still in).
SEAT_CHOICE: dict[str, str] = {"steal": "other", "trade_hands": "other", "redeal": "any"}
