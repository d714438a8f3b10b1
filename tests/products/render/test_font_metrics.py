"""The width table (fonts/metrics.json) against reportlab's own reading of the font files.

Layout measures text with the table so that `validate` needs no reportlab; the PDF backend
draws with reportlab. These tests keep the two equal to the last bit: the table is what
reportlab reads from the fonts today, every character the faces have (and only those) is
found, and every text of the deck's faces measures the same both ways.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reportlab.pdfbase import pdfmetrics

from generator.products.render import font_metrics as fm
from generator.products.render import typeface as tf
from generator.products.render.faces import FACES, all_faces, face
from tests.fuzz.profiles import examples


def reportlab_face(bold: bool):
    return pdfmetrics.getFont(tf.pdf_font(bold)).face


def test_the_table_is_what_reportlab_reads_from_the_font_files():
    table = fm._table()
    for path in fm.FILES.values():
        assert table[path.name]["sha256"] == fm.file_digest(path), (
            f"{path.name} changed: run `python -m generator.products.render.font_metrics` to remake fonts/metrics.json")
    assert fm.TABLE.read_text(encoding="utf-8") == fm.render_table(), \
        "fonts/metrics.json is stale: run `python -m generator.products.render.font_metrics`"


@pytest.mark.parametrize("bold", [False, True])
def test_every_character_is_found_with_reportlab_s_width(bold):
    rl = reportlab_face(bold)
    widths = fm.metrics(bold)
    top = max(rl.charToGlyph) + 2
    assert top < 0x20000
    for code in range(top):
        ch = chr(code)
        assert tf.has_glyph(ch, bold) == (code in rl.charToGlyph), hex(code)
        assert widths[ch] == rl.charWidths.get(code, rl.defaultWidth), hex(code)
    assert not tf.has_glyph("\U0010FFFF", bold) and widths["\U0010FFFF"] == rl.defaultWidth


def test_every_text_of_the_deck_measures_as_reportlab_measures_it(deck):
    measured = 0
    for f in all_faces(deck):
        for t in f.texts():
            for size in (t.size, 1000.0, 6.5):
                assert tf.width(t.text, size, t.bold) == pdfmetrics.stringWidth(t.text, tf.pdf_font(t.bold), size), \
                    (f.key, t.text, size)
            measured += 1
    for card in deck.cards:  # the whole texts too, as wrapping tries them word by word
        for text in (card.name, card.text):
            for bold in (False, True):
                words = text.split()
                for k in range(len(words) + 1):
                    trial = " ".join(words[:k])
                    assert tf.width(trial, 7.3, bold) == pdfmetrics.stringWidth(trial, tf.pdf_font(bold), 7.3)
    assert measured > 400


@settings(max_examples=examples(300))
@given(text=st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=60),
       size=st.floats(0.5, 500, allow_nan=False), bold=st.booleans())
def test_any_text_measures_as_reportlab_measures_it(text, size, bold):
    assert tf.width(text, size, bold) == pdfmetrics.stringWidth(text, tf.pdf_font(bold), size)


def test_the_faces_are_laid_out_alike_with_either_measure(deck, monkeypatch):
    """The layout, not only the widths: every face of the deck, drawn with reportlab measuring."""
    ours = [face(card, deck) for card in deck.cards]
    monkeypatch.setattr(tf, "width", lambda text, size, bold=False, font="": pdfmetrics.stringWidth(text, tf.pdf_font(bold), size))
    assert [FACES[card.kind](card, deck, False) for card in deck.cards] == ours  # drawn again, not face()'s memo
