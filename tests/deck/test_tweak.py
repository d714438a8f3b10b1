"""generator.deck.tweak: a manifest changed in memory is checked exactly as cards.yaml is."""

from __future__ import annotations

import pytest

from generator.deck.manifest import check
from generator.deck.problems import InputError
from generator.deck.tweak import TweakError, tweak, tweakable
from generator.deck.yaml_source import read
from tests.conftest import MANIFEST


@pytest.fixture(scope="module")
def src():
    return read(MANIFEST)


@pytest.fixture(scope="module")
def base(src):
    return check(src)


def test_copies_of_one_number_card_split_its_run_in_place(src, base):
    deck = tweak(src, base, {"copies.C5": 7})
    assert [c.code for c in deck.cards] == [c.code for c in base.cards]  # same cards, same order
    assert deck.card("C5").copies == 7 and deck.card("C4").copies == base.card("C4").copies
    for e in base.editions:  # every edition holding C5 gains four cards, and its expect follows
        gained = 4 if "C5" in e.codes else 0
        assert deck.edition_count(e.key) == base.edition_count(e.key) + gained == deck.edition(e.key).expect


def test_game_values_wild_parameters_and_copies_together(src, base):
    deck = tweak(src, base, {"target": 21, "hand_size": 4, "params.x2.factor": 3, "copies.x2": 1, "copies.GM9": 2})
    assert (deck.params.target, deck.params.hand_size) == (21, 4)
    x2 = deck.card("x2")
    assert x2.name == "x3" and "by 3" in x2.text and x2.copies == 1 and x2.effect.param("factor") == 3
    assert deck.card("GM9").copies == 2
    og = deck.edition("the-og")
    assert deck.edition_count("the-og") == og.expect == 201 - 2 + (2 - base.card("GM9").copies)


def test_a_value_validate_refuses_is_refused_at_its_line(src, base):
    with pytest.raises(InputError) as info:
        tweak(src, base, {"hand_size": 30})
    assert all(p.line == 17 and "too few to deal 30" in p.message for p in info.value.problems)
    with pytest.raises(InputError) as info:
        tweak(src, base, {"copies.C7": 1001})
    assert "'copies' must be at most 1000" in str(info.value) and info.value.problems[0].line > 40


def test_names_that_name_nothing(src, base):
    with pytest.raises(TweakError, match=r"no card with the code 'X2' \(did you mean 'x2'\?\)"):
        tweak(src, base, {"copies.X2": 2})
    with pytest.raises(TweakError, match="unknown parameter 'hand'"):
        tweak(src, base, {"hand": 2})
    assert "params.=15.value" in tweakable(base).names() and "copies.REF" in tweakable(base).names()


def test_the_source_is_left_alone(src, base):
    before = repr(src.data)
    tweak(src, base, {"copies.C5": 2, "target": 12})
    assert repr(src.data) == before and check(src) == base
