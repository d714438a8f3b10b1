"""`county-uppy build`: every product of the deck, listed in build.json, all or nothing.

Each product is a function `(BuildContext) -> list[Artifact]` in PRODUCTS; renderers register
theirs here. Products are built in order; `--only` picks some of them by name.

A build writes into a staging folder inside the output folder (ctx.out points there while it
runs). Only when every product asked for has succeeded are the new files moved into the output
folder, one rename each, build.json last; if anything fails, the output folder is left exactly
as it was and the staging folder is removed.
"""

from __future__ import annotations

import time
from typing import Callable

from generator.products.cards import build_cards
from generator.products.changes import deck_document, write_changes
from generator.products.context import BuildContext
from generator.products.outputs import Artifact, PartlyWritten, Staging, json_bytes, write_artifact
from generator.products.pod import build_pod
from generator.products.print_and_play import build_print
from generator.products.rulebook.page import build_rulebook
from generator.products.tts import build_tts
from generator.workers import interrupts_held

BUILD_JSON = "build.json"


class ProductFailed(Exception):
    """A product raised; nothing in the output folder was changed."""

    def __init__(self, product: str, error: Exception):
        super().__init__(f"{product} failed: {type(error).__name__}: {error}")
        self.product = product
        self.error = error


def build_deck_json(ctx: BuildContext) -> list[Artifact]:
    deck = ctx.deck
    return [write_artifact(ctx.out, "deck.json", json_bytes(deck_document(deck)), "json", cards=deck.printed)]


Product = Callable[[BuildContext], list[Artifact]]

#: name -> product, in build order. Later products may use files earlier ones wrote in the same build.
PRODUCTS: dict[str, Product] = {
    "deck": build_deck_json,
    "cards": build_cards,
    "print": build_print,
    "pod": build_pod,
    "tts": build_tts,
    "rulebook": build_rulebook,  # after the card images: it draws the same faces
}


def build(ctx: BuildContext, only: tuple[str, ...] = ()) -> list[Artifact]:
    """Build the chosen products (all by default) and write build.json last, all or nothing.

    Raises ProductFailed when a product raises, OSError when a file cannot be written, and lets
    KeyboardInterrupt through; in every case the output folder is as it was before.
    """
    started = time.perf_counter()
    dest = ctx.out
    staging = Staging(dest)
    ctx.staging, ctx.out = staging, staging.files
    try:
        artifacts: list[Artifact] = []
        ctx.shared["products"] = tuple(n for n in PRODUCTS if not only or n in only)  # so shared work fits the build
        for name, product in PRODUCTS.items():
            if not only or name in only:
                try:
                    artifacts.extend(product(ctx))
                except Exception as err:
                    raise ProductFailed(name, staging.public_error(err) if isinstance(err, OSError) else err) from err
        artifacts.append(write_changes(ctx, artifacts, BUILD_JSON))  # against the previous build, still in place
        artifacts.sort(key=lambda a: a.path)
        record = {"artifacts": [a.as_json() for a in artifacts], "seconds": round(time.perf_counter() - started, 3)}
        write_artifact(ctx.out, BUILD_JSON, json_bytes(record), "json")
        with interrupts_held(reraise=False):
            staging.commit(last=(BUILD_JSON,))
            store = ctx.shared.get("cache")  # the face cache (rendered.cache): its new entries, its pruning
            if store is not None:
                store.commit()
    except PartlyWritten:
        Staging.active.pop(staging.files, None)
        raise  # its staging folder holds the previous files that could not be put back: keep it
    except OSError as err:
        staging.discard()
        mapped = staging.public_error(err)
        if mapped is err:
            raise
        raise mapped from err
    except BaseException:
        staging.discard()
        raise
    else:
        staging.close()
    finally:
        ctx.shared.pop("cache", None)  # it points into the staging folder
        ctx.out, ctx.staging = dest, None
    return artifacts
