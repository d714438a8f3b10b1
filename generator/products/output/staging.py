"""A build's staging folder inside OUT, and OUT's lock: where a build's products write, until
the commit moves it all into OUT (commit.py) or a failure throws it away."""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tempfile
import threading
from pathlib import Path

from generator.files import crosses_link
from generator.products.output import commit as commit_protocol
from generator.products.output.commit import STAGING_PREFIX, make_dirs, remove_dirs, set_times, times_of
from generator.products.output.folder_lock import FolderLock
from generator.products.output.listing import Previous, read_previous
from generator.products.output.outputs import KINDS, Artifact, write_new
from generator.workers import interrupts_held

__all__ = ["InterruptedAfterCommit", "STAGING_PREFIX", "Staging"]


class InterruptedAfterCommit(KeyboardInterrupt):
    """Ctrl-C or SIGTERM came while the new files were moved into place: the move was completed
    (OUT holds the new build) and then the build stopped."""


class Staging:
    """A build's private folder inside OUT (`OUT/.county-uppy-staging-<random>/`), and OUT's lock:
    the WriteTarget (outputs.py) of a build's products.

    Made, it holds OUT's lock (FolderLock: a second build exits with FolderBusy naming the
    holder's PID), has finished a commit a killed build left half-done (commit.roll_forward; the
    line to tell is in `recovered`), removed the staging folders killed builds left behind, and
    read the previous build's build.json (`previous`, listing.py), once: the lock keeps it as it
    is. Products write into `files`, laid out as OUT is, through `write()`. Nothing in OUT changes
    until `commit()` (commit.py). `discard()` throws the staging folder away (and OUT itself when
    this build created it); `close()` removes it after a commit. Both let the lock go.
    """

    def __init__(self, dest: Path, folders: tuple[str, ...] = ()):
        """`folders`: the products' own folders (for an old build.json's entries that name no product)."""
        self.dest = dest
        self._times = times_of(dest)
        self._made = make_dirs(dest)
        self.lock: FolderLock | None = None
        self.root: Path | None = None
        self.recovered: str | None = None  #: the line that says a killed build's commit was finished
        self.previous = Previous()
        self._sweeper: threading.Thread | None = None  #: deleting the files the commit put aside
        try:
            self.lock = FolderLock(dest)
            self.recovered = commit_protocol.roll_forward(dest)
            if commit_protocol.remove_stale(dest) or self.recovered:
                self._times = None  # OUT did change: its times are not to be put back
            self.previous = read_previous(dest, folders)
            self.root = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=dest))
            self.files = self.root / "out"
            self.files.mkdir()
        except OSError as err:
            self._let_go()
            raise OSError(err.errno, err.strerror or str(err), str(dest)) from err
        except BaseException:
            self._let_go()
            raise

    def _let_go(self) -> None:
        """Remove the staging folder, release the lock and remove the folders this build created
        (only those still empty)."""
        if self._sweeper is not None:
            self._sweeper.join()
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
        if self.lock is not None:
            self.lock.release()
            self.lock = None
        remove_dirs(self._made)
        if self._times is not None:  # the staging folder came and went: OUT's own times too are as they were
            set_times(self.dest, self._times)

    def write(self, rel: str, data: bytes, kind: str, cards: int = 0, pages: int = 0) -> Artifact:
        """Stage `data` as OUT/rel; return the file as build.json lists it."""
        assert kind in KINDS, kind
        return Artifact(rel, kind, cards, pages, self._stage(rel, data))

    def _stage(self, rel: str, data: bytes) -> str:
        """Stage `data` as OUT/rel; return its sha256.

        When OUT/rel already holds exactly these bytes, nothing is staged: commit() leaves the
        file alone. Its sha256 is then the one the previous build listed for it, when the file
        has not changed since that list was written (Previous.digests); else it is computed.
        """
        old, new = self.dest / rel, self.files / rel
        if crosses_link(self.dest, old):  # reached through a link: not OUT's file, so always staged
            return write_new(new, data)
        try:
            st = os.lstat(old)
            if stat.S_ISREG(st.st_mode) and st.st_size == len(data) and not os.path.lexists(new) \
                    and old.read_bytes() == data:
                listed = self.previous.digests.get(rel)
                if listed is not None and max(st.st_ctime_ns, st.st_mtime_ns) < self.previous.listed_at:
                    return listed
                return hashlib.sha256(data).hexdigest()
        except OSError:
            pass  # no such file: write it
        return write_new(new, data)

    def public(self, path: str | os.PathLike | None) -> str | None:
        """The OUT path a path inside the staging folder stands for (other paths as they are)."""
        if path is None:
            return None
        p = Path(os.fsdecode(path))
        if p.is_relative_to(self.files):
            return str(self.dest / p.relative_to(self.files))
        return str(self.dest) if p.is_relative_to(self.root) else str(p)

    def public_error(self, err: OSError) -> OSError:
        """`err` with the staging paths in it replaced by the OUT paths they stand for."""
        if not any(f is not None and Path(os.fsdecode(f)).is_relative_to(self.root) for f in (err.filename, err.filename2)):
            return err
        mapped = OSError(err.errno, err.strerror or str(err), self.public(err.filename), None, self.public(err.filename2))
        mapped.__cause__ = err
        return mapped

    def commit(self, last: tuple[str, ...] = (), remove: tuple[str, ...] = (), sync: tuple[Path, ...] = ()) -> list[str]:
        """Move the new and changed files into OUT and remove the files in `remove`, all or
        nothing (commit.commit); return the relative paths moved. `sync`: other files flushed to
        disk with the staged ones, before the commit point.

        The files OUT no longer holds (kept aside in the staging folder until the commit was
        complete) are deleted from here on by a thread, while the build finishes; close() waits
        for it. Deleting a file whose blocks the disk must release takes milliseconds each on
        some file systems (mounted with `discard`)."""
        moved = commit_protocol.commit(self.dest, self.root, last, remove, sync)
        self._sweeper = threading.Thread(target=shutil.rmtree, args=(self.root / commit_protocol.ASIDE,),
                                         kwargs={"ignore_errors": True}, daemon=True)
        self._sweeper.start()
        return moved

    def keep_for_roll_forward(self) -> None:
        """After PartlyWritten: leave the staging folder (the journal names it) and let the lock go."""
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def discard(self) -> None:
        """Remove the staging folder, and OUT and its parents if this build created them; let the lock go."""
        with interrupts_held(reraise=False):
            self._let_go()

    def close(self) -> None:
        """Remove the staging folder after a commit and let the lock go."""
        with interrupts_held(reraise=False):
            if self._sweeper is not None:
                self._sweeper.join()
            shutil.rmtree(self.root, ignore_errors=True)
            if self.lock is not None:
                self.lock.release()
                self.lock = None
