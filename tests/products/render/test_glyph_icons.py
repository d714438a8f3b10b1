"""The wild glyphs as icon files (art/icons/<effect>.svg): made from the typeface's outlines, read
back as outlines in the text's ink, and drawing the faces the built-in glyphs draw, within a
stated pixel tolerance."""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from generator.deck.effects import CATALOGUE
from generator.products.render import faces
from generator.products.render import typeface as tf
from generator.products.render.assets.glyph_icons import glyph_svg
from generator.products.render.assets.icon_files import contours, picture
from generator.products.render.inline import glyph_sign
from generator.products.render.items import Outline, Text
from tests.conftest import ROOT

ICONS = ROOT / "art" / "icons"
#: How far a face drawn with the icon files may differ from the one drawn with the typeface's
#: glyphs: no channel of any pixel by more than MAX_CHANNEL of 255, and at most MAX_SHARE of the
#: face's pixels by more than EDGE (a glyph's edge anti-aliased a pixel over: the icon is a path,
#: the glyph text, and the parameter after an icon starts on a rounded position).
MAX_CHANNEL = 80
EDGE = 32
MAX_SHARE = 0.001


def test_one_icon_file_per_effect_made_from_the_glyph_outlines():
    assert sorted(p.stem for p in ICONS.glob("*.svg")) == sorted(CATALOGUE)
    for name in CATALOGUE:
        assert (ICONS / f"{name}.svg").read_text(encoding="utf-8") == glyph_svg(glyph_sign(name)), (
            f"art/icons/{name}.svg is not the glyph's outline: python -m generator.products.render.assets.glyph_icons art/icons")


def test_an_icon_is_its_glyph_advance_wide_and_read_as_outlines():
    for name in CATALOGUE:
        pic = picture(ICONS / f"{name}.svg")
        sign = glyph_sign(name)
        assert pic.aspect == pytest.approx(tf.width(sign, 1.0, True), abs=1e-9)
        assert pic.tinted  # one colour: drawn in the text's ink
        outlines = contours(ICONS / f"{name}.svg")
        assert outlines and all(len(c) >= 3 for c in outlines)
        ys = [y for c in outlines for _, y in c]
        assert 0 <= min(ys) and max(ys) <= 1  # inside the em box


def with_icon_files(deck):
    """The deck with its layout declaring the shipped icon files (as `look: icons:` does)."""
    return dataclasses.replace(deck, look=dataclasses.replace(
        deck.look, icons=tuple((n, ICONS / f"{n}.svg") for n in CATALOGUE)))


def test_the_shipped_manifest_declares_every_icon_file(deck):
    assert {name: Path(path).resolve() for name, path in deck.look.icons} == {
        name: (ICONS / f"{name}.svg").resolve() for name in CATALOGUE}


def test_a_wild_draws_its_icon_in_the_ink_of_its_set(no_look_deck):
    deck = no_look_deck
    icons_deck = with_icon_files(deck)
    for code in ("x2", "SKIP"):  # a white set's wild and a black set's
        card = deck.card(code)
        face = faces.face(card, icons_deck)
        ink = faces.interior(card, deck)[1]
        glyph = [i for i in face.items if isinstance(i, Outline)]
        assert glyph and all(o.fill == ink for o in glyph)
        assert not any(isinstance(t, Text) and glyph_sign(card.effect.name) in t.text for t in face.texts())
    x2 = faces.face(deck.card("x2"), icons_deck)
    assert any(t.text == "2" and t.size > 150 for t in x2.texts())  # the factor stays text beside the sign


def test_the_faces_with_icon_files_match_the_built_in_glyphs(no_look_deck):
    from generator.products.pipeline.rasters import face_png

    deck = no_look_deck
    icons_deck = with_icon_files(deck)
    for card in deck.cards:
        if card.kind != "wild":
            continue
        a = Image.open(io.BytesIO(face_png(faces.face(card, deck)))).convert("RGB")
        b = Image.open(io.BytesIO(face_png(faces.face(card, icons_deck)))).convert("RGB")
        assert a.size == b.size
        diff = ImageChops.difference(a, b)
        worst = max(hi for _, hi in diff.getextrema())
        grey = diff.convert("L").histogram()
        share = sum(grey[EDGE + 1:]) / (a.width * a.height)
        assert worst <= MAX_CHANNEL and share <= MAX_SHARE, (card.code, worst, share)


def test_a_long_named_wild_shows_its_icon_in_both_corners(manifest_text):
    """A name too long for the corner index gives way to the glyph, drawn top-left and turned
    half a turn bottom-right: with the icon file, the same places."""
    from generator.deck.manifest import load_bytes
    from generator.products.pipeline.rasters import face_png
    from tests.conftest import without_look
    from tests.deck.test_icons import with_text

    deck = load_bytes(with_text(without_look(manifest_text), "Skip.", name="Skippityskippityskippity").encode(),
                      "cards.yaml")
    card = deck.card("SKIP")
    face = faces.face(card, with_icon_files(deck))
    turned = [o for o in face.items if isinstance(o, Outline) and o.rot180]
    upright = [o for o in face.items if isinstance(o, Outline) and not o.rot180 and o.y1 < 300]
    assert len(turned) == 1 and len(upright) == 1
    assert turned[0].x0 > 450 and turned[0].y0 > 800  # bottom-right
    a = Image.open(io.BytesIO(face_png(faces.face(card, deck)))).convert("RGB")
    b = Image.open(io.BytesIO(face_png(face))).convert("RGB")
    diff = ImageChops.difference(a, b)
    grey = diff.convert("L").histogram()
    assert max(hi for _, hi in diff.getextrema()) <= MAX_CHANNEL
    assert sum(grey[EDGE + 1:]) / (a.width * a.height) <= MAX_SHARE


