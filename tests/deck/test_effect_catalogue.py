"""The wild-effect catalogue: every effect complete in every layer, and a new one added end to end.

The end-to-end test is the README's "Adding a wild effect" walk-through, run: a `halve` effect
(the count is divided by the card's divisor) gets its catalogue entry, its rule and its
clarification partial; then a manifest using it validates, its face shows its glyph, the
rulebook prints its clarification and its quick-reference line, and the engine plays it.
"""

from __future__ import annotations

import io
import re
import shutil
import textwrap

import pytest
from PIL import Image

from generator.deck.effects import CATALOGUE, BotHints, WildEffect
from generator.deck.manifest import load
from generator.deck.problems import InputError
from generator.engine import EngineError, Game, run_scenario, simulate
from generator.engine.effects import EFFECTS, Turn
from tests.catalogue_check import catalogue_problems, entry_problems
from tests.effect_helpers import temporary_effect, with_effect
from tests.conftest import ROOT

SHIPPED = ("draw_extra", "invert_next", "reverse", "steal", "trade_hands", "multiply", "set_count", "play_two",
           "redeal", "rotate_hands", "skip")


def test_the_catalogue_holds_the_shipped_effects():
    assert tuple(CATALOGUE) == SHIPPED


def test_every_effect_is_complete_in_every_layer():
    assert catalogue_problems() == []


def test_a_half_added_effect_is_named_with_everything_it_lacks():
    entry = WildEffect("half_done", glyph="中", short="Uses {nothing}.", bot=BotHints(5, "guess"),
                       seat="other", options=("no_such_option",), writes=("turn",))
    with temporary_effect(entry, rule=None):
        problems = entry_problems(entry)
        assert set(catalogue_problems()) >= set(problems)
    text = "\n".join(problems)
    for lack in ("no rule function", "cannot draw", "quick-reference line names a parameter",
                 "no clarification partial partials/effects/half_done.html.j2", "play hint 'guess'",
                 "no terminal question", "no terminal word", "option 'no_such_option'", "writes 'turn'"):
        assert f"effect 'half_done': " in text and lack in text, lack


def test_a_rule_without_an_entry_is_named():
    def orphan(turn: Turn, param, arg):
        pass

    EFFECTS["orphan"] = orphan
    try:
        assert "rule 'orphan' in generator/engine/effects.py has no catalogue entry" in catalogue_problems()
    finally:
        del EFFECTS["orphan"]


def test_the_engine_refuses_an_effect_it_has_no_rule_for(deck):
    entry = WildEffect("no_rule_yet", glyph="?", short="Nothing yet.", bot=BotHints(5, "neutral"), partial=False)
    with temporary_effect(entry, rule=None):
        with pytest.raises(EngineError, match="effect 'no_rule_yet' has no rule: add a function 'no_rule_yet'"):
            Game(with_effect(deck, "REV", "no_rule_yet"), "the-og", 3)


# --- adding an effect, end to end: the README's walk-through, its own code run ------------------
WALK = (ROOT / "README.md").read_text(encoding="utf-8").split("## Adding a wild effect", 1)[1].split("\n## ", 1)[0]
ENTRY_CODE, RULE_CODE = (textwrap.dedent(block) for block in re.findall(r"```python\n(.*?)```", WALK, flags=re.S))
PARTIAL = textwrap.dedent(re.search(r"```jinja\n(.*?)```", WALK, flags=re.S).group(1))  # type: ignore[union-attr]

CARD = """
  - kind: wild
    set: base
    code: HALF
    name: Halve
    effect: halve
    params: {divisor: 2}
    text: Divide the count by {divisor}.
    copies: 2
"""


@pytest.fixture
def halve_effect():
    """The README's catalogue entry and rule, registered as the README says, and taken away after."""
    import generator.deck.effects as catalogue_module
    import generator.engine.effects as rules_module

    try:
        exec(ENTRY_CODE, vars(catalogue_module).copy())
        exec(RULE_CODE, vars(rules_module).copy())
        assert "halve" in CATALOGUE and "halve" in EFFECTS
        yield CATALOGUE["halve"]
    finally:
        CATALOGUE.pop("halve", None)
        EFFECTS.pop("halve", None)


@pytest.fixture
def halve_manifest(tmp_path, manifest_text):
    head, cards, rest = manifest_text.partition("\ncards:\n")
    path = tmp_path / "cards.yaml"
    rest = rest.replace("expect: 201", "expect: 203").replace("expect: 123", "expect: 125")  # the editions it joins
    path.write_text(head + cards + CARD.lstrip("\n") + rest, encoding="utf-8")
    return path


def test_without_its_entry_the_manifest_names_the_unknown_effect(halve_manifest):
    with pytest.raises(InputError) as err:
        load(halve_manifest)
    assert "unknown effect 'halve'" in str(err.value)


def test_a_new_effect_end_to_end(halve_effect, halve_manifest, tmp_path, monkeypatch):
    # the manifest validates, and the new wild is shuffled into the editions that take base wilds
    deck = load(halve_manifest)
    card = deck.card("HALF")
    assert card.effect is not None and card.effect.params == (("divisor", 2),)
    assert deck.edition_count("the-og") == 201 + 2
    assert deck.edition_count("keep-it-simple") == 90

    # the face shows the glyph, its parameter filled in, and the typeface draws it
    from generator.products.render import faces
    from generator.products.pipeline import rasters

    face = faces.face(card, deck)
    assert "÷2" in [item.text for item in face.items if isinstance(item, faces.Text)]
    image = Image.open(io.BytesIO(rasters.face_png(face)))
    assert image.size == (825, 1125)
    assert "÷" in faces.charset(deck)

    # the rulebook prints its clarification (its own partial) and the quick reference its line
    from generator.products.rulebook import page

    templates = tmp_path / "templates"
    shutil.copytree(page.templates_dir(), templates)
    (templates / "partials" / "effects" / "halve.html.j2").write_text(PARTIAL, encoding="utf-8")
    assert entry_problems(halve_effect, templates) == []
    monkeypatch.setattr(page, "templates_dir", lambda: templates)
    html = page.render(deck)
    assert "<strong>Halve</strong>: the count is divided by 2, rounding down." in html
    assert "Divide the count by 2." in html

    # the engine plays it: a scenario, and whole games between bots
    after = run_scenario(deck, {"players": 3, "count": 13, "match": "C5", "hands": [["HALF", "G7"], ["M2"], ["G1"]],
                                "draw": ["C1"], "in_play": ["C5"], "pending": {"drawn": True},
                                "decisions": ["play HALF"]})
    assert after["count"] == 6 and after["match"] == "C5" and after["pending"]["owed"] == []
    summary = simulate(deck, games=20, players=4, seed=3, bots=("greedy", "random"), workers=1)
    assert summary["finished"] == 20 and summary["cards"]["HALF"]["plays"] > 0
