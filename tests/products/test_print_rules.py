"""Print rules for whatever the layout draws: one test per rule, each problem at its line.

The rules (products/print_rules.py, products/printable.py): no text under 6.5 pt; nothing that
must be read outside the safe zone; no frame or picture edge where a 1/16 in miscut would move
it; backs identical within every set; every picture and font usable; a picture printing under
300 dpi warned about, naming its dpi.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from generator.deck.manifest import load
from generator.products import print_rules
from generator.products.printable import problems
from tests.conftest import MANIFEST, run, without_look


def manifest(tmp_path: Path, look: str = "", steal: str = "") -> Path:
    """The shipped manifest with a `look:` section and extra keys on the Steal card's entry."""
    text = without_look(MANIFEST.read_text(encoding="utf-8"))  # the default look, which a test adds to
    if steal:
        text = text.replace("    code: STEAL\n", "    code: STEAL\n" + steal, 1)
    path = tmp_path / "cards.yaml"
    path.write_text(text + ("\nlook:\n" + look if look else ""), encoding="utf-8")
    return path


def picture(path: Path, size: tuple[int, int] = (900, 700)) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", size, (200, 90, 40)).save(path)


def located(path: Path, needle: str, column: int) -> str:
    line = next(i for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in text)
    return f"{path}:{line}:{column}"


def messages(path: Path) -> list[str]:
    return [str(p) for p in problems(load(path))]


def test_the_default_look_keeps_every_rule(deck):
    assert problems(deck) == [] and print_rules.problems(deck) == [] and print_rules.warnings(deck) == []


def test_no_text_under_6_5_pt(tmp_path, capsys):
    path = manifest(tmp_path, "  wild:\n    name: {size: 5pt}\n")
    assert messages(path) == [f"{located(path, 'size: 5pt', 18)}: element 'name' is set at 5.0 pt; no text prints "
                              "under 6.5 pt"]
    status, _, err = run(capsys, "validate", "--manifest", str(path))
    assert status == 1 and "element 'name' is set at 5.0 pt" in err


def test_a_box_too_small_for_its_text_is_one_error_at_the_element_naming_the_card(tmp_path, capsys):
    """The look makes a box too small: one error at the key that sized it, naming the first card
    and what would print (it was one error per card, at each card's line, calling the value its
    colour names and saying to shorten the text)."""
    path = manifest(tmp_path, "  number:\n    value: {width: 2mm}\n")
    assert messages(path) == [f"{located(path, 'width: 2mm', 20)}: element 'value' (2.0 × 27.9 mm) is too small for "
                              "what it holds: card 'C-2' (and 23 more cards) would print at 3.7 pt to fit in it; the "
                              "smallest legible size is 6.5 pt: make the box larger"]
    back = manifest(tmp_path, "  back:\n    title: {width: 5mm}\n")  # the back was not checked at all
    assert messages(back) == [f"{located(back, 'width: 5mm', 20)}: element 'title' (5.0 × 25.4 mm) is too small for "
                              "what it holds: the back would print at 3.6 pt to fit in it; the smallest legible size "
                              "is 6.5 pt: make the box larger"]
    status, _, err = run(capsys, "build", "--only", "cards", "--manifest", str(back), "--out", str(tmp_path / "out"))
    assert status == 1 and "element 'title'" in err and not (tmp_path / "out" / "cards").exists()


def test_a_text_held_at_its_min_size_that_runs_out_of_its_box_is_an_error(tmp_path, capsys):
    """The quick reference's body is held at 7 pt: in a smaller box its last lines ran past the
    box, over the frame and off the card, and validate and build passed."""
    path = manifest(tmp_path, "  reference:\n    body: {y: 17mm, height: 40mm}\n")
    assert messages(path) == [f"{located(path, 'height: 40mm', 29)}: element 'body' (52.5 × 40.0 mm) is too small for "
                              "what it holds: card 'REF' (and 1 more card) runs out of it even at 7.0 pt, its min_size; "
                              "make the box larger, or min_size smaller (6.5 pt at least)"]
    # a wild's text held at a min_size its box cannot give it
    wild = manifest(tmp_path, "  wild:\n    text: {min_size: 9pt, height: 12mm}\n")
    (problem,) = messages(wild)
    assert problem.startswith(f"{located(wild, 'min_size: 9pt', 22)}: element 'text' (43.2 × 12.0 mm) is too small")
    assert "runs out of it even at 9.0 pt, its min_size" in problem
    # an added line held at its min_size: one error at it, not one per card for its text past the trim
    added = manifest(tmp_path, "  wild:\n    add:\n      - {name: credit, text: 'Art by somebody with a very long "
                               "name indeed', x: 8mm, y: 78mm, width: 20mm, height: 3mm, size: 7pt, min_size: 7pt}\n")
    (problem,) = messages(added)
    assert "element 'credit' (20.0 × 3.0 mm) is too small for what it holds: card '+1' (and 10 more cards) runs out " \
           "of it even at 7.0 pt, its min_size" in problem
    # the same box without the look's min_size shrinks the text to fit, legibly: no error
    assert messages(manifest(tmp_path, "  wild:\n    text: {height: 30mm}\n")) == []
    # more wilds than the quick reference holds at 7 pt: the cause is the cards, named at the reference's line
    text = MANIFEST.read_text(encoding="utf-8")
    extra = "".join(f"  - {{kind: wild, set: chaos, code: '={v}', name: 'Set the count to {v}', effect: set_count, "
                    f"params: {{value: {v}}}, text: 'Set the count to {{value}}.', copies: 1}}\n" for v in range(1, 9))
    crowded = tmp_path / "crowded" / "cards.yaml"
    crowded.parent.mkdir()
    crowded.write_text(without_look(text).replace("\n# --- Editions", "\n" + extra + "\n# --- Editions")
                       .replace("expect: 201", "expect: 209").replace("expect: 93", "expect: 101")
                       .replace("expect: 123", "expect: 131"), encoding="utf-8")
    found = [m for m in messages(crowded) if "the quick reference" in m]
    assert found == [f"{located(crowded, 'code: REFW', 40)}: card 'REFW': the quick reference does not fit its box "
                     "even at 7.0 pt, the smallest it prints at (the element's min_size): shorten the wild cards' "
                     "names or texts, or the rules lines it lists"]


