"""A designer's rule tweak, end to end: target 21 and x2's factor 3 reach the rulebook, the
quick-reference card and the engine's play, with nobody editing prose."""

from __future__ import annotations

import re

import pytest

from generator.deck.manifest import load
from tests.products.rulebook.conftest import visible_text


@pytest.fixture(scope="module")
def deck(tweaked):
    return load(tweaked[0])


@pytest.fixture(scope="module")
def text(tweaked):
    return visible_text((tweaked[1] / "rulebook.html").read_text(encoding="utf-8"))


def test_the_rulebook_says_21_and_x3(text):
    assert "Get the count to exactly 21." in text
    assert "Over 21 or under 0." in text and "Exactly 21." in text
    assert "x3 Multiply the current count by 3." in text  # the wild's name and manifest text
    assert "x3 multiplies the count by 3" in text  # the worked example played by the engine
    old = re.search(r"\b(?:exactly|over|to|at|reaches|made the count|below)\s+16\b", text)
    assert not old, f"the old target is still printed: {old and text[old.start() - 60:old.end() + 20]!r}"
    assert not re.search(r"\bx2\b|×2", text), "the old factor is still printed somewhere"


def test_the_quick_reference_card_says_21_and_x3(deck, text):
    from generator.products.render import faces
    from generator.deck.quickref import quick_reference

    ref = quick_reference(deck)
    assert "21" in ref.goal and any("21" in p for p in ref.penalties)
    x = next(w for w in ref.wilds if w.code == "x2")
    assert x.name == "x3" and "3" in x.short
    printed = " ".join(t.text for code in ("REF", "REFW") for t in faces.face(deck.card(code), deck).texts())
    assert "21" in printed and "x3" in printed
    assert "16" not in printed
    assert f"{x.name} {x.short}" in text  # the rulebook's quick reference is the same data


def test_the_engine_plays_to_21_and_x2_triples(deck):
    from generator.engine import from_position, to_position

    hit = from_position(deck, {"players": 3, "count": 18, "match": "C2", "in_play": ["C2"],
                               "hands": [["C3", "M1"], ["G4"], ["M5"]], "pending": {"drawn": True}})
    hit.apply("play C3")
    after = to_position(hit)
    assert after["count"] == 0 and after["pending"]["owed"] == [1, 2], "reaching 21 makes the others discard"

    below = from_position(deck, {"players": 2, "count": 18, "match": "C2", "in_play": ["C2"],
                                 "hands": [["C2", "M1"], ["G4"]], "pending": {"drawn": True}})
    below.apply("play C2")
    assert to_position(below)["count"] == 20, "20 is no longer over the target"

    triple = from_position(deck, {"players": 2, "count": 5, "match": "G6", "in_play": ["G6"],
                                  "hands": [["x2", "M1"], ["G4"]], "pending": {"drawn": True}})
    triple.apply("play x2")
    assert to_position(triple)["count"] == 15
