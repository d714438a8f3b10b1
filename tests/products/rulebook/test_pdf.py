"""The rulebook as a PDF (rulebook.pdf, for Letter and A4 alike), printed by headless Chromium from rulebook.html's
page in the cards' typeface: read back from the files. Chromium runs through a wrapper that
counts its runs, so the tests also see when a build prints and when it takes the cached file.
Without Chromium the printing tests skip (fail under COUNTY_UPPY_REQUIRE_BROWSER=1,
tests/browser.py); the test of a build without Chromium runs everywhere."""

from __future__ import annotations

import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest

from generator.cli import main
from generator.products.render.units import PAPERS
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
    assert sorted(p.name for p in out.glob("rulebook*.pdf")) == ["rulebook.pdf"]
    # A4's width and Letter's height: printed at 100% on either paper, nothing is cut off
    both = (min(PAPERS["a4"][0], PAPERS["letter"][0]), min(PAPERS["a4"][1], PAPERS["letter"][1]))
    for path in (out / "rulebook.pdf",):
        doc = pdfium.PdfDocument(path)
        try:
            assert len(doc) >= 5
            assert all(doc[i].get_size() == pytest.approx(both, abs=0.5) for i in range(len(doc)))
            # the text keeps inside every home printer's margins (5 mm and more)
            for i in range(len(doc)):
                textpage = doc[i].get_textpage()
                for j in range(textpage.count_rects()):
                    left, bottom, right, top = textpage.get_rect(j)
                    assert left >= 10 * 72 / 25.4 and both[0] - right >= 10 * 72 / 25.4, (i, left, right)
                    assert bottom >= 10 * 72 / 25.4 and both[1] - top >= 10 * 72 / 25.4, (i, bottom, top)
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
    assert (first / "rulebook.pdf").read_bytes() == (second / "rulebook.pdf").read_bytes()
    # the same page again: the cached file, Chromium not started
    third = tmp_path / "three"
    assert build(third, MANIFEST, "--paper", "a4") == 0
    assert runs(chromium) == 2
    assert (third / "rulebook.pdf").read_bytes() == (first / "rulebook.pdf").read_bytes()
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
    # undone, with the output folder's cache gone: the page is made anew in a folder with
    # rulebook PDFs, so the browser starts while it is made; but the printed file is the one kept
    # for that page: nothing is printed, and the browser is stopped
    edited.write_text(text)
    shutil.rmtree(out / ".cache")
    assert build(out, edited, "--paper", "a4") == 0
    assert (out / "rulebook.pdf").read_bytes() == first
    assert runs(chromium) == 3
    assert not list(scratch.iterdir())
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True, check=True).stdout
    assert str(scratch) not in ps


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
