"""A cache of rendered images and PDF parts inside the output folder, keyed by the content that
makes each (keys.py: what a face draws, the files it reads, the renderer's code).

Editing one card re-renders one face. Entries a build did not use are removed at its end, so
the cache does not grow without bound; nothing in OUT/.cache changes until the build has
succeeded (`commit()`): a failed build leaves the cache as it was.
"""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile
from pathlib import Path

from generator.files import crosses_link, real_folder
from generator.products.output.commit import sync_files
from generator.products.output.outputs import CACHE_DIR

__all__ = ["CACHE_DIR", "RenderCache"]


class RenderCache:
    """Bytes by (area, key), kept in one pack file per area: OUT/.cache/AREA.pack.

    One file per area, not per entry: a build makes some 500 entries, and creating that many
    small files cost more than drawing the faces. An area's pack is indexed at its first get()
    (its entries' headers only) and each entry read when asked for, so memory follows the
    entries a build reads, not the pack's size; new entries wait in memory. Nothing in
    OUT/.cache changes until `commit()`, called once the build's files are made: a failed build
    leaves the cache as it was. An area pruned (prune()) keeps only the entries this build asked
    for, so the cache does not grow without bound.

    The cache checks itself (docs/formats.md, "The face cache"): every entry carries a checksum
    of its key and its bytes, so a damaged, truncated, swapped or foreign entry is dropped and
    drawn again, never used, with one line of warning per pack (`warnings`). A pack that is not
    a regular file of a plausible size (a link, a FIFO, a device, one over MAX_PACK_BYTES) is
    set aside unread and rebuilt. A pack that cannot be read counts as empty and one that cannot
    be written is skipped: a cache only ever costs time.

    `out` None: a cache that keeps nothing (images drawn outside a build).
    """

    def __init__(self, out: Path | None):
        self.out = out
        self.root = out / CACHE_DIR if out is not None else None
        self.used: dict[str, set[str]] = {}
        self.pruned: set[str] = set()  #: areas to keep only the used entries of, at commit()
        self.warnings: list[str] = []  #: one line per pack found damaged, for the build to tell
        self._packs: dict[str, _Pack] = {}  #: area -> its pack as read: the open file and its index
        self._new: dict[str, dict[str, bytes]] = {}  #: area -> entries put by this build
        self._flushed = False

    def get(self, area: str, k: str) -> bytes | None:
        self.used.setdefault(area, set()).add(k)
        new = self._new.get(area, {}).get(k)
        if new is not None:
            return new
        return self._pack(area).read(k)

    def has(self, area: str, k: str) -> bool:
        """Whether the area holds an entry (its bytes are checked only when read), kept at
        commit as one read is: for an entry a build wants kept but need not read."""
        self.used.setdefault(area, set()).add(k)
        return k in self._new.get(area, {}) or k in self._pack(area).index

    def put(self, area: str, k: str, data: bytes) -> None:
        self.used.setdefault(area, set()).add(k)
        if self.root is not None:
            self._new.setdefault(area, {})[k] = data

    def prune(self, area: str) -> None:
        """At commit(), keep only the area's entries this build asked for."""
        self.pruned.add(area)

    def flush(self, sync: bool = True) -> list[Path]:
        """Put this build's changes on the disk without yet replacing a pack: new entries are
        appended to their area's pack and flushed (fsync); a pack to be written anew is written
        to a temporary file, flushed. Called before build.json is moved into place, so that it
        never names files whose cached bytes could still be lost to a power cut; `commit()`
        then finishes, and `abandon()` takes it all back when the build fails after all.

        `sync` False: the packs appended to are not flushed here but returned, for the caller to
        flush together with its own files before build.json moves (the build's commit does:
        one wait on the disk instead of two); otherwise none are returned.

        Dead weight (pruned entries, damaged ones, torn bytes) stays in a pack only while it
        weighs no more than the live entries; then the pack is written anew with the live
        entries only, so it holds at most twice the cache. A crash half-way through an append
        leaves a torn last entry, which the next read drops. OUT/.cache is written only as a
        real folder: a link planted there is replaced, never followed.
        """
        if self.root is None or self.out is None or self._flushed:
            return []
        self._flushed = True
        areas = sorted(set(self._new) | self.pruned)
        if not areas:
            return []
        try:
            real_folder(self.out, CACHE_DIR)
        except OSError:
            return []
        appended: list[Path] = []  # flushed to disk together, at the end
        for area in areas:
            pack = self._pack(area)
            added = {k: v for k, v in self._new.get(area, {}).items() if k not in pack.index}
            keep = self.used.get(area, set()) if area in self.pruned else pack.index.keys() | added.keys()
            kept_old = [k for k in pack.index if k in keep]
            live = sum(pack.index[k].weight for k in kept_old) + sum(_weight(k, v) for k, v in added.items())
            dead = pack.size - len(_MAGIC) - sum(pack.index[k].weight for k in kept_old) if pack.size else 0
            try:
                if pack.size and not pack.rebuild and dead <= live:
                    if added:
                        pack.append(_packed(added, magic=False))
                        appended.append(pack.path)
                elif added or dead or pack.rebuild:
                    pack.write_anew(sorted(kept_old), added)
            except OSError:
                continue
        if not sync:
            return appended
        sync_files(appended)
        return []

    def commit(self) -> None:
        """Finish what `flush()` began (flushing first if it was not called): the packs written
        anew take their places, retired packs and per-entry folders go, and the cache is let go."""
        if self.root is None or self.out is None:
            return
        self.flush()
        if (self.out / CACHE_DIR).is_symlink() or not (self.out / CACHE_DIR).is_dir():
            self.close()
            return
        for area, pack in self._packs.items():
            try:
                pack.replace()
            except OSError:
                pack.discard()
            _forget_entry_folder(self.root / area)
        for area in RETIRED:
            try:
                (self.root / f"{area}{PACK}").unlink(missing_ok=True)
            except OSError:
                pass  # a cache it cannot tidy costs disk space only
        self._new.clear()
        self.pruned.clear()
        self.close()

    def abandon(self) -> None:
        """The build failed after `flush()`: cut the appended entries off again (the packs' bytes
        and times as they were) and drop the packs written anew, so the cache is as it was."""
        for pack in self._packs.values():
            pack.undo()
        self._new.clear()
        self.pruned.clear()
        self.close()

    def close(self) -> None:
        """Let go of the packs' open files (the next get() reads them afresh); what was wrong
        with them goes to `warnings`, one line per pack."""
        for pack in self._packs.values():
            pack.close()
            if pack.problems:
                self.warnings.append(f"warning: {pack.path}: {'; '.join(pack.problems)}")
        self._packs.clear()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 -- at interpreter exit, anything may be gone already
            pass

    def _pack(self, area: str) -> "_Pack":
        if area not in self._packs:
            path = self.root / f"{area}{PACK}" if self.root is not None else None
            pack = _Pack(path)
            if path is not None and self.out is not None:
                pack.open(self.out)
            self._packs[area] = pack
        return self._packs[area]


