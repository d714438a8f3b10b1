"""Play one bot game through the engine's own bot loop and note what the report needs.

`simulate.play_game` (same seeds, same bot RNG) plays the game; its observer hook notes who
played each card, and the State's penalty counters say why each discard was owed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from generator.engine import PENALTY_CAUSES, Game, State, play_game
from generator.engine.actions import PLAY

#: Penalty causes, in the order the report lists them.
CAUSES = PENALTY_CAUSES


@dataclass
class Observed:
    """One finished (or stopped) game as the report sees it."""

    state: State
    plays: list[tuple[int, str]] = field(default_factory=list)  #: (seat, card code) per play
    penalties: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CAUSES, 0))  #: discards owed, by cause
    out_turns: list[int] = field(default_factory=list)  #: the turn each player went out on, in order of going out

    @property
    def waits(self) -> list[int]:
        """Turns each player who went out sat waiting for the game to end, in order of going out."""
        end = self.state.turns
        return [end - t for t in self.out_turns]

    @property
    def winner_seats(self) -> list[int]:
        """The seats that won: one, a whole team, or none (draw or unfinished)."""
        s = self.state
        if s.winner is None:
            return []
        if s.game.options.teams:
            return [seat for seat in range(s.game.players) if seat % 2 == s.winner]
        return [s.winner]


def observe_game(game: Game, bots: Sequence, seed: int) -> Observed:
    """Play game `seed` with one bot per seat, as `simulate` does, recording plays and penalties."""
    plays: list[tuple[int, str]] = []
    out_turns: list[int] = []

    def note(state: State, seat: int, action) -> None:
        if action.kind == PLAY:
            plays.append((seat, action.code))
        while len(out_turns) < len(state.out_order):
            out_turns.append(state.turns)

    state = play_game(game, bots, seed, observer=note)
    return Observed(state, plays, state.penalties_by_cause(), out_turns)
