"""The `look:` section: lengths with units, the default layout, changes for a kind, a set and a
card, hidden and added elements, art and font entries, and every mistake located."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.deck import look as looks
from generator.deck.manifest import load
from generator.deck.problems import InputError
from generator.products.render import faces
from tests.conftest import MANIFEST, run, without_look

#: The shipped manifest without its own `look:` section (which declares the wild glyphs' icon
#: files): the default look, which these tests change.
SHIPPED = without_look(MANIFEST.read_text(encoding="utf-8"))


@pytest.fixture
def deck(no_look_deck):
    """The cards in the default look (the shipped manifest without `look:`)."""
    return no_look_deck


def manifest_with(tmp_path: Path, look: str, extra: str = "") -> Path:
    """The shipped manifest with a `look:` section (its text indented by the caller)."""
    text = SHIPPED
    path = tmp_path / "cards.yaml"
    path.write_text(text + extra + "\nlook:\n" + look, encoding="utf-8")
    return path


def line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in line)


def problems(path: Path) -> list[str]:
    with pytest.raises(InputError) as err:
        load(path)
    return [str(p) for p in err.value.problems]


@pytest.mark.parametrize("text, dots", [("3mm", 35.4331), ("0.125in", 37.5), ("12pt", 50.0), ("37.5dots", 37.5),
                                        ("-1.5mm", -17.7165), (".5in", 150.0)])
def test_lengths_are_measured_in_dots(text, dots):
    assert looks.length(text) == pytest.approx(dots)


def test_the_shipped_manifest_has_the_default_look_and_its_icons(deck):
    from dataclasses import replace

    shipped = load(MANIFEST)
    assert shipped.look.icons and replace(shipped.look, icons=(), origin=None) == looks.DEFAULT_LOOK
    assert deck.look is looks.DEFAULT_LOOK and deck.look.is_default
    layout = deck.look.layout("number", "base", "C6")
    assert [e.name for e in layout.elements] == list(looks.ELEMENTS["number"])
    corner = layout["corner"]
    assert (corner.x, corner.y, corner.width, corner.size) == (112.0, 110.0, 130.0, 84.0)


def test_restating_the_default_changes_no_face(tmp_path, deck):
    """A look that writes today's numbers in other units draws every face as the default does."""
    path = manifest_with(tmp_path, "  number:\n    corner: {x: 112dots, y: 110dots, width: 130dots, size: 84dots}\n"
                                   "  wild:\n    text: {x: 120dots, fit: wrap}\n")
    restated = load(path)
    assert not restated.look.is_default
    for card in deck.cards:
        assert faces.face(restated.card(card.code), restated).items == faces.face(card, deck).items, card.code
    assert faces.back_face(restated).items == faces.back_face(deck).items


def test_a_kind_a_set_and_a_card_each_change_their_own_faces(tmp_path, deck):
    path = manifest_with(tmp_path, "  number:\n    corner: {x: 5mm, width: 12mm}\n"
                                   "  sets:\n    chaos:\n      wild: {name: {colour: '#AA0000'}}\n"
                                   "  cards:\n    STEAL: {divider: {hidden: true}, text: {size: 10pt}}\n")
    moved = load(path)

    def corner_x(d, code):
        return faces.face(d.card(code), d).texts()[0].x

    assert corner_x(moved, "C6") == pytest.approx(looks.length("5mm") + looks.length("12mm") / 2)
    assert corner_x(deck, "C6") == 177.0
    chaos_wild = deck.card("PLAY2")  # a chaos wild whose name the face prints (=15's repeats its glyph)
    assert chaos_wild.set == "chaos"
    base_wild = next(c for c in deck.cards if c.kind == "wild" and c.set == "base" and c.code != "STEAL")
    named = [t for t in faces.face(moved.card(chaos_wild.code), moved).texts() if t.text == chaos_wild.name]
    assert [t.fill for t in named if not t.rot180 and t.y == 505.0] == ["#AA0000"]  # the name, not the corner
    assert faces.face(moved.card(base_wild.code), moved).items == faces.face(base_wild, deck).items
    steal_before, steal = faces.face(deck.card("STEAL"), deck), faces.face(moved.card("STEAL"), moved)
    assert len(steal.items) == len(steal_before.items) - 1  # the divider is gone
    body = [t for t in steal.texts() if t.text in deck.card("STEAL").text or deck.card("STEAL").text.startswith(t.text)]
    assert body and max(t.size for t in body) <= looks.length("10pt")


