"""Faces: text in the safe zone, shapes beside colours, numbers read both ways, wild text from
the manifest, and the quick reference from the game parameters."""

from __future__ import annotations

import dataclasses
import io
import itertools

import pytest
from PIL import Image, ImageChops

from generator.deck.manifest import load
from generator.products.render import faces as F
from generator.products.render.faces import Poly, Text, all_faces, face, safe_box
from generator.products.pipeline.rasters import face_png
from generator.deck.quickref import quick_reference
from tests.conftest import without_look


def test_every_text_is_inside_the_safe_zone(deck):
    x0, y0, x1, y1 = safe_box()
    for f in all_faces(deck):
        for t in f.texts():
            left, top, right, bottom = t.bbox()
            assert x0 <= left and right <= x1 and y0 <= top and bottom <= y1, (f.key, t.text, t.bbox())


def test_effect_text_is_all_there_and_not_tiny(deck):
    for card in deck.cards_of(["wild"]):
        texts = face(card, deck).texts()
        words = " ".join(t.text for t in texts if not t.bold).split()
        assert words == card.text.split(), card.code
        assert min(t.size for t in texts if not t.bold) >= 28  # about 7 pt


def _shape_points(f):
    return {i.points for i in f.items if isinstance(i, Poly)}


def test_every_colour_shows_its_shape(deck):
    for card in deck.cards_of(["number", "dual"]):
        f = face(card, deck)
        polys = [i for i in f.items if isinstance(i, Poly)]
        for name in card.colours:
            colour = deck.colour(name)
            assert sum(1 for p in polys if p.fill == colour.rgb and len(p.points) == len(
                F.shape_points(colour.shape, 0, 0, 10))) >= 3, (card.code, name)  # two corners + centre


def test_colours_are_told_apart_in_grayscale_by_shape(deck):
    """Rendered alone and in gray, each colour's symbol has a silhouette of its own."""
    masks = {}
    for colour in deck.colours:
        pts = F.shape_points(colour.shape, F.W / 2, F.H / 2, 200)
        data = face_png(F.Face("x", (F.background("#FFFFFF"), Poly(pts, colour.rgb))))
        im = Image.open(io.BytesIO(data)).convert("L")
        masks[colour.name] = im.point(lambda v: 255 if v < 250 else 0)
    for a, b in itertools.combinations(masks, 2):
        diff = ImageChops.difference(masks[a], masks[b])
        changed = diff.histogram()[255]
        assert changed > 0.05 * 825 * 1125 / 4, (a, b)


def test_six_and_nine_are_underlined_and_negatives_use_a_minus_sign(deck):
    for card in deck.cards_of(["number", "dual"]):
        f = face(card, deck)
        texts = [t for t in f.texts() if t.bold and t.text.lstrip("\u2212").isdigit()]
        assert all(t.text == F.number_text(card.value) for t in texts)
        if card.value < 0:
            assert texts[0].text.startswith("\u2212")
        labels = [t for t in texts]
        bars = [i for i in f.items if isinstance(i, Poly) and len(i.points) == 4 and i.fill in {t.fill for t in labels}
                and abs(i.points[2][1] - i.points[0][1]) < 40]
        assert (len(bars) == 3) == (abs(card.value) in (6, 9)), card.code


def test_corner_index_top_left_and_turned_bottom_right(deck):
    f = face(deck.card("GM-4"), deck)
    top = [t for t in f.texts() if not t.rot180 and t.text == "\u22124" and t.y < 300]
    bottom = [t for t in f.texts() if t.rot180 and t.text == "\u22124"]
    assert len(top) == len(bottom) == 1
    assert (top[0].x, top[0].y) == pytest.approx((F.W - bottom[0].x, F.H - bottom[0].y))


def test_chaos_cards_are_black_inside_with_white_text(deck):
    for code, bg, ink in (("GM-4", "#121212", "#FFFFFF"), ("C5", "#FFFFFF", "#1A1A1A")):
        f = face(deck.card(code), deck)
        assert f.items[0].fill == bg
        assert any(t.fill == ink for t in f.texts())


