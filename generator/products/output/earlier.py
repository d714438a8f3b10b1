"""The files an earlier build left in OUT (build.json, deck.json, changes.json, the commit
journal, the cache stamps), read as untrusted input.

Anyone may have edited them, a disk may have damaged them, and an older or newer version may
have written them. Each is read only as a regular file (not through a link, not a FIFO or a
device) of at most MAX_BYTES, and its JSON only to a bounded depth; its shape is then checked
by the reader that needs it. Any mistake raises Unusable, which the build takes as "no usable
earlier build": one line of warning, then a full build, never a traceback or a hang.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from generator.deck.input_file import Unread, read_regular

#: The largest earlier-build file read: a build.json of the largest manifest is some 500 KiB.
MAX_BYTES = 16 * 1024 * 1024
#: The most entries a listing (build.json's files, a journal's moves) may hold.
MAX_ENTRIES = 100_000
SHA256 = re.compile(r"[0-9a-f]{64}")
#: The most pages a listed PDF may claim, and cards a listed file: far past any deck (the shipped
#: one's largest print file has 50 pages, 212 cards), so a number no build writes (`pages:
#: 100000000`, which had watch's page list 100 million thumbnails) makes the listing unusable.
MAX_PAGES = 10_000
MAX_CARDS = 1_000_000


class Unusable(ValueError):
    """An earlier build's file that cannot be used as it is; the message says why, in a few words."""


def read_bytes(path: Path, limit: int = MAX_BYTES) -> bytes | None:
    """The bytes of `path`, or None when there is no such file; Unusable for anything else than
    a regular file of at most `limit` bytes (checked while reading), a link included."""
    try:
        return read_regular(path, limit, follow=False)
    except Unread as u:
        if u.why == "missing":
            return None
        if u.why == "not a file":
            raise Unusable("it is not a regular file") from None
        if u.why == "too large":
            raise Unusable(f"it is {u.size:,} bytes, more than {limit:,}") from None
        if u.why == "grew":
            raise Unusable(f"it holds more than {limit:,} bytes") from None
        if path.is_symlink():
            raise Unusable("it is a symlink") from None
        raise Unusable(f"it cannot be read ({u.error.strerror or u.error})" if u.error else "it cannot be read") from None


def read_json(path: Path, limit: int = MAX_BYTES) -> Any:
    """The JSON value in `path`, or None when there is no such file; Unusable otherwise."""
    raw = read_bytes(path, limit)
    if raw is None:
        return None
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise Unusable("it is not UTF-8 text") from None
    except RecursionError:
        raise Unusable("its JSON is nested too deeply") from None
    except ValueError as exc:
        raise Unusable(f"it is not valid JSON ({str(exc)[:80]})") from None


def need(ok: bool, what: str) -> None:
    """Unusable(`what`) unless `ok`: one check of a file's shape."""
    if not ok:
        raise Unusable(what)


def is_count(value: Any, most: int = (1 << 53) - 1) -> bool:
    """A whole number from 0 to `most` (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= most


def is_listing(value: Any) -> bool:
    """A list of at most MAX_ENTRIES items."""
    return isinstance(value, list) and len(value) <= MAX_ENTRIES


def listing(record: Any, build_json: str, kinds: tuple[str, ...]) -> list[dict[str, Any]]:
    """The entries of a build.json, each checked: a path inside OUT, a kind (of `kinds`), counts, a
    sha256 and the product that made it; Unusable at the first mistake."""
    need(isinstance(record, dict), "it is not a JSON object")
    entries = record.get("artifacts")
    need(is_listing(entries), f"its 'artifacts' is not a list of at most {MAX_ENTRIES:,} entries")
    seen: set[str] = set()
    for entry in entries:
        need(isinstance(entry, dict), "an entry is not a JSON object")
        path = entry.get("path")
        need(inside(path) and path != build_json and path not in seen, f"an entry's path is {_shown(path)}")
        seen.add(path)
        need(entry.get("kind") in kinds, f"{path}: its kind is {_shown(entry.get('kind'))}")
        for count, most in (("cards", MAX_CARDS), ("pages", MAX_PAGES)):
            need(is_count(entry.get(count, 0), most), f"{path}: its {count} is {_shown(entry.get(count))}")
        need(isinstance(entry.get("sha256"), str) and SHA256.fullmatch(entry["sha256"]) is not None,
             f"{path}: its sha256 is {_shown(entry.get('sha256'))}")
        need(isinstance(entry.get("product", ""), str), f"{path}: its product is {_shown(entry.get('product'))}")
    return entries


def inside(rel: Any) -> bool:
    """Is `rel` a relative path that stays inside the folder (no '..', no backslash, no NUL)?"""
    if not isinstance(rel, str) or not rel or len(rel) > 4096 or "\\" in rel or "\0" in rel:
        return False
    parts = rel.split("/")
    return not rel.startswith("/") and all(p not in ("", ".", "..") for p in parts)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
