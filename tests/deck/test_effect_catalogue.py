"""The steps and the named wilds: every one complete in every layer, and new wilds added end to end.

The end-to-end tests are the README's "Adding a wild" walk-through, run: house wilds written
only in YAML validate, print, reach the quick reference and the rulebook in words made from
their steps, and are played by the engine, the bots and OpenSpiel; then a new step, added in
Python as the README shows, plays the same way.
"""

from __future__ import annotations

import io
import re
import textwrap

import pytest
from PIL import Image

from generator.deck import steps as steps_module
from generator.deck.effects import CATALOGUE, wild_entry
from generator.deck.manifest import load
from generator.deck.model import Step
from generator.deck.quickref import short_effect
from generator.deck.steps import STEPS, StepKind, sentence
from generator.engine import EngineError, Game, run_scenario, simulate
from generator.engine import steps as rules_module
from generator.engine.simple_bots import GreedyBot
from generator.engine.steps import STEP_RULES
from tests.ai.extra import need
from tests.catalogue_check import _example, catalogue_problems, step_problems
from tests.effect_helpers import plain_step, temporary_step, with_steps
from tests.house_wilds import CODES, README, house_manifest

SHIPPED = ("draw_extra", "invert_next", "reverse", "steal", "trade_hands", "multiply", "set_count", "play_two",
           "redeal", "rotate_hands", "skip")
STEP_KINDS = ("count", "draw", "discard", "take", "trade_hands", "pass_hands", "redeal", "reverse", "skip",
              "next_plays", "invert_next")


def test_the_catalogue_holds_the_shipped_effects_and_the_steps():
    assert tuple(CATALOGUE) == SHIPPED
    assert tuple(STEPS) == STEP_KINDS


def test_every_effect_and_step_is_complete_in_every_layer():
    assert catalogue_problems() == []


def test_every_named_effect_is_its_steps(deck):
    """`effect: steal` is `does: [take: {from: chosen, cards: 1}]`: the manifest gives every named
    wild its steps, parameters filled in."""
    steps = {c.code: c.effect.steps for c in deck.cards if c.effect}
    assert steps["STEAL"] == (Step("take", (("from", "chosen"), ("cards", 1))),)
    assert steps["x2"] == (Step("count", (("multiply", 2),)),)
    assert steps["=15"] == (Step("count", (("set", 15),)),)
    assert steps["+1"] == (Step("draw", (("who", "me"), ("cards", 1))),)
    assert steps["ROTATE"] == (Step("pass_hands", (("to", "next"),)),)
    assert steps["REDEAL"] == (Step("redeal", (("first", "anyone"),)),)


def test_a_half_added_step_is_named_with_everything_it_lacks():
    kind = StepKind("half_done", "", args=(steps_module.Arg("who", "who", choices=("chosen",)),),
                    say=lambda a: "does something", glyph=lambda a: "中", keep=lambda a: 5.0,
                    options=("no_such_option",), writes=("turn",))
    with temporary_step(kind, rule=None):
        problems = step_problems(kind)
        assert set(catalogue_problems()) >= set(problems)
    text = "\n".join(problems)
    for lack in ("no rule function", "no scoring for the greedy bot", "cannot draw", "no terminal question",
                 "option 'no_such_option'", "writes 'turn'"):
        assert "step 'half_done': " in text and lack in text, lack


def test_a_rule_without_a_step_record_is_named():
    STEP_RULES["orphan"] = lambda args: (lambda turn, arg: None)
    try:
        assert "rule 'orphan' in generator/engine/steps.py has no step record in generator/deck/steps.py" in \
            catalogue_problems()
    finally:
        del STEP_RULES["orphan"]


def test_the_engine_refuses_a_step_it_has_no_rule_for(deck):
    with temporary_step(plain_step("no_rule_yet"), rule=None):
        with pytest.raises(EngineError, match="step 'no_rule_yet' has no rule: add a function 'no_rule_yet'"):
            Game(with_steps(deck, "REV", Step("no_rule_yet", (("no_rule_yet", True),))), "the-og", 3)


