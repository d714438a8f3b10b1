"""Counts gathered from simulated games, small enough to send between processes and mergeable.

A worker plays a chunk of one grid cell's games and returns a Tally; the parent merges the
chunks of a cell in chunk order, so the result never depends on which worker finished first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable


@dataclass
class CardTally:
    """How one card type was played across a cell's games."""

    plays: int = 0  #: times it was played
    plays_by_winner: int = 0  #: of those, played by the seat (or team) that went on to win
    games: int = 0  #: games in which it was played at least once


@dataclass
class Tally:
    """Everything the report needs from a set of games of one grid cell."""

    players: int
    games: int = 0
    finished: int = 0
    draws: int = 0  #: finished without a winner (all_out=draw)
    wins_by_seat: list[int] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)  #: one per finished game, in game order
    plays: int = 0  #: card plays in finished games
    plays_by_winner: int = 0
    cards: dict[str, CardTally] = field(default_factory=dict)
    penalties: dict[str, int] = field(default_factory=dict)  #: cause -> count (finished games)
    unfinished_games: list[int] = field(default_factory=list)  #: game indices (as in simulate), to replay them
    first_out_waits: list[int] = field(default_factory=list)  #: per finished game with someone out: turns the first one out waited
    out_players: int = 0  #: players who went out before the end, in finished games
    out_wait_turns: int = 0  #: turns those players waited, summed
    luck_games: int = 0  #: luck-versus-skill games: one stronger bot among weaker ones (summarize.LUCK_BOTS)
    luck_wins: int = 0  #: of those, won by the stronger bot (its team, in Teams)

    def __post_init__(self) -> None:
        if not self.wins_by_seat:
            self.wins_by_seat = [0] * self.players

    def add_game(
        self,
        *,
        index: int,
        finished: bool,
        winner_seats: Iterable[int],
        turns: int,
        plays: Iterable[tuple[int, str]],
        penalties: dict[str, int],
        waits: Iterable[int] = (),
    ) -> None:
        """Count one game. `winner_seats`: the winning seat (Teams: all its seats); empty for a draw.
        `waits`: turns each player who went out waited for the end, in order of going out."""
        self.games += 1
        if not finished:
            self.unfinished_games.append(index)
            return
        self.finished += 1
        winners = set(winner_seats)
        if not winners:
            self.draws += 1
        for s in winners:
            self.wins_by_seat[s] += 1
        self.turns.append(turns)
        waits = list(waits)
        if waits:
            self.first_out_waits.append(waits[0])
            self.out_players += len(waits)
            self.out_wait_turns += sum(waits)
        seen: set[str] = set()
        for seat, code in plays:
            card = self.cards.get(code)
            if card is None:
                card = self.cards[code] = CardTally()
            card.plays += 1
            self.plays += 1
            if seat in winners:
                card.plays_by_winner += 1
                self.plays_by_winner += 1
            if code not in seen:
                seen.add(code)
                card.games += 1
        for cause, n in penalties.items():
            if n:
                self.penalties[cause] = self.penalties.get(cause, 0) + n

    def add_luck_game(self, won: bool) -> None:
        """Count one luck-versus-skill game: did the stronger bot win it?"""
        self.luck_games += 1
        self.luck_wins += bool(won)

    def merge(self, other: "Tally") -> None:
        """Add another chunk of the same cell (call in chunk order)."""
        self.games += other.games
        self.finished += other.finished
        self.draws += other.draws
        self.wins_by_seat = [a + b for a, b in zip(self.wins_by_seat, other.wins_by_seat)]
        self.turns.extend(other.turns)
        self.plays += other.plays
        self.plays_by_winner += other.plays_by_winner
        for code, c in other.cards.items():
            mine = self.cards.get(code)
            if mine is None:
                mine = self.cards[code] = CardTally()
            mine.plays += c.plays
            mine.plays_by_winner += c.plays_by_winner
            mine.games += c.games
        for cause, n in other.penalties.items():
            self.penalties[cause] = self.penalties.get(cause, 0) + n
        self.unfinished_games.extend(other.unfinished_games)
        self.first_out_waits.extend(other.first_out_waits)
        self.out_players += other.out_players
        self.out_wait_turns += other.out_wait_turns
        self.luck_games += other.luck_games
        self.luck_wins += other.luck_wins
