"""Designer files within the limits build in bounded memory (issue 36): a build whose art is the
largest PNG, the JPEG that decodes largest and the largest SVG the limits of docs/formats.md allow
peaks under 600 MB (the peak resident size of the build's process and its workers, read with
`resource` in a process of its own), and no library warning reaches the terminal. Past each limit,
the file is an error at its manifest line saying what to do.

Before: a 390 KB PNG of 12,000 × 8,333 pixels took 1.3 to 2.7 GB, a 34 MB SVG of 600,000 shapes
2.8 GB and four minutes, and Pillow's DecompressionBombWarning was printed mid-build."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.products.render.assets import art
from tests.conftest import ROOT
from tests.products.test_file_checks import line_of, manifest, validate

#: what the issue asks a build to stay under, with any picture the limits allow
PEAK_MB = 600


def largest_svg() -> str:
    """An SVG at the limits: as many elements as allowed, and one path holding the most numbers
    (a zigzag across the whole picture: the costliest kind to fill)."""
    points = (art.SVG_MAX_PATH_NUMBERS - 2) // 2
    path = '<path fill="#334455" d="M0 0 ' + " ".join(f"L{i % 100} {i % 97}" for i in range(points)) + ' Z"/>'
    rects = "".join(f'<rect x="{i % 100}" y="{i // 100 % 100}" width="1" height="1" fill="#{i % 255:02X}8800"/>'
                    for i in range(art.SVG_MAX_ELEMENTS - 2))
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{path}{rects}</svg>'


def gradient(size: tuple[int, int], path: Path, **options) -> Path:
    from PIL import Image

    Image.linear_gradient("L").resize(size).convert("RGB").save(path, **options)
    return path


def peak_build(path: Path, out: Path) -> tuple[int, int, str]:
    """Run `county-uppy build` in a process of its own: (exit status, peak MB of the build and its
    workers, standard error)."""
    probe = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
             "stderr=subprocess.PIPE, text=True); sys.stderr.write(p.stderr); "
             "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", probe, sys.executable, "-m", "generator", "build", "--manifest",
                           str(path), "--out", str(out)], capture_output=True, text=True, env=env, timeout=900)
    status, peak = (int(v) for v in done.stdout.split())
    return status, peak, done.stderr


@pytest.mark.slow  # a whole build drawing the largest pictures the limits allow: 60-80 s on 2 cores
def test_a_build_with_the_largest_pictures_the_limits_allow_stays_under_600_mb(tmp_path):
    path = manifest(tmp_path, "  back:\n    art: {file: art/big.svg, fit: contain}\n")
    text = path.read_text(encoding="utf-8")
    for key, name in (("base", "big.png"), ("chaos", "wide.jpg")):
        entry = f"  - {{key: {key}, name: {key.title()}, interior: "
        assert entry in text
        text = text.replace(entry, f"  - {{art: {{file: art/{name}, fit: cover, bleed: true}}, key: {key}, "
                                   f"name: {key.title()}, interior: ")
    path.write_text(text, encoding="utf-8")
    # the largest PNG: decoded whole
    side = int(art.MAX_PNG_PIXELS ** 0.5)
    gradient((side * 3 // 2, art.MAX_PNG_PIXELS // (side * 3 // 2)), tmp_path / "art" / "big.png", compress_level=1)
    # the JPEG decoded largest: as wide as allowed, a hair short of twice the rows a whole card
    # needs at 450 ppi, so it is decoded at full scale (40 million pixels), not at half
    rows = 2 * round(art.LARGEST_BOX_IN[1] * art.MAX_PPI) - 2
    gradient((art.MAX_SIDE, rows), tmp_path / "art" / "wide.jpg", quality=80)
    (tmp_path / "art" / "big.svg").write_text(largest_svg())
    status, peak, err = peak_build(path, tmp_path / "out")
    assert status == 0, err
    assert peak < PEAK_MB, f"the build peaked at {peak} MB"
    assert "Warning" not in err and "warnings.warn" not in err, err
    build = json.loads((tmp_path / "out" / "build.json").read_text())
    assert any(a["path"] == "cards/STEAL.png" for a in build["artifacts"])


def test_a_png_over_the_pixel_limit_is_refused_at_its_line_with_the_size_it_should_be(tmp_path, capsys):
    path = manifest(tmp_path, steal_art="art/steal.png")
    side = int(art.MAX_PNG_PIXELS ** 0.5) + 1
    gradient((side, side), tmp_path / "art" / "steal.png", compress_level=1)
    status, out, _ = validate(path, capsys)
    assert status == 1
    (problem,) = out["errors"]
    assert problem["line"] == line_of(path, "art/steal.png")
    assert f"steal.png: the PNG is {side} × {side} pixels, over the 24,000,000 a PNG may have" in problem["message"]
    assert "1238 × 1688 pixels fill a whole card with its bleed: scale the picture down" in problem["message"]


@pytest.mark.parametrize("what, body", [
    ("elements", lambda: '<rect width="1" height="1"/>' * art.SVG_MAX_ELEMENTS),
    ("path numbers", lambda: '<path d="M0 0 ' + "L1 1 " * (art.SVG_MAX_PATH_NUMBERS // 2) + 'Z"/>'),
    ("elements through <use>", lambda: '<defs><g id="a">' + '<rect width="1" height="1"/>' * 100 + "</g></defs>"
                                       + '<use href="#a"/>' * 50),
])
def test_an_svg_past_its_limits_is_refused_at_its_line_saying_what_to_do(tmp_path, capsys, what, body):
    path = manifest(tmp_path, "  back:\n    art: {file: art/big.svg, fit: contain}\n")
    (tmp_path / "art" / "big.svg").write_text(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 9 9">{body()}</svg>')
    status, out, _ = validate(path, capsys)
    assert status == 1
    (problem,) = out["errors"]
    assert problem["line"] == line_of(path, "art/big.svg")
    said = f"more than {art.SVG_MAX_PATH_NUMBERS:,} numbers" if what == "path numbers" else \
        f"more than {art.SVG_MAX_ELEMENTS:,} elements"
    assert said in problem["message"] and ("simplify" in problem["message"]), problem["message"]