@pytest.mark.parametrize("key", STEP_KINDS)
def test_every_step_in_every_layer(deck, key):
    """Each step, alone on a wild: its face, its quick-reference line, the rulebook's sentence, the
    greedy bot's choice, and the engine playing whole games with it, without an error."""
    from generator.products.render import faces

    kind = STEPS[key]
    args = _example(kind)
    step = Step(key, tuple(args.items()))
    d = with_steps(deck, "REV", step)
    card = d.card("REV")
    face = faces.face(card, d)
    assert kind.glyph(args) in [item.text for item in face.items if isinstance(item, faces.Text)]
    assert short_effect(card, d) == sentence((step,))
    assert wild_entry(card.effect).seat == kind.chooses(args)
    summary = simulate(d, games=6, players=3, seed=1, bots=("greedy", "random"), workers=1)
    assert summary["finished"] + summary.get("stopped", 0) == 6 and summary["cards"]["REV"]["plays"] > 0


# --- the README's walk-through: wilds in YAML ------------------------------------------------
@pytest.fixture(scope="module")
def house(tmp_path_factory):
    path = house_manifest(tmp_path_factory.mktemp("house"))
    return path, load(path)


def test_house_wilds_validate_with_their_steps(house):
    _, deck = house
    assert deck.card("HALF").effect.steps == (Step("count", (("divide", 2),)),)
    assert deck.card("GIFT").effect.steps == (Step("draw", (("who", "others"), ("cards", 1))), Step("skip", (("skip", 1),)))
    assert deck.edition_count("the-og") == 201 + 10
    assert deck.edition_count("keep-it-simple") == 90


def test_house_wilds_print_and_read(house, tmp_path):
    from generator.products.pipeline import rasters
    from generator.products.render import faces
    from generator.products.rulebook import page

    _, deck = house
    glyphs = {code: [i.text for i in faces.face(deck.card(code), deck).items if isinstance(i, faces.Text)]
              for code in CODES}
    assert "½" in glyphs["HALF"] and "+1⊘" in glyphs["GIFT"] and "☚2" in glyphs["GRAB2"]
    image = Image.open(io.BytesIO(rasters.face_png(faces.face(deck.card("GIFT"), deck))))
    assert image.size == (825, 1125)
    # the quick reference: a sentence from the steps, on the second wilds card (the chaos set's wilds)
    assert short_effect(deck.card("GIFT"), deck) == "Everyone else draws a card, then the next player loses a turn."
    assert short_effect(deck.card("HALF"), deck) == "Halve the count, rounding down."
    assert short_effect(deck.card("TAX"), deck) == "Everyone else discards a card."
    more = " ".join(i.text for i in faces.face(deck.card("REFW2"), deck).items if isinstance(i, faces.Text))
    first = " ".join(i.text for i in faces.face(deck.card("REFW"), deck).items if isinstance(i, faces.Text))
    assert "Halve" in more and "Gift" in more and "Halve" not in first and "Steal" in first
    html = page.render(deck)
    assert "<strong>Gift</strong>: everyone else draws a card, then the next player loses a turn." in html
    assert "<strong>Grab Two</strong>: take two cards at random from a player." in html


def test_house_wilds_build_every_product(house, tmp_path, capsys):
    """`county-uppy build` of the house deck: every product, the house wilds in each."""
    import json

    from generator.cli import main

    path, _ = house
    out = tmp_path / "output"
    assert main(["build", "--manifest", str(path), "--out", str(out)]) == 0, capsys.readouterr().err
    capsys.readouterr()
    names = {code: f"{code}.png" for code in CODES} | {"BACK": "BACK_2.png"}  # back.png is the card back's: BACK's is _2
    for code, name in names.items():
        assert (out / "cards" / name).is_file(), code
    deck_json = json.loads((out / "deck.json").read_text(encoding="utf-8"))
    does = {c["code"]: c["does"] for c in deck_json["cards"] if c["kind"] == "wild"}
    assert does["GIFT"] == [{"draw": {"who": "others", "cards": 1}}, {"skip": 1}] and does["STEAL"] == [
        {"take": {"from": "chosen", "cards": 1}}]
    rulebook = (out / "rulebook.html").read_text(encoding="utf-8")
    assert "everyone else draws a card, then the next player loses a turn." in rulebook
    assert any(p.suffix == ".pdf" for p in (out / "print").iterdir())


