"""The rulebook as a PDF (rulebook.pdf, for Letter and A4 alike), printed by headless Chromium from rulebook.html's
page in the cards' typeface: read back from the files. Chromium runs through a wrapper that
counts its runs, so the tests also see when a build prints and when it takes the cached file.
Without Chromium the printing tests skip (fail under COUNTY_UPPY_REQUIRE_BROWSER=1,
tests/browser.py); the test of a build without Chromium runs everywhere."""

from __future__ import annotations

import io
import os
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from fontTools.ttLib import TTFont

from generator.cli import main
from generator.products.render.stamp import Stamp
from generator.products.render.units import PAPERS
from generator.products.rulebook.pdf import settled
from generator.products.rulebook.print_fonts import PRINT_FILES, WHOLE
from tests.browser import chromium_path
from tests.conftest import MANIFEST


@pytest.fixture
def chromium(tmp_path, monkeypatch) -> Path:
    """A Chromium that logs each run to the returned file; a fresh cache folder."""
    real = chromium_path()
    log = tmp_path / "runs.log"
    wrapper = tmp_path / "chromium"
    wrapper.write_text(f'#!/bin/sh\necho run >> "{log}"\nexec "{real}" "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("COUNTY_UPPY_CHROMIUM", str(wrapper))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return log


def runs(log: Path) -> int:
    return len(log.read_text().split()) if log.exists() else 0


def build(out: Path, manifest: Path = MANIFEST, *more: str) -> int:
    return main(["build", "--manifest", str(manifest), "--out", str(out), "--only", "rulebook-pdf", *more])


def fonts(path: Path) -> set[str]:
    names = set()
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            for font in (page.Resources.get("/Font") or {}).values():
                names.add(str(font.BaseFont).lstrip("/").split("+")[-1])
    return names


def test_printed_for_both_papers_in_the_cards_typeface(chromium, tmp_path, deck):
    out = tmp_path / "out"
    assert build(out, MANIFEST, "--paper", "a4") == 0  # the one file, whatever the papers
    assert runs(chromium) == 1
    assert sorted(p.name for p in out.glob("rulebook*.pdf")) == ["rulebook-booklet.pdf", "rulebook-shop.pdf", "rulebook.pdf"]
    # a game rulebook's page, half of Letter's width by A5's height: printed at 100% on either
    # paper, nothing is cut off, and two to a sheet of either for the booklet
    both = (139.7 * 72 / 25.4, 210 * 72 / 25.4)
    # two side by side fit a landscape Letter and a landscape A4 sheet
    assert 2 * both[0] <= PAPERS["letter"][1] + 0.5 and both[1] <= min(PAPERS["a4"][0], PAPERS["letter"][0]) + 0.5
    for path in (out / "rulebook.pdf",):
        doc = pdfium.PdfDocument(path)
        try:
            assert len(doc) >= 5
            assert all(doc[i].get_size() == pytest.approx(both, abs=0.5) for i in range(len(doc)))
            # the text keeps inside every home printer's margins (5 mm and more): the page's own 10 mm and
            # more, its number (in the bottom margin, 14 mm, so loose pages go back in order) 8 mm and more
            mm = 72 / 25.4
            for i in range(len(doc)):
                textpage = doc[i].get_textpage()
                footer = []
                for j in range(textpage.count_rects()):
                    left, bottom, right, top = textpage.get_rect(j)
                    assert left >= 10 * mm and both[0] - right >= 10 * mm, (i, left, right)
                    assert both[1] - top >= 10 * mm, (i, bottom, top)
                    if bottom < 14 * mm:  # in the bottom margin: the page's number
                        assert bottom >= 8 * mm, (i, bottom)
                        footer.append(textpage.get_text_bounded(left, bottom, right, top))
                assert " ".join("".join(footer).split()) == f"page {i + 1} of {len(doc)}", (i, footer)
            text = " ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
        finally:
            doc.close()
        flat = " ".join(text.split())
        assert deck.params.name in flat and "Objective" in flat and "Quick reference" in flat
        assert f"exactly {deck.params.target}" in flat
        # the cards' typeface for all prose (DejaVu Sans: its bold and, for emphasis, its oblique),
        # DejaVu Sans Mono only for code
        used = fonts(path)
        assert {"DejaVuSans", "DejaVuSans-Bold"} <= used, used
        assert all(f.startswith("DejaVuSans") for f in used), used
        with pikepdf.open(path) as pdf:
            info = pdf.docinfo
            from generator import __version__
            assert f"county-uppy {__version__}" in str(info.Producer)
            assert "manifest " in str(info.Subject)
            assert str(info.CreationDate) == str(info.ModDate)


def test_same_inputs_give_the_same_bytes_and_a_rebuild_prints_nothing(chromium, tmp_path, monkeypatch):
    first, second = tmp_path / "one", tmp_path / "two"
    assert build(first, MANIFEST, "--paper", "a4") == 0
    assert runs(chromium) == 1
    # printed again from scratch (another cache): Chromium's dates are the build's, so the bytes match
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache2"))
    assert build(second, MANIFEST, "--paper", "a4") == 0
    assert runs(chromium) == 2
    for name in ("rulebook.pdf", "rulebook-booklet.pdf", "rulebook-shop.pdf"):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    # the same page again: the cached file, Chromium not started
    third = tmp_path / "three"
    assert build(third, MANIFEST, "--paper", "a4") == 0
    assert runs(chromium) == 2
    for name in ("rulebook.pdf", "rulebook-booklet.pdf", "rulebook-shop.pdf"):
        assert (third / name).read_bytes() == (first / name).read_bytes(), name
    # a changed rule changes the page: printed anew
    edited = tmp_path / "cards.yaml"
    edited.write_text(MANIFEST.read_text().replace("target: 16", "target: 21", 1))
    assert build(third, edited, "--paper", "a4") == 0
    assert runs(chromium) == 3
    doc = pdfium.PdfDocument(third / "rulebook.pdf")
    text = " ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    doc.close()
    assert "exactly 21" in " ".join(text.split())


def test_a_browser_started_for_a_page_printed_before_is_stopped_unused(chromium, tmp_path, monkeypatch):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # the files' date, whenever the manifest was written
    out, edited = tmp_path / "out", tmp_path / "cards.yaml"
    text = MANIFEST.read_text()
    edited.write_text(text)
    assert build(out, edited, "--paper", "a4") == 0
    first = (out / "rulebook.pdf").read_bytes()
    edited.write_text(text.replace("text: Skip the next player's turn.", "text: Skip the next player's go.", 1))
    assert build(out, edited, "--paper", "a4") == 0
    assert runs(chromium) == 2
    assert (out / "rulebook.pdf").read_bytes() != first
    # undone, with the output folder's cache gone: the page is made anew, but the user cache's
    # index names the print of that page (by the page's cache key), so no browser is started
    edited.write_text(text)
    shutil.rmtree(out / ".cache")
    assert build(out, edited, "--paper", "a4") == 0
    assert (out / "rulebook.pdf").read_bytes() == first
    assert runs(chromium) == 2
    # the same with the index lost too: the browser starts while the page is made; the printed
    # file kept for that page is found, so nothing is printed, and the browser is stopped unused
    shutil.rmtree(out / ".cache")
    shutil.rmtree(tmp_path / "cache" / "county-uppy" / "rulebook-pdf-index")
    assert build(out, edited, "--paper", "a4") == 0
    assert (out / "rulebook.pdf").read_bytes() == first
    assert runs(chromium) == 3
    assert not list(scratch.iterdir())
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True, check=True).stdout
    assert str(scratch) not in ps


