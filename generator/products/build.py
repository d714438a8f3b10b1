"""`county-uppy build`: every product of the deck, listed in build.json, all or nothing.

`build(deck, request)` builds what a BuildRequest (pipeline/request.py) asks for. Each product
is a record of products/__init__.py naming a function that takes the BuildContext and returns
its files (list[Artifact]), or, for a product that hands work to worker processes
(`background`, rendered.background), a function that waits for that work and returns them:
every product starts in order, and the waiting is done after the last has started, so the
products' work overlaps. The card images the products show (their records' `images`) are drawn
by workers from the very start (rasters.start). `--only` picks products by name.

A build holds the output folder's lock from start to end (a second build into the same folder
stops with FolderBusy naming this one's PID) and its products write into a staging folder
inside the output folder (output/staging.py: the context's `target`). Only when every product
asked for has succeeded are the new files moved into the output folder, through a commit
journal that makes the move all-or-nothing even if the process is killed half-way
(output/commit.py), build.json last; if anything fails, the output folder is left exactly as it
was and the staging folder is removed.

The output folder mirrors the manifest (mirror.py): files an earlier build made that this one
does not are removed in the same commit; with `--only`, the other products' files stay listed.
"""

from __future__ import annotations

import dataclasses
import importlib
import time
from dataclasses import dataclass, field
from typing import Callable

from generator.deck.model import Deck
from generator import products
from generator.products import Product
from generator.products.deck_json import deck_document
from generator.products.output import mirror
from generator.products.output.changes import summary_again, write_changes
from generator.products.output.commit import JournalError, PartlyWritten
from generator.products.output.folder_lock import FolderBusy
from generator.products.output.listing import BUILD_JSON, stamp_listing
from generator.products.output.outputs import Artifact, json_bytes
from generator.products.output.staging import InterruptedAfterCommit, Staging
from generator.products.pipeline import rasters
from generator.products.pipeline.context import BuildContext
from generator.products.pipeline.request import BuildRequest
from generator.products.pipeline.rendered import start_stamp, stop_workers
from generator.progress import ProgressBar
from generator.workers import interrupts_held

__all__ = ["BUILD_JSON", "BuildContext", "BuildRequest", "Built", "FolderBusy", "InterruptedAfterCommit",
           "JournalError", "PartlyWritten", "ProductFailed", "build"]


class ProductFailed(Exception):
    """A product raised; nothing in the output folder was changed."""

    def __init__(self, product: str, error: Exception):
        super().__init__(f"{product} failed: {type(error).__name__}: {error}")
        self.product = product
        self.error = error


Builder = Callable[[BuildContext], "list[Artifact] | Callable[[], list[Artifact]]"]


def builder(record: Product, named: str = "") -> Builder:
    """The function a product's record names (`named`: another of its `module:function`s)."""
    module, _, name = (named or record.builder).partition(":")
    return getattr(importlib.import_module(module), name)


def wanted_images(ctx: BuildContext, chosen: tuple[Product, ...]) -> rasters.Wanted:
    """The card images the chosen products show: profile -> the faces shown (None: every face)."""
    out: rasters.Wanted = {}
    for record in chosen:
        if not record.images:
            continue
        faces = None
        if record.image_faces:
            module, _, name = record.image_faces.partition(":")
            shown = getattr(importlib.import_module(module), name)(ctx)
            if shown is not None:
                faces = frozenset(shown)
                if not faces:  # this build shows none of the profile's images for it
                    continue
        out[record.images] = faces
    return out


def wanted_forms(ctx: BuildContext, chosen: tuple[Product, ...]) -> tuple:
    """The PDF forms the chosen products make: (ink-saver faces, CMYK conversion or None) pairs."""
    out: dict = {}
    for record in chosen:
        if record.forms:
            module, _, name = record.forms.partition(":")
            out.update(dict.fromkeys(getattr(importlib.import_module(module), name)(ctx)))
    return tuple(out)


@dataclass
class Built:
    """What a build made."""

    artifacts: list[Artifact]  #: the files it made, by path
    notes: list[str] = field(default_factory=list)  #: lines for the user: what changed, removed, left alone
    #: profile -> the card codes whose image it drew rather than took from the face cache
    redrawn: dict[str, list[str]] = field(default_factory=dict)
    #: the notes a build into the same folder prints when nothing changed before it (the products'
    #: own lines, the folder compared with itself); None when that is not known: this build
    #: finished a killed one's commit, found its face cache damaged, dropped a changed file, or
    #: had a product make no file (a rulebook PDF skipped may be printed next time)
    again: list[str] | None = None


