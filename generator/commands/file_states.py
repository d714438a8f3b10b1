"""What a remembered answer (validate_memo.py, build_memo.py) is keyed by and made from: the parts
of its key every command shares, and the state of each file it depends on.

A file's state is its size, its modification time and the sha256 of its bytes, or None when
there is no regular file there. A file whose size and time are unchanged is taken to be
unchanged (as make and file_digests.py do); one whose size or time changed is hashed again, so
a touched file costs a hash and nothing else. A file changed just before it is recorded (RACY_NS)
has no time recorded (its folder's clock may not have ticked since), so it is hashed whenever
it is asked about, until an answer is kept again with its time (`holds`' `fresh`).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import time
from pathlib import Path

from generator import user_cache
from generator.deck.input_file import MAX_FILE_BYTES, read_limited
from generator.deck.problems import InputError

#: The program's own files (code, fonts, ICC profiles): an answer holds only while they do.
PACKAGE = Path(__file__).resolve().parents[1]

#: A file changed this recently (ns) may change again within the same tick of its folder's clock
#: and keep its size and time: its time is not recorded, so it is hashed again when asked about.
#: A file system that keeps whole seconds, or two (FAT, ext3, some network ones): 2 s; one whose
#: times have a part below the millisecond (ext4, XFS, Btrfs, tmpfs) takes them from the kernel's
#: clock, which ticks at least every 10 ms: 0.1 s, so the files a build has just written are
#: trusted by their times as soon as it has finished.
RACY_NS = 2_000_000_000
FINE_RACY_NS = 100_000_000


def settings_key(*parts: str) -> str:
    """The sha256 of `parts` and what every answer depends on besides files: the Python and the
    packages installed beside it, and every COUNTY_UPPY_ variable of the environment."""
    h = hashlib.sha256()
    for part in (*parts, sys.version, sys.prefix, *_installed(),
                 *sorted(f"{k}={v}" for k, v in os.environ.items() if k.startswith("COUNTY_UPPY_"))):
        h.update(part.encode("utf-8", "surrogateescape") + b"\0")
    return h.hexdigest()


def _installed() -> list[str]:
    """The entries of every package folder on sys.path: the packages installed, with their versions."""
    found = []
    for entry in sys.path:
        if os.path.basename(entry) in ("site-packages", "dist-packages"):
            try:
                found.append(entry + ":" + "|".join(sorted(os.listdir(entry))))
            except OSError:
                found.append(entry + ":-")
    return found


#: What reading a damaged answer raises (an entry of another shape than the one kept).
DAMAGED = (ValueError, KeyError, TypeError, AttributeError, IndexError)


def kept_answer(area: str, k: str, form: str) -> dict | None:
    """The answer kept in `area` under key `k`, when it is one of format `form` and the package
    has the files it lists (no more, no fewer); else None."""
    raw = user_cache.read(area, f"{k}.json")
    if raw is None:
        return None
    try:
        entry = json.loads(raw)
        if entry["format"] != form or not package_unchanged(entry["files"]):
            return None
    except DAMAGED:
        return None
    return entry


def files_under(folder: Path | str) -> list[str]:
    """Every file under `folder`, bytecode left out, in a fixed order."""
    found = []
    for here, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        found += [os.path.join(here, n) for n in sorted(names)]
    return found


def package_files() -> list[str]:
    """Every file of the package, bytecode left out."""
    return files_under(PACKAGE)


def package_unchanged(files: dict) -> bool:
    """Whether the package has the files an answer's `files` lists of it, no more and no fewer
    (a new or removed module is a change; each one's bytes are checked by `holds`)."""
    inside = str(PACKAGE) + os.sep
    return sorted(p for p in files if p.startswith(inside)) == sorted(package_files())


def state(path: str) -> list | None:
    """[size, modification time in ns (None if recent), sha256] of the file, or None when there is
    none or it is not a regular file: a FIFO, a device or a folder named as an input is never read
    here (the command refuses it, and no answer is given again while it is there)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None
        with os.fdopen(os.dup(fd), "rb") as f:
            digest = hashlib.file_digest(f, "sha256").hexdigest()
    except OSError:
        return None
    finally:
        os.close(fd)
    recent = st.st_mtime_ns > time.time_ns() - (FINE_RACY_NS if st.st_mtime_ns % 1_000_000 else RACY_NS)
    return [st.st_size, None if recent else st.st_mtime_ns, digest]


def latest_files(area: str) -> dict:
    """The files the newest answer kept in `area` was made from, with their states (none: {})."""
    try:
        entries = [e for e in user_cache.folder(area).iterdir() if e.suffix == ".json"]
        newest = max(entries, key=lambda e: e.stat().st_mtime_ns)
        files = json.loads(newest.read_bytes())["files"]
        return files if isinstance(files, dict) else {}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def still(path: str, was: list | None, written: str | None = None) -> list | None:
    """The file's state: `was` (an earlier answer's record of it) while its size and time are as
    recorded then, so an unchanged file is not hashed again; else read now. `written`: the sha256
    of the bytes the caller has just written there, recorded without a time and so checked against
    the file's bytes whenever it is asked about (the file is not read now)."""
    if written is not None or (isinstance(was, list) and len(was) == 3 and was[1] is not None):
        try:
            st = os.stat(path)
        except OSError:
            return None
        if isinstance(was, list) and len(was) == 3 and was[1] is not None and [st.st_size, st.st_mtime_ns] == was[:2]:
            return was
        if written is not None:
            return [st.st_size, None, written] if stat.S_ISREG(st.st_mode) else None
    return state(path)


def holds(path: str, was: list | None, fresh: dict | None = None) -> bool:
    """Whether the file still has the bytes it had when the answer was made (`was`: its state
    then). A file hashed for it whose time can now be recorded is put in `fresh`, so the answer
    can be kept again with it and the next question need not hash it (a file written just before
    the answer was made)."""
    try:
        st = os.stat(path)
    except OSError:
        return was is None
    if was is None:
        return False
    if [st.st_size, st.st_mtime_ns] == was[:2]:
        return True
    now = state(path)
    if now is None or now[2] != was[2]:
        return False
    if fresh is not None and now[1] is not None:
        fresh[path] = now
    return True


def manifest_bytes(path: str) -> bytes | None:
    """The manifest's bytes, read as the commands read it (a regular file within the manifest's
    size limit); None for anything else, which the command refuses with its own message."""
    try:
        return read_limited(path, MAX_FILE_BYTES, "a manifest")
    except InputError:
        return None