def test_a_one_card_rebuild_that_prints_makes_the_page_before_the_other_products(chromium, tmp_path, monkeypatch):
    """After an edit of a card the rulebook shows, the page and then its print are the rebuild's
    longest path: the print sheets (like every product after the rulebook's) start only once the
    page is made, so they do not take the two cores from the page's and the picture's workers and
    the browser starting. The rebuild equals a cold build of the edited manifest."""
    from generator.products import print_and_play
    from generator.products.rulebook.page import AREA

    page_made = []
    real = print_and_play.build_print

    def watched(ctx):
        page_made.append(ctx.state.shared[AREA].made)
        return real(ctx)
    monkeypatch.setattr(print_and_play, "build_print", watched)
    out, edited = tmp_path / "out", tmp_path / "cards.yaml"
    text = MANIFEST.read_text()
    edited.write_text(text)
    assert build(out, edited, "--only", "rulebook,print") == 0
    edited.write_text(text.replace("text: Skip the next player's turn.", "text: Skip the next player's go.", 1))
    assert build(out, edited, "--only", "rulebook,print") == 0
    assert runs(chromium) == 2 and len(page_made) == 2
    assert page_made[1] is True
    cold = tmp_path / "cold"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "other-cache"))
    assert build(cold, edited, "--only", "rulebook,print") == 0
    for name in ("rulebook.pdf", "rulebook-shop.pdf", "print/county-uppy-letter.pdf"):
        assert (out / name).read_bytes() == (cold / name).read_bytes(), name


