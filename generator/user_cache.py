"""The user's cache folder: what is worth keeping between runs in any folder, each kind of thing
in its own area ($XDG_CACHE_HOME/county-uppy/AREA, else ~/.cache/county-uppy/AREA).

Every entry is a file named by the key of what made it, written aside and moved in whole, and an
area keeps only its newest entries. A cache folder that cannot be read or written costs time,
nothing else: reading finds nothing, keeping does nothing.
"""

from __future__ import annotations

import os
from pathlib import Path


def folder(area: str) -> Path:
    """The folder of `area` (not made until something is kept there)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "county-uppy" / area


def read(area: str, name: str) -> bytes | None:
    """The entry `name` of `area`, or None."""
    try:
        return (folder(area) / name).read_bytes()
    except OSError:
        return None


def keep(area: str, name: str, data: bytes, newest: int) -> None:
    """Keep `data` as entry `name` of `area`, and only the `newest` entries of the area."""
    import tempfile  # lazy: only a run that keeps something (importing it costs a remembered validate a tenth)

    where = folder(area)
    try:
        where.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=where, suffix=".part")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, where / name)
        kept = sorted((p for p in where.iterdir() if not p.name.endswith(".part")),
                      key=lambda p: p.stat().st_mtime, reverse=True)
        for old in kept[newest:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
