"""PlayerView: what one seat may see. Bots get this instead of the State.

A view reads the live State for its seat and gives out only what that seat may see; a bot
that searches asks it for sampled worlds (`sample_world`), never for the State itself.

state.py imports this module (State.view), so it names the State by its Protocol, GameState.
"""

from __future__ import annotations

import random
from collections import Counter

from generator.engine.state_protocol import GameState


class PlayerView:
    """One seat's view of a game: its own hand, everyone's hand sizes and the public table.

    Fields are computed when read, so making a view costs one small object. Card values
    are codes (strings); `*_ids` variants give the engine's card indices for fast bots.
    """

    __slots__ = ("_state", "seat")

    def __init__(self, state: GameState, seat: int):
        self._state = state
        self.seat = seat  #: the seat this view belongs to

    @property
    def game(self):
        """The Game (deck, edition, options, card tables): public knowledge."""
        return self._state.game

    @property
    def hand(self) -> list[str]:
        return [self._state.game.codes[c] for c in self._state.hands[self.seat]]

    @property
    def hand_ids(self) -> list[int]:
        return list(self._state.hands[self.seat])

    @property
    def hand_sizes(self) -> list[int]:
        return [len(h) for h in self._state.hands]

    @property
    def count(self) -> int:
        return self._state.count

    @property
    def target(self) -> int:
        return self._state.game.target

    @property
    def match(self) -> str:
        s = self._state
        return "start" if s.match == s.game.START else s.game.codes[s.match]

    @property
    def match_id(self) -> int:
        return self._state.match

    @property
    def in_play(self) -> list[str]:
        return [self._state.game.codes[c] for c in self._state.in_play]

    @property
    def discard(self) -> list[str]:
        """The discard pile, bottom first (every card in it was seen)."""
        return [self._state.game.codes[c] for c in self._state.discard]

    @property
    def discard_ids(self) -> list[int]:
        """The discard pile as card indices, bottom first."""
        return list(self._state.discard)

    @property
    def in_play_ids(self) -> list[int]:
        """The cards in play as card indices, most recent last."""
        return list(self._state.in_play)

    @property
    def over(self) -> bool:
        """The game has ended (a winner, a draw, or stopped at max_turns)."""
        return self._state.done

    @property
    def winner(self) -> int | None:
        """The winning seat (Teams: team) once the game is over, else None."""
        return self._state.winner

    @property
    def draw_size(self) -> int:
        return self._state.draw_size

    def hand_size(self, seat: int) -> int:
        return len(self._state.hands[seat])

    @property
    def n_in(self) -> int:
        """Players still in."""
        return self._state.n_in

    @property
    def direction(self) -> int:
        return self._state.direction

    @property
    def turn(self) -> int:
        return self._state.turn

    @property
    def out(self) -> list[bool]:
        return list(self._state.out)

    @property
    def owed(self) -> list[int]:
        return list(self._state.owed)

    @property
    def giver(self) -> int:
        """Teams (R7.2): the teammate asked now whether to give the player a card, -1 for none."""
        s = self._state
        return -1 if s.owed or s.done else s.giver

    @property
    def invert(self) -> bool:
        return self._state.invert

    @property
    def play2(self) -> int:
        return self._state.play2

    @property
    def played(self) -> int:
        return self._state.played

    @property
    def players(self) -> int:
        return self._state.game.players

    @property
    def teams(self) -> bool:
        return self._state.game.options.teams

    def next_in(self, seat: int) -> int:
        return self._state.next_in(seat)

    def sample_world(self, rng: random.Random) -> GameState:
        """A whole game this seat cannot tell from the real one, to search on: `State.resample(seat, rng)`.

        Its own hand and everything public are as they are; the cards this seat cannot see
        (the other hands, the draw pile) and the game's random draws to come are dealt anew
        from `rng`. The view itself holds no copy of the game and gives none: the hidden
        cards stay in the real State, and a sample never shows where they are.
        """
        return self._state.resample(self.seat, rng)

    def unseen(self) -> Counter[int]:
        """Card indices this seat cannot place: the cards of the game minus own hand, discard, in play."""
        s = self._state
        total = Counter(s.game.edition_cards) if not _custom(s) else s.card_counts()
        total.subtract(s.hands[self.seat])
        total.subtract(s.discard)
        total.subtract(s.in_play)
        return +total

    def __repr__(self) -> str:
        return f"<PlayerView seat={self.seat} hand={self.hand} count={self.count} match={self.match}>"


def _custom(s: GameState) -> bool:
    # A position may hold a stacked deck rather than the whole edition.
    return sum(len(h) for h in s.hands) + s.draw_size + len(s.discard) + len(s.in_play) != len(s.game.edition_cards)
