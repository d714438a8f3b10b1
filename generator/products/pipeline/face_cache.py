"""A cache of rendered images and PDF parts inside the output folder, keyed by the content that
makes each (keys.py: what a face draws, the files it reads, the renderer's code).

Editing one card re-renders one face. Entries a build did not use are removed at its end, so
the cache does not grow without bound; nothing in OUT/.cache changes until the build has
succeeded (`commit()`): a failed build leaves the cache as it was.
"""

from __future__ import annotations

from pathlib import Path

from generator.products.output.outputs import CACHE_DIR, write_atomic

__all__ = ["CACHE_DIR", "RenderCache"]


class RenderCache:
    """Bytes by (area, key), kept in one pack file per area: OUT/.cache/AREA.pack.

    One file per area, not per entry: a build makes some 500 entries, and creating that many
    small files cost more than drawing the faces. An area's pack is read once, at its first
    get(); new entries wait in memory. Nothing in OUT/.cache changes until `commit()`, called
    once the build's files are in place: a failed build leaves the cache as it was. An area
    pruned (prune()) keeps only the entries this build asked for, so the cache does not grow
    without bound. A pack that cannot be read counts as empty and one that cannot be written is
    skipped: a cache only ever costs time.

    `out` None: a cache that keeps nothing (images drawn outside a build).
    """

    def __init__(self, out: Path | None):
        self.root = out / CACHE_DIR if out is not None else None
        self.used: dict[str, set[str]] = {}
        self.pruned: set[str] = set()  #: areas to keep only the used entries of, at commit()
        self._packs: dict[str, dict[str, bytes]] = {}  #: area -> the entries its pack held
        self._new: dict[str, dict[str, bytes]] = {}  #: area -> entries put by this build
        self._torn: set[str] = set()  #: areas whose pack could not be read whole: rewritten at commit()

    def get(self, area: str, k: str) -> bytes | None:
        self.used.setdefault(area, set()).add(k)
        new = self._new.get(area, {}).get(k)
        return new if new is not None else self._pack(area).get(k)

    def put(self, area: str, k: str, data: bytes) -> None:
        self.used.setdefault(area, set()).add(k)
        if self.root is not None:
            self._new.setdefault(area, {})[k] = data

    def prune(self, area: str) -> None:
        """At commit(), keep only the area's entries this build asked for."""
        self.pruned.add(area)

    def commit(self) -> None:
        """Write what this build changed: new entries added, entries not asked for pruned.

        New entries are appended to the area's pack; a crash half-way leaves a pack with a torn
        last entry, which the next read drops (and the next commit then rewrites the pack whole).
        Pruned entries stay in the file until they weigh as much as the live ones; then the pack
        is rewritten with the live entries only (atomically), so it holds at most twice the cache.
        """
        if self.root is None:
            return
        for area in sorted(set(self._new) | self.pruned):
            old = self._pack(area)
            added = {k: v for k, v in self._new.get(area, {}).items() if k not in old}
            keep = self.used.get(area, set()) if area in self.pruned else old.keys() | added.keys()
            dead = sum(len(v) for k, v in old.items() if k not in keep)
            live = sum(len(v) for k, v in old.items() if k in keep) + sum(len(v) for v in added.values())
            path = self.root / f"{area}{PACK}"
            try:
                if old and area not in self._torn and dead <= live:
                    if added:
                        with open(path, "ab") as fh:
                            fh.write(_packed(added, magic=False))
                        self._packs[area] = {**old, **added}
                elif added or dead:
                    entries = {k: v for k, v in {**old, **added}.items() if k in keep}
                    write_atomic(path, _packed(entries))
                    self._packs[area] = entries
                    self._torn.discard(area)
            except OSError:
                continue
            _forget_entry_folder(self.root / area)
        for area in RETIRED:
            try:
                (self.root / f"{area}{PACK}").unlink(missing_ok=True)
            except OSError:
                pass  # a cache it cannot tidy costs disk space only
        self._new.clear()
        self.pruned.clear()

    def _pack(self, area: str) -> dict[str, bytes]:
        if area not in self._packs:
            entries: dict[str, bytes] = {}
            if self.root is not None:
                try:
                    entries, whole = _unpacked((self.root / f"{area}{PACK}").read_bytes())
                    if not whole:
                        self._torn.add(area)
                except (OSError, ValueError):
                    self._torn.add(area)
            self._packs[area] = entries
        return self._packs[area]


PACK = ".pack"
#: Areas earlier versions kept and no build asks for any more: their packs are removed.
RETIRED = ("tts-sheet",)  # whole TTS sheets, now joined from cached bands ("tts-band")
_MAGIC = b"county-uppy-cache/1\n"


def _packed(entries: dict[str, bytes], magic: bool = True) -> bytes:
    """KEY LENGTH\\n followed by the bytes, entry after entry, in key order (after a magic line
    that starts a pack; appended entries come without it)."""
    parts = [_MAGIC] if magic else []
    for k in sorted(entries):
        parts += [f"{k} {len(entries[k])}\n".encode("ascii"), entries[k]]
    return b"".join(parts)


def _unpacked(data: bytes) -> tuple[dict[str, bytes], bool]:
    """A pack's entries, and whether it was whole (False: a torn last entry was dropped)."""
    if not data.startswith(_MAGIC):
        raise ValueError("not a cache pack")
    out: dict[str, bytes] = {}
    at = len(_MAGIC)
    while at < len(data):
        end = data.find(b"\n", at)
        try:
            k, size = data[at:end].decode("ascii").split(" ") if end >= 0 else ("", "")
            start, at = end + 1, end + 1 + int(size)
        except ValueError:
            return out, False
        if at > len(data):
            return out, False
        out[k] = data[start:at]
    return out, True


def _forget_entry_folder(folder: Path) -> None:
    """Remove an area's folder of one file per entry, as builds before the packs kept them."""
    if folder.is_dir() and not folder.is_symlink():
        for f in folder.iterdir():
            if f.is_file():
                f.unlink(missing_ok=True)
        try:
            folder.rmdir()
        except OSError:
            pass
