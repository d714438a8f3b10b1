"""The rulebook as the designer's document: it follows `look:` (fonts, colours), its cover says
what the designer chose under `rulebook:` (title, introduction, playing time), sections are left
out or added as the manifest says, the designer notes only in rulebook-designer.html unless
asked for, and a mistake in `rulebook:` is a located message. Read back from the built files."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pikepdf
import pytest
import reportlab

from generator.cli import main
from tests.conftest import MANIFEST, ROOT
from tests.products.rulebook.conftest import build_rulebook, visible_text
from tests.products.rulebook.page import read
from tests.products.rulebook.test_pdf import build, chromium  # noqa: F401 -- the fixture

RULEBOOK = """
rulebook:
  title: Count to the Top
  intro: >-
    Race the count to exactly {target}, {icon:skip} a rival,
    and keep your {hand_size} cards alive.
  minutes: 15-30
  leave_out: [examples, variations]
  sections:
    - title: Strategy
      after: wilds
      text: |
        Keep a **low card** for when the count nears {target}.

        # When to skip

        - Hold a {icon:skip} for the end.
        - A {cyan} card is never wasted: <b>bold</b> stays text.
"""


def project(tmp_path: Path, rulebook: str = RULEBOOK, fonts: bool = False) -> Path:
    """A copy of the shipped project with `rulebook` appended (and with fonts: reportlab's Vera
    pair as `look: fonts:`); its manifest."""
    folder = tmp_path / "project"
    folder.mkdir()
    shutil.copytree(ROOT / "art", folder / "art")
    text = MANIFEST.read_text(encoding="utf-8")
    if fonts:
        (folder / "fonts").mkdir()
        for name in ("Vera.ttf", "VeraBd.ttf"):
            shutil.copy(Path(reportlab.__file__).parent / "fonts" / name, folder / "fonts" / name)
        assert text.count("\nlook:\n") == 1
        text = text.replace("\nlook:\n", "\nlook:\n  fonts: {regular: fonts/Vera.ttf, bold: fonts/VeraBd.ttf}\n", 1)
    manifest = folder / "cards.yaml"
    manifest.write_text(text + rulebook, encoding="utf-8")
    return manifest


@pytest.fixture(scope="module")
def chosen(tmp_path_factory) -> Path:
    """The output folder of a rulebook built from the manifest with RULEBOOK."""
    tmp = tmp_path_factory.mktemp("chosen")
    out = tmp / "out"
    build_rulebook(project(tmp), out)
    return out


def test_the_cover_says_what_the_designer_chose(chosen):
    html = (chosen / "rulebook.html").read_text(encoding="utf-8")
    page = read(html)
    assert page.headings[0] == (1, "Count to the Top")
    cover = visible_text(html.split('<header class="cover">', 1)[1].split("</header>", 1)[0])
    flat = " ".join(cover.split())
    assert "2–8 players" in flat and "15–30 minutes" in flat and "212 cards" in flat
    # the introduction with its placeholders filled and its icon drawn, labelled with the card's name
    assert "Race the count to exactly 16, a rival, and keep your 5 cards alive." in flat  # the icon: a picture
    cover_html = html.split('<header class="cover">', 1)[1].split("</header>", 1)[0]
    assert 'aria-label="Skip"' in cover_html and "{icon:skip}" not in cover_html
    # the back's picture on the cover
    assert any(img["alt"] == "The back of every card." for img in read(cover_html).all("img"))


def test_sections_left_out_and_the_designers_own_where_it_says(chosen):
    players = read((chosen / "rulebook.html").read_text(encoding="utf-8"))
    designers = read((chosen / "rulebook-designer.html").read_text(encoding="utf-8"))
    assert not {"examples", "variations", "designers"} & players.ids()
    assert {"examples", "variations", "designers"} <= designers.ids()  # every section for the designer
    for page in (players, designers):
        headings = [text for _, text in page.headings]
        # after the last of the wilds' sections, before the next section of the rulebook's own
        at = headings.index("Strategy")
        assert headings[at - 1 - sum(1 for h in headings[:at] if h.startswith("Example"))] != "Strategy"
        assert headings.index("Chaos wilds") < at < headings.index("Clarifications")
        assert (3, "When to skip") in page.headings  # a Markdown heading under the section's own
    html = (chosen / "rulebook.html").read_text(encoding="utf-8")
    section = html.split('id="designer-section-1"', 1)[1].split("</section>", 1)[0]
    assert "<strong>low card</strong>" in section and "<li>" in section
    assert "exactly 16" not in section and "nears 16." in visible_text(section)
    assert "&lt;b&gt;bold&lt;/b&gt;" in section and "<b>" not in section  # the designer's HTML is text
    assert 'aria-label="cyan"' in section and 'aria-label="Skip"' in section


def test_designer_notes_in_the_players_rulebook_when_asked(tmp_path):
    out = tmp_path / "out"
    build_rulebook(project(tmp_path, "\nrulebook: {designer_notes: true}\n"), out)
    assert "designers" in read((out / "rulebook.html").read_text(encoding="utf-8")).ids()
    # and by default (the shipped manifest has no rulebook: section) only in the designer's
    plain = tmp_path / "plain"
    build_rulebook(MANIFEST, plain)
    assert "designers" not in read((plain / "rulebook.html").read_text(encoding="utf-8")).ids()
    assert "designers" in read((plain / "rulebook-designer.html").read_text(encoding="utf-8")).ids()


def test_the_readmes_rulebook_section_builds_as_it_says(tmp_path):
    """README "Shaping the rulebook": its block, appended to the shipped manifest, titles the cover,
    fills the placeholders, leaves the examples out and puts Strategy after the wilds."""
    block = re.search(r"<!-- rulebook: manifest -->\n```yaml\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"),
                      flags=re.S)
    assert block, "README.md: no <!-- rulebook: manifest --> block"
    out = tmp_path / "out"
    build_rulebook(project(tmp_path, "\n" + block.group(1)), out)
    html = (out / "rulebook.html").read_text(encoding="utf-8")
    page = read(html)
    headings = [text for _, text in page.headings]
    assert headings[0] == "Count to the Top" and "examples" not in page.ids()
    assert headings.index("Chaos wilds") < headings.index("Strategy") < headings.index("Clarifications")
    flat = " ".join(visible_text(html).split())
    assert "Race the count to exactly 16 and keep your 5 cards alive." in flat and "15–30 minutes" in flat
    assert "Keep a low card for when the count nears 16; hold a for the end." in flat  # the icon: a picture
    assert "designers" not in page.ids()


@pytest.mark.parametrize("rulebook, where, message", [
    ("rulebook:\n  leave_out: [exampels]\n", "leave_out: [", "unknown leave_out 'exampels' (did you mean 'examples'?)"),
    ("rulebook:\n  leave_out: [examples, examples]\n", "leave_out: [", "section 'examples' is listed twice"),
    ("rulebook:\n  minutes: 30-15\n", "minutes:", "the playing time '30-15' must be a number of minutes or a range"),
    ("rulebook:\n  minutes: half an hour\n", "minutes:", "'minutes' must be"),
    ("rulebook:\n  intro: Reach {targt}.\n", "intro:", "unknown placeholder '{targt}' (did you mean 'target'?)"),
    ("rulebook:\n  sections:\n    - {title: Tips, after: wildz, text: Hi}\n", "- {title: Tips",
     "unknown after 'wildz' (did you mean 'wilds'?)"),
    ("rulebook:\n  sections:\n    - {title: Tips, text: 'Hold a {icon:skp}.'}\n", "- {title: Tips",
     "unknown icon 'skp' (did you mean 'skip'?)"),
    ("rulebook:\n  designer_notes: maybe\n", "designer_notes:", "designer_notes"),
])
def test_a_mistake_in_the_rulebook_section_is_located(tmp_path, capsys, rulebook, where, message):
    manifest = project(tmp_path, rulebook)
    line = next(i for i, text in enumerate(manifest.read_text(encoding="utf-8").splitlines(), 1)
                if where in text and i > 100)
    status = main(["validate", "--manifest", str(manifest)])
    err = capsys.readouterr().err
    assert status != 0 and "Traceback" not in err
    assert re.search(rf"cards\.yaml:{line}:\d+: .*{re.escape(message)}", err), err


def test_the_rulebook_follows_the_decks_fonts_and_colours(chromium, tmp_path):  # noqa: F811 -- the fixture
    """With `look: fonts:` the page declares the designer's fonts and uses them first, and the
    PDFs embed nothing else (every character of the rulebook is in Vera); the accent is the
    back's colour, the rule under each heading a band of each card colour."""
    manifest = project(tmp_path, "", fonts=True)
    out = tmp_path / "out"
    assert build(out, manifest, "--only", "rulebook,rulebook-pdf") == 0
    html = (out / "rulebook.html").read_text(encoding="utf-8")
    assert html.count('@font-face { font-family: "County Uppy Deck"') == 2
    assert "font-src data:" in html.split("<style>", 1)[0]
    assert re.search(r'body \{ font-family: "County Uppy Deck", ', html)
    assert "--accent: #23233A" in html  # the back's interior colour
    assert "linear-gradient(to right, #00A3D9 0.000% 33.333%, #2E9E3E 33.333% 66.667%, #D4147A 66.667% 100.000%)" in html
    for name in ("rulebook.pdf", "rulebook-booklet.pdf", "rulebook-shop.pdf"):
        with pikepdf.open(out / name) as pdf:
            fonts = set()
            for page in pdf.pages:
                for xobject in [page, *(page.Resources.get("/XObject") or {}).values()]:
                    for font in ((xobject.get("/Resources") or {}).get("/Font") or {}).values():
                        fonts.add(str(font.BaseFont).lstrip("/"))
        assert {f.split("+", 1)[1] for f in fonts} == {"BitstreamVeraSans-Roman", "BitstreamVeraSans-Bold"}, (name, fonts)
        assert all(re.fullmatch(r"[A-Z]{6}\+.*", f) for f in fonts)  # subsets
