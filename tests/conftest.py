"""Shared test helpers: the shipped manifest, one way to run a command, and finished builds
made once and copied for each test that changes them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "cards.yaml"
#: the same, as a command-line argument
MANIFEST_ARG = str(MANIFEST)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """`county-uppy ARGV...` in this process: (exit status, standard output, standard error).
    A traceback on either stream fails the test: every mistake must be a message."""
    from generator.cli import main

    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


@pytest.fixture(autouse=True)
def _pictures_beside_copied_manifests(request):
    """A test that writes the shipped manifest into its own folder (tmp_path/cards.yaml) finds
    the pictures it names there too, as a designer who copies cards.yaml copies its art/ folder:
    the shipped `look:` declares the wild glyphs' icon files (art/icons/)."""
    if "tmp_path" in request.fixturenames:
        folder = request.getfixturevalue("tmp_path")
        if not (folder / "art").exists():
            shutil.copytree(ROOT / "art", folder / "art")
    yield


def without_look(text: str) -> str:
    """The shipped manifest's text without its `look:` section (the wild glyphs' icon files): the
    same cards drawn by the built-in layout and typeface, as before the look was data."""
    return text[:text.index("\n# --- Look")] + "\n"


@pytest.fixture(scope="session")
def no_look_manifest(tmp_path_factory) -> Path:
    """The shipped manifest without its `look:` section, in a folder of its own."""
    path = tmp_path_factory.mktemp("no-look") / "cards.yaml"
    path.write_text(without_look(MANIFEST.read_text(encoding="utf-8")), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def no_look_deck(no_look_manifest):
    from generator.deck.manifest import load

    return load(no_look_manifest)


@pytest.fixture(scope="session")
def manifest_text() -> str:
    return MANIFEST.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def deck():
    from generator.deck.manifest import load

    return load(MANIFEST)


@pytest.fixture(scope="session")
def built_once(tmp_path_factory):
    """`built_once(only, manifest=MANIFEST)`: the output folder of `county-uppy build --only ONLY`,
    made the first time a test of the session asks for it and kept for the others. Read it only:
    a test that changes a build takes a copy (`build_copy`)."""
    from generator.cli import main

    made: dict[tuple[str, Path], Path] = {}

    def get(only: str, manifest: Path = MANIFEST) -> Path:
        if (only, manifest) not in made:
            out = tmp_path_factory.mktemp("built") / "out"
            assert main(["build", "--manifest", str(manifest), "--out", str(out), "--only", only]) == 0
            made[only, manifest] = out
        return made[only, manifest]
    return get


@pytest.fixture
def build_copy(built_once, tmp_path):
    """`build_copy(only, manifest=MANIFEST)`: a copy of that build (its face cache included) in
    this test's own folder, to rebuild, damage or break."""
    def copy(only: str, manifest: Path = MANIFEST) -> Path:
        folder = tmp_path / "out"
        shutil.copytree(built_once(only, manifest), folder, symlinks=True)
        return folder
    return copy
