"""Property-based fuzzing of the designer's files (issue 36): whatever an art picture, an icon or a
font holds, `validate` ends with exit 0, 1 or 2 and no traceback, every line of an exit-1 report is
located (PATH:LINE:COL: ...); and whatever validate passes, the build builds (never exit 3).

Mutations: an SVG's numbers replaced by values a drawing cannot take (inf, NaN, 1e400, 1x2, +, ...),
snippets spliced in (path typos, transforms, lengths, <use>), spans deleted, the file cut; a PNG's
or JPEG's bytes flipped, cut or inserted; a small font's bytes flipped or cut, or one of the flaws
of tests/hostile_files.py. Each target runs a few cases in the default (CI) profile, twenty times
as many with FUZZ_LONG=1; the builds share one output folder per target, so the face cache keeps
every face a case did not change and a build redraws a handful of faces."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.conftest import MANIFEST, ROOT
from tests.fuzz.profiles import examples
from tests.fuzz.test_fuzz_manifest import check_builds, check_validate
from tests.hostile_files import BROKEN_SVGS, FONT_FLAWS, font, jpeg, png, shape, svg
from tests.products.test_file_checks import manifest

SKIP_ICON = (ROOT / "art" / "icons" / "skip.svg").read_text(encoding="utf-8")
ART_SVG = svg('<g transform="translate(1 1) rotate(10 5 5) scale(0.9)">'
              + shape('d="M1 1 L9 1 Q9 9 5 9 C1 9 1 5 1 1 Z"', fill="#FF8800")
              + shape('x="2" y="2" width="3" height="2" rx="0.5"', "rect", "#2266AA")
              + shape('cx="7" cy="7" r="1.5"', "circle", "#113355")
              + shape('points="1,9 3,7 5,9"', "polygon", "#AA2266")
              + '</g><path id="p" d="M0 0 h1 v1 z" fill="#000000"/><use href="#p" x="4" y="4"/>')
WEIRD = ["inf", "-inf", "NaN", "nan", "1e400", "-1e400", "1x2", "+", "-", "", ".", "1.2.3", "1e", "e5", "0x10",
         "1e7", "-0", "0", "1e-400", "garbage", "5q", "10%", "2em", "1,", "١"]
SNIPPETS = [" L garbage", " C 1 2 3", " arb 1 2", " A 2 2 0 2 1 5 5", " Z Z", " M", " l", " 1e400", ' transform="rotate(inf)"',
            ' transform="scale(nan)"', ' transform="matrix(1 2)"', ' width="+"', ' height="1x2"', ' r="inf"',
            ' style="stroke-width:inf"', ' viewBox="0 0 0 0"', ' viewBox="0 0 inf 9"', "<g>", "</g>", '<use href="#p"/>',
            '<use href="#nope"/>', ' id="p"', '<rect width="NaN" height="1" fill="currentColor"/>', "<!--", "]]>", "&amp;",
            "&#0;", "\x00", "<svg>", '<path d="" fill="currentColor"/>']
_NUMBERS = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


@st.composite
def mutated_svg(draw, seed: str) -> bytes:
    text = seed
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["number", "number", "insert", "insert", "delete", "cut"]))
        if op == "number":
            spots = list(_NUMBERS.finditer(text))
            if spots:
                m = draw(st.sampled_from(spots))
                text = text[:m.start()] + draw(st.sampled_from(WEIRD)) + text[m.end():]
        elif op == "insert":
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(st.sampled_from(SNIPPETS)) + text[at:]
        elif op == "delete":
            at = draw(st.integers(0, len(text)))
            text = text[:at] + text[at + draw(st.integers(1, 12)):]
        else:
            text = text[:draw(st.integers(0, len(text)))]
    return text.encode("utf-8", "surrogatepass")


@st.composite
def mutated_bytes(draw, seed: bytes) -> bytes:
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "flip", "flip", "insert", "cut"]))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if op == "flip" and data:
            data[at] ^= draw(st.integers(1, 255))
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        else:
            del data[draw(st.integers(0, len(data))):]
    return bytes(data)


def check(path: Path, out: Path) -> None:
    """validate's outcome is sound; what it passes builds (the faces: --only cards)."""
    if check_validate(path) == 0:
        check_builds(path, out, "cards")


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz-files")


@pytest.mark.slow  # builds the faces a mutated file passes: 10-20 s on 2 cores
@settings(max_examples=examples(8))
@given(data=st.one_of(mutated_svg(ART_SVG), mutated_bytes(png(160, 120, "#2266AA")), mutated_bytes(jpeg(160, 120))))
@example(data=BROKEN_SVGS["rotate(inf)"].encode())
@example(data=jpeg(160, 120)[:-2])
@example(data=png(160, 120))
def test_art_files_validate_passes_build(folder, data):
    path = manifest(folder, "  back:\n    art: {file: art/back.svg, fit: contain}\n", steal_art="art/steal.pic")
    (folder / "art" / "steal.pic").write_bytes(data)
    (folder / "art" / "back.svg").write_bytes(data if data.lstrip().startswith(b"<") else ART_SVG.encode())
    check(path, folder / "out-art")


@pytest.mark.slow  # builds the faces a mutated file passes: 10-20 s on 2 cores
@settings(max_examples=examples(8))
@given(data=st.one_of(mutated_svg(SKIP_ICON), mutated_svg(svg(shape())), mutated_bytes(png(40, 40, "#000000"))))
@example(data=BROKEN_SVGS["L garbage"].encode())
@example(data=png(40, 40))
def test_icon_files_validate_passes_build(folder, data):
    path = manifest(folder, "  icons: {skip: art/icons/skip.svg}\n")
    (folder / "art" / "icons").mkdir(exist_ok=True)
    (folder / "art" / "icons" / "skip.svg").write_bytes(data)
    check(path, folder / "out-icon")


_CHARS: list[str] = []


def _charset() -> str:
    if not _CHARS:
        from generator.deck.manifest import load
        from generator.products.render.faces import charset

        _CHARS.append(charset(load(MANIFEST)))
    return _CHARS[0]


@st.composite
def mutated_font(draw) -> bytes:
    flaw = draw(st.sampled_from(("",) * 4 + FONT_FLAWS))
    data = font(_charset(), flaw, advance=350)
    return draw(mutated_bytes(data)) if not flaw and draw(st.booleans()) else data


@pytest.mark.slow  # builds the faces a mutated file passes: 10-20 s on 2 cores
@settings(max_examples=examples(6))
@given(data=mutated_font())
@example(data=b"flaw:composite loop")
def test_font_files_validate_passes_build(folder, data):
    if data.startswith(b"flaw:"):
        data = font(_charset(), data[5:].decode(), advance=350)
    path = manifest(folder, "  wild:\n    text: {font: fonts/F.ttf}\n")
    (folder / "fonts" / "F.ttf").write_bytes(data)
    check(path, folder / "out-font")
