"""`county-uppy build`: every product of the deck, written atomically, listed in build.json.

Each product is a function `(BuildContext) -> list[Artifact]` in PRODUCTS; renderers register
theirs here. Products are built in order; `--only` picks some of them by name.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from generator.deck_json import deck_json
from generator.model import Deck
from generator.outputs import Artifact, json_bytes, write_artifact


@dataclass
class BuildContext:
    deck: Deck
    out: Path
    manifest: Path
    editions: tuple[str, ...] = ()  #: per-edition products asked for (--edition)
    papers: tuple[str, ...] = ("letter", "a4")
    jobs: int = 0  #: worker processes; 0 means one per core
    progress: bool = False  #: show a progress bar (only on a terminal)
    notes: list[str] = field(default_factory=list)  #: lines to print after the build


def build_deck_json(ctx: BuildContext) -> list[Artifact]:
    deck = ctx.deck
    return [write_artifact(ctx.out, "deck.json", json_bytes(deck_json(deck)), "json", cards=deck.printed)]


Product = Callable[[BuildContext], list[Artifact]]

#: name -> product, in build order. Later products may use files earlier ones wrote.
PRODUCTS: dict[str, Product] = {
    "deck": build_deck_json,
}


def build(ctx: BuildContext, only: tuple[str, ...] = ()) -> list[Artifact]:
    """Build the chosen products (all by default) and write build.json last."""
    started = time.perf_counter()
    artifacts: list[Artifact] = []
    for name, product in PRODUCTS.items():
        if not only or name in only:
            artifacts.extend(product(ctx))
    artifacts.sort(key=lambda a: a.path)
    record = {"artifacts": [a.as_json() for a in artifacts], "seconds": round(time.perf_counter() - started, 3)}
    write_artifact(ctx.out, "build.json", json_bytes(record), "json")
    return artifacts
