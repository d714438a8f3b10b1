"""Icons inline in the faces' texts (render/inline.py): drawn at the text's size on its baseline,
measured by wrapping and shrink-to-fit, in the wild faces and the quick reference, and read back
from the PNG a build makes."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from generator.deck.manifest import load_bytes
from generator.products.render import faces, inline
from generator.products.render import typeface as tf
from generator.products.render.items import W, Poly, Stroke, Text
from tests.conftest import ROOT
from tests.deck.test_icons import with_text


def deck_with(manifest_text: str, text: str, name: str | None = None):
    return load_bytes(with_text(manifest_text, text, name).encode(), "cards.yaml")


def small(p: Poly) -> bool:
    """An icon, not a frame band: a few dozen dots across."""
    xs, ys = [x for x, _ in p.points], [y for _, y in p.points]
    return max(xs) - min(xs) < 80 and max(ys) - min(ys) < 80


def cyan_polys(face, rgb: str) -> list[Poly]:
    return [i for i in face.items if isinstance(i, Poly) and i.fill == rgb and small(i) and
            max(y for _, y in i.points) > 500]


def test_a_colour_icon_stands_on_the_baseline_at_the_text_size(manifest_text):
    deck = deck_with(manifest_text, "Play a {cyan} card.")
    cyan = deck.colour("cyan")
    face = faces.face(deck.card("SKIP"), deck)
    texts = [t for t in face.texts() if t.y > 550]
    (icon,) = cyan_polys(face, cyan.rgb)
    before = next(t for t in texts if t.text == "Play a ")
    after = next(t for t in texts if t.text == " card.")
    assert before.y == after.y  # one line
    ys = [y for _, y in icon.points]
    xs = [x for x, _ in icon.points]
    # it sits on the baseline, as tall as a capital letter of the text
    assert before.y - 2 <= max(ys) <= before.y
    assert 0.6 * before.size <= max(ys) - min(ys) <= 0.8 * before.size
    # between the words, without touching them
    assert before.x + tf.width("Play a ", before.size) <= min(xs) and max(xs) <= after.x
    # outlined in the text's ink, like the corner index shapes
    assert any(isinstance(i, Stroke) and i.points == icon.points and i.colour == before.fill for i in face.items)
    # the line is centred as a whole
    left, right = before.x, after.x + tf.width(" card.", after.size)
    assert abs((left + right) / 2 - W / 2) < 0.5


def icon_shapes(face, deck) -> list[Poly]:
    return [i for i in face.items if isinstance(i, Poly) and i.fill in {c.rgb for c in deck.colours}
            and small(i) and max(y for _, y in i.points) > 550]


@pytest.mark.parametrize("text, count, lines", [
    (" ".join(["{cyan}{magenta}{green}"] * 8), 24, 2),  # words of icons wrap
    ("{cyan}" * 28, 28, 1),  # one word of icons, too wide at 46 dots: shrunk until it fits
])
def test_wrapping_and_shrinking_measure_icons(manifest_text, text, count, lines):
    deck = deck_with(manifest_text, text)
    face = faces.face(deck.card("SKIP"), deck)
    shapes = icon_shapes(face, deck)
    assert len(shapes) == count
    xs = [x for p in shapes for x, _ in p.points]
    ys = [y for p in shapes for _, y in p.points]
    assert min(xs) >= 120 and max(xs) <= W - 120  # inside the text box
    assert min(ys) >= 550 and max(ys) <= 805
    assert len({round(max(y for _, y in p.points)) for p in shapes}) >= lines
    if lines == 1:
        assert max(xs) - min(xs) > 0.9 * (W - 240)  # shrunk no more than it must


def test_an_effect_icon_without_a_picture_is_its_glyph_sign(manifest_text):
    from tests.conftest import without_look

    text, name = "Then {icon:multiply} and {icon:skip}.", "Skip {icon:reverse}"
    deck = deck_with(without_look(manifest_text), text, name)  # no icon files declared
    face = faces.face(deck.card("SKIP"), deck)
    words = [t.text for t in face.texts()]
    assert "×" in words and "⊘" in words  # the sign of ×{factor}, without the factor
    assert "⇄" in words  # in the name, in the corner and under the glyph
    assert words.count("⇄") >= 3
    # the shipped manifest declares the glyphs' icon files: the same icons, as their outlines
    from generator.products.render.items import Outline

    shipped = deck_with(manifest_text, text, name)
    drawn = [o.path.name for o in faces.face(shipped.card("SKIP"), shipped).items if isinstance(o, Outline)]
    assert sorted(set(drawn)) == ["multiply.svg", "reverse.svg", "skip.svg"] and drawn.count("reverse.svg") >= 3


def test_plain_texts_take_the_plain_path(manifest_text, deck):
    card = deck.card("SKIP")
    items = faces.paragraph(card.text, 95, 550, W - 95, 805, 46, "#FFFFFF")
    size, lines = tf.fit_paragraph(card.text, W - 190, 255, 46, faces.FIT_FLOOR)
    assert [i.text for i in items] == lines and all(isinstance(i, Text) and i.align == "m" for i in items)
    assert inline.wrap("a {{b}} c", 40, 1000) == ["a {{b}} c"]
    assert [i.text for i in inline.line("a {{b}} c", 0, 0, 40, "#000000")] == ["a {b} c"]


def test_the_quick_reference_draws_a_wild_names_icons(manifest_text):
    deck = deck_with(manifest_text, "Skip.", name="{magenta} Skip")
    refw = next(c for c in deck.cards if c.code == "REFW")
    face = faces.face(refw, deck)
    magenta = deck.colour("magenta").rgb
    icons = [i for i in face.items if isinstance(i, Poly) and i.fill == magenta and small(i)]
    assert len(icons) == 1
    skip = next(t for t in face.texts() if t.text == " Skip" and t.bold)
    assert abs(max(y for _, y in icons[0].points) - skip.y) <= 2


def test_the_card_png_shows_the_icon(manifest_text, tmp_path, capsys):
    from tests.conftest import run

    path = tmp_path / "cards.yaml"
    path.write_text(with_text(manifest_text, "Play a {cyan} card."), encoding="utf-8")
    assert run(capsys, "build", "--only", "cards", "--manifest", str(path), "--out", str(tmp_path / "out"))[0] == 0
    deck = load_bytes(path.read_bytes(), str(path))
    (icon,) = cyan_polys(faces.face(deck.card("SKIP"), deck), deck.colour("cyan").rgb)
    im = Image.open(io.BytesIO((tmp_path / "out" / "cards" / "SKIP.png").read_bytes())).convert("RGB")
    scale = im.width / (W + 2 * 37.5)  # the tgc image holds the trim and a 1/8 in bleed
    cx = sum(x for x, _ in icon.points) / len(icon.points)
    cy = sum(y for _, y in icon.points) / len(icon.points)
    px = im.getpixel((round((cx + 37.5) * scale), round((cy + 37.5) * scale)))
    rgb = tuple(int(deck.colour("cyan").rgb[i:i + 2], 16) for i in (1, 3, 5))
    assert max(abs(a - b) for a, b in zip(px, rgb)) < 40, (px, rgb)
    json.loads((tmp_path / "out" / "cards" / "index.json").read_text())


def test_a_picture_icon_is_an_image_on_the_baseline_upright_in_both_corners(manifest_text, tmp_path):
    """`{icon:NAME}` of a picture in its own colours (a PNG here): an Image item one em tall,
    its width by the picture's aspect, standing on the baseline; in the bottom-right corner index
    it moves with the index but stays upright; it prints in the card's PNG."""
    from generator.products.pipeline.rasters import face_png
    from generator.products.render.items import Image as ImageItem

    logo = tmp_path / "logo.png"
    Image.new("RGB", (200, 100), "#E0B000").save(logo)  # 2:1, a yellow no face uses
    from dataclasses import replace

    from generator.deck.manifest import load

    shipped = load(ROOT / "cards.yaml")  # the card made in code: the manifest would want `look: icons:`
    deck = replace(shipped, cards=tuple(replace(c, name="{icon:logo}", text="A {icon:logo} here.") if c.code == "SKIP"
                                        else c for c in shipped.cards))
    deck = replace(deck, look=replace(deck.look, icons=(("logo", logo),)))
    face = faces.face(deck.card("SKIP"), deck)
    pictures = [i for i in face.items if isinstance(i, ImageItem)]
    body = next(p for p in pictures if 550 < p.y0 < 800)
    text = next(t for t in face.texts() if t.text == "A ")
    size = text.size
    assert body.y1 - body.y0 == pytest.approx(size, abs=0.02)
    assert body.x1 - body.x0 == pytest.approx(2 * size, abs=0.02)
    assert body.y1 == pytest.approx(text.y + tf.DESCENT * size, abs=0.02)  # its em box stands on the baseline
    assert body.matte == faces.interior(deck.card("SKIP"), deck)[0]
    corners = [p for p in pictures if p.y1 < 300 or p.y0 > 800]
    assert len(corners) == 2 and corners[0].x1 - corners[0].x0 == pytest.approx(corners[1].x1 - corners[1].x0)
    im = Image.open(io.BytesIO(face_png(face))).convert("RGB")
    scale = im.width / (W + 2 * 37.5)
    px = im.getpixel((round(((body.x0 + body.x1) / 2 + 37.5) * scale), round(((body.y0 + body.y1) / 2 + 37.5) * scale)))
    assert max(abs(a - b) for a, b in zip(px, (0xE0, 0xB0, 0x00))) < 40, px
