"""One rebuild of `county-uppy watch`: the manifest read and built into the output folder, and
what came of it as data for the terminal line and the page.

A rebuild is an ordinary all-or-nothing build (products/build.py), so whatever goes wrong the
output folder keeps the last good build. Where a build is already there, the rebuild is two:
first the card images and deck.json alone (CARDS_FIRST, `--only deck,cards`: the other products'
files kept as they were), which the page shows at once, then the whole request, which takes the
faces just drawn from the face cache; each is committed whole. A mistake in the manifest comes back located, with the
line of the manifest it is on and the value at its column, for the page to show, once the
files have rested (settled(): the rebuild starts a few milliseconds after a save, which may
still be on its way).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from generator.deck.input_file import MAX_FILE_BYTES, Unread, read_regular
from generator.deck.manifest import load
from generator.deck.model import Deck
from generator.deck.problems import InputError, Problem, escape
from generator.products.build import BuildRequest, build
from generator.products.failure import classify
from generator.products.output import earlier
from generator.products.output.changes import CHANGES_JSON
from generator.products.printable import problems as undrawable
from generator.preview.thumbnails import PDFIUM

#: The terminal line of a rebuild is cut to this many characters (changes.json has it all).
LINE_LIMIT = 240
#: The products a rebuild commits first, for the page to show the changed cards at once.
CARDS_FIRST = ("deck", "cards")
#: Seconds a manifest with a mistake is given to change again before the mistake is shown (a
#: save still being written), looked at every SETTLE_POLL seconds.
SETTLE_SECONDS = 0.3
SETTLE_POLL = 0.02


@dataclass
class Outcome:
    """What one rebuild came to."""

    status: str  #: "ok", "invalid" (mistakes in the manifest), "busy" (another build) or "failed"
    message: str  #: one line for the terminal and the page
    seconds: float
    problems: list[dict[str, Any]] = field(default_factory=list)  #: the manifest's mistakes, located
    #: a bug in county-uppy: the error and what was being done, for the crash report
    internal: tuple[BaseException, str] | None = None
    what: str = ""  #: the words that name the bug instead of its "Type: message", for the crash report
    #: seconds from the rebuild's start to: the deck read and checked ("read"), the card images
    #: committed ("cards_in")
    stages: dict[str, float] = field(default_factory=dict)


def rebuild(request: BuildRequest, tell: Callable[[str], None],
            first: Callable[[str, float], None] | None = None,
            signature: Callable[[], Any] | None = None, done: Callable[[str], None] | None = None,
            current: Any = None) -> Outcome:
    """Build `request.manifest` into `request.out`, as `county-uppy build` does with the same
    request (commands/build.py's build_request). With `first`, where a build is there already and
    the request makes more than the card images, the card images (and deck.json) are built and
    committed first, and `first` is told what changed and when (the seconds since the start)
    before the rest is built. `signature`: the watched files' times and sizes, which a save
    still being written changes (settled()), and `current` its value as the rebuild starts, when
    the caller has it (else it is taken here). `done` is told each product's name once the
    whole build has made its files (products/build.py).

    Ctrl-C and SIGTERM are let through (KeyboardInterrupt, or InterruptedAfterCommit when the new
    build was already moved in); the build leaves the output folder whole either way.
    """
    started = time.perf_counter()
    manifest, out = request.manifest, request.out

    def took() -> float:
        return time.perf_counter() - started

    stages: dict[str, float] = {}
    try:
        deck = settled(manifest, signature, current)
        stages["read"] = took()
    except InputError as err:
        return invalid(err.problems, manifest, took())
    unchanged = f"{out} still holds the last good build"
    problem = request.problem_for(deck)  # an edition the options name and the manifest no longer has
    if problem is not None:
        return Outcome("failed", f"{problem}; {unchanged}", took())
    first_line = ""
    try:
        with PDFIUM:  # the build draws faces with PDFium in this process; thumbnails wait for it
            if first is not None and cards_first(request):
                build(deck, replace(request, only=CARDS_FIRST), tell)
                first_line = _changes_line(out)
                stages["cards_in"] = took()
                first(first_line, stages["cards_in"])
            build(deck, request, tell, done)
    except Exception as err:  # noqa: BLE001 -- every failure is told as classify() sorts it
        failure = classify(err, out)
        if failure.kind == "invalid":
            return invalid(list(failure.problems), manifest, took())
        if failure.kind == "busy":
            return Outcome("busy", f"{failure.message}; trying again after the next change", took())
        tail = f"; {unchanged}" if failure.unchanged else ""
        internal = (failure.error, failure.context) if failure.kind == "internal" else None
        return Outcome("failed", failure.message + tail, took(), internal=internal, what=failure.what)
    line = _changes_line(out)
    if first_line and first_line != "built":  # what the cards' commit changed, then what the rest did
        line = first_line if line in ("built", first_line) else f"{first_line}; {line}"
    return Outcome("ok", line if len(line) <= LINE_LIMIT else line[:LINE_LIMIT - 1] + "…", took(), stages=stages)


def settled(manifest: Path, signature: Callable[[], Any] | None = None, before: Any = None) -> Deck:
    """The deck `manifest` makes, checked as a build checks it; InputError with its mistakes.

    The watcher starts a rebuild a few milliseconds after a save (commands/watch.py, STEP_MS),
    so an editor's save may still be on its way (the manifest renamed away or cut short, a
    picture half written): before a mistake is shown, the watched files (`signature`; `before`:
    its value as the manifest is first read, when the caller has just taken it) are given
    SETTLE_SECONDS to change, and if they do the deck is read again."""
    if before is None and signature is not None:
        before = signature()
    while True:
        try:
            deck = load(manifest)
            found = undrawable(deck)
            if found:
                raise InputError(found, deck=deck)
            return deck
        except InputError:
            if signature is None or not _changes_within(signature, before, SETTLE_SECONDS):
                raise
            before = signature()


def _changes_within(signature: Callable[[], Any], before: Any, seconds: float) -> bool:
    """Whether `signature()` differs from `before` within `seconds` (looked at every SETTLE_POLL)."""
    deadline = time.monotonic() + seconds
    while True:
        if signature() != before:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(SETTLE_POLL)


def cards_first(request: BuildRequest) -> bool:
    """Whether a rebuild of `request` commits the card images first: a build is in the folder
    already (a first build draws everything once), and the request makes the card images and
    something more."""
    wanted = set(request.only) if request.only else None
    return ((request.out / "build.json").is_file() and (wanted is None or "cards" in wanted)
            and (wanted is None or not wanted <= set(CARDS_FIRST)))


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
        try:  # read as the check read it: a FIFO or a huge file put in its place since is no line
            lines = read_regular(manifest, MAX_FILE_BYTES).decode("utf-8", errors="replace").splitlines()
        except Unread:
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
    try:  # read as untrusted (earlier.py): a changes.json edited into other shapes says only "built"
        record = earlier.read_json(out / CHANGES_JSON)
    except earlier.Unusable:
        return "built"
    summary = record.get("summary", []) if isinstance(record, dict) else []
    if not earlier.is_listing(summary) or not all(isinstance(line, str) for line in summary):
        return "built"
    lines = [line.strip() for line in summary if line.strip()]
    if len(lines) > 1 and lines[0].endswith(":"):
        lines = lines[1:]  # "changes since the previous build:" heads the indented lines
    text = "; ".join(lines) or "built"
    return text if len(text) <= LINE_LIMIT else text[:LINE_LIMIT - 1] + "…"


