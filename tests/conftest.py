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
