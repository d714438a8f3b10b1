"""build.json, the list of a build's files: the previous one in OUT, read once per build (under
OUT's lock, by staging.Staging), and the stamp that says a listing is as its build left it.

The previous listing serves three readers: the staging folder trusts the sha256s it lists for
files unchanged since (so an unchanged file needs no hashing), the mirror plans what to carry
and remove (mirror.py), and changes.json compares the files against it (changes.py).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, fields
from pathlib import Path

from generator.products.output import earlier
from generator.products.output.outputs import CACHE_DIR, KINDS, Artifact, write_atomic

BUILD_JSON = "build.json"

#: Where stamp_listing notes build.json, beside the face cache.
LISTING_STAMP = f"{CACHE_DIR}/build-json.stamp"
_SHA256 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Previous:
    """The previous build in OUT, as its build.json lists it."""

    #: OUT held a build.json that could be read (else there is nothing to compare with)
    found: bool = False
    #: the files it lists, each with the product that made it
    artifacts: tuple[Artifact, ...] = ()
    #: path -> sha256 of the listed files, when build.json is as that build left it (stamp_listing),
    #: since an edited list says nothing about the files; else empty
    digests: dict[str, str] = field(default_factory=dict)
    #: when build.json's status last changed (st_ctime_ns), with `digests`: a file whose status and
    #: content both last changed before that was not written since, so its listed sha256 is its content's
    listed_at: int = 0
    #: why OUT's build.json cannot be used (earlier.py): the build warns once and trusts none of it
    problem: str = ""


def read_previous(out: Path, folders: tuple[str, ...]) -> Previous:
    """The previous build.json in OUT (nothing when there is none); `folders`: the products' own
    folders (for entries of an old build.json that name no product).

    Read as untrusted (earlier.py): only a regular file of a sane size whose every entry is as a
    build writes it; anything else is `problem`, and then nothing of it is used (a full build)."""
    path = out / BUILD_JSON
    try:
        record = earlier.read_json(path)
        if record is None:
            return Previous()
        entries = earlier.listing(record, BUILD_JSON, KINDS)
        st = path.stat()
    except earlier.Unusable as why:
        return Previous(problem=f"warning: {path} is not as a build writes it ({why}); it is ignored and "
                                "everything is built anew")
    except OSError:
        return Previous()
    artifacts = tuple(_artifacts(entries, folders))
    digests, listed_at = _trusted(out, st, artifacts)
    return Previous(True, artifacts, digests, listed_at)


def _artifacts(entries: list, folders: tuple[str, ...]):
    names = {f.name for f in fields(Artifact)}
    for entry in entries:  # each checked by earlier.listing
        values = {k: v for k, v in entry.items() if k in names}
        values["product"] = values.get("product") or guess_product(values["path"], folders)
        yield Artifact(**values)


def _trusted(out: Path, st: os.stat_result, listed: tuple[Artifact, ...]) -> tuple[dict[str, str], int]:
    try:
        stamp = (earlier.read_bytes(out / LISTING_STAMP, limit=256) or b"").decode("ascii")
    except (OSError, ValueError):  # earlier.Unusable included: a stamp that is not one (a link, a FIFO)
        return {}, 0
    if stamp != _stamp(st):
        return {}, 0
    digests = {a.path: a.sha256 for a in listed if isinstance(a.sha256, str) and _SHA256.fullmatch(a.sha256)}
    return digests, st.st_ctime_ns


def guess_product(path: str, folders: tuple[str, ...]) -> str:
    """The product that made `path`, for a build.json written before entries named it."""
    if path == "deck.json":
        return "deck"
    if path == "rulebook.html":
        return "rulebook"
    first = path.split("/", 1)[0]
    return first if first in folders and "/" in path else ""


def stamp_listing(out: Path) -> None:
    """Note build.json as this build left it (its inode, size and times), for the next build's
    read_previous, beside the face cache (a build that keeps none, such as `--only deck`, has no
    files worth it)."""
    if not (out / CACHE_DIR).is_dir() or (out / CACHE_DIR).is_symlink():
        return
    try:
        write_atomic(out / LISTING_STAMP, _stamp((out / BUILD_JSON).stat()).encode("ascii"))
    except OSError:
        pass  # without the stamp, the next build computes every sha256


def _stamp(st: os.stat_result) -> str:
    return f"{st.st_ino} {st.st_size} {st.st_mtime_ns} {st.st_ctime_ns}\n"
