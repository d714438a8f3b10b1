"""The README stays a front door and its examples stay true: the Python example of docs/engine.md
runs, every command has its section in docs/commands.md, and the README's two commands are
the ones `.ci/run` runs."""

from __future__ import annotations

import re

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMANDS_MD = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
ENGINE_MD = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")


def test_python_example_runs(capsys):
    code = re.findall(r"^```python\n(.*?)```", ENGINE_MD, flags=re.S | re.M)[0]
    assert "new_initial_state" in code
    exec(compile(code, "docs/engine.md", "exec"), {})
    winner, turns = capsys.readouterr().out.split()
    assert winner in {"0", "1", "2", "3"} and int(turns) > 0


def test_every_command_is_documented_and_listed():
    from generator.cli import COMMANDS

    for name in COMMANDS:
        assert f"## `county-uppy {name}`" in COMMANDS_MD, name
        assert f"(docs/commands.md#county-uppy-{name})" in README, f"the README's command list misses {name}"


def test_every_option_is_documented():
    """Each command's section in docs/commands.md names every option its parser takes."""
    import argparse

    from generator.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    sections = dict(re.findall(r"^## `county-uppy (\w+)`\n(.*?)(?=^## |\Z)", COMMANDS_MD, flags=re.S | re.M))
    missing = []
    for name, parser in sub.choices.items():
        for action in parser._actions:
            for flag in action.option_strings:
                if flag.startswith("--") and flag not in ("--help", "--manifest") and flag not in sections[name]:
                    missing.append(f"{name} {flag}")
    assert not missing, f"options without a word in docs/commands.md: {missing}"


def test_the_two_commands_are_what_ci_runs():
    """The README's set-up-and-build command and its test command are the ones .ci/run runs."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    quick = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    build, test = re.findall(r"^```sh\n(.*?)\n```", quick, flags=re.S | re.M)
    assert build.endswith("pip install -e . && county-uppy build")
    assert "pip install -q -e . && county-uppy build" in ci
    assert test == "pip install -e '.[test,cluster,ai]' && python -m pytest"
    assert "pip install -q -e '.[test,cluster,ai]' && python -m pytest" in ci
    assert "export COUNTY_UPPY_REQUIRE_AI=1" in ci  # the ai extra's tests fail rather than skip in CI


def test_the_readme_is_a_front_door():
    """The designer's how-tos come right after the quick start, and the README stays short."""
    headings = re.findall(r"^## (.+)$", README, flags=re.M)
    assert headings[:2] == ["Quick start", "Changing a rule and rebuilding"], headings
    for howto in ("Adding a card", "Adding a wild", "Changing how the cards look"):
        assert headings.index(howto) < headings.index("Commands"), howto
    assert len(README.splitlines()) < 330


def test_the_slow_marker_is_registered_and_documented():
    import tomllib

    ini = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert any(m.startswith("slow:") for m in ini["markers"]) and "--strict-markers" in ini["addopts"]
    tests = README.split("## Running the tests", 1)[1].split("\n## ", 1)[0]
    assert 'python -m pytest -m "not slow"' in tests
    marked = [p for p in (ROOT / "tests").rglob("test_*.py") if "@pytest.mark.slow" in p.read_text(encoding="utf-8")]
    assert marked, "no test carries the slow marker the README describes"


def test_the_readme_cards_picture_is_the_built_cards(built_once):
    """docs/cards.png is the current cards: remade from a build (tests/readme_cards.py) and compared,
    so a change to how the cards look cannot leave the README's first picture behind."""
    import os

    from PIL import Image, ImageChops

    from tests import readme_cards

    got = readme_cards.picture(built_once("cards") / "cards")
    if os.environ.get("UPDATE_GOLDEN") == "1":
        got.save(readme_cards.PICTURE, optimize=True)
    want = Image.open(readme_cards.PICTURE).convert("RGBA")
    assert got.size == want.size, "run with UPDATE_GOLDEN=1 after an intended change"
    diff = ImageChops.difference(got, want).convert("L").point(lambda v: 255 if v > 48 else 0)
    assert diff.histogram()[255] / (got.width * got.height) <= 0.002, "run with UPDATE_GOLDEN=1 after an intended change"
