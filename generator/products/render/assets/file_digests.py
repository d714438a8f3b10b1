"""The SHA-256 of the files a manifest names (pictures, fonts), kept per path: a file is read and
hashed again only when its size or modification time changes, so a long process (`watch`, the
preview) sees every save while laying out a face does not re-read an unchanged file. What is kept
by content (a picture's size, a font's measures) is then looked up by that digest."""

from __future__ import annotations

import hashlib
import os
from typing import Callable


class Digests:
    """Path -> ((mtime, size), digest) for one kind of file."""

    def __init__(self) -> None:
        self._seen: dict[str, tuple[tuple[int, int], str]] = {}

    def of(self, path: str, read: Callable[[], bytes], keep: Callable[[str, bytes], None]) -> str:
        """The digest of the file at `path`. When the file is new or changed, `read()` gives its
        bytes and `keep(digest, data)` files what is known of them by content; if either raises,
        nothing is recorded and the next call tries again. OSError when the file cannot be
        stat'ed."""
        st = os.stat(path)
        stamp = (st.st_mtime_ns, st.st_size)
        seen = self._seen.get(path)
        if seen is not None and seen[0] == stamp:
            return seen[1]
        data = read()
        digest = hashlib.sha256(data).hexdigest()
        keep(digest, data)
        self._seen[path] = (stamp, digest)
        return digest
