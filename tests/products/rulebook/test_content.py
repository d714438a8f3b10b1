"""The rulebook's content comes from the manifest, the engine and the quick-reference data."""

from __future__ import annotations

import re

import pytest

from generator.deck.manifest import load
from generator.products.rulebook import page as rulebook
from tests.products.rulebook.conftest import MANIFEST, visible_text
from tests.products.rulebook.page import read

SECTIONS = ("contents", "the-game", "objective", "setup", "turn", "penalties", "examples", "wilds-base", "wilds-chaos",
            "variations", "teams-speed", "clarifications", "house-rules", "quick-reference")


@pytest.fixture(scope="module")
def deck():
    return load(MANIFEST)


@pytest.fixture(scope="module")
def text(html):
    return visible_text(html)


def test_every_section_is_there_with_a_heading(html, designer_html):
    """In the players' rulebook every section but the designer notes, in order; in the designer's, them too."""
    page = read(html)
    ids = [attrs["id"] for _, attrs in page.tags if attrs.get("id") in SECTIONS]
    assert ids == list(SECTIONS)
    assert "designers" not in page.ids() and "designers" in read(designer_html).ids()
    assert [level for level, _ in page.headings].count(1) == 1
    levels = [level for level, _ in page.headings]
    assert all(b <= a + 1 for a, b in zip(levels, levels[1:])), "a heading level is skipped"
    for landmark in ("header", "nav", "main", "footer"):
        assert len(page.all(landmark)) == 1, landmark
    assert page.all("html")[0]["lang"] == "en"


def test_self_contained(html):
    """No request leaves the page: no scripts, no links to resources, images as data: URIs."""
    page = read(html)
    assert not page.all("script") and not page.all("link") and not page.all("iframe")
    for img in page.all("img"):
        assert img["src"].startswith("data:image/png;base64,")
    for a in page.all("a"):
        assert a["href"].startswith("#"), a["href"]
    assert not re.search(r"url\(|@import", html), "the stylesheet loads something"


def test_game_parameters_and_counts_come_from_the_manifest(text, deck):
    p = deck.params
    assert f"Get the count to exactly {p.target}." in text
    assert f"deals {p.hand_size} cards to each player" in text
    assert f"{deck.printed} cards in all, {sum(c.copies for c in deck.cards if c.playing)} of them playing cards" in text
    for e in deck.editions:
        assert re.search(rf"{re.escape(e.name)} {re.escape(e.description)} \([^)]*\) {deck.edition_count(e.key)} ", text), e.key
    for s in deck.sets:
        assert f"{s.name} ({s.interior} interior): {deck.set_totals()[s.key]} cards" in text
    assert "30 Cyan (circle) cards (−2 to 7)" in text
    assert "12 Green (triangle) cards (−4, −3, 8, 9)" in text
    assert "14 Cyan/Green (circle/triangle) cards (−4 to 9)" in text
    # the reference cards by their printed titles: the one titled "Wild Cards" is not more wilds
    assert "4 “Quick Reference” cards (not played)" in text
    assert "4 “Wild Cards” reference cards (not played)" in text
    assert "3 Blank cards (write your own)" in text


def test_every_wild_has_its_picture_and_the_manifest_text(html, deck):
    page = read(html)
    alts = [img["alt"] for img in page.all("img")]
    wilds = [c for c in deck.cards if c.kind == "wild"]
    assert wilds
    for card in wilds:
        assert f"{card.name} card: {card.text}" in alts, card.code
    assert all(alt.strip() for alt in alts)
    text = visible_text(html)
    for card in wilds:
        assert card.text in text


def test_quick_reference_section_is_the_quick_reference_data(text, deck):
    from generator.deck.quickref import quick_reference

    ref = quick_reference(deck)
    section = text[text.index("The same summary is printed on the"):]
    for line in (ref.title, ref.goal, *ref.turn, *ref.penalties):
        assert line in section, line
    for w in ref.wilds:
        assert f"{w.name} {w.short}" in section, w.code


def test_the_quick_reference_shows_each_reference_card_and_what_it_prints(html, deck):
    """The summary is printed on two cards, the turn and penalties on the first, the wilds on the
    second: the section says so and pictures both, as they are in the box (before, it said the
    whole summary was on the first card and pictured that one alone)."""
    refs = [c for c in deck.cards if c.kind == "reference"]
    assert [c.name for c in refs] == ["Quick Reference", "Wild Cards"]
    assert ("The same summary is printed on the reference cards in the box: “Quick Reference” (the turn and the "
            "penalties) and “Wild Cards” (the wilds).") in visible_text(html)
    alts = [img["alt"] for img in read(html).all("img")]
    assert "The Quick Reference card, which prints the turn and the penalties of the summary beside it." in alts
    assert "The Wild Cards card, which prints the wilds of the summary beside it." in alts


def test_every_rule_option_is_stated_with_its_default(designer_html):
    """In the designer notes, which only the designer's rulebook has (unless `designer_notes: true`)."""
    from generator.engine.options import Options, option_names

    html = designer_html
    page = read(html)
    text = visible_text(html)
    defaults = Options()
    for name in option_names():
        default = getattr(defaults, name)
        shown = {True: "true", False: "false", None: "none"}.get(default, str(default)) if isinstance(default, (bool, type(None))) else str(default)
        assert re.search(rf"{name} (?:(?!Default:).)* Default: {re.escape(shown)} ?[;.]", text), name
    assert len(page.all("dt")) >= len(option_names())


