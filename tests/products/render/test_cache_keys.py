"""Faces are cached by what they draw: whatever changes a face, a rebuild into a folder that
holds the earlier build (and its face cache) gives the same files as a build into an empty
folder, sha256 for sha256.

Each input that can change a face is changed in turn: in the manifest (a colour's hex and
shape, a wild's name, text and parameter, the game's name, a set's interior), in the effect
catalogue's source (Skip's glyph), and in the rendering core's source (a real edit, built by
new processes from a copy of the package; and a comment, whose bytes alone must change every
key). Where the project's folder is must change none: the same manifest and files in another
folder key the same faces.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.deck.manifest import load
from generator.products.pipeline import keys
from tests.conftest import ROOT, without_look
from tests.products.render.conftest import TTS_URL, run_build

PRODUCTS = ("deck", "cards", "print", "pod", "tts", "rulebook")
#: Files that say how a build went rather than what it made: they differ between a rebuild and
#: a cold build by design (changes.json compares with the previous build; build.json lists it).
ABOUT_THE_BUILD = {"changes.json", "build.json"}


def digests(out: Path) -> dict[str, str]:
    """Every file the build made (the face cache aside), path -> sha256 of its bytes."""
    return {p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file() and ".cache" not in p.relative_to(out).parts
            and p.relative_to(out).as_posix() not in ABOUT_THE_BUILD}


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """The shipped manifest built cold: (its folder, its files' digests)."""
    out = tmp_path_factory.mktemp("keys") / "base"
    run_build(load(ROOT / "cards.yaml"), out, only=PRODUCTS)
    return out, digests(out)


EDITS = {
    "colour hex": ('print: "#00A3D9"', 'print: "#0077B6"', ["cards/C5.png", "cards/back.png"]),
    "colour shape": ("shape: triangle", "shape: star", ["cards/G5.png", "cards/back.png"]),
    "wild name": ("name: Reverse\n", "name: Turn Around\n", ["cards/REV.png"]),
    "wild text": ("text: Skip the next player's turn.", "text: The next player sits this turn out.", ["cards/SKIP.png"]),
    "wild parameter": ("params: {factor: 2}", "params: {factor: 3}", ["cards/x2.png"]),
    "game name": ("  name: County Uppy\n", "  name: County Uppy Deluxe\n", ["cards/back.png"]),
    "set interior": ("{key: chaos, name: Chaos, interior: black}", "{key: chaos, name: Chaos, interior: white}",
                     ["cards/SKIP.png"]),
}


def rebuilt_as_cold(deck, base, tmp_path: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The base build rebuilt for `deck` and a cold build of it, which must be equal file for file:
    (the base's digests, the rebuild's)."""
    folder, before = base
    rebuilt, cold = tmp_path / "rebuilt", tmp_path / "cold"
    shutil.copytree(folder, rebuilt)
    run_build(deck, rebuilt, only=PRODUCTS)
    run_build(deck, cold, only=PRODUCTS)
    after = digests(rebuilt)
    assert after == digests(cold)
    return before, after


@pytest.mark.parametrize("what", list(EDITS))
def test_a_manifest_edit_rebuilds_as_a_cold_build_does(what, base, tmp_path):
    old, new, changed = EDITS[what]
    text = (ROOT / "cards.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    manifest = tmp_path / "cards.yaml"
    manifest.write_text(text.replace(old, new), encoding="utf-8")
    deck = load(manifest)

    before, after = rebuilt_as_cold(deck, base, tmp_path)
    for path in changed:  # the edit shows: the faces it touches were drawn again
        assert after[path] != before[path], path


def test_a_byte_of_a_rendering_module_changes_every_key(base, tmp_path, monkeypatch):
    """A comment added to render/units.py: the code's bytes differ, so every face is drawn again
    (and the files, drawn by the same code, equal a cold build's)."""
    render = tmp_path / "render"
    shutil.copytree(keys.RENDER_DIR, render, ignore=shutil.ignore_patterns("__pycache__"))
    folder, before = base
    rebuilt = tmp_path / "rebuilt"
    shutil.copytree(folder, rebuilt)
    deck = load(ROOT / "cards.yaml")

    monkeypatch.setattr(keys, "RENDER_DIR", render)  # the rendering core's bytes are read from the copy
    try:
        keys.forget_code()
        run_build(deck, rebuilt, only=("cards",))
        same = run_build(deck, rebuilt, only=("cards",))
        assert same.redrawn["tgc"] == []  # the same bytes: nothing drawn
        units = render / "units.py"
        units.write_text(units.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
        keys.forget_code()  # as a new process would read them
        built = run_build(deck, rebuilt, only=("cards",))
    finally:
        keys.forget_code()
    assert sorted(built.redrawn["tgc"]) == sorted([c.code for c in deck.cards] + ["back"])
    assert {p: h for p, h in digests(rebuilt).items() if p.startswith("cards/")} == \
        {p: h for p, h in before.items() if p.startswith("cards/")}


def test_a_face_names_the_files_it_reads_and_their_bytes_are_in_its_key(deck, tmp_path):
    from generator.products.render import faces

    skip = faces.face(deck.card("SKIP"), deck)
    files = skip.files()
    assert [f.name for f in files] == ["skip.svg", "DejaVuSans-Bold.ttf", "DejaVuSans.ttf"]  # its glyph's icon, its fonts
    k = keys.face_key(skip, {})
    for f in files:
        altered = {f: "0" * 64}  # as if the file's bytes had changed
        assert keys.face_key(skip, altered) != k, f.name
    assert keys.face_key(skip, {}) == k


def face_keys_of(manifest: Path) -> dict[str, str]:
    """Card code (and "back") -> its face's key, for the deck of `manifest`."""
    from generator.products.render import faces

    deck, memo = load(manifest), {}
    return {**{c.code: keys.face_key(faces.face(c, deck), memo) for c in deck.cards},
            "back": keys.face_key(faces.back_face(deck), memo)}


def test_the_same_manifest_and_files_in_another_folder_key_the_same_faces(tmp_path, monkeypatch):
    """Where a project's folder is, beside the program's own files, is not in any face's key: a
    wild face reads its icon (in the project) and the built-in fonts (in the program), and a
    project whose path sorts before the program's fonts keys it as one that sorts after does.
    (The program's fonts are copied between the two folders here, so the check holds wherever
    the program and the temporary folders are: a clone under /root or /home sorts before /tmp.)"""
    from generator.products.render import font_metrics

    fonts = tmp_path / "m-fonts"
    fonts.mkdir()
    for bold, path in list(font_metrics.FILES.items()):
        shutil.copy(path, fonts / path.name)
        monkeypatch.setitem(font_metrics.FILES, bold, fonts / path.name)
    folders = [tmp_path / "a-project", tmp_path / "z-project"]  # the icons sort before the fonts, then after
    for folder in folders:
        folder.mkdir()
        shutil.copy(ROOT / "cards.yaml", folder / "cards.yaml")  # art/ comes beside it
    first, second = (face_keys_of(f / "cards.yaml") for f in folders)
    differ = sorted(code for code in first if first[code] != second[code])
    assert differ == [], f"faces keyed by where their files are: {differ}"


def test_a_designer_font_in_another_folder_keys_the_same_faces(tmp_path):
    """A text in a designer's font stands by the font file's bytes, not by its path."""
    from generator.products.render import faces, font_metrics

    folders = [tmp_path / "one", tmp_path / "two"]
    for folder in folders:
        (folder / "fonts").mkdir(parents=True)
        shutil.copy(font_metrics.FILES[False], folder / "fonts" / "Body.ttf")
        text = (ROOT / "cards.yaml").read_text(encoding="utf-8") + "  fonts: {regular: fonts/Body.ttf}\n"
        (folder / "cards.yaml").write_text(text, encoding="utf-8")
    deck = load(folders[0] / "cards.yaml")
    assert (folders[0] / "fonts" / "Body.ttf").resolve() in faces.face(deck.card("SKIP"), deck).files()  # it is drawn
    first, second = (face_keys_of(f / "cards.yaml") for f in folders)
    differ = sorted(code for code in first if first[code] != second[code])
    assert differ == [], f"faces keyed by where their font is: {differ}"


def test_a_folder_named_in_any_alphabet_encodes_the_same_characters_and_keys_the_same_page(tmp_path):
    """The characters a deck's PDFs encode (faces.charset) are those its faces can print, not
    those of its folder's name: the same manifest in `Café-Ω/` makes the same PDF forms, byte for
    byte, under the same keys, as in a folder named in plain ASCII; and its rulebook page, keyed
    by the deck, has the same key (model.portable: the deck's files by their names)."""
    from generator.products.pipeline.rendered import form_keys, pdf_forms
    from generator.products.render.faces import charset
    from generator.products.rulebook.page import page_key

    folders = [tmp_path / "plain", tmp_path / "Café-Ω"]
    for folder in folders:
        folder.mkdir()
        shutil.copy(ROOT / "cards.yaml", folder / "cards.yaml")  # art/ comes beside it
    plain, named = (load(f / "cards.yaml") for f in folders)
    assert set(charset(named)) ^ set(charset(plain)) == set()
    contexts = [_context(deck) for deck in (plain, named)]
    assert form_keys(contexts[0]) == form_keys(contexts[1])
    assert pdf_forms(contexts[0]) == pdf_forms(contexts[1])
    assert page_key(contexts[0]) == page_key(contexts[1])


def _context(deck):
    """A build's context for `deck` that keeps nothing (no output folder)."""
    from generator.products.output.outputs import Folder
    from generator.products.pipeline.context import BuildContext, BuildState
    from generator.products.pipeline.face_cache import RenderCache
    from generator.products.pipeline.request import BuildRequest

    nowhere = Path(os.devnull)
    return BuildContext(deck, BuildRequest(nowhere, nowhere, jobs=1), Folder(nowhere), BuildState(cache=RenderCache(None)))


def test_an_icon_file_edit_rebuilds_as_a_cold_build_does(base, tmp_path):
    """Redrawing Skip's icon (art/icons/skip.svg) redraws the Skip card, and only the faces
    that show it, as a cold build would."""
    from generator.products.render.assets.glyph_icons import glyph_svg

    manifest = tmp_path / "cards.yaml"  # beside it, the copy of art/ every test folder gets
    shutil.copy(ROOT / "cards.yaml", manifest)
    (tmp_path / "art" / "icons" / "skip.svg").write_text(glyph_svg("⊗"), encoding="utf-8")
    deck = load(manifest)
    before, after = rebuilt_as_cold(deck, base, tmp_path)
    assert after["cards/SKIP.png"] != before["cards/SKIP.png"]
    assert after["cards/C5.png"] == before["cards/C5.png"] and after["cards/x2.png"] == before["cards/x2.png"]


# --- new processes, from a copy of the package whose source files are edited ------------------

def copy_package(dest: Path) -> Path:
    for part in ("generator", "templates", "art"):
        shutil.copytree(ROOT / part, dest / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "cards.yaml", dest / "cards.yaml")
    return dest


def build_with(package: Path, out: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(package)}
    res = subprocess.run([sys.executable, "-m", "generator", "build", "--manifest", str(package / "cards.yaml"),
                          "--out", str(out), "--tts-url", TTS_URL, "--jobs", "2"],
                         cwd=package, env=env, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    assert json.loads((out / "build.json").read_text())  # built by the copy, as asked
    where = subprocess.run([sys.executable, "-c", "import generator; print(generator.__file__)"], cwd=package, env=env,
                           capture_output=True, text=True, timeout=60).stdout.strip()
    assert Path(where).resolve().is_relative_to(package.resolve())


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_editing_the_catalogue_glyph_and_a_rendering_module_rebuilds_as_a_cold_build_does(tmp_path):
    package = copy_package(tmp_path / "package")
    # the glyphs from the catalogue, not from the shipped icon files
    (package / "cards.yaml").write_text(without_look((ROOT / "cards.yaml").read_text(encoding="utf-8")), encoding="utf-8")
    out = tmp_path / "out"
    build_with(package, out)
    first = digests(out)

    # Skip's glyph, in the effect catalogue (the source the docs send a designer to)
    edit(package / "generator" / "deck" / "effects.py", 'glyph="⊘"', 'glyph="⊗"')
    build_with(package, out)
    build_with(package, tmp_path / "cold-glyph")
    glyph = digests(out)
    assert glyph == digests(tmp_path / "cold-glyph")
    assert glyph["cards/SKIP.png"] != first["cards/SKIP.png"]  # redrawn, not kept from the cache
    assert glyph["cards/C5.png"] == first["cards/C5.png"]

    # the PNGs' rendering intent in render/png.py (perceptual to relative colorimetric): every image's bytes change
    edit(package / "generator" / "products" / "render" / "png.py", 'info.add(b"sRGB", b"\\x00")', 'info.add(b"sRGB", b"\\x01")')
    build_with(package, out)
    build_with(package, tmp_path / "cold-png")
    encoded = digests(out)
    assert encoded == digests(tmp_path / "cold-png")
    assert encoded["cards/C5.png"] != glyph["cards/C5.png"]


def test_a_designer_font_file_saved_anew_rebuilds_as_a_cold_build_does(tmp_path):
    """A layout element's font file, saved with other glyphs under the same name: the faces that
    use it are redrawn, and the rebuild equals a cold build."""
    from generator.products.render import font_metrics

    folder = tmp_path / "deck"
    (folder / "fonts").mkdir(parents=True)
    shutil.copytree(ROOT / "art", folder / "art")
    shutil.copy(font_metrics.FILES[False], folder / "fonts" / "Corner.ttf")
    text = (ROOT / "cards.yaml").read_text(encoding="utf-8")
    assert text.count("\nlook:\n") == 1
    text = text.replace("\nlook:\n", "\nlook:\n  number:\n    corner: {font: fonts/Corner.ttf}\n", 1)
    (folder / "cards.yaml").write_text(text, encoding="utf-8")
    rebuilt, cold = tmp_path / "rebuilt", tmp_path / "cold"
    run_build(load(folder / "cards.yaml"), rebuilt, only=("deck", "cards"))
    before = digests(rebuilt)
    shutil.copy(font_metrics.FILES[True], folder / "fonts" / "Corner.ttf")  # the same name, other glyphs
    run_build(load(folder / "cards.yaml"), rebuilt, only=("deck", "cards"))
    run_build(load(folder / "cards.yaml"), cold, only=("deck", "cards"))
    after = digests(rebuilt)
    assert after == digests(cold)
    assert before["cards/C5.png"] != after["cards/C5.png"]  # the corner index is drawn in the new font
