"""The printed rules follow the manifest: its rule options (`game: {options: ...}`) and its wilds'
parameters reach the quick reference, the rulebook, the card faces, the terminal's words and
the engine's defaults, so the cards can never state a rule the game does not play."""

from __future__ import annotations

import html as html_lib
import re
from pathlib import Path

import pytest

from generator.deck.effects import CATALOGUE
from generator.deck.manifest import load
from generator.deck.problems import InputError
from generator.deck.quickref import quick_reference, short_effect
from generator.deck.rule_options import CHOICES, DEFAULTS, ENGINE_ONLY
from generator.engine import Game
from generator.engine.effects import compile_rule
from tests.conftest import ROOT

RULES_MD = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


def with_options(manifest_text: str, options: str) -> str:
    return manifest_text.replace("  players: {min: 2, max: 8}\n", f"  players: {{min: 2, max: 8}}\n  options: {options}\n", 1)


def deck_of(tmp_path: Path, text: str):
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    return load(path)


# --- the manifest's options ---------------------------------------------------------------------
def test_a_manifest_adopts_a_variant_and_the_engine_plays_it_by_default(tmp_path, manifest_text):
    deck = deck_of(tmp_path, with_options(manifest_text, "{invert_through_wilds: true}"))
    assert deck.params.rule_options == {**DEFAULTS, "invert_through_wilds": True}
    assert Game(deck, players=3).options.invert_through_wilds is True
    # a command's --option still overrides the printed rule, also back to the engine's default
    assert Game(deck, players=3, options={"invert_through_wilds": "false"}).options.invert_through_wilds is False


@pytest.mark.parametrize("options, message", [
    ("{invert_through_wild: true}", "unknown key 'invert_through_wild' (did you mean 'invert_through_wilds'?)"),
    ("{invert_through_wilds: 1}", "unknown invert_through_wilds 1; expected one of false, true"),
    ("{play2_draws: true}", "unknown play2_draws true; expected one of 1, 2"),
    ("{all_out: drew}", "unknown all_out 'drew' (did you mean 'draw'?)"),
    ("{speed_seconds: 0}", "'speed_seconds' must be at least 1, not 0"),
    ("[teams]", "'options' must be a mapping of keys to values, not a list"),
    ("{dealer: 5}", "'dealer' is seat 5, but a game of 2 players has seats 0..1"),
])
def test_a_bad_option_in_the_manifest_is_located(tmp_path, manifest_text, options, message):
    with pytest.raises(InputError) as err:
        deck_of(tmp_path, with_options(manifest_text, options))
    line = next(i for i, ln in enumerate(with_options(manifest_text, options).splitlines(), 1) if "options:" in ln and "#" not in ln)
    (problem,) = [str(p) for p in err.value.problems]
    assert message in problem
    assert f"cards.yaml:{line}:" in problem


# --- quick-reference lines against the rules ------------------------------------------------------
class _Turn:
    """The parts of the rules' Turn these checks read and write."""

    def __init__(self, options: dict, invert: bool = False):
        self.options = type("O", (), options)()
        self.invert, self.draws, self.seat, self.count = invert, 0, 0, 4

    def draw(self, seat: int) -> None:
        self.draws += 1


#: For each effect whose line an option changes: the option, and per value the claim its line
#: must make, the rules.md R6 text that documents that value, and what the rule does.
CLAIMS = {
    ("invert_next", "invert_through_wilds"): {
        False: ("If the next card is a number", "If the next card\n  is a wild instead, the +/- is used up and does nothing"),
        True: ("two cancel", "two cancel, three\n  leave one"),
    },
    ("play_two", "play2_draws"): {
        1: ("plays two cards.", "draws once, plays a card"),
        2: ("drawing before each", "also draws a second card just before\n  the second play"),
    },
}


def test_every_option_that_changes_a_wild_has_its_claims_checked():
    changed = {(name, o) for name, e in CATALOGUE.items() for o in e.options}
    assert changed == set(CLAIMS)
    for (name, option), claims in CLAIMS.items():
        assert set(claims) == set(CHOICES[option])
        assert {o for o, _, _ in CATALOGUE[name].short_when} <= set(CATALOGUE[name].options)


@pytest.mark.parametrize("effect, option", sorted(CLAIMS))
@pytest.mark.parametrize("printed", [0, 1])
def test_each_wild_s_line_states_its_rule_under_each_option_value(tmp_path, manifest_text, effect, option, printed):
    value = CHOICES[option][printed]
    shown = str(value).lower()
    deck = deck_of(tmp_path, with_options(manifest_text, f"{{{option}: {shown}}}"))
    card = next(c for c in deck.cards if c.effect and c.effect.name == effect)
    line = next(w.short for w in quick_reference(deck).wilds if w.code == card.code)
    claim, documented = CLAIMS[(effect, option)][value]
    assert claim in line, f"{effect} under {option}={shown}: {line!r}"
    for other, (other_claim, _) in CLAIMS[(effect, option)].items():
        if other != value:
            assert other_claim not in line
    assert documented in RULES_MD, f"docs/rules.md does not document {option}={shown} as the line claims"
    # the rulebook prints the same line as the card
    from generator.products.rulebook import page

    assert line in html_lib.unescape(page.render(deck))


def test_the_plus_minus_line_is_what_the_engine_does():
    """A +/- played on a waiting +/-: with the option, two cancel (the line says so); without,
    the second starts anew (the line promises nothing about waiting)."""
    for through, waiting_after in ((True, False), (False, True)):
        turn = _Turn({"invert_through_wilds": through}, invert=True)
        compile_rule(CATALOGUE["invert_next"].resolve({}))(turn, -1)
        assert turn.invert is waiting_after


