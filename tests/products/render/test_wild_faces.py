"""Wild faces read from their display lists as a designer would look at them: one corner-label size
for every wild, always one line; a glyph and a name that never print the same signs twice; and the
gaps that keep a face from looking cramped (2 mm under the name's rule, 2 mm between a term and
its definition on the quick reference)."""

from __future__ import annotations

import pytest

from generator.deck.manifest import load
from generator.products.render import faces
from generator.products.render.items import Image, Outline, Poly, Text
from tests.conftest import without_look

TWO_MM = 2.0 * 300 / 25.4
CORNER_BAND = 250.0  #: the top corner index stands above the glyph's box


def corner_items(face) -> list:
    """The top-left corner label's items: texts and icons drawn upright above the glyph's box."""
    out = []
    for i in face.items:
        if isinstance(i, Text) and not i.rot180 and i.y < CORNER_BAND:
            out.append(i)
        elif isinstance(i, (Outline, Image)) and not getattr(i, "rot180", False) and i.y1 < CORNER_BAND:
            out.append(i)
    return out


def label_size(item) -> float:
    return item.size if isinstance(item, Text) else round(item.y1 - item.y0, 2)


def baseline(item) -> float:
    """A text's baseline; an icon's, the bottom of its em box less the descent (inline.line stands it there)."""
    from generator.products.render import typeface as tf

    return item.y if isinstance(item, Text) else round(item.y1 - tf.DESCENT * (item.y1 - item.y0), 2)


@pytest.fixture(params=["shipped", "without look"])
def wild_decks(request, deck, no_look_deck):
    return deck if request.param == "shipped" else no_look_deck


def test_every_wild_corner_label_is_one_size_on_one_line(wild_decks):
    """"Skip" was set huge, "+1 Card" and "Re-Deal" tiny, "Steal a Card" wrapped onto two lines:
    now every wild's corner prints at the corner's one size, on one baseline, its long names
    shortened to their first words."""
    d = wild_decks
    sizes, baselines, labels = set(), set(), {}
    for card in (c for c in d.cards if c.kind == "wild"):
        items = corner_items(faces.face(card, d))
        assert items, card.code
        texts = [t for t in items if isinstance(t, Text)]
        sizes |= {t.size for t in texts}
        baselines |= {round(baseline(i), 1) for i in items}
        labels[card.code] = "".join(t.text for t in texts)
    assert len(sizes) == 1, sizes
    assert len(baselines) == 1, baselines  # one line, the same on every wild
    assert labels["STEAL"] == "Steal" and labels["TRADE"] == "Trade" and labels["ROTATE"] == "Rotate"
    assert labels["REDEAL"] == "Re-Deal" and labels["SKIP"] == "Skip" and labels["+1"] == "+1 Card"


def test_a_designer_s_corner_text_is_the_label(manifest_text, tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text(manifest_text.replace("    code: STEAL\n", "    code: STEAL\n    corner: Grab\n", 1), encoding="utf-8")
    d = load(path)
    assert "".join(t.text for t in corner_items(faces.face(d.card("STEAL"), d)) if isinstance(t, Text)) == "Grab"


@pytest.mark.parametrize("code, glyph, name, corner", [
    ("x2", "×2", None, "×2"), ("=15", "=15", None, "=15"), ("+1", "+1", None, "+1 Card"), ("+/-", "±", None, "±"),
    ("STEAL", "☚", "Steal a Card", "Steal"), ("SKIP", "⊘", "Skip", "Skip")])
def test_the_glyph_and_the_name_never_print_the_same_signs(no_look_deck, code, glyph, name, corner):
    """×2 over x2, =15 over =15, +1 over +1 Card, ± over +/-: the face keeps the glyph and drops
    the name (the corner still names the card, with the glyph's own signs where the name says
    nothing more: the sign ×, not the letter x); a name that repeats no sign of the glyph (Steal
    a Card under ☚) stays."""
    d = no_look_deck
    face = faces.face(d.card(code), d)
    big = [t.text for t in face.texts() if t.size >= 100 and not t.rot180]
    assert big == [glyph]
    middle = [t.text for t in face.texts() if 400 < t.y < 620 and 40 <= t.size < 100 and not t.rot180]
    assert middle == ([name] if name else []), middle
    assert "".join(t.text for t in corner_items(face) if isinstance(t, Text)) == corner


def test_the_text_keeps_2_mm_under_the_name_s_rule(wild_decks):
    """Long texts (Play 2, Re-Deal) started right under the rule: every wild's text now starts at
    least 2 mm below it."""
    d = wild_decks
    for card in (c for c in d.cards if c.kind == "wild"):
        face = faces.face(card, d)
        rule = next(i for i in face.items if isinstance(i, Poly) and 4 <= max(y for _, y in i.points) - min(
            y for _, y in i.points) <= 5 and 500 < i.points[0][1] < 560)
        below = max(y for _, y in rule.points)
        words = [t for t in face.texts() if t.y > below and t.y < 850 and not t.rot180]
        assert words, card.code
        assert min(t.bbox()[1] for t in words) - below >= TWO_MM - 1e-6, (card.code, min(t.bbox()[1] for t in words))


def test_the_quick_reference_keeps_2_mm_between_a_term_and_its_definition(deck):
    """"Rotate Hands" stood 0.86 mm from "Everyone passes their hand on.": every term of the
    wild reference now keeps 2 mm from its definition."""
    face = faces.face(deck.card("REFW"), deck)
    texts = [t for t in face.texts() if t.align == "l"]
    terms = [t for t in texts if t.bold and not t.text.isupper()]
    assert len(terms) == sum(1 for c in deck.cards if c.kind == "wild")
    for term in terms:
        beside = [t for t in texts if not t.bold and abs(t.y - term.y) < 0.01]
        assert beside, term.text
        gap = min(t.bbox()[0] for t in beside) - term.bbox()[2]
        assert gap >= TWO_MM - 0.01, (term.text, gap)  # positions are kept to 1/100 dot
