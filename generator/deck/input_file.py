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


def read_limited(path: str, limit: int, what: str, *, missing: str = "no such file") -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them; else InputError (status 2)
    with one located line. `what` names the file in the refusals ("a manifest", "a record")."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
                     | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise InputError([Problem(path, 0, 0, missing)], status=2) from None
    except IsADirectoryError:
        raise InputError([Problem(path, 0, 0, f"is a directory, not {what} file")], status=2) from None
    except OSError as exc:
        raise InputError([Problem(path, 0, 0, f"cannot read: {(exc.strerror or str(exc)).lower()}")], status=2) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = kind_of(info.st_mode)
            raise InputError([Problem(path, 0, 0, f"is {kind}, not a regular file; {what} must be a file")], status=2)
        if info.st_size > limit:
            raise TooLarge([Problem(path, 1, 1, _too_large(f"is {info.st_size:,} bytes", limit, what))], status=2)
        data = read_at_most(fd, limit)
        if data is None:  # it grew while read, or says it is smaller than it is
            raise TooLarge([Problem(path, 1, 1, _too_large(f"is more than {limit:,} bytes", limit, what))], status=2)
        return data
    except OSError as exc:
        raise InputError([Problem(path, 0, 0, f"cannot read: {(exc.strerror or str(exc)).lower()}")], status=2) from None
    finally:
        os.close(fd)


def read_asset(path: Path | str, limit: int, noun: str, error: type[Exception]) -> bytes:
    """The bytes of a file a manifest names (a picture, a font): a regular file of at most `limit`
    bytes, else `error` with one line that starts with the file's name and calls it a `noun`."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
                     | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise error(f"{path.name}: no such {noun} ({path})") from None
    except IsADirectoryError:
        raise error(f"{path.name}: not a file ({path})") from None
    except OSError as exc:
        raise error(f"{path.name}: cannot read the {noun}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{path.name}: not a file ({path}: {kind_of(info.st_mode)})")
        data = None if info.st_size > limit else read_at_most(fd, limit)
        if data is None:
            said = f"is {info.st_size / (1 << 20):.1f} MB" if info.st_size > limit else "grew while read"
            raise error(f"{path.name}: the {noun} {said}, over the limit of {limit >> 20} MB")
        return data
    except OSError as exc:
        raise error(f"{path.name}: cannot read the {noun}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _too_large(said: str, limit: int, what: str) -> str:
    return f"{said}; {what} may be at most {limit:,} bytes ({_size(limit)})"


def _size(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n >= 1024 * 1024 and n % (1024 * 1024) == 0 else f"{n // 1024} KiB"
