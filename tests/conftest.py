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


#: What marks the shipped manifest's `look:` section, whose icon files sit beside it (art/icons/).
LOOK_HEADER = "\n# --- Look"


def _with_pictures(path: object) -> None:
    """After a copy of the shipped manifest is written to `path`: the pictures it names beside it."""
    target = Path(str(path))
    if target.suffix not in (".yaml", ".yml") or target.parent.resolve() == ROOT or (target.parent / "art").exists():
        return
    try:
        if LOOK_HEADER.strip() not in target.read_text(encoding="utf-8", errors="replace"):
            return
    except OSError:
        return
    shutil.copytree(ROOT / "art", target.parent / "art")


@pytest.fixture(scope="session", autouse=True)
def _pictures_beside_copied_manifests():
    """A test that writes the shipped manifest (or a changed copy) into a folder of its own finds
    the pictures it names there too, as a designer who copies cards.yaml copies its art/ folder:
    the shipped `look:` declares the wild glyphs' icon files (art/icons/). Writing a manifest by
    Path.write_text / write_bytes or copying it by shutil copies art/ beside it when it is not there yet."""
    mp = pytest.MonkeyPatch()
    write_text, write_bytes = Path.write_text, Path.write_bytes
    copy, copy2, copyfile = shutil.copy, shutil.copy2, shutil.copyfile

    def writer(fn):
        def run(self, *args, **kwargs):
            n = fn(self, *args, **kwargs)
            _with_pictures(self)
            return n
        return run

    def copied(fn):
        def run(src, dst, *args, **kwargs):
            out = fn(src, dst, *args, **kwargs)
            _with_pictures(out)
            return out
        return run

    mp.setattr(Path, "write_text", writer(write_text))
    mp.setattr(Path, "write_bytes", writer(write_bytes))
    mp.setattr(shutil, "copy", copied(copy))
    mp.setattr(shutil, "copy2", copied(copy2))
    mp.setattr(shutil, "copyfile", copied(copyfile))
    yield
    mp.undo()


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


@pytest.fixture(autouse=True)
def own_validate_answers(tmp_path_factory, monkeypatch):
    """validate's and build's remembered answers (generator/commands/validate_memo.py,
    build_memo.py) are kept apart for each test run in this process: such a test may change the
    program (monkeypatch) without changing its files, which the answers are keyed by, so it must
    not be answered from another's run."""
    from generator import user_cache

    kept = user_cache.folder
    mine: dict[str, Path] = {}

    def folder(area: str) -> Path:
        if area not in ("validate", "build"):
            return kept(area)
        if area not in mine:
            mine[area] = tmp_path_factory.mktemp(f"{area}-answers")
        return mine[area]

    monkeypatch.setattr(user_cache, "folder", folder)


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
