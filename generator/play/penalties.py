"""Why a discard is owed, and why a player is out: the causes the terminal game names.

A discard is owed for one of five reasons (docs/rules.md R4.5, R4.6, R7.5): the card played did
not match, it took the count over the target, it took the count below 0, another player's
card made the count exactly the target, or the player was late. A player is out when a
discard is owed and no card is left, or when no card is left to play. The causes are read
from the state before and after a decision with the engine's own match table, so they are
the rules' causes, not a second reading of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.engine import Action, State
from generator.engine.actions import LATE, PLAY

#: The causes, in the order a play's discards are owed (R4.6: the player's own first).
MISMATCH, OVER, UNDER, TARGET, LATE_CAUSE = "mismatch", "over", "under", "target", "late"


@dataclass(frozen=True)
class Penalty:
    """One discard owed: by whom, why, and the cards and numbers that explain it."""

    seat: int  #: who owes the discard
    cause: str  #: MISMATCH, OVER, UNDER, TARGET or LATE_CAUSE
    by: int  #: whose decision caused it (the player of the card; for TARGET someone else)
    card: str = ""  #: the card played (code), for every cause but LATE_CAUSE
    match: str = ""  #: MISMATCH: the match target the card missed (a card code)
    count: int = 0  #: OVER, UNDER, TARGET: the count the card reached


@dataclass(frozen=True)
class Out:
    """A player who went out, and why."""

    seat: int
    owed: bool  #: True: a discard was owed with no card left; False: no card left to play


def penalties(before: State, action: Action, after: State, actor: int) -> list[Penalty]:
    """The discards `action` (by `actor`) made owed, in the order the rules owe them."""
    if action.kind == LATE:
        return [Penalty(actor, LATE_CAUSE, actor)]
    if action.kind != PLAY:
        return []
    game = after.game
    card = action.card
    found: list[Penalty] = []
    if game.misses[before.match][card]:
        found.append(Penalty(actor, MISMATCH, actor, action.code, game.codes[before.match]))
    reached = after.last_count
    if reached > game.target:
        found.append(Penalty(actor, OVER, actor, action.code, count=reached))
    elif reached < 0:
        found.append(Penalty(actor, UNDER, actor, action.code, count=reached))
    elif reached == game.target and after.sixteen_by == actor:
        for seat in _others_owing(before, after, actor):
            found.append(Penalty(seat, TARGET, actor, action.code, count=reached))
    return found


def _others_owing(before: State, after: State, actor: int) -> list[int]:
    """R4.5(c): every other player still in (option sixteen_hits=opponents: every opponent), in order of play."""
    game = after.game
    opponents_only = game.options.teams and game.options.sixteen_hits == "opponents"
    n = game.players
    seats = [(actor + after.direction * k) % n for k in range(1, n)]
    return [s for s in seats if not before.out[s] and not (opponents_only and s % 2 == actor % 2)]


def outs(before: State, after: State, owing: list[Penalty]) -> list[Out]:
    """Players who went out between `before` and `after`, with why (`owing`: the discards this decision made owed)."""
    owed_before = set(before.owed) | {p.seat for p in owing}
    return [Out(s, s in owed_before) for s in after.out_order[len(before.out_order):]]


def target_plays(state: State) -> set[str]:
    """Hint: the cards the player to act could play now that make the count exactly the target
    (every other player still in, or every opponent, then owes a discard: R4.5(c)), tried as
    `costly_plays` tries them."""
    actor = state.current_player()
    found: set[str] = set()
    tried: set[str] = set()
    for action in state.legal_actions():
        if action.kind != PLAY or action.code in tried:
            continue
        tried.add(action.code)
        trial = state.clone()
        trial.apply(action)
        if trial.sixteen_by == actor and trial.last_count == state.game.target:
            found.add(action.code)
    return found


def costly_plays(state: State) -> dict[str, list[Penalty]]:
    """Hint: for each card the player to act could play now, the discards it would cost that player.

    Each play is tried on a copy of the game (its RNG too), so the answer is the rules' own;
    a card that names a seat is tried with the first seat it may name (the seat changes no count).
    """
    actor = state.current_player()
    cost: dict[str, list[Penalty]] = {}
    for action in state.legal_actions():
        if action.kind != PLAY or action.code in cost:
            continue
        trial = state.clone()
        trial.apply(action)
        cost[action.code] = [p for p in penalties(state, action, trial, actor) if p.seat == actor]
    return cost
