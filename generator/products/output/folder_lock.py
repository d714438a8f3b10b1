"""One writer per output folder: an exclusive flock on OUT/.county-uppy.lock, held for a whole build.

fcntl.flock (rather than the filelock library) because the lock must name its holder: the file
holds the holder's PID, which a second build reads to say who is writing. The kernel drops the
lock when its holder dies, however it dies, so a killed build never leaves the folder locked.
The file is removed when the lock is let go; a build that opened the file just before that
checks, once it holds the lock, that the name still leads to the file it locked, and tries again
otherwise, so two builds can never each hold a lock on a different file.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

try:
    import fcntl
except ImportError:  # not a POSIX system: builds are not locked there
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = ".county-uppy.lock"


class FolderBusy(Exception):
    """Another process holds the output folder's lock."""

    def __init__(self, folder: Path, pid: int | None):
        holder = f"process {pid}" if pid else "another process"
        super().__init__(f"{folder} is being written by another build ({holder}); nothing was changed")
        self.folder = folder
        self.pid = pid


class FolderLock:
    """The exclusive lock on one output folder (which must exist); `release()` lets it go."""

    def __init__(self, folder: Path):
        self.path = folder / LOCK_NAME
        self.fd: int | None = None
        if fcntl is None:
            return
        while True:
            fd = _open_lock(self.path)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                pid = _holder(fd)
                os.close(fd)
                raise FolderBusy(folder, pid) from None
            except BaseException:
                os.close(fd)
                raise
            try:
                same = os.path.samestat(os.fstat(fd), os.lstat(self.path))
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)  # the holder before us removed it as we opened it: lock the new one
        try:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        except BaseException:
            os.close(fd)
            raise
        self.fd = fd

    def release(self) -> None:
        """Remove the lock file and let the lock go (the file first: see the module's docstring)."""
        if self.fd is None:
            return
        fd, self.fd = self.fd, None
        try:
            os.unlink(self.path)
        except OSError:
            pass
        try:
            fcntl.flock(fd, fcntl.LOCK_UN)  # forked workers share this open file: unlock it for them too
        finally:
            os.close(fd)


def _open_lock(path: Path) -> int:
    """The lock file, opened without following a link: a symlink planted at its name is removed
    (never written through: the PID would land in the link's target) and the file made anew."""
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        return os.open(path, flags, 0o644)
    except OSError as exc:
        if not path.is_symlink():
            raise
        path.unlink()
        try:
            return os.open(path, flags | os.O_EXCL, 0o644)
        except FileExistsError:
            raise exc from None


def _holder(fd: int) -> int | None:
    """The PID the holder wrote into the lock file (it writes it just after it takes the lock)."""
    for _ in range(20):
        try:
            text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        except OSError:
            return None
        if text.isdigit():
            return int(text)
        time.sleep(0.01)
    return None
