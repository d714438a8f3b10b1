"""Writing a file so that a reader never sees half of it, and a link planted in the folder is
never followed.

Every file the commands write whole (reports, sweep pages, game records, the crash file) goes
through `write_replacing`: the bytes go to a temporary file created exclusively under an
unpredictable name (`tempfile.mkstemp`: O_CREAT | O_EXCL | O_NOFOLLOW, random letters), which
is then renamed over the target. A rename replaces a symlink standing at the target instead of
writing through it, and no fixed temporary name (`balance.json.tmp`) exists for someone to plant
a link at beforehand. Nothing but a regular file or a link is renamed over (`check_replaceable`):
a device, FIFO, socket or folder at the target is an error, so `--record /dev/null` run as root
cannot put a regular file in place of /dev/null.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from pathlib import Path

#: What `write_replacing` makes a new file readable as: by everyone, written by its owner.
FILE_MODE = 0o644


def write_replacing(path: str | os.PathLike[str], data: bytes, *, mode: int = FILE_MODE, sync: bool = False) -> None:
    """Put `data` at `path` whole, through an exclusive temporary file and a rename.

    `sync`: flush the bytes to the disk before the rename, so that a power cut leaves the old
    file or the new one, not an empty one. On failure the temporary file goes and the error
    names `path`.
    """
    target = Path(path)
    check_replaceable(target)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:64]}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if sync:
                fh.flush()
                os.fsync(fh.fileno())
        os.chmod(tmp, mode)  # mkstemp makes 0600
        os.replace(tmp, target)
    except OSError as err:
        _remove(tmp)
        raise OSError(err.errno, err.strerror or str(err), str(target)) from err
    except BaseException:
        _remove(tmp)
        raise


#: What a file that is not a regular file is called, by the test of its mode.
_KINDS = ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder"))


def check_replaceable(target: Path) -> None:
    """OSError (EEXIST, naming `target`) when something other than a regular file or a symlink
    stands at `target`: a device, FIFO, socket or folder is never renamed over. `--record
    /dev/null`, run as root, replaced /dev/null itself with a regular file."""
    try:
        mode = os.lstat(target).st_mode
    except OSError:
        return
    for test, kind in _KINDS:
        if test(mode):
            raise OSError(errno.EEXIST, f"it is {kind}, not a regular file", str(target))


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def real_folder(root: str | os.PathLike[str], rel: str) -> Path:
    """The folder `root/rel`, made where missing, with every part below `root` a real folder.

    A symlink standing where one of those folders goes (to a folder or to a file), or a file, is
    removed and a folder made in its place: what the tool writes or removes under `root` stays
    under it. `root` itself (the folder the user named) is followed as it is.
    """
    path = Path(root)
    for part in Path(rel).parts:
        path = path / part
        if path.is_symlink() or (path.exists() and not path.is_dir()):
            path.unlink()
        try:
            path.mkdir()
        except FileExistsError:
            if path.is_symlink() or not path.is_dir():  # planted between the check and the mkdir
                raise OSError(f"{path} was replaced while it was made") from None
    return path


def crosses_link(root: str | os.PathLike[str], path: str | os.PathLike[str]) -> bool:
    """Is any part of `path` below `root` a symlink (or missing)? Then writing there could land
    outside `root`."""
    base, target = Path(root), Path(path)
    try:
        rel = target.relative_to(base)
    except ValueError:
        return True
    for part in rel.parts:
        base = base / part
        if base.is_symlink():
            return True
    return False


def remove_tree(root: str | os.PathLike[str]) -> None:
    """Remove the folder `root` and everything in it, however deep, without recursion and never
    through a link (a link is removed, not what it leads to); what cannot be removed stays.

    A leftover folder may be thousands deep (shutil.rmtree recurses once a level, and its paths
    grow past what the system takes): each folder met is first moved up to `root` itself under a
    new name, so no path is ever more than two folders below `root`, then emptied and removed."""
    top = Path(root)
    try:
        if top.is_symlink() or not top.is_dir():
            top.unlink(missing_ok=True)
            return
    except OSError:
        return
    todo, moved = [top], 0
    while todo:
        folder = todo.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            entries = []
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    if folder == top:
                        todo.append(Path(entry.path))
                        continue
                    moved += 1
                    up = top / f".up-{moved}"
                    os.rename(entry.path, up)  # one level below `root`, whatever its depth was
                    todo.append(up)
                else:
                    os.unlink(entry.path)
            except OSError:
                continue
        if folder != top:
            try:
                os.rmdir(folder)
            except OSError:
                pass
    try:
        os.rmdir(top)
    except OSError:
        pass


def walk_files(top: str | os.PathLike[str]) -> list[Path]:
    """The files under `top` as os.walk lists them (top-down, each folder's files and then its
    folders in name order; a folder whose name starts with '.' and a link to a folder are not
    entered), walked without recursion: a folder thousands deep costs no stack, and one whose
    path grows past what the system takes is left unread."""
    found: list[Path] = []
    todo = [Path(top)]
    while todo:
        folder = todo.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        inner = []
        for entry in entries:
            try:
                is_folder = entry.is_dir()
            except OSError:
                is_folder = False
            if not is_folder:
                found.append(Path(entry.path))
            elif not entry.name.startswith(".") and not entry.is_symlink():
                inner.append(Path(entry.path))
        todo.extend(reversed(inner))
    return found