# --- a wild's parameters reach every wording --------------------------------------------------------
@pytest.mark.parametrize("code, effect, before, after, words", [
    ("+1", "draw_extra", "effect: draw_extra\n", "effect: draw_extra\n    params: {count: 3}\n", ("three extra cards", "+3 Cards", "3 extra cards")),
    ("x2", "multiply", "params: {factor: 2}", "params: {factor: 3}", ("by 3", "x3", "multiplied by 3")),
])
def test_changing_a_parameter_changes_every_wording_and_the_rule(tmp_path, manifest_text, code, effect, before, after, words):
    from generator.products.render import faces
    from generator.products.rulebook import page

    assert before in manifest_text
    deck = deck_of(tmp_path, manifest_text.replace(before, after, 1))
    card = next(c for c in deck.cards if c.code == code)
    text_words, name, clarification = words
    face = " ".join(i.text for i in faces.wild_face(card, deck).items if isinstance(i, faces.Text))
    line = next(w.short for w in quick_reference(deck).wilds if w.code == code)
    rulebook = html_lib.unescape(re.sub(r"<[^>]+>", "", page.render(deck)))
    # the face prints the name, unless it only repeats the glyph's signs (x3 beside ×3): then the glyph alone
    said = name in face or faces.repeats_glyph(card.name, faces.wild_glyph(card, faces.icons_of(deck)))
    assert name == card.name and said and "3" in face
    if effect == "draw_extra":
        assert card.text == "Draw three extra cards." and "Draw three extra cards." in line
        assert "3 extra cards" in rulebook
        turn = _Turn({})
        compile_rule(card.effect.steps)(turn, -1)
        assert turn.draws == 3
    else:
        assert card.text.endswith("by 3.") and line.endswith("by 3.")
        assert "multiplied by 3" in rulebook
        turn = _Turn({})
        compile_rule(card.effect.steps)(turn, -1)
        assert turn.count == 12
    assert short_effect(card, deck) == line  # the terminal game's words are the quick reference's


def test_a_manifest_that_leaves_the_count_out_draws_one(tmp_path, manifest_text):
    """The shipped +1 leaves `count` at its default, 1 (older manifests too): the same card as `params: {count: 1}`."""
    given = deck_of(tmp_path, manifest_text.replace("effect: draw_extra\n", "effect: draw_extra\n    params: {count: 1}\n", 1))
    assert "params" not in manifest_text.split('code: "+1"')[1].split("- kind")[0]
    assert next(c for c in given.cards if c.code == "+1") .effect == next(c for c in load(ROOT / "cards.yaml").cards if c.code == "+1").effect


# --- the reference faces ---------------------------------------------------------------------------
@pytest.mark.parametrize("options", ["{}", "{invert_through_wilds: true, play2_draws: 2, wild_sets_target: true}"])
def test_reference_faces_print_at_7pt_and_no_entry_ends_on_a_lone_word(tmp_path, manifest_text, options):
    from generator.products.render import faces
    from generator.products.render.units import dots_to_pt

    deck = deck_of(tmp_path, with_options(manifest_text, options))
    for card in (c for c in deck.cards if c.kind == "reference"):
        texts = [i for i in faces.reference_face(card, deck).items if isinstance(i, faces.Text)]
        body = [t for t in texts if not t.bold]
        assert dots_to_pt(min(t.size for t in body)) >= 7.0
        assert max(t.y for t in texts) <= faces.H - 75
        # a continuation line stands at the same x as the line above it and holds one word only if the entry is one word
        for above, line in zip(body, body[1:]):
            if line.x == above.x and not any(t.bold and t.y == line.y for t in texts):
                assert len(line.text.split()) > 1, f"{card.code}: {above.text!r} / {line.text!r}"


# --- the rulebook for players ----------------------------------------------------------------------
def test_the_players_pages_hold_no_engine_identifier(tmp_path, manifest_text):
    from generator.products.rulebook import page

    deck = deck_of(tmp_path, with_options(manifest_text, "{invert_through_wilds: true}"))
    players = page.render(deck)  # the players' rulebook: no designer notes
    assert '<section id="designers"' not in players
    designers = page.render(deck, designer=True).split('<section id="designers"', 1)[1]
    visible = html_lib.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"(?s)<(style|head)>.*?</\1>", "", players)))
    identifiers = [n for n in CHOICES if "_" in n] + [str(v) for c in CHOICES.values() for v in c or () if "_" in str(v)]
    assert [i for i in identifiers if i in visible] == []
    assert "<code>" not in players and "rules engine’s" not in visible and "--option" not in visible
    assert "Cards cards" not in visible and "4 “Wild Cards” reference cards (not played)" in " ".join(visible.split())
    for name in CHOICES:  # every option, engine-only ones too, is named for designers
        assert name in designers.replace("<wbr>", "")
    assert all(name not in visible for name in ENGINE_ONLY if "_" in name)


def test_the_terminal_game_words_the_rules_its_game_plays(tmp_path, manifest_text):
    """`play --option` plays a game another way than the deck prints: the terminal's quick
    reference and its words for a wild follow the game's options, not the printed ones."""
    from dataclasses import asdict

    deck = deck_of(tmp_path, with_options(manifest_text, "{invert_through_wilds: true}"))
    card = next(c for c in deck.cards if c.code == "+/-")
    for given, claim in (({}, "two cancel"), ({"invert_through_wilds": "false"}, "If the next card is a number")):
        game = Game(deck, players=3, options=given)
        assert claim in short_effect(card, deck, asdict(game.options))
        assert claim in next(w.short for w in quick_reference(deck, asdict(game.options)).wilds if w.code == "+/-")
