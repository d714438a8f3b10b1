"""Card counts of the shipped manifest: printed totals, sets, editions, and a tweak."""

from __future__ import annotations

import json

import pytest

from generator.cli import main
from generator.deck.manifest import load
from generator.deck.problems import InputError

EDITIONS = {"the-og": 201, "keep-it-simple": 90, "only-chaos": 93, "its-wild-time": 123, "math-is-fun": 168}


def test_printed_totals(deck):
    assert deck.printed == 212
    assert deck.set_totals() == {"base": 119, "chaos": 93}
    assert deck.set_breakdown("base") == {"number": 90, "wild": 18, "reference": 8, "blank": 3}
    assert deck.set_breakdown("chaos") == {"number": 36, "dual": 42, "wild": 15}


@pytest.mark.parametrize("key,count", EDITIONS.items())
def test_edition_counts(deck, key, count):
    assert deck.edition_count(key) == count
    assert len(deck.edition_cards(key)) == count
    assert all(card.playing for card in deck.edition_cards(key))


def test_edition_breakdowns(deck):
    assert deck.edition_breakdown("the-og") == {"numbers": 126, "duals": 42, "wilds": 18, "chaos wilds": 15}
    assert deck.edition_breakdown("its-wild-time") == {"numbers": 90, "duals": 0, "wilds": 18, "chaos wilds": 15}
    assert deck.edition_breakdown("only-chaos") == {"numbers": 36, "duals": 42, "wilds": 0, "chaos wilds": 15}


def test_card_codes_follow_the_contract(deck):
    codes = {c.code for c in deck.cards}
    for code in ["C5", "G-2", "M0", "CG-4", "GM9", "MC7", "+1", "+/-", "REV", "STEAL", "TRADE", "x2",
                 "=15", "PLAY2", "REDEAL", "ROTATE", "SKIP", "REF", "BLANK"]:
        assert code in codes, code
    assert len(codes) == len(deck.cards)
    assert deck.card("GM-4").colours == ("green", "magenta")
    assert deck.card("x2").effect.param("factor") == 2
    assert deck.card("=15").effect.param("value") == 15
    assert not deck.card("REF").playing and not deck.card("BLANK").playing


def test_validate_json_reports_the_contract_counts(capsys):
    assert main(["validate", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    game = out.pop("game")
    assert out == {"ok": True, "printed": 212, "sets": {"base": 119, "chaos": 93}, "editions": EDITIONS, "errors": []}
    assert game["target"] == 16 and game["hand_size"] == 5 and game["players"] == {"min": 2, "max": 8}
    assert [s["key"] for s in game["sets"]] == ["base", "chaos"]
    assert game["options"]["all_out"] == "sixteen_wins" and game["options"]["max_turns"] == 2000


def test_validate_table_shows_every_edition_and_set(capsys):
    assert main(["validate"]) == 0
    out = capsys.readouterr().out
    head, table = out.split("playing cards per edition")
    assert head.splitlines()[:2] == ["County Uppy: target 16, hand size 5, players 2-8",
                                     "sets: Base (white interior), Chaos (black interior)"]
    assert "play2_draws=1" in head and 'all_out="sixteen_wins"' in head  # the rule options' defaults
    for name in ["The OG", "Keep it Simple", "Only Chaos", "It's Wild Time", "Math is Fun"]:
        assert name in out
    assert "Base (white interior): 119  (90 numbers, 18 wilds, 8 quick reference, 3 blank)" in out
    assert "total printed: 212" in out


def _x2_copies(text: str, copies: int) -> str:
    head, tail = text.split("code: x2", 1)
    return head + "code: x2" + tail.replace("copies: 3", f"copies: {copies}", 1)


def test_raising_x2_copies_changes_counts_and_misses_expect(tmp_path, manifest_text, capsys):
    path = tmp_path / "cards.yaml"
    path.write_text(_x2_copies(manifest_text, 4))
    with pytest.raises(InputError) as info:
        load(path)
    deck = info.value.deck
    assert deck.edition_count("the-og") == 202
    assert deck.edition_count("its-wild-time") == 124
    assert deck.edition_count("keep-it-simple") == 90
    messages = [p.message for p in info.value.problems]
    assert messages == ["edition 'the-og' has 202 playing cards, but expect says 201",
                        "edition 'its-wild-time' has 124 playing cards, but expect says 123"]
    assert main(["validate", "--json", "--manifest", str(path)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False and out["editions"]["the-og"] == 202 and len(out["errors"]) == 2
    assert out["errors"][0]["line"] == manifest_text.splitlines().index("  - key: the-og") + 5


def test_updating_expect_makes_the_tweak_valid(tmp_path, manifest_text):
    text = _x2_copies(manifest_text, 4).replace("expect: 201", "expect: 202").replace("expect: 123", "expect: 124")
    path = tmp_path / "cards.yaml"
    path.write_text(text)
    assert load(path).edition_count("the-og") == 202


def test_ranges_expand_into_runs(deck):
    assert [c.value for c in deck.cards if c.colours == ("cyan",) and c.set == "base"] == list(range(-2, 8))
    assert [c.value for c in deck.cards if c.colours == ("cyan",) and c.set == "chaos"] == [-4, -3, 8, 9]


def test_placeholders_follow_parameters(tmp_path, manifest_text):
    path = tmp_path / "cards.yaml"
    path.write_text(manifest_text.replace("params: {factor: 2}", "params: {factor: 3}").replace("target: 16", "target: 21"))
    deck = load(path)
    assert deck.card("x2").name == "x3"
    assert deck.card("x2").text == "Multiply the current count by 3."
    assert deck.params.target == 21


def test_a_hand_size_no_edition_can_deal_is_refused(tmp_path, manifest_text, capsys):
    """R3.1 deals hand_size cards to every player: 20 cards to each of 8 players needs 160 per edition."""
    path = tmp_path / "cards.yaml"
    path.write_text(manifest_text.replace("hand_size: 5", "hand_size: 20", 1))
    assert main(["validate", "--manifest", str(path)]) == 1
    err = capsys.readouterr().err
    line = manifest_text.splitlines().index("  hand_size: 5") + 1
    assert f"cards.yaml:{line}:14: edition 'keep-it-simple' has 90 playing cards, too few to deal 20 to each of " \
           f"8 players (160)" in err
    assert "'the-og'" not in err and "'math-is-fun'" not in err  # 201 and 168 cards are enough
    path.write_text(manifest_text.replace("hand_size: 5", "hand_size: 11", 1))  # 88 <= 90: every edition deals
    assert load(path).params.hand_size == 11
