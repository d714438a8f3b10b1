"""GameState (engine/state_protocol.py) is the State as PlayerView and Turn use it: every member
they reach names one of its members, and a real State (fresh, mid-game, cloned, resampled) has them all."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from generator.engine import GreedyBot
from generator.engine.state_protocol import GameState

ENGINE = Path(__file__).resolve().parents[2] / "generator" / "engine"
#: Names that hold the State in view.py and effects.py: `self._state`, `s = self._state`, a `state` argument.
HOLDERS = {"s", "state"}


def protocol_members() -> set[str]:
    return set(GameState.__annotations__) | {n for n in vars(GameState) if not n.startswith("_")}


def members_reached(module: str) -> set[str]:
    """The attributes module reads or writes on the State it holds (never a private one)."""
    names = set()
    for node in ast.walk(ast.parse((ENGINE / module).read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Attribute):
            continue
        holder = node.value
        if (isinstance(holder, ast.Attribute) and holder.attr == "_state" and isinstance(holder.value, ast.Name)
                and holder.value.id == "self") or (isinstance(holder, ast.Name) and holder.id in HOLDERS):
            names.add(node.attr)
    return names


@pytest.mark.parametrize("module", ["view.py", "effects.py"])
def test_what_the_module_reaches_on_the_state_is_in_the_protocol(module):
    reached = members_reached(module)
    assert {"hands", "game"} <= reached  # the walk finds what it is meant to find
    assert reached <= protocol_members(), f"{module} reaches {sorted(reached - protocol_members())} outside GameState"


def test_a_state_is_a_game_state_fresh_mid_game_cloned_and_resampled(game4):
    state = game4.new_initial_state(seed=5)
    assert isinstance(state, GameState)
    bot, rng = GreedyBot(), random.Random(5)
    for _ in range(40):
        if state.is_terminal():
            break
        seat = state.current_player()
        state.apply(bot.choose(state.view(seat), state.legal_actions(), rng))
    assert isinstance(state, GameState) and isinstance(state.clone(), GameState)
    assert isinstance(state.view(0).sample_world(rng), GameState)


def test_every_protocol_member_is_a_state_member(game4):
    state = game4.new_initial_state(seed=1)
    missing = [name for name in sorted(protocol_members()) if not hasattr(state, name)]
    assert not missing, f"GameState names what State does not have: {missing}"
