"""Why a build failed, told the same way by `county-uppy build` and by `watch`'s rebuilds:
one classifier of what build() raises.

Each front end adds its own words for what the output folder still holds ("nothing in output was
changed", "output still holds the last good build") where `unchanged` says so, and its own
prefix; Ctrl-C and SIGTERM (KeyboardInterrupt, InterruptedAfterCommit) are not failures and are
left to them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from generator.deck.problems import InputError, Problem, one_line
from generator.products.build import FolderBusy, JournalError, PartlyWritten, ProductFailed
from generator.products.output.outputs import cannot_write
from generator.products.pipeline.rendered import CardFailed

#: exit status of a build that could not write, or found its folder busy or its journal unusable
CANNOT_WRITE = 2
#: exit status of an internal error (commands/crash.py's STATUS)
INTERNAL = 3


@dataclass(frozen=True)
class Failure:
    """A failed build, as the user is told."""

    #: "busy" (another build holds the folder), "invalid" (the manifest's mistakes, `problems`),
    #: "failed" (a file could not be written, a journal cannot be used), "internal" (a bug: `error`)
    kind: str
    #: one line: what went wrong
    message: str
    #: the exit status of `county-uppy build`
    status: int
    #: the front end adds what the output folder still holds (the message does not say it)
    unchanged: bool = True
    problems: tuple[Problem, ...] = ()
    #: an internal error: the exception, what was being done ("the cards product, card 'SKIP'"),
    #: and the words that name it instead of its own "Type: message" ("" for those)
    error: BaseException | None = None
    context: str = ""
    what: str = ""


def classify(err: Exception, out: Path) -> Failure:
    """What build() raised (anything but an interrupt), for a build into `out`."""
    if isinstance(err, FolderBusy):
        return Failure("busy", str(err), CANNOT_WRITE, unchanged=False)
    if isinstance(err, JournalError):
        return Failure("failed", f"{out} holds an unfinished build's journal that cannot be used: {err}", CANNOT_WRITE,
                       unchanged=False)
    if isinstance(err, PartlyWritten):
        return Failure("failed", f"moving the new files into {out} failed half-way and {one_line(err)}", CANNOT_WRITE,
                       unchanged=False)
    if isinstance(err, OSError):
        return Failure("failed", cannot_write(err), CANNOT_WRITE)
    if isinstance(err, ProductFailed):
        cause = err.error
        if isinstance(cause, OSError) and _inside(cause.filename, out):
            return Failure("failed", cannot_write(cause), CANNOT_WRITE)
        if isinstance(cause, InputError):
            return Failure("invalid", f"{err.product} failed", cause.status, problems=tuple(cause.problems))
        card = f", card '{cause.code}'" if isinstance(cause, CardFailed) else ""
        context = f"the {err.product} product{card}"
        return Failure("internal", f"internal error in {context}", INTERNAL, error=cause, context=context,
                       what=cause.message if card else "")
    return Failure("internal", "internal error in the build", INTERNAL, error=err, context="the build")


def _inside(name: object, folder: Path) -> bool:
    if name is None:
        return True  # a failed write that names no file
    try:
        return Path(os.path.abspath(os.fsdecode(name))).is_relative_to(os.path.abspath(folder))
    except (TypeError, ValueError):
        return False
