"""A plain `pip install .` gets every package, the fonts and the templates."""

from __future__ import annotations

import fnmatch
import tomllib

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
