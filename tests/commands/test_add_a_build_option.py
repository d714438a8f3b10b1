"""Adding a build option, as docs/architecture.md's "Where to change what" says: a field of
BuildRequest (products/pipeline/request.py), its option in commands/build.py's
add_build_options with the field's name as its dest, and the product reads ctx.request. Then
`build` carries it to the products, and `watch`, which takes every option of `build`, makes
the same request from the same words.
"""

from __future__ import annotations

import dataclasses
import json

from generator import cli
from generator.commands import build as build_command
from generator.products import build as build_module
from generator.products.deck_json import build_deck_json
from generator.products.output.outputs import json_bytes
from tests.conftest import MANIFEST, run


def test_a_new_build_option_reaches_the_products_from_build_and_watch(monkeypatch, tmp_path, capsys):
    # 1. the request's field
    request = dataclasses.make_dataclass("BuildRequest", [("corner_mm", float, 3.0)],
                                         bases=(build_command.BuildRequest,), frozen=True)
    monkeypatch.setattr(build_command, "BuildRequest", request)
    # 2. its option, for build and watch alike
    real_options = build_command.add_build_options

    def add_build_options(p):
        real_options(p)
        p.add_argument("--corner-mm", type=float, default=3.0, metavar="MM", help="radius of the cards' corners")
    monkeypatch.setattr(build_command, "add_build_options", add_build_options)

    # 3. a product reads it
    def deck_with_corners(ctx):
        made = build_deck_json(ctx)
        made.append(ctx.target.write("corners.json", json_bytes({"corner_mm": ctx.request.corner_mm}), "json"))
        return made
    real_builder = build_module.builder
    monkeypatch.setattr(build_module, "builder",
                        lambda record: deck_with_corners if record.name == "deck" else real_builder(record))

    out = tmp_path / "out"
    status, _, err = run(capsys, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "deck",
                         "--corner-mm", "2.5")
    assert (status, err) == (0, "")
    assert json.loads((out / "corners.json").read_text()) == {"corner_mm": 2.5}

    # watch's words make the same request, the new option included
    words = ["--manifest", str(MANIFEST), "--out", str(out), "--only", "deck", "--corner-mm", "2.5", "--gutter", "3"]
    from_build = build_command.build_request(cli.build_parser().parse_args(["build", *words]))
    from_watch = build_command.build_request(cli.build_parser().parse_args(["watch", *words]))
    assert from_build == from_watch and from_watch.corner_mm == 2.5 and from_watch.gutter == 3.0
