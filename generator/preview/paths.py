"""Which file a request may read: only a regular file inside the output folder, never outside it.

A request path is decoded once (`%2e%2e` is `..`) and refused when it could step outside:
an absolute path, a `..` part, a backslash or NUL, a hidden part (`.cache`, a build's staging
folder, the folder lock), or a symbolic link that leads out of the folder once resolved.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from urllib.parse import unquote


class Refused(Exception):
    """The request names something outside the output folder: answered 403."""


def resolve_inside(root: Path, request_path: str) -> Path | None:
    """The file `request_path` (relative, still %-encoded) names inside `root`, or None when there
    is no such file; raise Refused when the path tries to leave `root`."""
    try:
        text = unquote(request_path, errors="strict")
    except UnicodeDecodeError:
        return None  # no file is named so
    if not text:
        return None
    if "\x00" in text or "\\" in text:
        raise Refused(request_path)
    rel = PurePosixPath(text)
    if rel.is_absolute() or any(part.startswith(".") for part in rel.parts):  # "..", hidden; "." is dropped
        raise Refused(request_path)
    base = root.resolve()
    try:
        found = (base / rel).resolve(strict=True)
    except (OSError, RuntimeError):  # missing, or a loop of links
        return None
    if not found.is_relative_to(base):
        raise Refused(request_path)  # a link that leads out
    return found if found.is_file() else None
