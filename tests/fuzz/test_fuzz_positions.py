"""Property-based fuzzing of positions, scenario decisions and game records: `scenario` and `replay`
end with exit 0, 1 or 2, one printable line on stderr for 1 and 2, no traceback; and every
position `scenario` accepts obeys the deck (no card outside the edition, no more copies than the
edition has, the count within 0..target-1), before and after its decisions.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from generator.cli import main
from generator.deck.manifest import load
from generator.engine import Game, make_record, simulate  # noqa: F401  (simulate: the record writer's module)
from tests.fuzz.profiles import examples
from tests.conftest import ROOT, MANIFEST

DECK = load(MANIFEST)
SCENARIOS = sorted((ROOT / "tests" / "scenarios").glob("*.json"))
POSITIONS = [json.loads(p.read_text(encoding="utf-8")) for p in SCENARIOS]
CODES = [c.code for c in DECK.cards]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def obeys_the_deck(position: dict) -> None:
    """R8 for a position: only the edition's cards, at most its copies of each, the count in range."""
    edition = DECK.edition(position.get("edition", "the-og"))
    piles = [c for h in position["hands"] for c in h] + position.get("draw", []) + position.get("discard", []) + \
        position.get("in_play", [])
    for code, n in Counter(piles).items():
        assert code in edition.codes, f"{code} is not in {edition.key}"
        assert n <= DECK.card(code).copies, f"{n} copies of {code}"
    assert 0 <= position.get("count", 0) < DECK.params.target


def check(path: Path, command: str, data: Any) -> int:
    status, out, err = run(command, str(path), "--json", "--manifest", str(MANIFEST))
    assert "Traceback" not in out + err, err
    assert status in (0, 1, 2), (status, err)
    if status:
        assert err.count("\n") == 1 and err.startswith(str(path)), err
        assert err.rstrip("\n").isprintable(), err
    elif command == "scenario":
        if isinstance(data, dict) and "hands" in data:
            obeys_the_deck(data)
        obeys_the_deck(json.loads(out))
    return status


# --- mutations ------------------------------------------------------------------------

codes = st.one_of(st.sampled_from(CODES), st.text(max_size=8), st.sampled_from(["REF", "BLANK", "start", "\x1b[2J", "C5\n"]))
numbers = st.one_of(st.integers(-3, 20), st.integers(-(2 ** 70), 2 ** 70), st.sampled_from([2 ** 200, 10 ** 39]))
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), numbers, st.floats(allow_nan=False, allow_infinity=False), codes),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=8)
decisions = st.one_of(
    st.builds(lambda verb, code, seat: f"{verb} {code}{seat}", st.sampled_from(["play", "discard", "give", "plya"]),
              codes, st.one_of(st.just(""), st.builds(lambda n: f" {n}", numbers))),
    st.builds(lambda seat, code: f"give {seat} {code}", numbers, codes),
    st.text(max_size=20),
)
KEYS = ["players", "edition", "options", "seed", "count", "match", "direction", "turn", "hands", "draw", "discard",
        "in_play", "out", "winner", "pending", "turns", "decisions"]


@st.composite
def mutated_scenario(draw) -> dict:
    data = json.loads(json.dumps(draw(st.sampled_from(POSITIONS))))
    data.pop("expected", None)
    data.pop("expected_error", None)
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["value", "drop", "card", "card", "decision", "count", "huge"]))
        key = draw(st.sampled_from(KEYS))
        if op == "value":
            data[key] = draw(json_values)
        elif op == "drop":
            data.pop(key, None)
        elif op == "card":  # add a card to a pile: maybe a copy too many, maybe outside the edition
            pile = draw(st.sampled_from(["draw", "discard", "in_play", "hands"]))
            target = data.setdefault(pile, [])
            if pile == "hands" and isinstance(target, list) and target and isinstance(target[0], list):
                target = target[draw(st.integers(0, len(target) - 1))]
            if isinstance(target, list):
                target.extend([draw(codes)] * draw(st.integers(1, 4)))
        elif op == "decision":
            data.setdefault("decisions", [])
            if isinstance(data["decisions"], list):
                data["decisions"].insert(draw(st.integers(0, len(data["decisions"]))), draw(decisions))
        elif op == "count":
            data["count"] = draw(numbers)
        else:
            data[draw(st.sampled_from(["seed", "players", "turn", "turns", "count"]))] = draw(st.sampled_from(
                [10 ** 39, 2 ** 64, -(2 ** 63)]))
    return data


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz-positions")


@settings(max_examples=examples(70))
@given(data=mutated_scenario())
@example(data={"players": 3, "hands": [["C5", "C5"], ["C5", "C5"], []]})
@example(data={"players": 3, "edition": "keep-it-simple", "hands": [["SKIP", "C5"], ["C1"], ["C2"]],
               "decisions": ["play SKIP"]})
@example(data={"players": 2, "count": 2 ** 200, "hands": [["C5"], ["C1"]]})
@example(data={"players": 2, "count": 100, "hands": [["C5"], ["C1"]]})
def test_mutated_scenarios(workdir, data):
    path = workdir / "scenario.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    check(path, "scenario", data)


def test_a_5000_digit_seed(workdir):
    path = workdir / "seed.json"
    path.write_text('{"players": 3, "seed": ' + "1" * 5000 + "}", encoding="utf-8")
    assert check(path, "scenario", None) == 2


# --- records --------------------------------------------------------------------------

def record(seed: int, players: int) -> dict:
    game = Game(DECK, "the-og", players)
    state = game.new_initial_state(seed)
    rng = __import__("random").Random(seed)
    while not state.is_terminal() and len(state.history) < 60:
        state.apply(rng.choice(state.legal_actions()))
    return make_record(state, ["random"] * players)


RECORDS = [record(seed, players) for seed, players in ((1, 2), (2, 3), (3, 4))]


@st.composite
def mutated_record(draw) -> dict:
    data = json.loads(json.dumps(draw(st.sampled_from(RECORDS))))
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["value", "drop", "decision", "swap", "cut", "bots", "result"]))
        key = draw(st.sampled_from(["seed", "players", "edition", "options", "bots", "decisions", "result"]))
        moves = data.get("decisions")
        if op == "value":
            data[key] = draw(json_values)
        elif op == "drop":
            data.pop(key, None)
        elif op == "decision" and isinstance(moves, list):
            moves.insert(draw(st.integers(0, len(moves))), draw(decisions))
        elif op == "swap" and isinstance(moves, list) and len(moves) > 1:
            i = draw(st.integers(0, len(moves) - 2))
            moves[i], moves[i + 1] = moves[i + 1], moves[i]
        elif op == "cut" and isinstance(moves, list):
            del moves[draw(st.integers(0, len(moves))):]
        elif op == "bots":
            data["bots"] = draw(st.lists(st.one_of(st.sampled_from(["random", "greedy", "search", "human"]),
                                                   st.builds(lambda n: f"search:{n}", numbers), st.text(max_size=6)),
                                         max_size=5))
        elif op == "result" and isinstance(data.get("result"), dict):
            data["result"][draw(st.sampled_from(["winner", "finished", "turns", "out", "other"]))] = draw(json_values)
    return data


@settings(max_examples=examples(40))
@given(data=mutated_record())
@example(data={"seed": 1, "players": 2, "bots": ["search:" + "9" * 5000, "random"], "decisions": []})
@example(data={"seed": 1, "players": 2, "bots": ["search:²", "random"], "decisions": []})
def test_mutated_records(workdir, data):
    path = workdir / "record.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    check(path, "replay", data)
