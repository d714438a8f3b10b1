"""The commit journal that makes moving a build into its output folder all-or-nothing.

A build's files are complete in its staging folder (OUT/.county-uppy-staging-*/out/) before
anything in OUT changes. To commit, the build:

1. flushes the staged files to disk (power loss included);
2. writes OUT/.county-uppy-commit.json, the journal: the staging folder, the files to move into
   OUT (build.json last) and the files to remove; written to a temporary file, flushed and
   renamed, so it is there whole or not at all. From here on the new build is the one OUT holds;
3. moves the files into place (one rename each) and removes the ones no longer made;
4. flushes OUT's folders, then deletes the journal.

A build killed during step 3 (SIGKILL, power loss, the OOM killer) leaves the journal. The next
build into OUT (`county-uppy build`, `watch`), holding OUT's lock, rolls it forward before it
does anything else: every file the journal names that is still in the staging folder is moved
into place, every file to remove is removed, and it says so on one line. Each step can be
repeated, so a roll-forward that is itself killed is finished by the next one. Staging folders
that no journal names are what killed builds left before their commit: they are removed.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
from pathlib import Path, PurePosixPath

JOURNAL_NAME = ".county-uppy-commit.json"

#: Name prefix of a build's private folder inside OUT; it is gone when the build ends.
STAGING_PREFIX = ".county-uppy-staging-"


class JournalError(Exception):
    """OUT holds a commit journal this version cannot read; nothing was changed."""


#: At most this many new files are flushed one by one; more, and the whole file system is.
FEW_FILES = 64


def sync_tree(folder: Path) -> None:
    """Flush every file written under `folder` to disk.

    The folder holds only new and changed files (Staging.write stages no unchanged one): an
    fsync each when they are few (a rebuild's); for a cold build's hundreds, on Linux, one
    syncfs() of the file system, much faster than an fsync per file (though it also waits for
    whatever else is being written).
    """
    files, folders = [], [folder]
    for path in folder.rglob("*"):
        st = path.lstat()
        if stat.S_ISDIR(st.st_mode):
            folders.append(path)
        elif stat.S_ISREG(st.st_mode):
            files.append(path)
    if len(files) > FEW_FILES and sys.platform.startswith("linux") and _syncfs(folder):
        return
    for path in sorted(files):
        _fsync(path)
    sync_folders(folders)


def _syncfs(folder: Path) -> bool:
    # lazy: only Linux builds call it, once per commit
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        fd = os.open(folder, os.O_RDONLY)
    except (OSError, AttributeError):
        return False
    try:
        return libc.syncfs(fd) == 0
    except AttributeError:
        return False
    finally:
        os.close(fd)


def _fsync(path: Path, flags: int = os.O_RDONLY) -> None:
    try:
        fd = os.open(path, flags)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # a folder that cannot be flushed on this system
    finally:
        os.close(fd)


def sync_folders(folders) -> None:
    """Flush folders' entries (the renames and removals made in them) to disk."""
    for folder in dict.fromkeys(folders):
        _fsync(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))


def write(out: Path, staging: Path, moves: list[str], removes: list[str]) -> Path:
    """Write the journal into OUT, whole and on disk, and return its path (the commit point)."""
    path = out / JOURNAL_NAME
    tmp = out / (JOURNAL_NAME + ".tmp")
    data = json.dumps({"staging": staging.name, "move": moves, "remove": removes, "pid": os.getpid()},
                      indent=1).encode("utf-8")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        if err.filename is None:  # os.write names no file: the message must say which one failed
            raise OSError(err.errno, err.strerror or str(err), str(path)) from err
        raise
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    sync_folders([out])
    return path


def finish(path: Path) -> None:
    """Delete the journal once the commit is complete (and on disk)."""
    path.unlink(missing_ok=True)
    sync_folders([path.parent])


def _safe(rel: object) -> str:
    if not isinstance(rel, str) or not rel:
        raise JournalError(f"a path in it is {rel!r}")
    p = PurePosixPath(rel)
    if p.is_absolute() or ".." in p.parts or "\\" in rel or "\0" in rel:
        raise JournalError(f"it names a file outside the folder: {rel!r}")
    return rel


def roll_forward(out: Path) -> str | None:
    """Finish a commit that was cut short, if OUT holds a journal; return the line to tell the user.

    Call with OUT's lock held, before anything else touches OUT.
    """
    path = out / JOURNAL_NAME
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        data = json.loads(raw)
        staging = data["staging"]
        moves = [_safe(r) for r in data["move"]]
        removes = [_safe(r) for r in data["remove"]]
    except (ValueError, KeyError, TypeError) as err:
        raise JournalError(f"{path} cannot be read ({err}); remove it to build again") from None
    if not isinstance(staging, str) or not staging.startswith(STAGING_PREFIX) or "/" in staging:
        raise JournalError(f"{path} names no staging folder; remove it to build again")
    root = out / staging
    folders = {out}
    moved = removed = 0
    for rel in removes:
        target = out / rel
        if os.path.lexists(target) and not target.is_dir():
            target.unlink()
            removed += 1
            folders.add(target.parent)
    for rel in moves:
        source, target = root / "out" / rel, out / rel
        if os.path.lexists(source):
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(source, target)
            moved += 1
            folders.add(target.parent)
    sync_folders(sorted(folders))
    finish(path)
    shutil.rmtree(root, ignore_errors=True)
    pid = data.get("pid")
    by = f" (process {pid})" if isinstance(pid, int) else ""
    return (f"county-uppy: finished moving an interrupted build{by} into {out}: "
            f"{moved} more file{'s' * (moved != 1)} moved into place, {removed} removed")


def remove_stale(out: Path, keep: Path | None = None) -> list[Path]:
    """Remove staging folders (and a journal's temporary file) that killed builds left in OUT.

    Call with OUT's lock held and after roll_forward(): no other build is running, and no
    journal names them.
    """
    gone = []
    try:
        entries = list(os.scandir(out))
    except OSError:
        return gone
    for entry in entries:
        path = Path(entry.path)
        if entry.name.startswith(STAGING_PREFIX) and path != keep:
            shutil.rmtree(path, ignore_errors=True)
            gone.append(path)
        elif entry.name == JOURNAL_NAME + ".tmp":
            path.unlink(missing_ok=True)
            gone.append(path)
    return gone
