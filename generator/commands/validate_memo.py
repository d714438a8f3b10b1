"""validate's answers, remembered by everything they depend on, so that checking a manifest that
was checked before (a pre-commit hook, an editor on save, a script) answers at once. `build`
keeps the verdict of its own check the same way (commands/common.py: load_printable_deck), so a
rebuild of a manifest that passed does not check it again.

An answer (what validate printed, and its exit status) is kept in the user's cache folder
(user_cache.py, area `validate`) under a key made of:
- the manifest's bytes, its absolute path and the path as given (messages name it so);
- the command's options;
- the Python and the packages installed beside it (the names of every entry of sys.path's
  folders, which carry each distribution's version), and every COUNTY_UPPY_ variable.

The answer also records the files it was made from, each with its size, modification time and
the sha256 of its bytes: every file of the package (code, fonts, profiles) and every picture or
font the manifest names (deck/look.py: named_files), or that it was absent. It is given again only
while each of them still holds those bytes: a file whose size and time are unchanged is taken to be
unchanged (as make and file_digests.py do); one whose size or time changed is hashed again, so a
touched file costs a hash and nothing else. A new or removed file of the package is a change too.
Anything unreadable, torn or stale is no answer: validate then checks in full.
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

AREA = "validate"
NEWEST = 64  #: answers kept
PACKAGE = Path(__file__).resolve().parents[1]
_FORMAT = "county-uppy-validate/1"


def key(manifest: str, options: tuple[str, ...]) -> tuple[str, bytes] | None:
    """(the key of validate's answer for `manifest` with `options`, the manifest's bytes), or None
    when the manifest cannot be read (validate then says why, and nothing is remembered)."""
    data = _read(manifest)
    if data is None:
        return None
    h = hashlib.sha256()
    for part in (_FORMAT, manifest, os.path.abspath(manifest), *options, sys.version, sys.prefix, *_installed(),
                 *sorted(f"{k}={v}" for k, v in os.environ.items() if k.startswith("COUNTY_UPPY_"))):
        h.update(part.encode("utf-8", "surrogateescape") + b"\0")
    h.update(hashlib.sha256(data).digest())
    return h.hexdigest(), data


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


def _package_files() -> list[str]:
    """Every file of the package, bytecode left out."""
    found = []
    for here, dirs, names in os.walk(PACKAGE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        found += [os.path.join(here, n) for n in sorted(names)]
    return found


#: A file changed this recently (ns) may change again within the same tick of its folder's clock
#: and keep its size and time: its time is not recorded, so it is hashed again when asked about.
RACY_NS = 2_000_000_000


def _state(path: str) -> list | None:
    """[size, modification time in ns (None if recent), sha256] of the file, or None when there is
    none or it is not a regular file: a FIFO, a device or a folder the manifest names is never read
    here (validate refuses it, and no answer is given again while it is there)."""
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
    recent = st.st_mtime_ns > time.time_ns() - RACY_NS
    return [st.st_size, None if recent else st.st_mtime_ns, digest]


def _latest_files() -> dict:
    """The files the newest answer kept was made from, with their states (none: {})."""
    try:
        entries = [e for e in user_cache.folder(AREA).iterdir() if e.suffix == ".json"]
        newest = max(entries, key=lambda e: e.stat().st_mtime_ns)
        files = json.loads(newest.read_bytes())["files"]
        return files if isinstance(files, dict) else {}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def _still(path: str, was: list | None) -> list | None:
    """The file's state: `was` (an earlier answer's record of it) while its size and time are as
    recorded then, so an unchanged file is not hashed again; else read now."""
    if isinstance(was, list) and len(was) == 3 and was[1] is not None:
        try:
            st = os.stat(path)
        except OSError:
            return None
        if [st.st_size, st.st_mtime_ns] == was[:2]:
            return was
    return _state(path)


def _holds(path: str, was: list | None) -> bool:
    """Whether the file still has the bytes it had when the answer was made."""
    try:
        st = os.stat(path)
    except OSError:
        return was is None
    if was is None:
        return False
    if [st.st_size, st.st_mtime_ns] == was[:2]:
        return True
    now = _state(path)
    return now is not None and now[2] == was[2]


def recall(k: str) -> tuple[str, str, int] | None:
    """(what validate printed on stdout, on stderr, its exit status) for key `k`, when every file
    the answer was made from still holds the same bytes; else None."""
    raw = user_cache.read(AREA, f"{k}.json")
    if raw is None:
        return None
    try:
        entry = json.loads(raw)
        files = entry["files"]
        if entry["format"] != _FORMAT or sorted(p for p in files if p.startswith(str(PACKAGE) + os.sep)) != sorted(_package_files()):
            return None
        if not all(_holds(path, was) for path, was in files.items()):
            return None
        return entry["stdout"], entry["stderr"], int(entry["status"])
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


class Answer:
    """One validate run being remembered: the state of every file it depends on is taken before
    the run (so a file changed while it runs is not taken for what it read), the answer after."""

    def __init__(self, k: str, manifest: str, data: bytes, named: tuple[str, ...]) -> None:
        """`named`: the files the manifest names (commands/common.py: named_files)."""
        self.key, self.manifest, self.data = k, manifest, data
        known = _latest_files()
        self.files = {path: _still(path, known.get(path)) for path in (*_package_files(), *named)}

    def keep(self, stdout: str, stderr: str, status: int) -> None:
        """Keep what the run printed and its status, unless the manifest changed while it ran."""
        if _read(self.manifest) != self.data:
            return
        entry = {"format": _FORMAT, "stdout": stdout, "stderr": stderr, "status": status, "files": self.files}
        user_cache.keep(AREA, f"{self.key}.json", json.dumps(entry).encode("utf-8"), NEWEST)


def _read(path: str) -> bytes | None:
    """The manifest's bytes, read as validate reads it (a regular file within the manifest's size
    limit); None for anything else, which validate refuses with its own message."""
    try:
        return read_limited(path, MAX_FILE_BYTES, "a manifest")
    except InputError:
        return None
