"""The build's stamp (render/stamp.py): the tool's version, the manifest's fingerprint, and a date
taken from the inputs by the reproducible-builds convention, never from the clock:

1. SOURCE_DATE_EPOCH, when set (https://reproducible-builds.org/specs/source-date-epoch/);
2. else the manifest's last commit, when it is committed in git and unchanged since;
3. else the manifest's modification time.

So the same manifest gives byte-identical files, and a PDF tells which build made it.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

from generator import __version__
from generator.products.render.stamp import Stamp


def build_stamp(manifest: Path, data: bytes | None = None) -> Stamp:
    """The stamp of a build of `manifest` (its bytes `data`, when already read)."""
    return Stamping(manifest).stamp(data)


class Stamping:
    """build_stamp begun: git is asked about the manifest at once, in processes of their own,
    and the stamp made when it is wanted (`stamp()`), so a build goes on meanwhile. `abort()`
    stops the questions (a build that ends without it)."""

    def __init__(self, manifest: Path):
        self.manifest = manifest
        self._git = None if _epoch() is not None else _GitDate(manifest)

    def stamp(self, data: bytes | None = None) -> Stamp:
        """The stamp (`data`: the manifest's bytes, when already read)."""
        if data is None:
            try:
                data = self.manifest.read_bytes()
            except OSError:
                data = b""
        return Stamp(__version__, hashlib.sha256(data).hexdigest()[:12], self.source_date())

    def source_date(self) -> int:
        epoch = _epoch()
        if epoch is not None:
            return epoch
        committed = (self._git or _GitDate(self.manifest)).time()
        if committed is not None:
            return committed
        try:
            return int(self.manifest.stat().st_mtime)
        except OSError:
            return 0

    def abort(self) -> None:
        if self._git is not None:
            self._git.abort()


def source_date(manifest: Path) -> int:
    """Seconds since 1970 for the files' dates (the order above)."""
    return Stamping(manifest).source_date()


#: The latest date a file can carry: 9999-12-31 23:59:59 UTC (the date formats have four-digit years).
MAX_EPOCH = 253_402_300_799


def epoch_problem() -> str | None:
    """What is wrong with SOURCE_DATE_EPOCH (None: unset, or a whole number of seconds within
    0..MAX_EPOCH). The convention asks a build to stop on a malformed one rather than guess."""
    value = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not value or (value.isascii() and value.isdigit() and len(value) <= 12 and int(value) <= MAX_EPOCH):
        return None
    shown = value if len(value) <= 40 else value[:40] + "..."
    return f"SOURCE_DATE_EPOCH must be a whole number of seconds since 1970, 0 to {MAX_EPOCH} (the year 9999), not {shown!r}"


def _epoch() -> int | None:
    value = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    return int(value) if value and epoch_problem() is None else None


#: How long git may take to answer
GIT_SECONDS = 10


class _GitDate:
    """The time of the last commit that changed `manifest`, when it has not changed since (None:
    not in git, not committed, changed, or git is not installed): `git status` and `git log`
    asked at once, as the object is made, and answered by `time()`."""

    def __init__(self, manifest: Path):
        self._asked: list[subprocess.Popen] = []
        self._answer: tuple[int | None] | None = None
        try:
            run = dict(cwd=manifest.resolve().parent, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
            self._asked.append(subprocess.Popen(["git", "status", "--porcelain", "--", manifest.name], **run))
            self._asked.append(subprocess.Popen(["git", "log", "-1", "--format=%ct", "--", manifest.name], **run))
        except (OSError, subprocess.SubprocessError):
            self.abort()

    def time(self) -> int | None:
        if self._answer is None:
            self._answer = (self._ask(),)
        return self._answer[0]

    def _ask(self) -> int | None:
        if len(self._asked) != 2:
            return None
        try:
            (status, changed), (log, stamp) = [(p, p.communicate(timeout=GIT_SECONDS)[0]) for p in self._asked]
        except (OSError, subprocess.SubprocessError):
            self.abort()
            return None
        self._asked = []
        if status.returncode != 0 or changed.strip():
            return None
        stamp = stamp.strip()
        return int(stamp) if log.returncode == 0 and stamp.isdigit() else None

    def abort(self) -> None:
        for p in self._asked:
            if p.returncode is None:
                p.kill()
            try:
                p.communicate()
            except (OSError, ValueError, subprocess.SubprocessError):
                pass
        self._asked = []
