"""Writing build products: the files a build lists (Artifact), atomic writes, and the write
target a product writes into (a build's staging folder, staging.py, or a plain folder)."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from generator.deck.problems import one_line

__all__ = ["Artifact", "CACHE_DIR", "Folder", "KINDS", "WriteTarget", "json_bytes", "write_atomic"]

KINDS = ("pdf", "png", "html", "json", "tts")

#: The folder of OUT that keeps what a build may reuse (the face cache, stamps); never listed.
CACHE_DIR = ".cache"


@dataclass(frozen=True)
class Artifact:
    """One file a build wrote, as listed in build.json (`path` relative to the output folder)."""

    path: str
    kind: str
    cards: int = 0
    pages: int = 0
    sha256: str = ""
    product: str = ""  #: the product that made it (its record's name), so that `--only` keeps the others' files

    def as_json(self) -> dict[str, Any]:
        record = {"path": self.path, "kind": self.kind, "cards": self.cards, "pages": self.pages, "sha256": self.sha256}
        if self.product:
            record["product"] = self.product
        return record


def write_atomic(path: Path, data: bytes) -> str:
    """Write `data` to `path` through a temporary file and a rename; return its sha256.

    An interrupted build leaves either the old file or the new one, never half of one.
    An unchanged file is left alone, so its modification time keeps meaning something.
    """
    digest = hashlib.sha256(data).hexdigest()
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
        return digest
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; build products are for everyone to read
        os.replace(tmp, path)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        # name the file being written, not the temporary one (a failed write names none at all)
        raise OSError(err.errno, err.strerror or str(err), str(path)) from err
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return digest


def json_bytes(value: Any, indent: int | None = 2) -> bytes:
    """Stable JSON: sorted keys, two-space indent (None: compact, for files only programs read;
    written by json's C encoder, several times faster), trailing newline."""
    return (json.dumps(value, indent=indent, sort_keys=True, ensure_ascii=False,
                       separators=None if indent else (",", ":")) + "\n").encode("utf-8")


def write_new(path: Path, data: bytes) -> str:
    """Create `path` with `data` and return its sha256: for a build's own staging folder only.

    Nothing else reads the staging folder before the commit, and a failed or killed build's
    staging folder is thrown away whole, so a new file there needs no temporary name and rename.
    The file is created exclusively: an existing one is never written into, but replaced through
    write_atomic.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o644)
    except FileExistsError:
        return write_atomic(path, data)
    except OSError as err:
        raise OSError(err.errno, err.strerror or str(err), str(path)) from err
    try:
        os.fchmod(fd, 0o644)  # as write_atomic: build products are for everyone to read, whatever the umask
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
    except OSError as err:
        raise OSError(err.errno, err.strerror or str(err), str(path)) from err
    return hashlib.sha256(data).hexdigest()


class WriteTarget(Protocol):
    """Where a product writes its files: `write(rel, data, kind)` puts `data` at `dest`/rel, or
    stages it to be moved there (a build's staging.Staging), and returns the file as listed."""

    #: the output folder the files end up in
    dest: Path

    def write(self, rel: str, data: bytes, kind: str, cards: int = 0, pages: int = 0) -> Artifact: ...


class Folder:
    """A WriteTarget that writes straight into a folder, each file atomically (write_atomic):
    for a product made outside a build."""

    def __init__(self, dest: Path):
        self.dest = dest

    def write(self, rel: str, data: bytes, kind: str, cards: int = 0, pages: int = 0) -> Artifact:
        assert kind in KINDS, kind
        return Artifact(rel, kind, cards, pages, write_atomic(self.dest / rel, data))


def cannot_write(err: OSError) -> str:
    """What a failed write says to the user: `cannot write PATH: REASON`."""
    name = err.filename2 if err.filename2 is not None else err.filename
    where = f" {os.fsdecode(name)}" if name is not None else ""
    return f"cannot write{where}: {err.strerror or one_line(err)}"
