"""Icons named inline in texts (deck/icons.py): what a text keeps, what it says in words, and
the located message for an icon the deck does not know."""

from __future__ import annotations

import json

import pytest

from generator.deck import icons
from generator.deck.icons import Mark
from generator.deck.manifest import load_bytes
from tests.conftest import ROOT, run

SKIP_TEXT = "    text: Skip the next player's turn."


def with_text(manifest_text: str, text: str, name: str | None = None) -> str:
    """The shipped manifest with Skip's text (and name) replaced."""
    assert SKIP_TEXT in manifest_text
    out = manifest_text.replace(SKIP_TEXT, f"    text: {json.dumps(text)}", 1)
    if name is not None:
        out = out.replace("    name: Skip\n", f"    name: {json.dumps(name)}\n", 1)
    return out


def test_parameters_are_filled_first_and_what_remains_in_braces_is_an_icon():
    marked = icons.fill("Times {factor}: play a {cyan} card, not {icon:skip}; {{literal}}", {"factor": 3})
    assert marked == "Times 3: play a {cyan} card, not {icon:skip}; {{literal}}"
    assert icons.parse(marked) == ("Times 3: play a ", Mark("cyan", True), " card, not ", Mark("skip", False),
                                   "; {literal}")
    assert icons.words(marked, {"cyan": "cyan"}, {"skip": "Skip"}) == "Times 3: play a cyan card, not [Skip]; {literal}"
    assert icons.words("{icon:skip}", {}, {"skip": "Skip"}) == "Skip"  # an icon that is the whole text: its name
    assert icons.words("{icon:skip} Skip the next player.", {}, {"skip": "Skip"}, drop="skip") == "Skip the next player."


def test_a_text_without_braces_is_kept_as_it_is():
    assert icons.fill("Draw two cards.", {"count": 2}) == "Draw two cards."
    assert icons.parse("Draw two cards.") == ("Draw two cards.",)
    assert icons.fill("Draw {count:word} card{count:/s}.", {"count": 2}) == "Draw two cards."


def test_the_deck_keeps_marks_and_says_them_in_words(manifest_text):
    text = "After a {cyan} or {magenta} card: {icon:reverse}, then {{x}}."
    deck = load_bytes(with_text(manifest_text, text, name="{icon:skip} Skip").encode(), "cards.yaml")
    card = deck.card("SKIP")
    assert card.text == text  # marked: the icons and the doubled braces kept
    assert card.name == "{icon:skip} Skip"
    assert deck.words(card.text) == "After a cyan or magenta card: [Reverse], then {x}."
    assert deck.words(card.name) == "[skip] Skip"  # no other card names the effect without an icon
    assert deck.words(card.name, card) == "Skip"  # its own effect's icon would only repeat the card's name


@pytest.mark.parametrize("text, message", [
    ("Play a {cyna} card.", "unknown icon 'cyna' (did you mean 'cyan'?)"),
    ("Then {icon:skp}.", "unknown icon 'skp' (did you mean 'skip'?)"),
    ("Then {skip}.", "unknown icon 'skip' (did you mean '{icon:skip}'?)"),
    ("Then {icon:logo}.", "unknown icon 'logo'"),
    ("Times {fator}.", "unknown placeholder '{fator}' (did you mean 'factor'?)"),
])
def test_an_unknown_icon_is_a_located_error_in_validate_and_build(manifest_text, tmp_path, capsys, text, message):
    path = tmp_path / "cards.yaml"
    broken = with_text(manifest_text, text)
    path.write_text(broken, encoding="utf-8")
    line = next(i for i, ln in enumerate(broken.splitlines(), 1) if json.dumps(text) in ln)
    for argv in (["validate"], ["build", "--only", "deck", "--out", str(tmp_path / "out")]):
        status, out, err = run(capsys, *argv, "--manifest", str(path))
        assert status == 1
        assert any(ln.startswith(f"{path}:{line}:11: {message}") for ln in err.splitlines()), err
    assert not (tmp_path / "out" / "deck.json").exists()


def test_every_unknown_icon_of_a_text_is_named_at_once(manifest_text, tmp_path, capsys):
    path = tmp_path / "cards.yaml"
    path.write_text(with_text(manifest_text, "Play a {cyna} card, then {icon:skp}, then {cyna} again."), encoding="utf-8")
    status, _, err = run(capsys, "validate", "--manifest", str(path))
    assert status == 1
    assert err.count("unknown icon 'cyna' (did you mean 'cyan'?)") == 1  # named once, though written twice
    assert err.count("unknown icon 'skp' (did you mean 'skip'?)") == 1  # not left for the next run to find


def test_plain_text_forms_say_icons_in_words(manifest_text, tmp_path, capsys):
    path = tmp_path / "cards.yaml"
    path.write_text(with_text(manifest_text, "{icon:skip} Skip a {green} player {icon:steal}."), encoding="utf-8")
    status, _, _ = run(capsys, "build", "--only", "deck", "--manifest", str(path), "--out", str(tmp_path / "out"))
    assert status == 0
    data = json.loads((tmp_path / "out" / "deck.json").read_text())
    skip = next(c for c in data["cards"] if c["code"] == "SKIP")
    # a colour as its name, another wild's icon as its name in brackets, its own icon left out
    assert skip["text"] == "Skip a green player [Steal a Card]."

    from generator.engine import Game
    from generator.play.describe import card_text
    from generator.web.cards import deck_json

    deck = load_bytes(path.read_bytes(), str(path))
    game = Game(deck, deck.editions[0].key, 3)
    assert card_text(game, "SKIP", long=True).plain == "Skip (Skip a green player [Steal a Card].)"
    assert deck_json(game)["cards"]["SKIP"]["text"] == "Skip a green player [Steal a Card]."


def test_diff_and_tts_say_an_icon_in_brackets_and_drop_the_card_s_own(manifest_text, tmp_path, capsys):
    """The build's change summary and `diff` compare deck.json documents, and the TTS tooltips
    take the same words: "[Skip] then take a card", not "Skip then take a card" run on; Steal's
    own icon before its text is left out, not "Steal a Card Take a card"."""
    steal = "    text: Take a card from a player of your choice.\n"
    assert steal in manifest_text
    changed = manifest_text.replace(steal, '    text: "{icon:skip} then {icon:steal} take a card."\n', 1)
    path = tmp_path / "cards.yaml"
    path.write_text(changed, encoding="utf-8")
    status, out, _ = run(capsys, "diff", str(ROOT / "cards.yaml"), str(path))
    assert status == 1  # the decks differ
    assert "card STEAL changed: text 'Take a card from a player of your choice.' -> '[Skip] then take a card.'" in out

    from generator.products.tts import layout, saved_object

    deck = load_bytes(path.read_bytes(), str(path))
    saved = json.dumps(saved_object(deck, layout([c.code for c in deck.cards]), "https://example.invalid"))
    assert '"Description": "[Skip] then take a card."' in saved
    assert "Steal a Card Take" not in saved and "Skip then" not in saved