def decoy_font(path: Path) -> None:
    """A font of the machine's to catch a print that takes one: every printable ASCII character a
    box, family "Decoy"."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    chars = {c: f"u{c:04X}" for c in range(0x20, 0x7F)}
    names = [".notdef", *chars.values()]
    pen = TTGlyphPen(None)
    pen.moveTo((50, 0)), pen.lineTo((50, 700)), pen.lineTo((550, 700)), pen.lineTo((550, 0)), pen.closePath()
    box = pen.glyph()
    font = FontBuilder(1000, isTTF=True)
    font.setupGlyphOrder(names)
    font.setupCharacterMap(chars)
    font.setupGlyf({n: box for n in names})
    font.setupHorizontalMetrics({n: (600, 50) for n in names})
    font.setupHorizontalHeader(ascent=800, descent=-200)
    font.setupNameTable({"familyName": "Decoy", "styleName": "Regular"})
    font.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    font.setupPost()
    font.save(str(path))


def embedded(path: Path) -> list[tuple[str, TTFont]]:
    """Each font the PDF embeds: (its name without the subset tag, the font file)."""
    found = {}
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            for font in (page.Resources.get("/Font") or {}).values():
                descriptor = (font.DescendantFonts[0] if "/DescendantFonts" in font else font).FontDescriptor
                data = next(descriptor[k].read_bytes() for k in ("/FontFile2", "/FontFile3", "/FontFile") if k in descriptor)
                found[font.objgen] = (str(font.BaseFont).lstrip("/").split("+")[-1], TTFont(io.BytesIO(data)))
    return list(found.values())


def made_from(font: TTFont, shipped: TTFont) -> bool:
    """Whether every glyph the subset `font` draws is `shipped`'s glyph of the same number (Chromium
    keeps the glyph numbers when it subsets), outline and advance."""
    order, theirs = font.getGlyphOrder(), shipped.getGlyphOrder()
    glyf, their_glyf = font["glyf"], shipped["glyf"]
    for i, name in enumerate(order):
        if glyf[name].numberOfContours == 0 and not glyf[name].isComposite():
            continue  # a glyph the subset left out (or a space)
        if i >= len(theirs) or font["hmtx"][name][0] != shipped["hmtx"][theirs[i]][0]:
            return False
        if list(glyf[name].getCoordinates(glyf)[0]) != list(their_glyf[theirs[i]].getCoordinates(their_glyf)[0]):
            return False
    return True


def test_printed_with_the_shipped_fonts_alone_whatever_fonts_the_machine_has(chromium, tmp_path, monkeypatch):
    """The print takes no font of the machine's: printed where fontconfig refuses every font of the
    machine but a decoy made here, it has the very bytes of a print on this machine, and each font
    it embeds is made from one of the fonts the package ships. The machine's fontconfig settings
    are kept (a full Chromium lays text out by their hinting style). With no font at all, Chromium
    loads no web font either: each @font-face fails, and the build says so and has no PDF."""
    normal, bare = tmp_path / "normal", tmp_path / "bare"
    assert build(normal) == 0
    fonts_dir = tmp_path / "machine-fonts"
    fonts_dir.mkdir()
    decoy_font(fonts_dir / "Decoy.ttf")
    conf = tmp_path / "fonts.conf"
    machine = os.environ.get("FONTCONFIG_FILE") or "/etc/fonts/fonts.conf"
    conf.write_text(f"""<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">{machine}</include>
  <dir>{fonts_dir}</dir>
  <cachedir>{tmp_path / "fontconfig-cache"}</cachedir>
  <selectfont>
    <acceptfont><glob>{fonts_dir}/*</glob></acceptfont>
    <rejectfont><glob>*</glob></rejectfont>
  </selectfont>
</fontconfig>
""")
    monkeypatch.setenv("FONTCONFIG_FILE", str(conf))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache-bare"))  # printed again, not taken from the cache
    assert build(bare) == 0
    assert runs(chromium) == 2
    assert (bare / "rulebook.pdf").read_bytes() == (normal / "rulebook.pdf").read_bytes()
    shipped = {path: TTFont(str(path)) for path in {*PRINT_FILES.values(), *WHOLE.values()}}
    used = set()
    for name, font in embedded(bare / "rulebook.pdf"):
        sources = [path for path, whole in shipped.items() if made_from(font, whole)]
        assert sources, f"{name} is made from no font the package ships"
        used.update(sources)
    # the page has only characters the cut-down fonts keep: the text and its bold (the players'
    # rulebook has no code: the rule options by name are in the designer's)
    assert used == {PRINT_FILES[("text", False)], PRINT_FILES[("text", True)]}, used


@pytest.mark.parametrize("when", ["while the page is made", "while it prints"])
def test_a_build_that_fails_stops_the_browser_it_started(chromium, tmp_path, monkeypatch, capsys, when):
    from generator.products import build as build_module

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    out, edited = tmp_path / "out", tmp_path / "cards.yaml"
    text = MANIFEST.read_text()
    edited.write_text(text)
    assert build(out, edited, "--paper", "a4", "--only", "tts") == 0
    before = (out / "rulebook.pdf").read_bytes()
    edited.write_text(text.replace("text: Skip the next player's turn.", "text: Skip the next player's go.", 1))
    real = build_module.builder

    def failing(record):
        made = real(record)
        if record.name != "tts":
            return made
        if when == "while the page is made":
            return lambda ctx: {}["broken"]  # fails as it starts: the browser is up, the page not yet made
        return lambda ctx: (made(ctx), lambda: {}["broken"])[1]  # fails once the browser has the pages

    monkeypatch.setattr(build_module, "builder", failing)
    assert build(out, edited, "--paper", "a4", "--only", "tts") == 3
    capsys.readouterr()
    assert (out / "rulebook.pdf").read_bytes() == before  # nothing already built is lost
    assert not list(scratch.iterdir())
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True, check=True).stdout
    assert str(scratch) not in ps


def test_table_header_names_that_chromium_numbers_one_higher_now_and_then_are_settled_alike():
    """Chromium names a tagged table's headers by numbers of the page's nodes, which for the same
    page now and then come out one higher (about 1 print in 14): the build numbers them from 1."""
    def printed(first: int) -> bytes:
        pdf = pikepdf.new()
        pdf.add_blank_page()
        names = [pikepdf.String(f"node{n:08d}") for n in (first, first + 1, first + 4)]
        heads = [pdf.make_indirect(pikepdf.Dictionary(S=pikepdf.Name.TH, ID=name)) for name in names]
        cell = pdf.make_indirect(pikepdf.Dictionary(S=pikepdf.Name.TD, A=pikepdf.Dictionary(
            O=pikepdf.Name.Table, Headers=pikepdf.Array(names[1:]))))
        pdf.Root.StructTreeRoot = pdf.make_indirect(pikepdf.Dictionary(
            Type=pikepdf.Name.StructTreeRoot, K=pikepdf.Array([*heads, cell]),
            IDTree=pikepdf.Dictionary(Names=pikepdf.Array([x for pair in zip(names, heads) for x in pair]))))
        out = io.BytesIO()
        pdf.save(out, object_stream_mode=pikepdf.ObjectStreamMode.disable, static_id=True)
        return out.getvalue()

    made = Stamp("1.0", "3f2a9c01b7de", 1700000000)
    one, other = printed(898), printed(899)
    assert one != other and len(one) == len(other)
    assert settled(one, "T", made) == settled(other, "T", made)
    with pikepdf.open(io.BytesIO(settled(other, "T", made))) as pdf:
        tree = pdf.Root.StructTreeRoot
        assert [str(n) for n in tree.IDTree.Names[::2]] == ["node00000001", "node00000002", "node00000003"]
        assert all(str(tree.IDTree.Names[2 * i]) == str(tree.IDTree.Names[2 * i + 1].ID) for i in range(3))
        assert [str(n) for n in tree.K[3].A.Headers] == ["node00000002", "node00000003"]
        assert str(pdf.docinfo.Title) == "T"


@pytest.mark.parametrize("how", ["named", "absent"])
def test_a_build_without_chromium_succeeds_and_says_why(tmp_path, monkeypatch, capsys, how):
    out = tmp_path / "out"
    if how == "named":
        monkeypatch.setenv("COUNTY_UPPY_CHROMIUM", str(tmp_path / "no-such-chromium"))
        why = f"COUNTY_UPPY_CHROMIUM={tmp_path / 'no-such-chromium'} is not a program"
    else:
        monkeypatch.delenv("COUNTY_UPPY_CHROMIUM", raising=False)
        empty = tmp_path / "bin"
        empty.mkdir()
        monkeypatch.setenv("PATH", str(empty))
        why = "headless Chromium was not found"
    status = main(["build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "rulebook,rulebook-pdf"])
    said = capsys.readouterr().out
    assert status == 0
    assert f"rulebook PDF skipped: {why} (install Chromium" in said
    assert "rulebook.html is built without it" in said
    assert (out / "rulebook.html").is_file()
    assert not list(out.glob("rulebook*.pdf"))