PACK = ".pack"
#: Areas earlier versions kept and no build asks for any more: their packs are removed.
RETIRED = ("tts-sheet",)  # whole TTS sheets, now joined from cached bands ("tts-band")
_MAGIC = b"county-uppy-cache/2\n"
#: The first line of the packs of earlier versions (no checksums): replaced without a warning.
_OLD_MAGICS = (b"county-uppy-cache/1\n",)
#: The largest pack read: a build's largest area (its TTS bands) holds some tens of MB. A
#: larger file is set aside and rebuilt, never read.
MAX_PACK_BYTES = 1 << 30
#: The most entries a pack is indexed for: a build keeps some thousands in its largest area (and
#: flush() writes a pack anew once dead entries outweigh the live), so a pack of more, such as
#: millions of tiny entries under MAX_PACK_BYTES, is set aside and rebuilt, its index never larger
#: than this (some 15 MB).
MAX_PACK_ENTRIES = 50_000
#: The longest entry header: KEY LENGTH CHECKSUM and a newline.
_MAX_HEADER = 256
#: Hex digits of an entry's checksum (the first 128 bits of a SHA-256).
_SUM_DIGITS = 32
_KEY_CHARS = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ._-")


def checksum(k: str, data: bytes) -> str:
    """An entry's checksum: of its key and its bytes, so bytes under another key do not pass."""
    h = hashlib.sha256(k.encode("ascii"))
    h.update(b"\0")
    h.update(data)
    return h.hexdigest()[:_SUM_DIGITS]


