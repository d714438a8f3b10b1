"""Wilds written as steps (`does:`): every mistake in a step is one located message, exit status 1,
no traceback, and nothing built is lost; a wild the players resolve by its text (`rule: table`)
prints, and the commands that play the deck refuse it at its line."""

from __future__ import annotations

import pytest

from generator.cli import main
from generator.deck.manifest import load
from generator.deck.problems import InputError
from generator.engine import Game, OptionError
from tests.deck.test_errors import line_of

WILD = """  - kind: wild
    set: chaos
    code: HOUSE
    name: House
    does:
{steps}
    text: A house wild.
    copies: 1
"""


def with_wild(manifest_text: str, steps: str, extra: str = "") -> str:
    head, sep, rest = manifest_text.partition("\neditions:\n")
    card = WILD.format(steps=steps) + extra
    rest = rest.replace("expect: 201\n", "expect: 202\n", 1).replace("expect: 93\n", "expect: 94\n", 1) \
               .replace("expect: 123\n", "expect: 124\n", 1)
    return head.rstrip("\n") + "\n" + card + sep + rest


# (id, the lines under does:, what the message says, the text on its line)
MISTAKES = [
    ("unknown step", "      - cuont: {add: 2}", "unknown step 'cuont' (did you mean 'count'?)", "cuont"),
    ("unknown who", "      - draw: {who: otters, cards: 1}", "unknown player 'otters' (did you mean 'others'?)", "otters"),
    ("who not allowed", "      - take: {from: me, cards: 1}", "'from: me' is not allowed here (you take from other players)", "from: me"),
    ("divide by zero", "      - count: {divide: 0}", "'divide' must be 2..999 (dividing by 1 would change nothing, by 0 is not defined), not 0", "divide: 0"),
    ("no cards", "      - draw: {who: me, cards: 0}", "'cards' must be 1..9", "cards: 0"),
    ("skip too far", "      - skip: 9", "skip: 'skip' must be 1..3", "skip: 9"),
    ("set beyond the largest count", "      - count: {set: 1000}", "'set' must be 0..999 (the count it sets), not 1000", "set: 1000"),
    ("add nothing", "      - count: {add: 0}", "'add' must be -999..999, not 0", "add: 0"),
    ("two counts in one step", "      - count: {add: 1, set: 3}", "'count' takes exactly one of add, set, multiply, divide", "count:"),
    ("missing number", "      - draw: {who: me}", "step 'draw' needs 'cards'", "draw:"),
    ("unknown argument", "      - draw: {who: me, cards: 1, card: 2}", "step 'draw' has no 'card' (did you mean 'cards'?)", "card: 2"),
    ("two choosing steps", "      - take: {from: chosen, cards: 1}\n      - trade_hands: {with: chosen}",
     "a card may let its player choose a seat in one step only (this is the second)", "trade_hands"),
    ("not a number", "      - skip: two", "skip: 'skip' must be a whole number, not 'two'", "skip: two"),
    ("reverse false", "      - reverse: false", "'reverse' takes only true", "reverse: false"),
    ("two keys in one item", "      - {skip: 1, reverse: true}", "each step is one key", "skip: 1, reverse"),
    ("empty without table", "      []", "'does' is empty: give at least one step", "does:"),
]


@pytest.mark.parametrize("steps, message, needle", [m[1:] for m in MISTAKES], ids=[m[0] for m in MISTAKES])
def test_a_mistake_in_a_step_is_located(tmp_path, capsys, manifest_text, steps, message, needle):
    steps = steps if not steps.strip().startswith("[]") else ""
    text = with_wild(manifest_text, steps)
    if not steps:
        text = text.replace("    does:\n\n", "    does: []\n").replace("    does:\n    text", "    does: []\n    text")
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    status = main(["validate", "--manifest", str(path)])
    err = capsys.readouterr().err
    assert status == 1 and "Traceback" not in err, err
    lines = [ln for ln in err.splitlines() if message in ln]
    assert lines, err
    start = text.index("code: HOUSE")
    line = line_of(text[start:], needle) + text[:start].count("\n")
    assert lines[0].startswith(f"{path}:{line}:"), (lines[0], line)


@pytest.mark.parametrize("extra, message", [
    ("    effect: skip\n", "a wild card gives 'does' or 'effect', not both"),
    ("    params: {count: 2}\n", "'params' go with 'effect:'; with 'does:' each step holds its own numbers"),
])
def test_does_goes_alone(tmp_path, capsys, manifest_text, extra, message):
    text = with_wild(manifest_text, "      - skip: 1").replace("    text: A house wild.\n", extra + "    text: A house wild.\n", 1)
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    assert main(["validate", "--manifest", str(path)]) == 1
    assert message in capsys.readouterr().err


def test_a_wild_with_neither_does_nor_effect_says_both(tmp_path, manifest_text):
    text = with_wild(manifest_text, "").replace("    does:\n\n", "").replace("    does:\n    text", "    text")
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match="a wild card needs 'does', its steps"):
        load(path)


def test_a_table_rule_wild_prints_and_the_engine_refuses_it_at_its_line(tmp_path, capsys, manifest_text):
    text = with_wild(manifest_text, "").replace("    does:\n\n", "    does: []\n    rule: table\n") \
        .replace("    does:\n    text", "    does: []\n    rule: table\n    text")
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    assert main(["validate", "--manifest", str(path)]) == 0
    out = capsys.readouterr().out
    rule_line = line_of(text, "rule: table")
    assert f"{path}:{rule_line}:" in out and "wild 'HOUSE' has 'rule: table'" in out and "simulate, report, sweep" in out
    deck = load(path)
    with pytest.raises(OptionError, match=f"{path}:{rule_line}:.*wild 'HOUSE' has 'rule: table'"):
        Game(deck, "the-og", 3)
    Game(deck, "math-is-fun", 3)  # an edition without it plays
    status = main(["simulate", "--manifest", str(path), "--games", "2", "--players", "3"])
    err = capsys.readouterr().err
    assert status == 2 and f"{path}:{rule_line}:" in err and "Traceback" not in err
    # it prints: its face and the rulebook's text
    from generator.products.render import faces

    face = faces.face(deck.card("HOUSE"), deck)
    assert "A house wild." in " ".join(i.text for i in face.items if isinstance(i, faces.Text))


def test_a_table_rule_wild_with_steps_is_an_error(tmp_path, capsys, manifest_text):
    text = with_wild(manifest_text, "      - skip: 1").replace("    text: A house wild.\n", "    rule: table\n    text: A house wild.\n", 1)
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    assert main(["validate", "--manifest", str(path)]) == 1
    assert "a wild with 'rule: table' is resolved by the players from its text: give it 'does: []'" in capsys.readouterr().err


def test_a_step_s_number_sweeps_by_its_name(tmp_path, manifest_text):
    from generator.deck.tweak import tweak, tweakable
    from generator.deck.yaml_source import read

    path = tmp_path / "cards.yaml"
    path.write_text(with_wild(manifest_text, "      - draw: {who: others, cards: 1}\n      - skip: 1"), encoding="utf-8")
    deck = load(path)
    names = tweakable(deck).names()
    assert "params.HOUSE.draw.cards" in names and "params.HOUSE.skip" in names
    changed = tweak(read(path), deck, {"params.HOUSE.draw.cards": 2, "params.HOUSE.skip": 2})
    assert [s.args for s in changed.card("HOUSE").effect.steps] == [(("who", "others"), ("cards", 2)), (("skip", 2),)]
