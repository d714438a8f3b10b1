"""One rebuild of `county-uppy watch`: the manifest read and built into the output folder, and
what came of it as data for the terminal line and the page.

A rebuild is an ordinary all-or-nothing build (products/build.py), so whatever goes wrong the
output folder keeps the last good build. A mistake in the manifest comes back located, with the
line of the manifest it is on and the value at its column, for the page to show.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from generator.deck.manifest import load
from generator.deck.model import Deck
from generator.deck.problems import InputError, Problem, escape, one_line
from generator.products.build import (BuildContext, FolderBusy, JournalError, PartlyWritten, ProductFailed,
                                      build)
from generator.products.output.changes import CHANGES_JSON
from generator.products.output.outputs import cannot_write
from generator.products.printable import problems as undrawable
from generator.products.pipeline.rendered import CardFailed
from generator.preview.thumbnails import PDFIUM

#: The terminal line of a rebuild is cut to this many characters (changes.json has it all).
LINE_LIMIT = 240


@dataclass
class Outcome:
    """What one rebuild came to."""

    status: str  #: "ok", "invalid" (mistakes in the manifest), "busy" (another build) or "failed"
    message: str  #: one line for the terminal and the page
    seconds: float
    problems: list[dict[str, Any]] = field(default_factory=list)  #: the manifest's mistakes, located
    #: a bug in county-uppy: the error and what was being done, for the crash report
    internal: tuple[BaseException, str] | None = None


#: The deck -> the products to build and the BuildContext's settings, or what is wrong with them
#: for this deck (an edition the options name and the manifest no longer has).
Settings = Callable[[Deck], "tuple[tuple[str, ...], dict[str, Any]] | str"]


def rebuild(manifest: Path, out: Path, tell: Callable[[str], None], settings: Settings, *,
            progress: bool = False) -> Outcome:
    """Build `manifest` into `out`, as `county-uppy build` does with the options `settings` gives
    for the deck (commands/build.py's build_settings); `progress`: show the build's progress bar (on a
    terminal).

    Ctrl-C and SIGTERM are let through (KeyboardInterrupt, or InterruptedAfterCommit when the new
    build was already moved in); the build leaves `out` whole either way.
    """
    started = time.perf_counter()

    def took() -> float:
        return time.perf_counter() - started

    try:
        deck = load(manifest)
        found = undrawable(deck)
        if found:
            raise InputError(found, deck=deck)
    except InputError as err:
        return invalid(err.problems, manifest, took())
    chosen = settings(deck)
    if isinstance(chosen, str):
        return Outcome("failed", f"{chosen}; {out} still holds the last good build", took())
    only, options = chosen
    ctx = BuildContext(deck, out, manifest, progress=progress, tell=tell, **options)
    unchanged = f"{out} still holds the last good build"
    try:
        with PDFIUM:  # the build draws faces with PDFium in this process; thumbnails wait for it
            build(ctx, only)
    except FolderBusy as err:
        return Outcome("busy", f"{err}; trying again after the next change", took())
    except JournalError as err:
        return Outcome("failed", f"{out} holds an unfinished build's journal that cannot be used: {err}", took())
    except PartlyWritten as err:
        return Outcome("failed", f"moving the new files into {out} failed half-way and {one_line(err)}", took())
    except OSError as err:
        return Outcome("failed", f"{cannot_write(err)}; {unchanged}", took())
    except ProductFailed as err:
        cause = err.error
        if isinstance(cause, InputError):
            return invalid(cause.problems, manifest, took())
        if isinstance(cause, OSError):
            return Outcome("failed", f"the {err.product} product: {cannot_write(cause)}; {unchanged}", took())
        card = f", card '{cause.code}'" if isinstance(cause, CardFailed) else ""
        what = f"the {err.product} product{card}"
        return Outcome("failed", f"internal error in {what}; {unchanged}", took(), internal=(cause, what))
    return Outcome("ok", _changes_line(out), took())


def invalid(problems: list[Problem], manifest: Path, seconds: float) -> Outcome:
    """The outcome of a manifest with mistakes: the first one in the terminal line, all for the page."""
    located = [locate(p, manifest) for p in problems]
    first = str(problems[0]) if problems else "the manifest cannot be read"
    more = f" (and {len(problems) - 1} more, shown in the preview)" if len(problems) > 1 else ""
    return Outcome("invalid", first + more, seconds, located)


def locate(problem: Problem, manifest: Path) -> dict[str, Any]:
    """The problem as /state gives it: where, what, the manifest's line there and the value at the column."""
    doc = problem.as_json()
    doc["text"] = str(problem)
    source = ""
    if problem.line > 0 and Path(problem.path) == manifest:
        try:
            lines = manifest.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            lines = []
        if problem.line <= len(lines):
            source = lines[problem.line - 1]
    doc["source"] = escape(source) if len(source) <= 400 else escape(source[:399]) + "…"
    doc["value"] = escape(value_at(source, problem.column))
    return doc


_PLAIN_END = re.compile(r"\s*(?:[,\]}#]|:\s|:$|$)")


def value_at(line: str, column: int) -> str:
    """The YAML value starting at `column` (from 1) of `line`: a quoted string with its quotes, else
    the text up to the next `,`, `]`, `}`, comment or `key:`; '' when the column is off the line."""
    if column < 1 or column > len(line):
        return ""
    rest = line[column - 1:]
    if rest[0] in "'\"":
        end = rest.find(rest[0], 1)
        return rest if end < 0 else rest[:end + 1]
    match = _PLAIN_END.search(rest)
    return rest[:match.start()].strip() if match else rest.strip()


def _changes_line(out: Path) -> str:
    """The build's change summary (changes.json) on one line."""
    try:
        summary = json.loads((out / CHANGES_JSON).read_text(encoding="utf-8")).get("summary", [])
    except (OSError, ValueError, AttributeError):
        return "built"
    lines = [str(line).strip() for line in summary if str(line).strip()]
    if len(lines) > 1 and lines[0].endswith(":"):
        lines = lines[1:]  # "changes since the previous build:" heads the indented lines
    text = "; ".join(lines) or "built"
    return text if len(text) <= LINE_LIMIT else text[:LINE_LIMIT - 1] + "…"