def _header(k: str, data: bytes) -> bytes:
    return f"{k} {len(data)} {checksum(k, data)}\n".encode("ascii")


def _weight(k: str, data: bytes) -> int:
    return len(_header(k, data)) + len(data)


def _packed(entries: dict[str, bytes], magic: bool = True) -> bytes:
    """KEY LENGTH CHECKSUM\\n followed by the bytes, entry after entry, in key order (after a
    magic line that starts a pack; appended entries come without it)."""
    parts = [_MAGIC] if magic else []
    for k in sorted(entries):
        parts += [_header(k, entries[k]), entries[k]]
    return b"".join(parts)


class _Entry:
    __slots__ = ("start", "length", "digest", "weight")

    def __init__(self, start: int, length: int, digest: str, weight: int):
        self.start, self.length, self.digest, self.weight = start, length, digest, weight


class _Pack:
    """One area's pack as this build found it: its open file, where each entry's bytes stand, its
    size, and what is wrong with it (`problems`, for the warning; `rebuild`: write it anew)."""

    def __init__(self, path: Path | None):
        self.path = path
        self.fd: int | None = None
        self.index: dict[str, _Entry] = {}
        self.size = 0  #: bytes in the file indexed (0: no usable pack)
        self.problems: list[str] = []  #: what was wrong with it, for the one line of warning
        self.rebuild = False  #: written anew at commit (not appended to)
        self.ident: tuple[int, int] | None = None  #: (device, inode) of the file indexed
        self.damaged = 0  #: entries whose checksum failed
        self.appended: tuple[int, int, int] | None = None  #: (size, atime, mtime) before this build appended
        self.pending: Path | None = None  #: the pack written anew, not yet in its place

    def _wrong(self, problem: str) -> None:
        self.rebuild = True
        if problem:
            self.problems.append(problem)

    def open(self, out: Path) -> None:
        path = self.path
        assert path is not None
        if crosses_link(out, path.parent):
            return  # OUT/.cache is a link: nothing is read through it (commit replaces it)
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(path, flags)
        except FileNotFoundError:
            return
        except OSError as exc:
            self._wrong("is a symlink; set aside unread, the cache is rebuilt" if path.is_symlink() else
                        f"cannot be read ({exc.strerror or exc}); the cache is rebuilt")
            return
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                self._wrong("is not a regular file; set aside unread, the cache is rebuilt")
            elif info.st_size > MAX_PACK_BYTES:
                self._wrong(f"is {info.st_size:,} bytes, more than a pack ever holds ({MAX_PACK_BYTES:,}); "
                            "set aside unread, the cache is rebuilt")
            if self.rebuild:
                os.close(fd)
                return
            self.fd, self.ident = fd, (info.st_dev, info.st_ino)
            self._index(info.st_size)
        except OSError as exc:
            self._wrong(f"cannot be read ({exc.strerror or exc}); the cache is rebuilt")
            self.index.clear()
            self.close()

    def _index(self, size: int) -> None:
        """Read the entries' headers, skipping their bytes; stop at the first one that is not sound."""
        assert self.fd is not None
        head = os.pread(self.fd, len(_MAGIC), 0)
        if head != _MAGIC:  # an earlier version's pack is replaced without a word
            self._wrong("" if head in _OLD_MAGICS else "is not a face-cache pack; set aside, the cache is rebuilt")
            self.close()
            return
        at = len(_MAGIC)
        while at < size:
            line = os.pread(self.fd, _MAX_HEADER, at)
            end = line.find(b"\n")
            entry = _parse_header(line[:end]) if end > 0 else None
            if entry is None:
                self._wrong(f"is damaged after byte {at:,}; the entries from there on are drawn again")
                break
            k, length, digest = entry
            if len(self.index) >= MAX_PACK_ENTRIES:
                self._wrong(f"holds more than {MAX_PACK_ENTRIES:,} entries, more than a build ever keeps; set aside, "
                            "the cache is rebuilt")
                self.index.clear()
                self.close()
                return
            start = at + end + 1
            if start + length > size:
                self._wrong("ends in a torn entry; it is drawn again")
                break
            if k in self.index:
                self._wrong("lists an entry twice; it is drawn again")
                del self.index[k]
            else:
                self.index[k] = _Entry(start, length, digest, end + 1 + length)
            at = start + length
        self.size = size

    def read(self, k: str) -> bytes | None:
        entry = self.index.get(k)
        if entry is None or self.fd is None:
            return None
        try:
            data = os.pread(self.fd, entry.length, entry.start)
        except OSError:
            data = b""
        if len(data) == entry.length and checksum(k, data) == entry.digest:
            return data
        del self.index[k]  # damaged, swapped or foreign: never used, drawn again
        if not self.damaged:
            self._wrong("entries whose checksum does not match were dropped and drawn again")
        self.damaged += 1
        return None

    def append(self, data: bytes) -> None:
        """Add entries at the end of the pack indexed (RenderCache.flush then flushes them to the
        disk, with the other packs' at once)."""
        assert self.path is not None
        flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(self.path, flags)
        try:
            info = os.fstat(fd)
            if (info.st_dev, info.st_ino) != self.ident or info.st_size != self.size or not stat.S_ISREG(info.st_mode):
                raise OSError(f"{self.path} changed while the build ran")
            self.appended = (info.st_size, info.st_atime_ns, info.st_mtime_ns)
            os.write(fd, data)
        finally:
            os.close(fd)

    def undo(self) -> None:
        """Take back what this build did to the pack (see RenderCache.abandon)."""
        self.discard()
        if self.appended is None or self.path is None:
            return
        size, atime, mtime = self.appended
        self.appended = None
        try:
            fd = os.open(self.path, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return
        try:
            info = os.fstat(fd)
            if (info.st_dev, info.st_ino) == self.ident:
                os.ftruncate(fd, size)
                os.utime(fd, ns=(atime, mtime))
        except OSError:
            pass
        finally:
            os.close(fd)

    def write_anew(self, old: list[str], added: dict[str, bytes]) -> None:
        """Write the pack anew, beside it: the kept old entries (read and checked one at a time)
        and the added ones, in an exclusive temporary file flushed to the disk; replace() puts it
        in the pack's place."""
        assert self.path is not None
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
        self.pending = Path(tmp)
        with os.fdopen(fd, "wb") as fh:
            fh.write(_MAGIC)
            entries = sorted([*((k, None) for k in old), *added.items()], key=lambda e: e[0])
            for k, data in entries:
                data = self.read(k) if data is None else data
                if data is not None:
                    fh.write(_header(k, data))
                    fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)

    def replace(self) -> None:
        if self.pending is not None and self.path is not None:
            os.replace(self.pending, self.path)
            self.pending = None

    def discard(self) -> None:
        if self.pending is not None:
            try:
                os.unlink(self.pending)
            except OSError:
                pass
            self.pending = None

    def close(self) -> None:
        if self.fd is not None:
            try:
                os.close(self.fd)
            except OSError:
                pass
            self.fd = None


def _parse_header(line: bytes) -> tuple[str, int, str] | None:
    """KEY LENGTH CHECKSUM, or None for a line that is not one."""
    try:
        k, length, digest = line.decode("ascii").split(" ")
    except (UnicodeDecodeError, ValueError):
        return None
    if (not k or len(k) > 128 or not set(k) <= _KEY_CHARS or not length.isdigit() or len(length) > 12
            or len(digest) != _SUM_DIGITS or not set(digest) <= set("0123456789abcdef")):
        return None
    return k, int(length), digest


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
