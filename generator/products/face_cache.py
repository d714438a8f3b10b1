"""A cache of rendered images inside the output folder, keyed by what each image depends on.

The key is a hash of the renderer's version, the output variant and the face's display list,
so editing one card re-renders one face. Files are written atomically; entries a build did
not use are removed at its end, so the cache does not grow without bound.

During `county-uppy build` new entries go to the build's staging folder and nothing in
OUT/.cache is added or removed until the build has succeeded (`commit()`): a failed build
leaves the cache as it was.
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path

from generator.products.outputs import write_atomic, write_new

CACHE_DIR = ".cache"


#: Files whose contents decide how a face looks; any change to them invalidates the cache.
_CODE = ("faces.py", "png.py", "profiles.py", "pdf.py", "typeface.py", "quickref.py", "units.py", "sheets.py",
         "test_page.py", "cmyk.py", "font_metrics.py", "fonts/DejaVuSans.ttf",
         "fonts/DejaVuSans-Bold.ttf", "fonts/metrics.json")


@lru_cache(maxsize=None)
def code_version() -> str:
    """A hash of the rendering code and fonts, part of every cache key."""
    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for name in _CODE:
        h.update((root / name).read_bytes())
    return h.hexdigest()[:16]


def key(*parts: object) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(repr(part).encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()[:40]


class RenderCache:
    """Bytes by (area, key), in OUT/.cache/AREA/KEY.

    With `stage`, new entries are written to STAGE/AREA/KEY and pruning waits for `commit()`,
    which moves them into OUT/.cache and then prunes; without it both happen at once.
    """

    def __init__(self, out: Path | None, stage: Path | None = None):
        """`out` None: a cache that keeps nothing (images drawn outside a build)."""
        self.root = out / CACHE_DIR if out is not None else None
        self.stage = stage
        self.used: dict[str, set[str]] = {}
        self.pruned: set[str] = set()  #: areas to prune at commit()

    def get(self, area: str, k: str) -> bytes | None:
        self.used.setdefault(area, set()).add(k)
        for base in (self.root, self.stage):
            if base is None:
                continue
            try:
                return (base / area / k).read_bytes()
            except OSError:
                pass
        return None

    def put(self, area: str, k: str, data: bytes) -> None:
        self.used.setdefault(area, set()).add(k)
        if self.root is None:
            return
        try:
            if self.stage is not None:
                write_new(self.stage / area / k, data)  # the build's private staging folder
            else:
                write_atomic(self.root / area / k, data)
        except OSError:
            pass  # a cache that cannot be written only costs time

    def prune(self, area: str) -> None:
        """Delete the area's entries this build did not ask for (with a stage: at commit())."""
        if self.stage is not None:
            self.pruned.add(area)
        else:
            self._prune(area)

    def _prune(self, area: str) -> None:
        if self.root is None:
            return
        keep = self.used.get(area, set())
        folder = self.root / area
        if folder.is_dir():
            for f in folder.iterdir():
                if f.is_file() and not f.name.startswith(".") and f.name not in keep:
                    f.unlink(missing_ok=True)

    def commit(self) -> None:
        """Move the staged entries into OUT/.cache, then prune the areas asked for.

        Only once the build's files are in place. A cache that cannot be written only costs time,
        so a failure here is ignored.
        """
        if self.root is not None and self.stage is not None and self.stage.is_dir():
            for folder in sorted(self.stage.iterdir()):
                if not folder.is_dir():
                    continue
                for f in sorted(folder.iterdir()):
                    if f.name.startswith("."):
                        continue
                    try:
                        (self.root / folder.name).mkdir(parents=True, exist_ok=True)
                        os.replace(f, self.root / folder.name / f.name)
                    except OSError:
                        pass
        for area in sorted(self.pruned):
            try:
                self._prune(area)
            except OSError:
                pass
        self.pruned.clear()
