"""Play one bot game through the engine's public API and note what the report needs.

The loop is the engine's own bot loop (`simulate.play_game`: same seeds, same bot RNG),
written against `State`'s public surface so that it can also see who played each card and
why each discard was owed. A test checks that both loops play identical games.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Sequence

from generator.engine import Game, State
from generator.engine.actions import LATE, PLAY
from generator.engine.simulate import bot_seed

#: Penalty causes, in the order the report lists them.
CAUSES = ("mismatch", "bust", "target", "late")


@dataclass
class Observed:
    """One finished (or stopped) game as the report sees it."""

    state: State
    plays: list[tuple[int, str]] = field(default_factory=list)  #: (seat, card code) per play
    penalties: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CAUSES, 0))  #: discards owed, by cause

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
    """Play game `seed` with one bot per seat, as `simulate` would, recording plays and penalties."""
    state = game.new_initial_state(seed)
    rng = random.Random(bot_seed(seed))
    seen = Observed(state)
    matches = game.matches
    views = [state.view(s) for s in range(game.players)]  # views are live: one per seat will do
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if not legal:
            continue
        action = bots[seat].choose(views[seat], legal, rng)
        if action.kind != PLAY:
            state.apply(action)
            if action.kind == LATE:
                seen.penalties["late"] += 1
            continue
        missed = 0 if matches[state.match][action.card] else 1
        out_before = len(state.out_order)
        seen.plays.append((seat, action.code))
        state.apply(action)
        seen.penalties["mismatch"] += missed
        seen.penalties["bust"] += max(0, state.last_penalty - missed)
        if state.sixteen_by == seat:
            hit = sum(1 for s in state.owed if s != seat)
            hit += sum(1 for s in state.out_order[out_before:] if s != seat)
            seen.penalties["target"] += hit
    return seen
