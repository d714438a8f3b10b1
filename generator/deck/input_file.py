"""Reading a file the user named, as untrusted input: a regular file, read with a size limit.

Every file a command reads (the manifest, a record, a position, diff's sides) comes through
`read_limited`. The size is checked while reading, not only by what the file system says (a
file that grows, `/dev/zero`, `/proc` files that call themselves empty), and a device, FIFO or
socket is refused at once: opening it does not wait for a writer (O_NONBLOCK), and nothing is
read from it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from generator.deck.problems import InputError, Problem

#: The largest manifest file read, in bytes (the shipped one is about 7 KB).
MAX_FILE_BYTES = 256 * 1024


#: What the problems call a file that is not a regular file.
_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a directory"))


class TooLarge(InputError):
    """The file holds more than the limit allows."""


def kind_of(mode: int) -> str:
    """'a FIFO (named pipe)', 'a character device'... for a file that is not a regular file."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_at_most(fd: int, limit: int) -> bytes | None:
    """What the open file `fd` holds, read in chunks, or None as soon as it passes `limit` bytes
    (whatever its size said: a file can grow while it is read)."""
    chunks, held = [], 0
    while held <= limit:
        chunk = os.read(fd, min(1 << 20, limit + 1 - held))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        held += len(chunk)
    return None


class Unread(Exception):
    """Why read_regular read nothing: `why` is "missing", "directory" (refused by open, `error`),
    "unreadable" (`error`, the OSError), "not a file" (`kind`), "too large" (`size`, what the file system says)
    or "grew" (more than the limit came while it was read)."""

    def __init__(self, why: str, *, error: OSError | None = None, kind: str = "", size: int = 0) -> None:
        super().__init__(why)
        self.why, self.error, self.kind, self.size = why, error, kind, size


def read_regular(path: str | Path, limit: int, *, follow: bool = True) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them, else Unread saying why. A
    device, FIFO or socket is refused without waiting for a writer (O_NONBLOCK) and nothing is read
    from it; `follow=False` refuses a symbolic link too (O_NOFOLLOW: "unreadable")."""
    flags = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
             | (0 if follow else getattr(os, "O_NOFOLLOW", 0)))
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise Unread("missing") from None
    except IsADirectoryError as exc:
        raise Unread("directory", error=exc) from None
    except OSError as exc:
        raise Unread("unreadable", error=exc) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Unread("not a file", kind=kind_of(info.st_mode))
        if info.st_size > limit:
            raise Unread("too large", size=info.st_size)
        data = read_at_most(fd, limit)
        if data is None:  # it grew while read, or says it is smaller than it is
            raise Unread("grew")
        return data
    except OSError as exc:
        raise Unread("unreadable", error=exc) from None
    finally:
        os.close(fd)


def read_limited(path: str, limit: int, what: str, *, missing: str = "no such file") -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them; else InputError (status 2)
    with one located line. `what` names the file in the refusals ("a manifest", "a record")."""
    try:
        return read_regular(path, limit)
    except Unread as u:
        if u.why == "too large":
            raise TooLarge([Problem(path, 1, 1, _too_large(f"is {u.size:,} bytes", limit, what))], status=2) from None
        if u.why == "grew":
            raise TooLarge([Problem(path, 1, 1, _too_large(f"is more than {limit:,} bytes", limit, what))], status=2) from None
        said = {"missing": missing, "directory": f"is a directory, not {what} file",
                "not a file": f"is {u.kind}, not a regular file; {what} must be a file"}.get(u.why)
        if said is None:
            said = f"cannot read: {(u.error.strerror or str(u.error)).lower()}" if u.error else "cannot read"
        raise InputError([Problem(path, 0, 0, said)], status=2) from None


def read_asset(path: Path | str, limit: int, noun: str, error: type[Exception]) -> bytes:
    """The bytes of a file a manifest names (a picture, a font): a regular file of at most `limit`
    bytes, else `error` with one line that starts with the file's name and calls it a `noun`."""
    path = Path(path)
    try:
        return read_regular(path, limit)
    except Unread as u:
        said = {"missing": f"no such {noun} ({path})", "directory": f"not a file ({path})",
                "not a file": f"not a file ({path}: {u.kind})",
                "too large": f"the {noun} is {u.size / (1 << 20):.1f} MB, over the limit of {limit >> 20} MB",
                "grew": f"the {noun} grew while read, over the limit of {limit >> 20} MB"}.get(u.why)
        if said is None:
            said = f"cannot read the {noun}: {u.error.strerror or u.error}" if u.error else f"cannot read the {noun}"
        raise error(f"{path.name}: {said}") from None


def _too_large(said: str, limit: int, what: str) -> str:
    return f"{said}; {what} may be at most {limit:,} bytes ({_size(limit)})"


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n >= 1024 * 1024 and n % (1024 * 1024) == 0 else f"{n // 1024} KiB"
