"""Writing build products: atomic writes, the staging folder a build commits from (under the
output folder's lock, through the commit journal), and the build.json artifact list."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.deck.problems import one_line
from generator.products.output import journal
from generator.products.output.folder_lock import FolderLock
from generator.products.output.journal import STAGING_PREFIX
from generator.workers import interrupts_held

__all__ = ["Artifact", "CACHE_DIR", "KINDS", "PartlyWritten", "STAGING_PREFIX", "Staging", "json_bytes", "write_artifact",
           "write_atomic"]

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
    product: str = ""  #: the product that made it (build.py's PRODUCTS), so that `--only` keeps the others' files

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


def write_artifact(out: Path, rel: str, data: bytes, kind: str, cards: int = 0, pages: int = 0) -> Artifact:
    """Write one product file under `out`; into a build's staging folder when `out` is one."""
    assert kind in KINDS, kind
    staging = Staging.active.get(out)
    digest = staging.write(rel, data) if staging is not None else write_atomic(out / rel, data)
    return Artifact(rel, kind, cards, pages, digest)


# --- staging: all of a build or none of it ------------------------------------------------------

class PartlyWritten(Exception):
    """Moving a build into OUT failed half-way and the files already moved could not all be put back.

    The commit journal stays in OUT, so the next build into OUT finishes the move first."""


class InterruptedAfterCommit(KeyboardInterrupt):
    """Ctrl-C or SIGTERM came while the new files were moved into place: the move was completed
    (OUT holds the new build) and then the build stopped."""


def make_dirs(folder: Path) -> list[Path]:
    """Create `folder` and its missing parents; return the folders created, outermost first."""
    missing: list[Path] = []
    p = folder
    while not os.path.lexists(p):
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    made: list[Path] = []
    try:
        for d in reversed(missing):
            try:
                os.mkdir(d)
            except FileExistsError:
                if not d.is_dir():
                    raise
                continue
            made.append(d)
    except BaseException:
        remove_dirs(made)
        raise
    return made


def remove_dirs(made: list[Path]) -> None:
    """Remove folders `make_dirs` created, innermost first, where they are still empty."""
    for d in reversed(made):
        try:
            os.rmdir(d)
        except OSError:
            pass


