"""Start-up: the command line loads only what the command needs (benchmarks/bench_startup.py times it).

Timing is measured in benchmarks/, not here; these tests pin down the cause instead: which
heavy modules a quick command loads, and that every import deferred into a function says why.
"""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from tests.conftest import ROOT

#: Modules that cost more to import than a quick command may spend: none of them is needed to
#: parse the command line or to check a manifest.
HEAVY = ("pydantic", "pydantic_core", "reportlab", "PIL", "jinja2", "rich", "multiprocessing", "concurrent",
         "generator.engine.state", "generator.engine.game", "generator.products.build", "generator.report.run",
         "watchfiles", "pypdfium2", "dask", "distributed")


def loaded_after(argv: list[str], caches: str | None = None) -> tuple[int, set[str]]:
    """(exit status, modules loaded) of the command in a new process, with an empty user cache
    folder (validate checks in full rather than giving an answer it remembers), or `caches`."""
    code = ("import json, sys\nfrom generator.cli import main\nstatus = main(%r)\n"
            "sys.__stderr__.write('\\nMODULES ' + json.dumps(sorted(sys.modules)) + ' STATUS ' + str(status))") % (argv,)
    with tempfile.TemporaryDirectory() as empty:
        done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                              env={**os.environ, "XDG_CACHE_HOME": caches or empty})
    tail = done.stderr.rsplit("\nMODULES ", 1)[1]
    names, status = tail.rsplit(" STATUS ", 1)
    return int(status), set(json.loads(names))


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


@pytest.mark.parametrize("argv", [["--version"], ["validate"], ["validate", "--json"], ["build", "--help"]])
def test_quick_commands_load_no_heavy_module(argv):
    """validate lays out every face to check that no text prints below 6.5 pt, measuring with the
    width table (products/render/font_metrics.py), so it needs no drawing library either."""
    status, modules = loaded_after(argv)
    assert status == 0
    assert heavy(modules) == []
    if "validate" not in argv:
        assert "yaml" not in modules  # parsing the command line reads no manifest
    else:
        assert "generator.products.render.faces" in modules  # the layout check ran


def test_a_manifest_mistake_still_gets_pydantic_s_words(tmp_path):
    bad = (ROOT / "cards.yaml").read_text().replace("target: 16", "target: sixteen", 1)
    (tmp_path / "cards.yaml").write_text(bad)
    status, modules = loaded_after(["validate", "--manifest", str(tmp_path / "cards.yaml")])
    assert status == 1 and "pydantic" in modules


def test_every_product_record_names_functions_that_exist():
    from generator.products import PRODUCTS, names
    from generator.products.build import builder

    assert len(set(names())) == len(names()) == len(PRODUCTS)
    for record in PRODUCTS:
        assert callable(builder(record)), record.name
        if record.image_faces:
            module, _, name = record.image_faces.partition(":")
            assert callable(getattr(__import__(module, fromlist=[name]), name)), record.name


def test_the_engine_package_loads_its_names_on_use():
    code = ("import sys\nimport generator.engine.options, generator.engine.limits\n"
            "print('generator.engine.state' in sys.modules)\n"
            "import generator.engine.simulate\nfrom generator.engine import simulate, Game\n"
            "print(callable(simulate) and not isinstance(simulate, type(sys)), Game.__name__)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60).stdout.split()
    assert out == ["False", "True", "Game"]


def test_a_command_loads_no_other_command_s_module():
    status, modules = loaded_after(["validate"])
    assert status == 0
    from generator.cli import COMMANDS

    assert sorted(m for m in modules if m.startswith("generator.commands.")) == [
        "generator.commands.common", "generator.commands.file_states", "generator.commands.validate",
        "generator.commands.validate_memo"]
    assert len(COMMANDS) > 5


#: Command lines whose output (usage, errors, help) must not depend on which parsers were built.
PARSED_ALIKE = [["validate", "--bogus"], ["validate", "-h"], ["validate", "--json", "extra"], ["validate", "--manifest"],
                ["build", "--paper", "b5"], ["build", "--help"], ["build", "--jobs"], ["simulate", "--games", "x"],
                ["report", "--players", "9"], ["play", "--speed", "x"], ["diff"], ["diff", "a", "b", "c"], ["replay"],
                ["scenario", "-h"], ["sweep", "--help"], ["schema", "--help"]]


@pytest.mark.parametrize("argv", PARSED_ALIKE, ids=" ".join)
def test_one_command_s_parser_parses_as_the_whole_command_line(argv, monkeypatch, capsys):
    import generator.cli as cli

    def outcome() -> tuple:
        status = cli.main(argv)
        return (status, *capsys.readouterr())

    assert cli._command_of(argv) == argv[0]
    alone = outcome()
    monkeypatch.setattr(cli, "_command_of", lambda argv: None)
    assert outcome() == alone


def test_a_rebuild_with_nothing_changed_loads_no_drawing_library(build_copy):
    """Every image, PDF and the rulebook page come from the face cache, keyed by what makes them:
    a rebuild that changes nothing loads neither reportlab, Pillow, PDFium, jinja2 nor the engine
    (benchmarks/bench_build.py times it as a new process). The rulebook's PDFs are built before
    too, and the rebuild has the user's cache folder they were built with (the printed PDFs are
    kept there): printed anew, the booklet is imposed by PDFium."""
    out = build_copy("deck,rulebook-pdf,print,pod,rulebook,tts,cards")
    users = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    status, modules = loaded_after(["build", "--out", str(out)], caches=users)
    assert status == 0
    drawing = ("reportlab", "PIL", "pypdfium2", "jinja2", "generator.engine.game", "generator.engine.state")
    assert sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in drawing)) == []
    assert "generator.products.build" in modules  # it did build


def test_a_rebuild_after_a_text_edit_traces_no_icon_outline_again(build_copy, tmp_path):
    """The outlines of the icons the faces draw (art/icons/*.svg) are kept in the face cache by
    each file's content: a rebuild that redraws a wild's face (its text edited) takes them from
    there, so neither it nor a worker it forks loads fontTools (all drawn in the one process here,
    --jobs 1)."""
    import shutil

    out = build_copy("deck,rulebook-pdf,print,pod,rulebook,tts,cards")
    shutil.copytree(ROOT / "art", tmp_path / "art")
    text = (ROOT / "cards.yaml").read_text(encoding="utf-8")
    old = "text: Skip the next player's turn."
    assert old in text
    manifest = tmp_path / "cards.yaml"
    manifest.write_text(text.replace(old, "text: Skip the next player's turn, twice."), encoding="utf-8")
    status, modules = loaded_after(["build", "--manifest", str(manifest), "--out", str(out), "--jobs", "1"])
    assert status == 0
    assert "generator.products.render.pdf" in modules  # it did draw the edited face
    assert sorted(m for m in modules if m == "fontTools" or m.startswith("fontTools.")) == []