def test_an_added_text_is_drawn_where_it_is_placed(tmp_path):
    path = manifest_with(tmp_path, "  wild:\n    add:\n      - {name: credit, text: 'Art: Jo', x: 10mm, y: 80mm, "
                                   "width: 30mm, height: 4mm, size: 7pt, align: left}\n")
    d = load(path)
    credit = [t for t in faces.face(d.card("STEAL"), d).texts() if t.text == "Art: Jo"]
    assert len(credit) == 1 and credit[0].align == "l" and credit[0].x == pytest.approx(looks.length("10mm"))
    assert credit[0].size == pytest.approx(looks.length("7pt"))


def test_art_on_a_card_and_on_a_set_resolve_to_files_beside_the_manifest(tmp_path):
    (tmp_path / "art").mkdir(exist_ok=True)
    (tmp_path / "art" / "steal.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (tmp_path / "art" / "chaos.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    text = SHIPPED
    text = text.replace("    code: STEAL\n", "    code: STEAL\n    art: {file: art/steal.png, fit: cover}\n", 1)
    text = text.replace("interior: black}", "interior: black, art: art/chaos.png}", 1)
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    d = load(path)
    assert d.card("STEAL").art == looks.Art((tmp_path / "art" / "steal.png").resolve(), "cover", False, written=("fit",))
    assert d.card_set("chaos").art.path == (tmp_path / "art" / "chaos.png").resolve()
    steal = d.look.layout("wild", "base", "STEAL", d.card("STEAL").art)
    assert steal["art"].file == d.card("STEAL").art.path and steal["glyph"].hidden  # the picture takes its place


LOOK_MISTAKES = [
    ("  number:\n    cornr: {x: 5mm}\n", "cornr:", 5, "unknown element 'cornr' (did you mean 'corner'?)"),
    ("  number:\n    corner: {x: 5}\n", "corner:", 17,
     "'x' must be a length like '3mm', '0.125in', '12pt' or '37.5dots' (measured from the trim), not 5"),
    ("  wild:\n    glyph: {fit: cover}\n", "glyph:", 18, "'fit' of a text is shrink or wrap, not 'cover'"),
    ("  sets:\n    chaoss: {wild: {name: {size: 20pt}}}\n", "chaoss:", 5, "unknown set 'chaoss' (did you mean 'chaos'?)"),
    ("  sets:\n    chaos: {back: {title: {size: 9pt}}}\n", "chaos:", 13,
     "a set has no back of its own: every card prints the deck's one back (look: back:), so that no back tells a "
     "card from another (backs identical within a set)"),
    ("  cards:\n    STEEL: {name: {size: 10pt}}\n", "STEEL:", 5, "unknown card 'STEEL' (did you mean 'STEAL'?)"),
    ("  cards:\n    C5: {glyph: {size: 10pt}}\n", "C5:", 10,
     "a number card has no element 'glyph'; its elements are frame, interior, art, corner, corner_shapes, shapes, "
     "value, name"),
    ("  back:\n    art: {file: ../logo.png}\n", "art:", 17,
     "'../logo.png' leaves the manifest's folder; keep the picture file in the folder that holds cards.yaml (or "
     "below it)"),
    ("  back:\n    art: {file: /etc/passwd}\n", "art:", 17,
     "'/etc/passwd' is an absolute path; give the picture file's path relative to the manifest's folder (keep it "
     "beside cards.yaml)"),
    ("  fonts: {regular: fonts/Missing.ttf}\n", "fonts:", 20,
     "no such font file 'fonts/Missing.ttf' (relative to the manifest's folder)"),
    ("  number:\n    name: {file: art/x.png}\n", "name:", 12,
     "only the art box (or an added picture) takes 'file'; element 'name' draws no picture"),
    ("  wild:\n    add:\n      - {name: credit, x: 1mm, y: 1mm, width: 1mm}\n", "credit", 9,
     "added element 'credit' needs height (its box on the card)"),
]


@pytest.mark.parametrize("look, needle, column, message", LOOK_MISTAKES, ids=[m[3][:40] for m in LOOK_MISTAKES])
def test_a_mistake_in_the_look_is_located(tmp_path, look, needle, column, message):
    path = manifest_with(tmp_path, look)
    start = len(SHIPPED.splitlines()) + 2
    line = next(i for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                if i > start and needle in text)
    assert problems(path) == [f"{path}:{line}:{column}: {message}"]


def test_validate_reports_a_look_mistake_with_status_1(capsys, tmp_path):
    path = manifest_with(tmp_path, "  number:\n    cornr: {x: 5mm}\n")
    status, out, err = run(capsys, "validate", "--manifest", str(path))
    assert status == 1
    assert f"{path}:{line_of(path, 'cornr')}:5: unknown element 'cornr' (did you mean 'corner'?)" in err


def test_a_missing_picture_is_reported_at_the_card_that_names_it(tmp_path):
    text = SHIPPED.replace("    code: STEAL\n", "    code: STEAL\n    art: art/stael.png\n", 1)
    (tmp_path / "art").mkdir(exist_ok=True)
    (tmp_path / "art" / "steal.png").write_bytes(b"x")
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    assert problems(path) == [f"{path}:{line_of(path, 'art/stael.png')}:10: no such picture file 'art/stael.png' "
                              "(relative to the manifest's folder) (did you mean 'steal.png'?)"]


def test_the_documented_default_layout_is_the_default():
    """docs/formats.md shows the default layout as a table; it is the one deck/look.py declares."""
    from tests.conftest import ROOT

    doc = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    assert "\n".join(looks.default_table()) in doc


def test_diff_and_changes_name_layout_changes_by_element(tmp_path, capsys):
    """deck.json lists the look's elements (a manifest without look: has no key; the shipped one
    names its icon files), and diff (and every build's changes.json, made by the same comparison)
    names each changed element."""
    from generator.deck.compare import compare, summary
    from generator.deck.deck_json import deck_json
    from generator.deck.manifest import load_bytes

    assert "look" not in deck_json(load_bytes(SHIPPED.encode(), str(tmp_path / "cards.yaml")))
    assert deck_json(load(MANIFEST))["look"]["icons"]["skip"] == "art/icons/skip.svg"
    before = manifest_with(tmp_path, "  number:\n    corner: {x: 5mm}\n  wild:\n    divider: {hidden: true}\n")
    (tmp_path / "after").mkdir()
    after = manifest_with(tmp_path / "after", "  number:\n    corner: {x: 4.5mm}\n  wild:\n    divider: {hidden: true}\n"
                                              "  back:\n    add:\n      - {name: credit, text: 'Jo', x: 20mm, y: 70mm, "
                                              "width: 20mm, height: 4mm}\n")
    doc = compare(deck_json(load(before)), deck_json(load(after)))
    assert doc["same"] is False
    assert doc["look"]["changed"] == [{"element": "number corner", "changes": {"x": {"before": "5.00mm",
                                                                                      "after": "4.50mm"}}}]
    assert summary(doc) == [
        "look: back +credit added: x '20.00mm', y '70.00mm', width '20.00mm', height '4.00mm', size '3.17mm', text 'Jo'",
        "look: number corner changed: x '5.00mm' -> '4.50mm'"]
    status, out, _ = run(capsys, "diff", str(before), str(after))
    assert status == 1 and "look: number corner changed: x '5.00mm' -> '4.50mm'" in out


def test_deck_json_names_an_alignment_as_the_manifest_writes_it(tmp_path):
    """`align: left` is listed (and compared, and summed up by the build) as 'left', not as the
    layout's one-letter code 'l'."""
    from generator.deck.deck_json import deck_json

    path = manifest_with(tmp_path, "  wild:\n    text: {align: left}\n  number:\n    name: {align: center}\n")
    elements = {e["element"]: e for e in deck_json(load(path))["look"]["elements"]}
    assert elements["wild text"]["align"] == "left" and elements["number name"]["align"] == "centre"
