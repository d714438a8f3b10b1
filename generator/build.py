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
from generator.rulebook import build_rulebook
from generator.render_build import build_cards, build_pod, build_print, build_tts


@dataclass
class BuildContext:
    deck: Deck
    out: Path
    manifest: Path
    editions: tuple[str, ...] = ()  #: per-edition products asked for (--edition)
    papers: tuple[str, ...] = ("letter", "a4")
    jobs: int = 0  #: worker processes; 0 means one per core
    progress: bool = False  #: show a progress bar (only on a terminal)
    pod: tuple[str, ...] = ("tgc", "mpc", "dtc")  #: print-on-demand profiles (--pod)
    tts_url: str = ""  #: where TTS loads the deck sheets from (--tts-url); default: file URI of output/tts
    shared: dict = field(default_factory=dict)  #: work products share within one build (rendered faces)
    notes: list[str] = field(default_factory=list)  #: lines to print after the build


def build_deck_json(ctx: BuildContext) -> list[Artifact]:
    deck = ctx.deck
    return [write_artifact(ctx.out, "deck.json", json_bytes(deck_json(deck)), "json", cards=deck.printed)]


Product = Callable[[BuildContext], list[Artifact]]

#: name -> product, in build order. Later products may use files earlier ones wrote.
PRODUCTS: dict[str, Product] = {
    "deck": build_deck_json,
    "cards": build_cards,
    "print": build_print,
    "pod": build_pod,
    "tts": build_tts,
    "rulebook": build_rulebook,  # after the card images: it draws the same faces
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