def build(deck: Deck, request: BuildRequest, tell: Callable[[str], None] | None = None,
          done: Callable[[str], None] | None = None) -> Built:
    """Build the products `request` asks for (all by default) and write build.json last, all or nothing.

    Raises FolderBusy when another build holds the output folder, ProductFailed when a product
    raises, OSError when a file cannot be written, and lets KeyboardInterrupt through; in every
    case the output folder is as it was before. A stop (Ctrl-C, SIGTERM) that comes while the
    files move into place waits for the move to finish and is then raised as
    InterruptedAfterCommit: the output folder holds the new build. The line saying a killed
    build's commit was finished first goes to `tell` at once (None: into the notes). `done` is
    told each product's name once its files are made (in the staging folder: `watch`'s page
    lists the products still being made).
    """
    started = time.perf_counter()
    again = None
    dest = request.out
    committed = False
    staging = Staging(dest, products.folders())  # takes the folder's lock; finishes a killed build's commit first
    ctx = BuildContext(deck, request, staging, tell=tell)
    # on a terminal, the products done so far (and under it what a product is waiting for)
    bar = ProgressBar(sum(1 for p in products.PRODUCTS if not request.only or p.name in request.only), "building",
                      enabled=request.progress, ticking=False)
    try:
        bar.show()
        if staging.recovered:
            (tell or ctx.notes.append)(staging.recovered)
        previous = staging.previous  # build.json, read once: the lock keeps it as it is
        if previous.problem:  # no usable earlier build: said once, everything built, nothing trusted
            ctx.notes.append(previous.problem)
        begun = len(ctx.notes)  # the products' own lines from here on
        barren = False  # a product made no file
        artifacts: list[Artifact] = []
        chosen = tuple(p for p in products.PRODUCTS if not request.only or p.name in request.only)
        if any(p.stamp_early for p in chosen):
            start_stamp(ctx)  # git asked about the manifest now, for the date the print files carry
        for record in chosen:
            if record.early:  # a product's first step, before the workers start (the rulebook PDF's browser)
                builder(record, record.early)(ctx)
        # the card images, drawn by workers while the products start here (the pictures they and the forms show first)
        rasters.start(ctx, wanted_images(ctx, chosen), wanted_forms(ctx, chosen))
        waiting: list[tuple[str, Callable[[], list[Artifact]]]] = []
        for record in chosen:
            name = record.name
            bar.describe(f"building {name}")
            try:
                made = builder(record)(ctx)
            except Exception as err:
                raise ProductFailed(name, staging.public_error(err) if isinstance(err, OSError) else err) from err
            if record.background:  # made: the function that waits for its workers
                waiting.append((name, made))
            else:
                artifacts.extend(dataclasses.replace(a, product=name) for a in made)
                barren = barren or not made
                bar.advance()
                if done is not None:
                    done(name)
        for name, finish in waiting:  # a finish may hand back a later one (its work goes on meanwhile): waited for last
            bar.describe(f"finishing {name}")
            try:
                made = finish()
            except Exception as err:
                raise ProductFailed(name, staging.public_error(err) if isinstance(err, OSError) else err) from err
            if callable(made):
                waiting.append((name, made))
                continue
            artifacts.extend(dataclasses.replace(a, product=name) for a in made)
            barren = barren or not made
            bar.advance()
            if done is not None:
                done(name)
        rasters.finish(ctx)  # faces no product asked for (a build of the rulebook alone): kept and pruned
        bar.describe("moving the files in")
        built = {p.name for p in chosen}
        plan = mirror.plan(dest, artifacts, built, previous.artifacts, partial=bool(request.only),
                           folders=products.folders())
        # against the previous build, still in place
        document = deck_document(deck)
        changes, summary = write_changes(staging, document, [*artifacts, *plan.carried], previous)
        said = ctx.notes[begun:]
        ctx.notes.extend(summary)
        artifacts.append(changes)
        plan.remove = [r for r in plan.remove if r != changes.path]  # made anew by every build
        plan.carried = [a for a in plan.carried if a.path != changes.path]
        listed = sorted([*artifacts, *plan.carried], key=lambda a: a.path)
        record = {"artifacts": [a.as_json() for a in listed], "seconds": round(time.perf_counter() - started, 3)}
        staging.write(BUILD_JSON, json_bytes(record), "json")
        with interrupts_held():  # a stop now waits until the files are in place
            store = ctx.state.cache  # the face cache (rendered.cache): its new entries, its pruning, on the
            # disk (fsync, with the staged files: one wait) before the build.json that lists what they made
            packs = store.flush(sync=False) if store is not None else []
            staging.commit(last=(BUILD_JSON,), remove=tuple(plan.remove), sync=tuple(packs))
            committed = True
            if store is not None:
                store.commit()
                ctx.notes.extend(store.warnings)
            stamp_listing(dest)  # the next build may trust the sha256s it lists
        made_print = "print" in built
        ctx.notes.extend(mirror.messages(plan, dest, tuple(e.key for e in deck.editions),
                                         ctx.papers if made_print else (),
                                         request.layouts if made_print else ()))
        if not (staging.recovered or barren or plan.dropped or (store is not None and store.warnings)):
            again = [*said, *summary_again(dest, document, [a.path for a in listed]),
                     *mirror.messages(mirror.Mirror(foreign=plan.foreign), dest, ())]
    except PartlyWritten:
        staging.keep_for_roll_forward()  # the journal names its staging folder: the next build finishes the move
        raise
    except KeyboardInterrupt:
        if not committed:
            staging.discard()
            raise
        staging.close()
        raise InterruptedAfterCommit() from None
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
        bar.close()
        stop_workers(ctx)  # workers still busy when a product failed
        if ctx.state.cache is not None and not committed:
            ctx.state.cache.abandon()  # what flush() appended, taken back: a failed build leaves the cache as it was
    artifacts.sort(key=lambda a: a.path)
    return Built(artifacts, ctx.notes, ctx.state.redrawn, again)