def test_nothing_to_read_outside_the_safe_zone(tmp_path):
    path = manifest(tmp_path, "  number:\n    corner: {x: 2mm}\n")
    assert messages(path) == [f"{located(path, 'x: 2mm', 17)}: element 'corner' reaches 2.0 mm from the trim on its "
                              "left; text must stay 1/8 in (3.2 mm) inside the trim (the safe zone), where no cut "
                              "reaches it"]
    inside = manifest(tmp_path, "  number:\n    corner: {x: 3.5mm}\n")
    assert messages(inside) == []


def test_the_colour_shapes_stay_in_the_safe_zone(tmp_path):
    """The colour shapes tell the colours apart for colour-blind players: a look that moves them
    off the card, or past the trim, is an error at its line (they vanished, or were cut, silently)."""
    off = manifest(tmp_path, "  number:\n    shapes: {x: 100mm}\n")
    assert f"{located(off, 'x: 100mm', 13)}: element 'shapes' puts the colour shapes 73.2 mm past the trim on its " \
           "right; they tell the colours apart, so they stay 1/8 in (3.2 mm) inside the trim (the safe zone), where " \
           "no cut reaches them" in messages(off)
    # a dual card's column of two reaches further down than a number card's one
    low = manifest(tmp_path, "  number:\n    corner_shapes: {y: 80mm}\n")
    assert messages(low) == [f"{located(low, 'y: 80mm', 20)}: element 'corner_shapes' puts the colour shapes 1.1 mm "
                             "past the trim on its bottom; they tell the colours apart, so they stay 1/8 in (3.2 mm) "
                             "inside the trim (the safe zone), where no cut reaches them"]
    assert messages(manifest(tmp_path, "  number:\n    corner_shapes: {y: 70mm}\n")) == []


def test_a_look_that_hides_what_a_card_is_played_by_is_refused(tmp_path):
    """Hiding elements is the designer's, but not all of a group: a number card needs its value (the
    corner or the big value) and its colours' shapes (the row or the corner column), a wild what
    it is (its corner, glyph or name). The build drew such faces blank, without a word."""
    path = manifest(tmp_path, "  number:\n    corner: {hidden: true}\n    value: {hidden: true}\n"
                              "    shapes: {hidden: true}\n    corner_shapes: {hidden: true}\n"
                              "  wild:\n    corner: {hidden: true}\n    glyph: {hidden: true}\n    name: {hidden: true}\n")
    assert messages(path) == [
        f"{located(path, 'value: {hidden', 21)}: with elements 'corner' and 'value' both hidden, the card shows its "
        "value nowhere; show one of them",
        f"{located(path, 'corner_shapes: {hidden', 29)}: with elements 'shapes' and 'corner_shapes' both hidden, the "
        "card shows the shapes that tell its colours apart (colour-blind players read them) nowhere; show one of them",
        f"{located(path, '    name: {hidden', 20)}: with elements 'corner', 'glyph' and 'name' all hidden, the card "
        "shows which wild it is nowhere; show one of them"]
    # one of each group shown is enough
    assert messages(manifest(tmp_path, "  number:\n    corner: {hidden: true}\n    shapes: {hidden: true}\n"
                                       "  wild:\n    corner: {hidden: true}\n    glyph: {hidden: true}\n")) == []


def test_an_added_text_outside_the_safe_zone_is_named(tmp_path):
    path = manifest(tmp_path, "  back:\n    add:\n      - {name: credit, text: 'Printed 2026', x: 10mm, y: 86mm, "
                              "width: 40mm, height: 4mm, size: 8pt}\n")
    assert messages(path) == [f"{located(path, 'credit', 85)}: element 'credit' reaches 1.1 mm past the trim on its "
                              "bottom; text must stay 1/8 in (3.2 mm) inside the trim (the safe zone), where no cut "
                              "reaches it"]