def test_wild_names_and_text_follow_the_manifest(manifest_text, tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text(without_look(manifest_text).replace("params: {factor: 2}", "params: {factor: 3}"), encoding="utf-8")
    deck = load(path)
    texts = " ".join(t.text for t in face(deck.card("x2"), deck).texts())
    # the name x3 says what the glyph ×3 says: the face prints the glyph's signs alone (corner and centre)
    assert "×3" in texts and "by 3" in texts and "x2" not in texts and "x3" not in texts
    # with the shipped icon files the glyph is multiply's icon, then the factor as text
    path.write_text(manifest_text.replace("params: {factor: 2}", "params: {factor: 3}"), encoding="utf-8")
    shipped = load(path)
    items = face(shipped.card("x2"), shipped).items
    icon = next(i for i in items if getattr(i, "path", None) is not None and i.path.name == "multiply.svg"
                and i.y1 - i.y0 > 150)  # the glyph's, not the corner's
    factor = next(t for t in face(shipped.card("x2"), shipped).texts() if t.text == "3" and t.size > 150)
    assert icon.x1 == pytest.approx(factor.x, abs=0.01) and factor.align == "l"


def test_quick_reference_numbers_come_from_the_parameters(deck):
    ref = quick_reference(deck)
    assert any("16" in p for p in ref.penalties) and [w.code for w in ref.wilds] == [c.code for c in deck.cards_of(["wild"])]
    changed = dataclasses.replace(deck, params=dataclasses.replace(deck.params, target=21))
    ref21 = quick_reference(changed)
    assert any("21" in p for p in ref21.penalties) and not any("16" in p for p in ref21.penalties)
    words = " ".join(t.text for code in ("REF", "REFW") for t in face(changed.card(code), changed).texts())
    assert "21" in words and "x2" in words


def test_back_is_one_design(deck):
    back = F.back_face(deck)
    assert [t.text for t in back.texts()] == deck.params.name.split()
    assert all(isinstance(i, (Poly, F.Stroke, Text)) for i in back.items)


def test_face_png_is_the_face_and_not_blank(built, deck):
    from generator.products.cards import file_names
    with Image.open(built / "cards" / file_names(deck)["=15"]) as im:
        rgb = im.convert("RGB")
        cyan = deck.colour(deck.colours[0].name).rgb
        assert rgb.getpixel((412, 5)) == tuple(int(cyan[i:i + 2], 16) for i in (1, 3, 5))  # the frame fills the bleed
        assert len(rgb.getcolors(4096)) > 10


def test_text_keeps_clear_of_the_frame(deck):
    from generator.deck.look import DEFAULTS

    assert DEFAULTS["number"][1].name == "interior" and DEFAULTS["number"][1].x == 97
    for card in deck.cards:
        # at least 15 dots (1.3 mm) of the interior around text; a face whose interior runs through
        # the bleed (the quick reference) keeps its text 15 dots inside the safe zone
        inner = max(F.layout(card, deck)["interior"].x, 37.5) + 15
        for t in face(card, deck).texts():
            left, top, right, bottom = t.bbox()
            assert left >= inner and right <= F.W - inner and top >= inner - 2 and bottom <= F.H - inner + 2, (
                card.code, t.text)


def test_no_text_under_6_5_pt_on_any_face(deck):
    from generator.products.render.faces import MIN_TEXT, all_faces
    from generator.products.render.units import dots_to_pt

    sizes = {f.key: min(t.size for t in f.texts()) for f in all_faces(deck) if f.texts()}
    assert min(sizes.values()) >= MIN_TEXT
    assert dots_to_pt(MIN_TEXT) == 6.5


def test_quick_reference_is_two_legible_faces_of_eight_cards(deck):
    refs = [c for c in deck.cards if c.kind == "reference"]
    assert [c.code for c in refs] == ["REF", "REFW"] and sum(c.copies for c in refs) == 8
    turn = " ".join(t.text for t in face(deck.card("REF"), deck).texts())
    wilds = " ".join(t.text for t in face(deck.card("REFW"), deck).texts())
    assert "PENALTIES" in turn and "x2" not in turn
    assert all(w.name in wilds for w in quick_reference(deck).wilds)
    # a mismatch is a legal play that costs a discard, as the rules say; never "must match"
    assert "must match" not in turn and "costs you a discard" in turn


def test_validate_refuses_text_that_would_print_under_6_5_pt(tmp_path, capsys):
    from generator.cli import main
    from tests.conftest import ROOT, without_look

    text = (ROOT / "cards.yaml").read_text(encoding="utf-8")
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "text: Skip the next player's turn." in ln)
    path = tmp_path / "cards.yaml"
    path.write_text(text.replace("text: Skip the next player's turn.", "text: " + ("MWMWMWM " * 24).strip()))
    assert main(["validate", "--manifest", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:{line}:11: card 'SKIP': its text would print at 6.0 pt to fit on the card; the smallest " \
           "legible size is 6.5 pt: shorten it" in err
    assert main(["build", "--manifest", str(path), "--out", str(tmp_path / "out")]) == 1
    assert not (tmp_path / "out").exists()


def test_the_quick_reference_s_headings_and_leads_take_the_deck_s_bold_font(tmp_path):
    """With `fonts: {regular, bold}`, the quick reference's body prints in the regular font and
    its headings and wild names in the bold one (they printed in the regular font, bold lost)."""
    import shutil
    from pathlib import Path

    import reportlab

    from tests.conftest import MANIFEST

    fonts = Path(reportlab.__file__).parent / "fonts"
    (tmp_path / "fonts").mkdir()
    for name in ("Vera.ttf", "VeraBd.ttf"):
        shutil.copy(fonts / name, tmp_path / "fonts" / name)
    (tmp_path / "cards.yaml").write_text(without_look(MANIFEST.read_text(encoding="utf-8")) +
                                         "look:\n  fonts: {regular: fonts/Vera.ttf, bold: fonts/VeraBd.ttf}\n",
                                         encoding="utf-8")
    deck = load(tmp_path / "cards.yaml")
    for code in ("REF", "REFW"):
        texts = face(next(c for c in deck.cards if c.code == code), deck).texts()
        used = {(t.bold, t.font.rsplit("/", 1)[-1]) for t in texts}
        assert used == {(True, "VeraBd.ttf"), (False, "Vera.ttf")}, (code, used)
        heads = [t.text for t in texts if t.bold]
        assert ("YOUR TURN" in heads) if code == "REF" else ("Skip" in heads and "BASE WILDS" in heads)
