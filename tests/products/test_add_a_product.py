"""Adding a product is its module and its record (docs/architecture.md, "Where to change what"):
a `sleeves` product, written here as a module of its own outside the package, and its record
added to PRODUCTS, is built, listed in build.json, chosen with `--only`, offered by `--help`
and shell completion, and its folder is mirrored. And the docs list every product's record.
"""

from __future__ import annotations

import json
import re
import textwrap

import pytest

from generator import products
from generator.products import Product
from tests.conftest import MANIFEST, ROOT, run

MODULE = '''
"""A sleeve-size guide: how many sleeves of which size the deck needs."""

import os

from generator.products.output.outputs import json_bytes


def build_sleeves(ctx):
    guide = {"cards": ctx.deck.printed, "sleeve_mm": [66, 91]}
    made = [ctx.target.write("sleeves/guide.json", json_bytes(guide), "json", cards=ctx.deck.printed)]
    if os.environ.get("SLEEVES_SPARE"):  # an earlier version also made this file
        made.append(ctx.target.write("sleeves/spare.json", json_bytes({"spare": 10}), "json"))
    return made
'''

RECORD = Product("sleeves", "sleeve_guide:build_sleeves", "a sleeve-size guide", folder="sleeves")


@pytest.fixture
def sleeves(tmp_path, monkeypatch):
    """The product's module on the path and its record among the products."""
    package = tmp_path / "plugins"
    package.mkdir()
    (package / "sleeve_guide.py").write_text(textwrap.dedent(MODULE), encoding="utf-8")
    monkeypatch.syspath_prepend(str(package))
    monkeypatch.setattr(products, "PRODUCTS", (*products.PRODUCTS, RECORD))
    return tmp_path / "out"


def listed(out):
    return {a["path"]: a for a in json.loads((out / "build.json").read_text())["artifacts"]}


def test_a_new_product_is_built_listed_chosen_and_mirrored(sleeves, monkeypatch, capsys):
    out = sleeves
    monkeypatch.setenv("SLEEVES_SPARE", "1")
    status, stdout, err = run(capsys, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "deck,sleeves")
    assert (status, err) == (0, "")
    files = listed(out)
    assert set(files) == {"deck.json", "changes.json", "sleeves/guide.json", "sleeves/spare.json"}
    assert files["sleeves/guide.json"]["product"] == "sleeves"
    guide = json.loads((out / "sleeves/guide.json").read_text())
    assert guide == {"cards": files["deck.json"]["cards"], "sleeve_mm": [66, 91]} and guide["cards"] > 90

    # its folder is mirrored: a file it no longer makes goes, a file nobody made is named and kept
    monkeypatch.delenv("SLEEVES_SPARE")
    (out / "sleeves" / "mine.txt").write_text("my notes")
    status, stdout, err = run(capsys, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "sleeves")
    assert status == 0
    assert "removed 1 file the manifest no longer makes: sleeves/spare.json" in stdout
    assert f"1 file in {out} was not made by county-uppy and is left alone: sleeves/mine.txt" in stdout
    assert not (out / "sleeves/spare.json").exists() and (out / "sleeves/mine.txt").read_text() == "my notes"
    # --only sleeves kept the deck's files, still listed
    assert set(listed(out)) == {"deck.json", "changes.json", "sleeves/guide.json"}


def test_a_new_product_is_an_only_choice_and_part_of_every_build(sleeves, capsys):
    status, stdout, _ = run(capsys, "build", "--help")
    assert status == 0 and "sleeves" in re.sub(r"\s+", " ", stdout)
    status, _, err = run(capsys, "build", "--manifest", str(MANIFEST), "--out", str(sleeves), "--only", "sleves")
    assert status == 2 and "unknown product 'sleves' (did you mean 'sleeves'?)" in err
    status, stdout, _ = run(capsys, "completion", "bash")
    assert status == 0 and "sleeves" in stdout
    status, _, err = run(capsys, "build", "--manifest", str(MANIFEST), "--out", str(sleeves), "--jobs", "1")
    assert status == 0, err
    made = {a["product"] for a in listed(sleeves).values() if "product" in a}
    assert made == {p.name for p in products.PRODUCTS}


def test_the_docs_list_every_product_as_its_record_says():
    """docs/commands.md's table of products is the records' (name, folder, what it makes), and
    its `--only` example names them all, in build order."""
    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([\w-]+)` \| (`[^`]*/`|—) \| ([^|]+) \|$", text, flags=re.M)
    assert rows == [(p.name, f"`{p.folder}/`" if p.folder else "—", p.summary) for p in products.PRODUCTS]
    assert f"# products: {', '.join(products.names())}" in text
    recipe = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert "tests/products/test_add_a_product.py" in recipe
