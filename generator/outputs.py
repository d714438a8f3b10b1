"""Writing build products: atomic writes and the build.json artifact list."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

KINDS = ("pdf", "png", "html", "json", "tts")


@dataclass(frozen=True)
class Artifact:
    """One file a build wrote, as listed in build.json (`path` relative to the output folder)."""

    path: str
    kind: str
    cards: int = 0
    pages: int = 0
    sha256: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"path": self.path, "kind": self.kind, "cards": self.cards, "pages": self.pages, "sha256": self.sha256}


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
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return digest


def json_bytes(value: Any) -> bytes:
    """Stable JSON: sorted keys, two-space indent, trailing newline."""
    return (json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def write_artifact(out: Path, rel: str, data: bytes, kind: str, cards: int = 0, pages: int = 0) -> Artifact:
    assert kind in KINDS, kind
    return Artifact(rel, kind, cards, pages, write_atomic(out / rel, data))
