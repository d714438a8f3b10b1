"""Fixed integer ids for every decision of docs/formats.md, for learning libraries.

A game's ids depend only on the manifest: its card types in manifest order (the engine's card
indices, `Game.codes`) and `SEATS` seat slots, so every edition, player count and rule option
of one manifest shares one table. With K card types (card c, seat s), in id order:

    play c            c
    play c s          K + SEATS*c + s
    discard c         K*(1 + SEATS) + c
    give s c          K*(2 + SEATS) + SEATS*c + s
    late              K*(2 + 2*SEATS)
    no give           K*(2 + 2*SEATS) + 1

where SEATS is 8 (or the manifest's players.max if that is more). Seat slots name seats as
the engine does (seat 0 is seat 0), or, given the acting seat `me` (PettingZoo's and the
Gymnasium environment's default), relative to it as the observations do: slot r is seat
(me + r) % players, so a give is always slot 0 and "the next seat" always slot 1.
`python -m generator.ai.actions [--manifest PATH]` prints the table.
"""

from __future__ import annotations

import argparse
import sys
from typing import Iterator

from generator.deck.manifest import load
from generator.engine.actions import DISCARD, GIVE, LATE, NO_GIVE, PLAY, Action
from generator.engine.game import Game

#: Seat slots in the id table: 8, or the manifest's players.max if that is more.
SEATS = 8


def seat_slots(deck) -> int:
    return max(SEATS, deck.params.max_players)


class ActionIds:
    """The id table of one Game's manifest: `id(action)` and `action(id)`, both O(1)."""

    def __init__(self, game):
        self.game = game
        self.cards = k = len(game.codes)
        self.seats = seat_slots(game.deck)
        s = self.seats
        self.play_seat_base = k
        self.discard_base = k * (1 + s)
        self.give_base = k * (2 + s)
        self.late_id = k * (2 + 2 * s)
        self.no_give_id = self.late_id + 1
        #: How many ids there are (OpenSpiel's num_distinct_actions, a Discrete space's size).
        self.size = self.no_give_id + 1

    def id(self, action: Action, me: int | None = None) -> int:
        """The id of a decision (an Action the engine listed or parsed); `me`: seats relative to that seat."""
        kind = action.kind
        if kind == LATE:
            return self.late_id
        if kind == NO_GIVE:
            return self.no_give_id
        c = action.card if action.card >= 0 else self.game.index[action.code]
        seat = action.seat if me is None or action.seat is None else (action.seat - me) % self.game.players
        if kind == PLAY:
            return c if seat is None else self.play_seat_base + self.seats * c + seat
        if kind == DISCARD:
            return self.discard_base + c
        if kind == GIVE:
            return self.give_base + self.seats * c + seat  # type: ignore[operator]
        raise ValueError(f"not a decision: {action!r}")

    def action(self, action_id: int, me: int | None = None) -> Action:
        """The engine's (interned) Action of an id; ValueError if the id names nothing in this game.
        `me`: the id's seat slots are relative to that seat."""
        game, k, s = self.game, self.cards, self.seats
        if not isinstance(action_id, int) or isinstance(action_id, bool) or not 0 <= action_id < self.size:
            raise ValueError(f"action id {action_id!r} is not 0..{self.size - 1}")
        if action_id == self.late_id:
            return game.late_action
        if action_id == self.no_give_id:
            return game.no_give_action
        if action_id < k:
            return game.play_actions[action_id][0]
        if action_id < self.discard_base:
            c, seat = divmod(action_id - k, s)
            kind = "play"
        elif action_id < self.give_base:
            return game.discard_actions[action_id - self.discard_base]
        else:
            c, seat = divmod(action_id - self.give_base, s)
            kind = "give"
        if seat >= game.players:
            raise ValueError(f"action id {action_id} names seat {seat}, but there are {game.players} players")
        if me is not None:
            seat = (seat + me) % game.players
        return game.play_actions[c][seat + 1] if kind == "play" else game.give_actions[seat][c]

    def mask(self, legal, me: int | None = None) -> list[int]:
        """1 at the id of every legal action, 0 elsewhere (a list of `size` ints)."""
        out = [0] * self.size
        for a in legal:
            out[self.id(a, me)] = 1
        return out

    def rows(self) -> Iterator[tuple[int, str]]:
        """(id, decision string) for every id this game can use, ascending."""
        for i in range(self.size):
            try:
                yield i, str(self.action(i))
            except ValueError:
                continue


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m generator.ai.actions", description="Print the decision ids of a manifest.")
    p.add_argument("--manifest", default="cards.yaml")
    args = p.parse_args(argv)
    deck = load(args.manifest)
    ids = ActionIds(Game(deck, deck.editions[0].key, max(2, min(SEATS, deck.params.max_players))))
    print(f"# {ids.size} ids: {ids.cards} card types, {ids.seats} seat slots")
    for i, text in ids.rows():
        print(f"{i}\t{text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
