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
    if data is None:
        try:
            data = manifest.read_bytes()
        except OSError:
            data = b""
    return Stamp(__version__, hashlib.sha256(data).hexdigest()[:12], source_date(manifest))


def source_date(manifest: Path) -> int:
    """Seconds since 1970 for the files' dates (the order above)."""
    value = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if value.isdigit():
        return int(value)
    committed = _commit_time(manifest)
    if committed is not None:
        return committed
    try:
        return int(manifest.stat().st_mtime)
    except OSError:
        return 0


def _commit_time(manifest: Path) -> int | None:
    """The time of the last commit that changed `manifest`, when it has not changed since (None:
    not in git, not committed, changed, or git is not installed)."""
    folder = manifest.resolve().parent
    run = dict(cwd=folder, capture_output=True, text=True, timeout=10, check=False)
    try:
        status = subprocess.run(["git", "status", "--porcelain", "--", manifest.name], **run)
        if status.returncode != 0 or status.stdout.strip():
            return None
        log = subprocess.run(["git", "log", "-1", "--format=%ct", "--", manifest.name], **run)
    except (OSError, subprocess.SubprocessError):
        return None
    stamp = log.stdout.strip()
    return int(stamp) if log.returncode == 0 and stamp.isdigit() else None