def _times(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_atime_ns, st.st_mtime_ns


def _set_times(path: Path, times: tuple[int, int]) -> None:
    try:
        os.utime(path, ns=times)
    except OSError:
        pass


def _same_file(new: Path, old: Path) -> bool:
    try:
        st_new = new.lstat()
        if not old.is_file() or old.stat().st_size != st_new.st_size:
            return False
        return old.read_bytes() == new.read_bytes()
    except OSError:
        return False


class Staging:
    """A build's private folder inside OUT (`OUT/.county-uppy-staging-<random>/`), and OUT's lock.

    Creating one takes OUT's lock (FolderLock: a second build exits with FolderBusy naming the
    holder's PID), finishes a commit a killed build left half-done (journal.roll_forward; the
    line to tell is in `recovered`) and removes staging folders killed builds left behind.
    Products write into `files`, laid out as OUT is. Nothing in OUT changes until `commit()`, which moves every new or changed file into
    OUT through the commit journal (journal.py), `last` ones at the end, and removes the files
    the build no longer makes. Should a rename fail, the files already moved are put back, so
    OUT is as it was. `discard()` throws the staging folder away (and OUT itself when this build
    created it); `close()` removes it after a commit. Both let the lock go.
    """

    #: staging folders of the builds running in this process, by their `files` folder
    active: dict[Path, Staging] = {}

    def __init__(self, dest: Path):
        self.dest = dest
        self._times = _times(dest)
        self._made = make_dirs(dest)
        self.lock: FolderLock | None = None
        self.root: Path | None = None
        self.recovered: str | None = None  #: the line that says a killed build's commit was finished
        self._listed: dict[str, str] = {}  # see trust()
        self._listed_at = 0
        try:
            self.lock = FolderLock(dest)
            self.recovered = journal.roll_forward(dest)
            if journal.remove_stale(dest) or self.recovered:
                self._times = None  # OUT did change: its times are not to be put back
            self.root = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=dest))
            self.files = self.root / "out"
            self._old = self.root / "old"
            self.files.mkdir()
            Staging.active[self.files] = self
        except OSError as err:
            self._let_go()
            raise OSError(err.errno, err.strerror or str(err), str(dest)) from err
        except BaseException:
            self._let_go()
            raise

    def _let_go(self) -> None:
        """Remove the staging folder, release the lock and remove the folders this build created
        (only those still empty)."""
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
        if self.lock is not None:
            self.lock.release()
            self.lock = None
        remove_dirs(self._made)
        if self._times is not None:  # the staging folder came and went: OUT's own times too are as they were
            _set_times(self.dest, self._times)

    def write(self, rel: str, data: bytes) -> str:
        """Stage `data` as OUT/rel; return its sha256.

        When OUT/rel already holds exactly these bytes, nothing is staged: commit() leaves the
        file alone. Its sha256 is then the one the previous build listed for it (trust()), when
        the file has not changed since that list was written; else it is computed.
        """
        old, new = self.dest / rel, self.files / rel
        try:
            st = os.lstat(old)
            if stat.S_ISREG(st.st_mode) and st.st_size == len(data) and not os.path.lexists(new) \
                    and old.read_bytes() == data:
                listed = self._listed.get(rel)
                if listed is not None and max(st.st_ctime_ns, st.st_mtime_ns) < self._listed_at:
                    return listed
                return hashlib.sha256(data).hexdigest()
        except OSError:
            pass  # no such file: write it
        return write_new(new, data)

    def trust(self, listed: dict[str, str], written_ns: int) -> None:
        """The sha256 of OUT's files as the previous build listed them (path -> sha256), in a list
        whose status last changed at `written_ns` (st_ctime_ns). A file whose status and content
        both last changed before that (st_ctime_ns, and st_mtime_ns, which is what changes on
        systems where st_ctime is the creation time) was not written since, so its listed sha256
        is its content's."""
        self._listed, self._listed_at = listed, written_ns

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

    def changed(self, last: tuple[str, ...] = ()) -> list[str]:
        """Relative paths of the staged files that differ from OUT's, `last` ones at the end."""
        rels = [p.relative_to(self.files).as_posix() for p in self.files.rglob("*") if not p.is_dir()]
        rels.sort(key=lambda r: (r in last, r))
        return [r for r in rels if not _same_file(self.files / r, self.dest / r)]

    def commit(self, last: tuple[str, ...] = (), remove: tuple[str, ...] = ()) -> list[str]:
        """Move the new and changed files into OUT and remove the files in `remove`; return the
        relative paths moved.

        All or nothing, even when the process is killed half-way: see journal.py. An unchanged
        file is not replaced, so its modification time keeps meaning something.
        """
        rels = self.changed(last)
        gone = [r for r in remove if os.path.lexists(self.dest / r) and r not in rels]
        if not rels and not gone:
            return rels
        journal.sync_tree(self.files)  # the new files are on disk before the journal says they are the build
        record = journal.write(self.dest, self.root, rels, gone)
        done: list[tuple[str, str, bool]] = []
        made: list[Path] = []
        times: dict[Path, tuple[int, int]] = {}  # folders' times before a rename changed them
        touched: set[Path] = {self.dest}
        try:
            for rel in gone:  # aside into the staging folder, to be put back should a rename fail
                target, aside = self.dest / rel, self._old / rel
                self._note_times(target, times)
                aside.parent.mkdir(parents=True, exist_ok=True)
                os.replace(target, aside)
                done.append(("remove", rel, True))
                touched.add(target.parent)
            for rel in rels:
                target = self.dest / rel
                self._note_times(target, times)
                made += make_dirs(target.parent)
                kept = os.path.lexists(target)
                if kept:  # keep the old file aside (a second name for it) until every rename is done
                    backup = self._old / rel
                    backup.parent.mkdir(parents=True, exist_ok=True)
                    try:
                        os.link(target, backup, follow_symlinks=False)
                    except OSError:
                        shutil.copy2(target, backup, follow_symlinks=False)
                os.replace(self.files / rel, target)
                done.append(("move", rel, kept))
                touched.add(target.parent)
            journal.sync_folders(sorted(touched))
        except BaseException as err:
            self._undo(done, made, times, err)
            journal.finish(record)  # OUT is as it was: there is nothing to roll forward
            raise
        journal.finish(record)
        remove_empty_folders(self.dest, gone)
        return rels

    def _note_times(self, target: Path, times: dict[Path, tuple[int, int]]) -> None:
        for folder in (target.parent, *target.parent.parents):
            if folder not in times and (t := _times(folder)) is not None:
                times[folder] = t
            if folder == self.dest:
                break

    def _undo(self, done: list[tuple[str, str, bool]], made: list[Path], times: dict[Path, tuple[int, int]],
              err: BaseException) -> None:
        """Put OUT back as it was. Each step keeps the journal's roll-forward possible: a new file
        goes back into the staging folder before the old one comes back."""
        failed: list[str] = []
        for action, rel, kept in reversed(done):
            target = self.dest / rel
            try:
                if action == "remove":
                    os.replace(self._old / rel, target)
                    continue
                os.replace(target, self.files / rel)
                if kept:
                    os.replace(self._old / rel, target)
            except OSError:
                failed.append(str(target))
        remove_dirs(made)
        for folder, t in times.items():
            _set_times(folder, t)
        if failed:
            raise PartlyWritten(f"{len(failed)} of the files it replaced could not be put back (one is {failed[0]}); "
                                f"the next build into {self.dest} finishes the move") from err

    def keep_for_roll_forward(self) -> None:
        """After PartlyWritten: leave the staging folder (the journal names it) and let the lock go."""
        Staging.active.pop(self.files, None)
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def discard(self) -> None:
        """Remove the staging folder, and OUT and its parents if this build created them; let the lock go."""
        with interrupts_held(reraise=False):
            Staging.active.pop(self.files, None)
            self._let_go()

    def close(self) -> None:
        """Remove the staging folder after a commit and let the lock go."""
        with interrupts_held(reraise=False):
            Staging.active.pop(self.files, None)
            shutil.rmtree(self.root, ignore_errors=True)
            if self.lock is not None:
                self.lock.release()
                self.lock = None


def remove_empty_folders(out: Path, removed: list[str]) -> None:
    """Remove the folders under OUT that removing these files left empty (never OUT itself)."""
    for rel in removed:
        folder = (out / rel).parent
        while folder != out and folder.is_relative_to(out):
            try:
                folder.rmdir()
            except OSError:
                break
            folder = folder.parent


def cannot_write(err: OSError) -> str:
    """What a failed write says to the user: `cannot write PATH: REASON`."""
    name = err.filename2 if err.filename2 is not None else err.filename
    where = f" {os.fsdecode(name)}" if name is not None else ""
    return f"cannot write{where}: {err.strerror or one_line(err)}"
