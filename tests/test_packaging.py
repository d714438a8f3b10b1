"""A plain `pip install .` gets every package, the fonts, the press profile and the templates."""

from __future__ import annotations

import fnmatch
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile

from tests.conftest import ROOT

CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_package_is_listed():
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "generator").rglob("__init__.py")}
    assert found <= set(CONFIG["packages"])


def test_every_template_is_package_data():
    assert CONFIG["package-dir"]["generator.templates"] == "templates"
    globs = CONFIG["package-data"]["generator.templates"]
    for path in (ROOT / "templates").rglob("*"):
        if path.is_file():
            rel = path.relative_to(ROOT / "templates").as_posix()
            assert any(fnmatch.fnmatch(rel, g) for g in globs), rel


def test_license_file_matches_the_metadata():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert project["license"] == {"text": "MIT"} and text.startswith("MIT License\n")
    assert "Copyright (c) 2026 The County Uppy authors" in text
    assert "License :: OSI Approved :: MIT License" in project["classifiers"]
    assert {"name": "The County Uppy authors"} in project["authors"]


def test_the_wheel_holds_the_types_marker_licences_templates_fonts_and_the_shipped_deck(tmp_path):
    """Built as pip builds it for a user (an isolated build), then read back. The build runs on a
    copy of what the wheel is made from, so that it leaves no build/ folder in the checkout."""
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE", "cards.yaml", "cards.schema.json"):
        shutil.copy2(ROOT / name, source / name)
    for name in ("generator", "templates", "art", "county_uppy"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(tmp_path)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    (wheel,) = tmp_path.glob("county_uppy-*.whl")
    archive = zipfile.ZipFile(wheel)
    names = set(archive.namelist())
    assert "generator/py.typed" in names  # PEP 561: type checkers read the package's hints
    assert any(n.endswith(".dist-info/licenses/LICENSE") or n.endswith(".dist-info/LICENSE") for n in names)
    assert "generator/products/render/fonts/DejaVuSans.ttf" in names and "generator/products/render/fonts/LICENSE-DejaVu.txt" in names
    assert "generator/products/render/fonts/metrics.json" in names  # the widths layout measures with
    # MB Print's FOGRA39 press profile and the note of its origin and licence
    assert {"generator/products/render/press/icc/FOGRA39L.icc", "generator/products/render/press/icc/FOGRA39L.txt"} <= names
    assert "generator/templates/rulebook.html.j2" in names
    # the fonts the rulebook is printed in: the cards' typeface cut down, and DejaVu Sans Mono for
    # code, whole and cut down, with the fonts' licence
    assert {f"generator/products/rulebook/fonts/{name}" for name in (
        "DejaVuSans-print.ttf", "DejaVuSans-Bold-print.ttf", "DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf",
        "DejaVuSansMono-print.ttf", "DejaVuSansMono-Bold-print.ttf", "LICENSE-DejaVu.txt")} <= names
    for package in CONFIG["packages"]:
        if package not in ("generator.templates", "generator.shipped"):
            assert package.replace(".", "/") + "/__init__.py" in names, package
    # the shipped deck, the default of every game outside a checkout (generator/resources.py), with its pictures
    assert {"generator/shipped/cards.yaml", "generator/shipped/cards.schema.json"} <= names
    icons = {p.name for p in (ROOT / "art" / "icons").glob("*.svg")}
    assert icons and {f"generator/shipped/art/icons/{n}" for n in icons} <= names
    assert archive.read("generator/shipped/cards.yaml") == (ROOT / "cards.yaml").read_bytes()
    assert not any(n.startswith("generator/shipped/") and n.endswith(".py") for n in names)
    # the ai extra names every library the adapters import
    meta = next(archive.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    extra = {re.split(r"[<>=;\s\[]", line.removeprefix("Requires-Dist:").strip())[0]
             for line in meta.splitlines() if line.startswith("Requires-Dist:") and 'extra == "ai"' in line}
    assert {"open_spiel", "pettingzoo", "gymnasium", "numpy"} <= extra


def test_the_sdist_holds_the_shipped_manifest_and_the_icon_files_it_names(tmp_path, capsys):
    """The source distribution (MANIFEST.in) carries cards.yaml and every picture its look names
    (the wild glyphs' icon files), so the manifest unpacked from it validates. Built from a copy,
    as the wheel above, so no egg-info or build/ is written into the checkout."""
    import tarfile

    from generator.cli import main
    from generator.deck.look import named_files
    from generator.deck.yaml_source import read

    source = tmp_path / "src"
    source.mkdir()
    for name in ("generator", "templates", "art", "county_uppy"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in", "cards.yaml", "cards.schema.json"):
        shutil.copy2(ROOT / name, source / name)
    done = subprocess.run([sys.executable, "-c", f"from setuptools import build_meta; build_meta.build_sdist({str(tmp_path)!r})"],
                          cwd=source, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    (sdist,) = tmp_path.glob("county[-_]uppy-*.tar.gz")
    with tarfile.open(sdist) as tar:
        top = tar.getnames()[0].split("/")[0]
        names = {n.removeprefix(top + "/") for n in tar.getnames()}
        tar.extractall(tmp_path / "unpacked", filter="data")
    named = [p.relative_to(ROOT).as_posix() for p in named_files(read(ROOT / "cards.yaml").data, ROOT)]
    assert len(named) == 11 and all(n.startswith("art/icons/") for n in named)
    assert {"cards.yaml", "cards.schema.json", *named} <= names
    assert main(["validate", "--manifest", str(tmp_path / "unpacked" / top / "cards.yaml")]) == 0, capsys.readouterr().err