SQUARE = "M0 0 L10 0 L10 10 L0 10 Z"


def corners(svg_body: str) -> list[tuple[float, float]]:
    """The points of the one outline of an icon (viewBox 0 0 100 100: em units are hundredths)."""
    from generator.products.render.assets.icon_files import svg_outlines

    found = svg_outlines(('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                          f'viewBox="0 0 100 100">{svg_body}</svg>').encode())
    assert len(found) == 1, found
    return [(round(x * 100, 3), round(y * 100, 3)) for x, y in found[0]]


@pytest.mark.parametrize("body, first, third", [
    # every transform SVG writes, on the element and on the groups around it, right to left
    (f'<path fill="currentColor" d="{SQUARE}"/>', (0, 0), (10, 10)),
    (f'<path fill="currentColor" transform="translate(20, 30)" d="{SQUARE}"/>', (20, 30), (30, 40)),
    (f'<path fill="currentColor" transform="translate(20 30) scale(2)" d="{SQUARE}"/>', (20, 30), (40, 50)),
    (f'<path fill="currentColor" transform="rotate(90 5 5)" d="{SQUARE}"/>', (10, 0), (0, 10)),
    (f'<path fill="currentColor" transform="matrix(1, 0, 0, 1, 5, 6)" d="{SQUARE}"/>', (5, 6), (15, 16)),
    (f'<g transform="translate(50,0)"><g transform="scale(3)"><path fill="currentColor" d="{SQUARE}"/></g></g>',
     (50, 0), (80, 30)),
    # what is only referred to draws where it is used, once
    (f'<defs><path id="s" fill="currentColor" d="{SQUARE}"/></defs><use xlink:href="#s" x="40" y="40"/>',
     (40, 40), (50, 50)),
    (f'<g style="display: none"><path fill="currentColor" d="M0 0 L1 0 L1 1 Z"/></g>'
     f'<path fill="currentColor" d="{SQUARE}"/>', (0, 0), (10, 10)),
    # a basic shape's lengths with units (fontTools' reader raised on '10px': the build stopped)
    ('<rect fill="currentColor" x="10px" y="0" width="20px" height="0.25in"/>', (10, 0), (30, 24)),
])
def test_an_icon_s_outlines_follow_every_svg_transform(body, first, third):
    points = corners(body)
    assert points[0] == pytest.approx(first, abs=1e-3) and points[2] == pytest.approx(third, abs=1e-3)


def test_an_icon_transform_that_cannot_be_read_is_an_error_at_its_line_not_a_crash(tmp_path, capsys):
    from generator.cli import main
    from tests.conftest import MANIFEST

    (tmp_path / "art" / "icons").mkdir(parents=True)
    for icon in ICONS.glob("*.svg"):
        text = icon.read_text(encoding="utf-8")
        if icon.stem == "skip":  # a designer's drawing, turned by its group: drawn turned
            text = text.replace("<path ", '<g transform="rotate(45 858 1024)"><path ', 1).replace("</svg>", "</g></svg>")
        (tmp_path / "art" / "icons" / icon.name).write_text(text, encoding="utf-8")
    (tmp_path / "cards.yaml").write_text(MANIFEST.read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["validate", "--manifest", str(tmp_path / "cards.yaml")]) == 0
    turned = contours(tmp_path / "art" / "icons" / "skip.svg")
    assert turned != contours(ICONS / "skip.svg") and len(turned) == len(contours(ICONS / "skip.svg"))

    skip = tmp_path / "art" / "icons" / "skip.svg"
    skip.write_text(skip.read_text(encoding="utf-8").replace('transform="rotate(45 858 1024)"', 'transform="spin(45)"'),
                    encoding="utf-8")
    trade = tmp_path / "art" / "icons" / "trade_hands.svg"  # a length that depends on what holds it
    trade.write_text(trade.read_text(encoding="utf-8").replace(
        "</svg>", '<rect fill="currentColor" x="10%" y="0" width="5" height="5"/></svg>'), encoding="utf-8")
    capsys.readouterr()
    assert main(["validate", "--manifest", str(tmp_path / "cards.yaml")]) == 1
    err = capsys.readouterr().err
    line = next(i for i, t in enumerate((tmp_path / "cards.yaml").read_text(encoding="utf-8").splitlines(), 1)
                if "skip: art/icons/skip.svg" in t)
    assert f"cards.yaml:{line}:" in err and "skip.svg: the SVG's transform on <g> (line 2) cannot be drawn: an SVG " \
                                            "transform it cannot read: 'spin(45)'" in err
    assert "trade_hands.svg: the icon's outlines cannot be read (a length it cannot read: x=\"10%\"" in err
