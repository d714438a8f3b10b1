"""Golden playthrough: one seeded game's full text log, compared line by line.

After an intended rules or log change, regenerate it with
    UPDATE_GOLDEN=1 .venv/bin/pytest tests/engine/test_golden.py
and review the diff before committing it.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from generator.engine import Game, make_bot, playthrough
from generator.engine.simulate import bot_seed

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
CASES = {
    "playthrough-the-og-4p.txt": ("the-og", 4, {}, 2026, ("greedy", "random")),
    "playthrough-teams-6p.txt": ("its-wild-time", 6, {"teams": True, "play2_draws": 2}, 7, ("greedy",)),
}


def render(deck, edition, players, options, seed, bots) -> str:
    game = Game(deck, edition, players, options)
    seats = [make_bot(bots[s % len(bots)]) for s in range(players)]
    rng = random.Random(bot_seed(seed))

    def choose(state, legal):
        seat = state.current_player()
        return seats[seat].choose(state.view(seat), legal, rng)

    header = f"# County Uppy playthrough: {edition}, {players} players, seed {seed}, options {options}, bots {','.join(bots)}"
    return "\n".join([header, *playthrough(game.new_initial_state(seed), choose)]) + "\n"


def test_golden_playthroughs(deck):
    update = os.environ.get("UPDATE_GOLDEN") == "1"
    for name, case in CASES.items():
        text = render(deck, *case)
        path = GOLDEN / name
        if update:
            path.write_text(text, encoding="utf-8")
        expected = path.read_text(encoding="utf-8")
        assert text.splitlines() == expected.splitlines(), f"{name} changed; UPDATE_GOLDEN=1 regenerates it"
