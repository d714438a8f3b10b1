"""`validate` checks the picture and font files the look names (render/assets/art.py, font_files.py, run by
products/print_rules.py), at the line that names them, and checks glyphs and text fit with the
font each text is drawn in: an SVG back art, a font that is no font, a picture over the size
limit, a low-resolution picture, a font lacking the name's letters, a font too wide to fit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image as PILImage

from generator.cli import main
from generator.deck.manifest import load
from generator.products.render.faces import charset, layout
from tests.conftest import MANIFEST, without_look

STEAL = "    code: STEAL\n    name: Steal a Card\n"


def manifest(tmp_path: Path, look: str = "", steal_art: str = "") -> Path:
    text = without_look(MANIFEST.read_text(encoding="utf-8"))  # the default look, which a test adds to
    if steal_art:
        assert STEAL in text
        text = text.replace(STEAL, STEAL + f"    art: {steal_art}\n")
    path = tmp_path / "cards.yaml"
    path.write_text(text + ("\nlook:\n" + look if look else ""), encoding="utf-8")
    (tmp_path / "art").mkdir(exist_ok=True)
    (tmp_path / "fonts").mkdir(exist_ok=True)
    return path


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def validate(path: Path, capsys) -> tuple[int, dict, str]:
    status = main(["validate", "--json", "--manifest", str(path)])
    captured = capsys.readouterr()
    return status, json.loads(captured.out), captured.err


def font_for(path: Path, chars: str, advance: int, variable: bool = False) -> Path:
    """A font whose every character in `chars` is one box `advance` units wide (of 1000); with
    `variable`, a variable font of one weight axis (100..900, default 400)."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder([".notdef", "box"])
    fb.setupCharacterMap({ord(c): "box" for c in chars})
    glyphs = {}
    for name in (".notdef", "box"):
        pen = TTGlyphPen(None)
        pen.moveTo((50, 0)); pen.lineTo((50, 700)); pen.lineTo((advance - 50, 700)); pen.lineTo((advance - 50, 0))
        pen.closePath()
        glyphs[name] = pen.glyph()
    fb.setupGlyf(glyphs)
    fb.setupHorizontalMetrics({".notdef": (advance, 50), "box": (advance, 50)})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    fb.setupNameTable({"familyName": "Boxes", "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    if variable:
        fb.setupFvar([("wght", 100, 400, 900, "Weight")], [])
        fb.setupGvar({})
    fb.save(str(path))
    return path


def test_an_unusable_font_is_an_error_at_its_line(tmp_path, capsys):
    path = manifest(tmp_path, "  fonts: {regular: fonts/Body.ttf}\n")
    (tmp_path / "fonts" / "Body.ttf").write_text("not a font")
    status, out, err = validate(path, capsys)
    assert status == 1 and not out["ok"]
    (problem,) = out["errors"]
    assert problem["line"] == line_of(path, "fonts: {regular")
    assert "Body.ttf: not a TrueType or OpenType font" in problem["message"]
    assert f"cards.yaml:{problem['line']}:" in err


def test_an_svg_that_cannot_print_flat_is_an_error_at_the_back_art_line(tmp_path, capsys):
    path = manifest(tmp_path, "  back:\n    art: {file: art/logo.svg, fit: contain}\n")
    (tmp_path / "art" / "logo.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                               '<rect width="9" height="9" fill-opacity="0.5"/></svg>')
    status, out, _ = validate(path, capsys)
    assert status == 1
    (problem,) = out["errors"]
    assert problem["line"] == line_of(path, "art/logo.svg")
    assert "logo.svg: the SVG has transparency (fill-opacity=\"0.5\")" in problem["message"]


def test_a_picture_too_large_is_refused_at_the_card_that_names_it(tmp_path, capsys, monkeypatch):
    from generator.products.render.assets import art

    path = manifest(tmp_path, steal_art="art/steal.png")
    PILImage.new("RGB", (1000, 800), "orange").save(tmp_path / "art" / "steal.png")
    monkeypatch.setattr(art, "MAX_BYTES", 1000)
    status, out, _ = validate(path, capsys)
    assert status == 1
    (problem,) = out["errors"]
    assert problem["line"] == line_of(path, "art/steal.png") and "over the limit of" in problem["message"]


def test_art_below_300_dpi_is_a_warning_naming_its_dpi(tmp_path, capsys):
    path = manifest(tmp_path, steal_art="{file: art/steal.png, fit: contain}")
    PILImage.new("RGB", (160, 120), "orange").save(tmp_path / "art" / "steal.png")
    status, out, err = validate(path, capsys)
    assert status == 0 and out["ok"]
    (warning,) = [line for line in err.splitlines() if "dpi" in line]
    line = line_of(path, "art/steal.png")
    assert f"cards.yaml:{line}:" in warning and "below the 300 dpi" in warning
    deck = load(path)
    box = layout(deck.card("STEAL"), deck)["art"]
    dpi = 300 / min(box.width / 160, box.height / 120)
    assert f"steal.png: {dpi:.0f} dpi at its printed size" in warning


def test_art_sharp_enough_gives_no_warning(tmp_path, capsys):
    path = manifest(tmp_path, steal_art="art/steal.svg")
    (tmp_path / "art" / "steal.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 3">'
                                                '<rect width="4" height="3" fill="#FF8800"/></svg>')
    status, out, err = validate(path, capsys)
    assert status == 0 and "dpi" not in err


def test_glyph_coverage_uses_the_font_chosen(tmp_path, capsys, deck):
    path = manifest(tmp_path, "  wild:\n    name: {font: fonts/Upper.ttf}\n")
    font_for(tmp_path / "fonts" / "Upper.ttf", "ABCDEFGHIJKLMNOPQRSTUVWXYZ ", 600)
    status, out, _ = validate(path, capsys)
    assert status == 1
    steal = [p for p in out["errors"] if "card 'STEAL'" in p["message"]]
    assert steal and all("which the font Upper.ttf cannot draw" in p["message"] for p in steal)
    assert any("'t'" in p["message"] or "LATIN SMALL LETTER T" in p["message"] for p in steal)
    # numbers and other kinds keep the built-in face, which draws everything
    assert not [p for p in out["errors"] if "card 'C6'" in p["message"] or "card 'REF" in p["message"]]


def test_text_fit_uses_the_font_chosen(tmp_path, capsys, deck):
    path = manifest(tmp_path, "  wild:\n    text: {font: fonts/Wide.ttf}\n")
    font_for(tmp_path / "fonts" / "Wide.ttf", charset(deck), 2400)
    status, out, _ = validate(path, capsys)
    assert status == 1
    small = [p for p in out["errors"] if "would print at" in p["message"]]
    assert small and all("its text would print at" in p["message"] for p in small)


@pytest.mark.parametrize("look, what, missing", [
    # a number's minus sign in the value's font: C-2's corner and value print "−2"
    ("  number:\n    value: {font: fonts/Digits.ttf}\n", "card 'C-2' (and 23 more cards) prints", "U+2212 (MINUS SIGN)"),
    # the quick reference's bullets in the deck's fonts
    ("  fonts: {regular: fonts/Digits.ttf, bold: fonts/Digits.ttf}\n", "card 'REF' prints", "U+2022 (BULLET)"),
])
def test_a_character_a_face_draws_beyond_the_card_s_name_and_text_is_checked_in_its_font(tmp_path, capsys, deck,
                                                                                        look, what, missing):
    """A font lacking a character the faces print (the minus sign of a negative value, the quick
    reference's bullet) is an error at the line that chose the font, naming the card, the
    character and the font; it printed an empty box, and validate and build passed."""
    chars = "".join(c for c in charset(deck) if c not in "\u2212\u2022")
    path = manifest(tmp_path, look)
    font_for(tmp_path / "fonts" / "Digits.ttf", chars, 500)
    status, out, err = validate(path, capsys)
    assert status == 1
    line = line_of(path, "fonts/Digits.ttf")
    hits = [p for p in out["errors"] if missing in p["message"]]
    assert len(hits) == 1, out["errors"]
    assert hits[0]["line"] == line and hits[0]["message"].startswith(what)
    assert "which the font Digits.ttf cannot draw" in hits[0]["message"]
    assert main(["build", "--only", "cards", "--manifest", str(path), "--out", str(tmp_path / "out")]) == 1
    assert not (tmp_path / "out" / "cards").exists()


def test_a_variable_font_is_a_warning_that_its_default_instance_prints(tmp_path, capsys, deck):
    """A variable TrueType font prints its default instance alone (a `bold:` variable font printed
    regular, without a word): validate passes with a warning at the line that names it."""
    path = manifest(tmp_path, "  fonts: {regular: fonts/Var.ttf}\n")
    font_for(tmp_path / "fonts" / "Var.ttf", charset(deck), 350, variable=True)
    status, out, err = validate(path, capsys)
    assert status == 0, out["errors"]
    assert f"warning: {path}:{line_of(path, 'fonts/Var.ttf')}:20: Var.ttf is a variable font (wght 100..900, " \
           "default 400): the cards print its default instance alone; for another weight or width, use a static " \
           "instance of it" in err