def test_no_edge_where_a_miscut_would_move_it(tmp_path):
    frame = manifest(tmp_path, "  wild:\n    frame: {x: 1mm}\n")
    assert messages(frame) == [f"{located(frame, 'x: 1mm', 16)}: the left edge of element 'frame' is 1.0 mm inside "
                               "the trim, where a 1/16 in (1.6 mm) miscut would show it or cut it off; take it out to "
                               "the bleed's edge, 1/8 in (3.2 mm) outside the trim, or 1/16 in inside the trim or more"]
    picture(tmp_path / "art" / "steal.png")
    art = manifest(tmp_path, "  cards:\n    STEAL: {art: {x: 0mm, y: 0mm, width: 63.5mm, height: 40mm}}\n",
                   steal="    art: art/steal.png\n")
    assert messages(art) == [f"{located(art, 'x: 0mm', 22)}: the left edge of element 'art' is 0.0 mm inside the "
                             "trim, where a 1/16 in (1.6 mm) miscut would show it or cut it off; take it out to the "
                             "bleed's edge, 1/8 in (3.2 mm) outside the trim (or bleed: true), or 1/16 in inside the "
                             "trim or more"]
    bled = manifest(tmp_path, "  cards:\n    STEAL: {art: {x: 0mm, y: 0mm, width: 63.5mm, height: 40mm, bleed: true}}\n",
                    steal="    art: art/steal.png\n")
    assert messages(bled) == []
    from generator.products.render.faces import face

    d = load(bled)
    image = next(i for i in face(d.card("STEAL"), d).items if type(i).__name__ == "Image")
    assert (image.x0, image.y0, image.x1, image.y1) == (-37.5, -37.5, 787.5, 472.4409)  # through the bleed, but below


def test_a_border_a_miscut_makes_lopsided_is_a_warning_at_its_line(tmp_path, capsys):
    """The old 4 mm frame (interior 48 dots in) and the old back border (90 dots): a 1/16 in
    miscut makes opposite borders 2.3:1 and 1.53:1. Each is a warning at the element's key, and
    validate still passes; an interior 8 mm in, or through the bleed, says nothing."""
    path = manifest(tmp_path, "  number:\n    interior: {x: 48dots, y: 48dots, width: 654dots, height: 954dots}\n"
                              "  back:\n    frame: {x: 90dots, y: 90dots, width: 570dots, height: 870dots}\n")
    warned = [str(w) for w in print_rules.warnings(load(path))]
    assert warned == [
        f"{located(path, 'x: 48dots', 19)}: the left edge of element 'interior' is 4.1 mm inside the trim: a 1/16 in "
        "(1.6 mm) miscut makes that border 2.5 mm on one side and 5.7 mm on the other (2.28:1, over 1.5:1), and the "
        "card looks lopsided; keep its edges 7.9 mm or more inside the trim, or run it out to the bleed",
        f"{located(path, 'x: 90dots', 16)}: the left edge of element 'frame' is 7.6 mm inside the trim: a 1/16 in "
        "(1.6 mm) miscut makes that border 6.0 mm on one side and 9.2 mm on the other (1.53:1, over 1.5:1), and the "
        "card looks lopsided; keep its edges 7.9 mm or more inside the trim, or run it out to the bleed"]
    status, _, err = run(capsys, "validate", "--manifest", str(path))
    assert status == 0 and err.count("warning: ") == 2 and "card looks lopsided" in err
    for fine in ("{x: 8mm, y: 8mm, width: 47.5mm, height: 72.9mm}", "{x: -3.175mm, y: -3.175mm, width: 69.85mm, "
                                                                    "height: 95.25mm}"):
        path = manifest(tmp_path, f"  number:\n    interior: {fine}\n")
        assert print_rules.warnings(load(path)) == [], fine


def test_backs_are_identical_within_a_set(tmp_path, deck):
    """The deck prints one back: a set of its own back is refused at its line, and every face of
    every set is printed with the same back."""
    from generator.deck.problems import InputError

    path = manifest(tmp_path, "  sets:\n    chaos: {back: {title: {size: 20pt}}}\n")
    try:
        load(path)
        raise AssertionError("a set's own back was accepted")
    except InputError as err:
        assert [str(p) for p in err.problems] == [
            f"{located(path, 'chaos:', 13)}: a set has no back of its own: every card prints the deck's one back "
            "(look: back:), so that no back tells a card from another (backs identical within a set)"]


def test_a_picture_that_is_not_one_is_refused_at_its_line(tmp_path):
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "steal.png").write_text("not a picture")
    path = manifest(tmp_path, steal="    art: art/steal.png\n")
    found = messages(path)
    assert len(found) == 1 and found[0].startswith(f"{located(path, 'art/steal.png', 10)}: steal.png: ")


def test_a_picture_under_300_dpi_is_a_warning_naming_its_dpi(tmp_path, capsys):
    picture(tmp_path / "art" / "steal.png", (160, 120))
    path = manifest(tmp_path, steal="    art: art/steal.png\n")
    status, _, err = run(capsys, "validate", "--manifest", str(path))
    assert status == 0
    assert err.startswith(f"warning: {located(path, 'art/steal.png', 10)}: steal.png: 150 dpi at its printed size")
