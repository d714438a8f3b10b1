"""The deck keeps where each of its parts was written (`origin`), so a check made after loading
(the typeface's, in products/printable.py) reports at the part's own line without reading the
manifest again; and a part's place is no part of what it is (equality, repr, cache keys)."""

from __future__ import annotations

from generator.deck.manifest import load
from generator.deck.model import Place
from generator.products.printable import problems
from tests.conftest import MANIFEST, without_look


def text_at(lines: list[str], place: Place) -> str:
    assert place.path == str(MANIFEST)
    return lines[place.line - 1][place.column - 1:]


def test_every_part_of_the_shipped_deck_points_at_its_own_text(deck, manifest_text):
    lines = manifest_text.splitlines()
    assert text_at(lines, deck.params.origin.of("name")).startswith("County Uppy")
    assert text_at(lines, deck.params.origin.of("hand_size")).startswith("5")
    for colour in deck.colours:
        assert text_at(lines, colour.origin.of("name")).startswith(colour.name + ",")
        assert text_at(lines, colour.origin.of("print")).startswith(f'"{colour.rgb}"')
    for card_set in deck.sets:
        assert text_at(lines, card_set.origin.of("key")).startswith(card_set.key + ",")
    for edition in deck.editions:
        assert text_at(lines, edition.origin.of("key")).startswith(edition.key)
    for card in deck.cards:
        if card.is_number:  # the item of `values:` that makes it: a number or a range holding its value
            item = text_at(lines, card.origin.at).split(",")[0].split("]")[0].strip("[")
            lo, _, hi = item.partition("..")
            assert int(lo) <= card.value <= int(hi or lo), (card.code, item)
            assert text_at(lines, card.origin.of("colours" if card.kind == "dual" else "colour")).startswith(
                "[" if card.kind == "dual" else card.colours[0])
        else:
            assert text_at(lines, card.origin.of("code")).strip('"').startswith(card.code), card.code
            assert text_at(lines, card.origin.of("name")).lstrip("\"").startswith(card.name[0]), card.code
            if card.effect is not None:
                assert text_at(lines, card.effect.origin.at).startswith(card.effect.name)
                for key, value in card.effect.params:
                    at = text_at(lines, card.effect.origin.of(key))  # a parameter left at its default: the effect
                    assert at.startswith(str(value)) or (at.startswith(card.effect.name) and key == "count"), (card.code, key)
    # `values: [-4..-3, 8..9]`: each item is its cards' own place, on one line
    low, high = deck.card("M-4").origin.at, deck.card("M8").origin.at
    assert low.line == high.line and low.column < high.column and deck.card("M-3").origin.at == low


def test_a_part_s_place_is_not_part_of_what_it_is(tmp_path, no_look_deck, manifest_text):
    # without `look:`, whose icon files are named by where they are (this copy's folder)
    deck = no_look_deck
    path = tmp_path / "cards.yaml"
    path.write_text("# moved down two lines\n\n" + without_look(manifest_text), encoding="utf-8")
    moved = load(path)
    assert moved == deck and repr(moved) == repr(deck)
    assert [hash(c) for c in moved.cards] == [hash(c) for c in deck.cards]
    assert [c.origin.at.line for c in moved.cards] == [c.origin.at.line + 2 for c in deck.cards]


FLOW = "  - {kind: number, set: chaos, colour: magenta, values: [-4..-3, 8..9], copies: 3}\n"
BLOCK = """  - kind: number
    set: chaos
    colour: magenta
    values:
      - -4..-3
      - 8..9
    copies: 3
"""


def test_a_number_card_s_problem_is_reported_at_its_own_values_item(tmp_path, manifest_text):
    """A colour name too long to print on the card: each card is named at the item of `values:`
    that makes it, not at the `cards:` line, and the file is not read again to place it."""
    long_name = "magenta" * 9
    assert FLOW in manifest_text
    text = manifest_text.replace(FLOW, BLOCK)
    text = text.replace("name: magenta,", f"name: {long_name},").replace("colour: magenta", f"colour: {long_name}")
    text = text.replace("[green, magenta]", f"[green, {long_name}]").replace("[magenta, cyan]", f"[{long_name}, cyan]")
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    deck = load(path)
    path.unlink()  # everything the check reports, it knows from the deck
    found = {p.message.split("'")[1]: p for p in problems(deck)}
    lines = text.splitlines()
    item = lines.index("      - 8..9") + 1
    assert (found["M9"].path, found["M9"].line, found["M9"].column) == (str(path), item, 9)
    assert (found["M8"].line, found["M8"].column) == (item, 9)
    assert (found["M-4"].line, found["M-4"].column) == (item - 1, 9)
    assert "its colour names (" + long_name.upper() + ") would print at" in found["M9"].message
    assert found["M9"].message.endswith("shorten the colour's name")
    assert found["MC5"].line == next(i for i, ln in enumerate(lines, 1) if f"colours: [{long_name}, cyan]" in ln)
    assert "C5" not in found  # a card whose colours fit is not named


def test_a_wild_card_s_undrawable_name_is_reported_at_its_name(tmp_path, manifest_text):
    path = tmp_path / "cards.yaml"
    path.write_text(manifest_text.replace('name: "+{count} Card{count:/s}"', 'name: "+1 \u672d"', 1), encoding="utf-8")
    deck = load(path)
    path.unlink()
    (problem,) = problems(deck)
    line = next(i for i, ln in enumerate(manifest_text.splitlines(), 1) if 'name: "+{count} Card{count:/s}"' in ln)
    assert (problem.line, problem.column) == (line, 11)
    assert problem.message.startswith("card '+1': its name holds U+672D")