def test_worked_examples_are_played_by_the_engine(deck):
    from generator.products.rulebook.examples import EXAMPLES, play_examples

    played = play_examples(deck)
    assert [e["key"] for e in played] == [e.key for e in EXAMPLES]
    target = next(e for e in played if e["key"] == "target")
    assert target["steps"][0]["target"] and target["seen"]["owed"] == [1, 2]


def test_the_page_prints_what_the_engine_did(text, deck):
    from generator.products.rulebook.examples import play_examples

    names = ["Ana", "Ben", "Cai", "Dot"]
    for ex in play_examples(deck):
        start = text.index(f"Count {ex['before']['count']} ")
        for step in ex["steps"]:
            after = step["position"]
            verb = "plays" if step["kind"] == "play" else "discards"
            start = text.index(f"{names[step['seat']]} {verb} ", start)
            if step["kind"] == "play" and not step["reset"]:
                assert f"The count is now {after['count']}." in text[start:start + 200]
        last = ex["steps"][-1]["position"]
        if last["winner"] is None:
            assert f"Now the count is {last['count']}, and it is {names[last['turn']]}’s turn." in text[start:]
        else:
            assert f"{names[last['winner']]} is the last player left and wins the game." in text[start:]


def test_a_broken_example_stops_the_build(deck):
    from generator.products.rulebook.examples import Example, ExampleError, play_examples

    wrong = Example("miss", lambda d: {"players": 2, "hands": [["C5"], ["G1"]], "count": 1, "pending": {"drawn": True}},
                    ("play C5",), {"target": True})
    with pytest.raises(ExampleError, match="rulebook example 'miss' no longer shows"):
        play_examples(deck, (wrong,))


def test_same_bytes_from_another_process(built, tmp_path):
    """`county-uppy build --only rulebook` in a fresh interpreter (another hash seed) writes the same file."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    subprocess.run([sys.executable, "-m", "generator", "build", "--manifest", str(MANIFEST), "--out", str(tmp_path),
                    "--only", "rulebook"], check=True, env=env, capture_output=True, cwd=tmp_path)
    assert (tmp_path / "rulebook.html").read_bytes() == (built / "rulebook.html").read_bytes()


def test_the_stylesheet_is_inlined_verbatim(html):
    css = rulebook.stylesheet()
    assert f"<style>\n{css}" in html
    assert "&#34;" not in html.split("</style>")[0]


def test_a_build_leaves_out_an_example_a_tweak_broke_and_says_so(deck, tmp_path, monkeypatch):
    from generator.products.build import BuildContext, BuildRequest
    from generator.products.output.outputs import Folder
    from generator.products.rulebook import examples as rulebook_examples
    from generator.products.rulebook.examples import EXAMPLES, Example

    broken = Example("over", lambda d: {"players": 2, "hands": [["C1"], ["G1"]], "pending": {"drawn": True}},
                     ("play C1",), {"bust": True})
    monkeypatch.setattr(rulebook_examples, "EXAMPLES", (EXAMPLES[0], broken))
    ctx = BuildContext(deck, BuildRequest(MANIFEST, tmp_path), Folder(tmp_path))
    rulebook.build_rulebook(ctx)()  # the page is written when the pictures are in
    assert ctx.notes == ["rulebook: rulebook example 'over' no longer shows what its caption says: "
                         "bust: expected True, the engine gave False; the example is left out"]
    page = read((tmp_path / "rulebook.html").read_text(encoding="utf-8"))
    assert "example-miss" in page.ids() and "example-over" not in page.ids()


def test_same_inputs_same_bytes(html, deck):
    assert rulebook.render(deck) == html


def test_templates_hold_no_game_numbers_or_rule_numbers():
    folder = rulebook.templates_dir()
    for path in sorted(folder.rglob("*.j2")):
        source = re.sub(r"(?s)<svg.*?</svg>", "", path.read_text(encoding="utf-8"))  # drawing geometry
        assert not re.search(r"(?<![\w.#-])16(?![\w.])", source), f"{path.name}: a literal 16"
        assert not re.search(r"\bdeals? 5\b|\b5 cards\b", source), f"{path.name}: a literal hand size"
        assert not re.search(r"\bR\d+\.\d+", source), f"{path.name}: a rule number"


def test_templates_are_found_and_missing_ones_say_so(tmp_path, monkeypatch):
    from generator import resources

    assert (rulebook.templates_dir() / "rulebook.html.j2").is_file()
    monkeypatch.setattr(resources, "__file__", str(tmp_path / "generator" / "resources.py"))
    with pytest.raises(FileNotFoundError, match="cannot find County Uppy's templates/ folder"):
        resources.templates_dir()


def test_the_page_rendered_before_its_pictures_is_the_page(deck):
    """A build renders the page on a worker with a slot for each picture, while the pictures are
    drawn, and fills the slots after: the very page rendered with the pictures, no slot left."""
    from markupsafe import Markup

    from generator.products.rulebook.images import CardImage, rulebook_codes

    codes = rulebook_codes(deck)
    pictures = {code: CardImage(f"data:image/png;base64,{code}AAA+/==", 10, 14) for code in codes}
    pages, left_out, unworded = rulebook.page_with_slots(deck, codes)
    sized = {c: CardImage(p.src, *rulebook.RULEBOOK_PROFILE.size) for c, p in pictures.items()}
    assert left_out == [] and len(pages) == 2
    for slotted, designer in zip(pages, (False, True)):  # the players' page, the designer's
        assert "<county-uppy-picture" in slotted
        filled = rulebook.fill_slots(slotted, pictures)
        assert "<county-uppy-picture" not in filled
        assert filled == rulebook.render(deck, sized, designer=designer)
    assert Markup("<county-uppy-picture SKIP>").striptags() == ""  # text, escaped, never reads as a slot
