"""What `validate` passes, the build builds (issue 36): every picture, icon and font file the look
names is read by validate as the build reads it (an SVG's every number and path read strictly and
the picture drawn, a raster's every pixel decoded, a font's every glyph the PDFs embed followed),
and a file the build could not use is an error at the manifest's line that names it (exit 1),
never an internal error (exit 3) in the build or in validate itself.

The files are made in tests/hostile_files.py; each case once passed validate and failed the
build, or made validate fail."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from generator.cli import main
from generator.products.render.faces import charset
from tests.hostile_files import BROKEN_SVGS, FONT_FLAWS, broken_jpegs, font, png, svg, shape
from tests.products.test_file_checks import line_of, manifest, validate

BACK_ART = "  back:\n    art: {file: art/x.svg, fit: contain}\n"
ICON = "  icons: {skip: art/x.svg}\n"


def _refused_at(path: Path, capsys, needle: str, said: str) -> str:
    status, out, err = validate(path, capsys)
    assert status == 1, (out, err)
    lines = {p["line"] for p in out["errors"]}
    assert lines == {line_of(path, needle)}, out["errors"]
    assert all(said in p["message"] for p in out["errors"]), out["errors"]
    assert "Traceback" not in err and "internal error" not in err
    return out["errors"][0]["message"]


@pytest.mark.parametrize("case", sorted(BROKEN_SVGS))
@pytest.mark.parametrize("where", ["back art", "icon"])
def test_an_svg_the_drawing_cannot_take_is_an_error_at_its_line(tmp_path, capsys, case, where):
    path = manifest(tmp_path, BACK_ART if where == "back art" else ICON)
    (tmp_path / "art" / "x.svg").write_text(BROKEN_SVGS[case])
    _refused_at(path, capsys, "art/x.svg", "x.svg: the SVG's ")


@pytest.mark.parametrize("where", ["back art", "icon"])
def test_the_build_refuses_what_validate_refuses_with_the_same_located_line(tmp_path, capsys, where):
    path = manifest(tmp_path, BACK_ART if where == "back art" else ICON)
    (tmp_path / "art" / "x.svg").write_text(BROKEN_SVGS["a curve short of numbers"])
    status = main(["build", "--only", "cards", "--manifest", str(path), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert status == 1, err
    assert f"cards.yaml:{line_of(path, 'art/x.svg')}:" in err and "the command C takes 6 numbers" in err
    assert not (tmp_path / "out" / "cards").exists()


def test_path_data_that_follows_the_grammar_passes(tmp_path, capsys):
    """The strict reading takes what the SVG grammar allows: packed numbers and arc flags,
    implicit repeats, relative commands, exponents."""
    body = shape('d="M1,1l2-1.5.5.5h1V3c0 1 1 1 1 0s1-1 1 0q1 1 2 0t1 0a1 1 0 011 1A1 1 0 1 0 9 9e0zm1 1 2 2z"')
    path = manifest(tmp_path, ICON)
    (tmp_path / "art" / "x.svg").write_text(svg(body + shape('points="1,1 5 5,3,9"', "polygon")))
    status, out, err = validate(path, capsys)
    assert status == 0, out["errors"]


@pytest.mark.parametrize("case", sorted(broken_jpegs()))
def test_a_jpeg_whose_pixels_cannot_all_be_read_is_an_error_at_the_card(tmp_path, capsys, case):
    path = manifest(tmp_path, steal_art="art/steal.jpg")
    (tmp_path / "art" / "steal.jpg").write_bytes(broken_jpegs()[case])
    _refused_at(path, capsys, "art/steal.jpg", "steal.jpg: ")


@pytest.mark.parametrize("flaw", FONT_FLAWS)
def test_a_font_whose_glyphs_cannot_be_embedded_is_an_error_at_its_line(tmp_path, capsys, deck, flaw):
    path = manifest(tmp_path, "  fonts: {regular: fonts/F.ttf}\n")
    (tmp_path / "fonts" / "F.ttf").write_bytes(font(charset(deck), flaw, advance=350))
    message = _refused_at(path, capsys, "fonts/F.ttf", "F.ttf: ")
    expected = {"self composite": "glyph 'box' is made of itself", "composite loop": "glyph 'box' is made of itself",
                "deep composite": "nests composite glyphs more than 16 deep",
                "cff subroutine loop": "its CFF subroutines call each other without end",
                "units per em 0": "the font's em is 0 units", "cmap past the last glyph": "a glyph the font does not have"}
    assert expected[flaw] in message, message


def test_a_good_font_made_the_same_way_builds(tmp_path, capsys, deck):
    """The font maker's fonts fail by their flaw alone: without one, validate and the build pass."""
    path = manifest(tmp_path, "  fonts: {regular: fonts/F.ttf}\n")
    (tmp_path / "fonts" / "F.ttf").write_bytes(font(charset(deck), "", advance=350))
    assert main(["build", "--only", "cards", "--manifest", str(path), "--out", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "cards" / "STEAL.png").is_file()


@pytest.mark.parametrize("named, holds", [("x.svg", "png"), ("x.png", "svg")])
@pytest.mark.parametrize("where", ["art", "icon"])
def test_a_picture_is_told_by_its_content_not_its_name(tmp_path, capsys, named, holds, where):
    """A PNG named .svg, or an SVG named .png, as an icon or art: read for what it holds (validate
    and the build stopped with an internal error on the icon)."""
    path = manifest(tmp_path, f"  icons: {{skip: art/{named}}}\n" if where == "icon" else "",
                    steal_art=f"art/{named}" if where == "art" else "")
    data = png(120, 120, "#2266AA") if holds == "png" else svg(shape()).encode()
    (tmp_path / "art" / named).write_bytes(data)
    status, out, err = validate(path, capsys)
    assert status == 0, (out["errors"], err)
    assert main(["build", "--only", "cards", "--manifest", str(path), "--out", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "cards" / ("SKIP.png" if where == "icon" else "STEAL.png")).is_file()


def test_an_icon_over_its_size_limit_is_an_error_at_its_line(tmp_path, capsys):
    from generator.products.render.assets.icon_files import MAX_ICON_BYTES

    path = manifest(tmp_path, ICON)
    padding = "<!--" + "x" * MAX_ICON_BYTES + "-->"
    (tmp_path / "art" / "x.svg").write_text(svg(shape() + padding))
    message = _refused_at(path, capsys, "art/x.svg", "x.svg: the icon is ")
    assert "over the limit of 512 KiB for an icon" in message


@pytest.mark.parametrize("key", ["art", "icon", "font"])
def test_a_loop_of_symbolic_links_is_an_error_at_its_line(tmp_path, capsys, key):
    look = {"art": "", "icon": "  icons: {skip: art/loop1}\n", "font": "  fonts: {regular: art/loop1}\n"}[key]
    path = manifest(tmp_path, look, steal_art="art/loop1" if key == "art" else "")
    os.symlink("loop2", tmp_path / "art" / "loop1")
    os.symlink("loop1", tmp_path / "art" / "loop2")
    _refused_at(path, capsys, "art/loop1", "is a symbolic link that leads round in a loop")


def test_no_library_log_line_reaches_the_terminal(tmp_path):
    """svglib logged what it skipped ("Can't handle color: bogus", "Unable to find a clipping path
    with id nope") on the terminal, unlocated, from validate and from every worker of the build.
    Run as a user runs it, in a process of its own (pytest's own log handler would hide them)."""
    import subprocess
    import sys

    from tests.conftest import ROOT

    path = manifest(tmp_path, BACK_ART)
    (tmp_path / "art" / "x.svg").write_text(svg('<rect width="9" height="9" fill="bogus"/>'
                                                + shape('d="M1 1 L5 5 Z" clip-path="url(#nope)"', fill="#FF0000")))
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(tmp_path / "cache"))  # no verdict kept: drawn
    done = subprocess.run([sys.executable, "-m", "generator", "validate", "--manifest", str(path)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Can't handle color" not in done.stderr and "clipping path" not in done.stderr, done.stderr