def test_a_house_wild_s_own_picture_wins_over_its_glyph(tmp_path):
    """`look: icons:` naming a wild of steps by its code in lower case draws that picture for its glyph."""
    from generator.products.render import faces

    path = house_manifest(tmp_path)
    text = path.read_text(encoding="utf-8").replace("  icons:\n", "  icons:\n    half: art/icons/skip.svg\n", 1)
    path.write_text(text, encoding="utf-8")
    deck = load(path)
    items = faces.face(deck.card("HALF"), deck).items
    assert "½" not in [i.text for i in items if isinstance(i, faces.Text)]
    assert faces.wild_glyph(deck.card("HALF"), faces.icons_of(deck)) == "{icon:half}"


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")  # as tests/ai/test_pettingzoo.py
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
def test_house_wilds_play_in_the_engine_the_bots_report_and_openspiel(house, tmp_path, capsys):
    import json

    from generator.cli import main

    path, deck = house
    summary = simulate(deck, games=40, players=4, seed=3, bots=("greedy", "random"), workers=1)
    for code in CODES:
        assert summary["cards"][code]["plays"] > 0, code
    assert main(["report", "--manifest", str(path), "--games", "60", "--players", "3", "--edition", "the-og",
                 "--out", str(tmp_path / "report")]) == 0
    capsys.readouterr()
    balance = json.loads((tmp_path / "report" / "balance.json").read_text(encoding="utf-8"))
    cards = {c["code"]: c for cell in balance["cells"]["design"] for c in cell["cards"]}
    assert all(cards[code]["plays"] > 0 for code in CODES)
    # greedy halves a count it would otherwise bust: 13 with a 9 in hand
    game = Game(deck, "the-og", 3)
    from generator.engine import from_position

    state = from_position(deck, {"players": 3, "count": 13, "match": "C5", "in_play": ["C5"],
                                 "hands": [["HALF", "C9"], ["M2"], ["G1"]], "draw": ["C1"], "pending": {"drawn": True}})
    import random

    assert str(GreedyBot().choose(state.view(0), state.legal_actions(), random.Random(0))) == "play HALF"
    assert game.seat_kind[game.index["GRAB2"]]  # Grab Two names a seat
    pyspiel = need("pyspiel")
    import generator.ai.openspiel  # noqa: F401 (registers county_uppy)

    loaded = pyspiel.load_game("county_uppy", {"manifest": str(house[0]), "players": 3})
    pyspiel.random_sim_test(loaded, num_sims=3, serialize=False, verbose=False)
    need("pettingzoo")
    from pettingzoo.test import api_test

    from generator.ai.pettingzoo import env

    api_test(env(str(house[0]), players=3), num_cycles=300, verbose_progress=False)


# --- a new step in Python: the README's recipe, its own code run -------------------------------
WALK = README.split("## Adding a wild", 1)[1].split("\n## ", 1)[0]
RECORD_CODE = textwrap.dedent(re.search(r"<!-- wild: step record -->\n```python\n(.*?)```", WALK, flags=re.S).group(1))  # type: ignore[union-attr]
RULE_CODE = textwrap.dedent(re.search(r"<!-- wild: step rule -->\n```python\n(.*?)```", WALK, flags=re.S).group(1))  # type: ignore[union-attr]


@pytest.fixture
def halfway_step():
    from generator.engine import simple_bots

    try:
        exec(RECORD_CODE, vars(steps_module).copy())
        exec(RULE_CODE, vars(rules_module).copy())
        simple_bots.STEP_SCORES["halfway"] = simple_bots._neutral
        assert "halfway" in STEPS and "halfway" in STEP_RULES
        yield STEPS["halfway"]
    finally:
        STEPS.pop("halfway", None)
        STEP_RULES.pop("halfway", None)
        simple_bots.STEP_SCORES.pop("halfway", None)


def test_a_new_step_end_to_end(halfway_step, tmp_path):
    from generator.products.render import faces

    path = house_manifest(tmp_path, more=False)
    text = path.read_text(encoding="utf-8").replace("      - count: {divide: 2}\n", "      - halfway: true\n", 1)
    path.write_text(text, encoding="utf-8")
    deck = load(path)
    assert step_problems(halfway_step) == []
    card = deck.card("HALF")
    assert "→½" in [i.text for i in faces.face(card, deck).items if isinstance(i, faces.Text)]
    assert short_effect(card, deck) == "The count moves half-way to the target, rounding down."
    after = run_scenario(deck, {"players": 3, "count": 6, "match": "C5", "hands": [["HALF", "G7"], ["M2"], ["G1"]],
                                "draw": ["C1"], "in_play": ["C5"], "pending": {"drawn": True}, "decisions": ["play HALF"]})
    assert after["count"] == 11 and after["pending"]["owed"] == []
    summary = simulate(deck, games=20, players=4, seed=3, bots=("greedy", "random"), workers=1)
    assert summary["cards"]["HALF"]["plays"] > 0
