"""Cache keys: every entry of the face cache is keyed by the content that makes it.

A face's entries (its card images, its PDF form) are keyed by
- what it draws: its display list, serialized (`drawing`), so an edit anywhere upstream (the
  manifest, the catalogue's glyphs, the quick reference, the layout code in faces.py) that
  changes what a face shows changes its key, and one that does not keeps it;
- the bytes of every file the display list reads (`Face.files()`: the fonts of its texts, the
  icons and pictures it draws), each by its name and bytes, never by where it is: the same
  manifest and files in another folder key the same faces;
- the code that turns a display list into bytes: every file of the rendering core (render/,
  code and fonts) and of the module that assembles the entry, by hash, and the versions of the
  libraries that draw (`code_version`).
Nothing here is a hand-kept list of inputs or a hand-bumped version: a new input reaches a face
through its display list, and a new file of render/ is hashed because it is there.

Entries made from other entries (a print sheet from its faces' forms, a TTS band from its cells'
images) are keyed by those entries' keys plus their own assembling code and parameters.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import os
import pickle
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Iterable

__all__ = ["GENERATOR_DIR", "RENDER_DIR", "code_version", "drawing", "face_key", "files_digest", "forget_code", "key",
           "package_version"]

#: The rendering core (render/): its code and fonts decide how a face looks.
RENDER_DIR = Path(__file__).resolve().parent.parent / "render"
GENERATOR_DIR = RENDER_DIR.parent.parent
#: The libraries that turn a display list into bytes: reportlab (font subsets, the test page),
#: PDFium (rasterizing), Pillow (quantizing, PNG encoding, raster art), svglib (SVG art) and
#: fontTools (designer fonts' subsets). A new version may draw otherwise.
DRAWING_LIBRARIES = ("reportlab", "pypdfium2", "pillow", "svglib", "fonttools")


def key(*parts: object) -> str:
    """A hash of `parts` by their repr (strings, numbers, tuples, frozen dataclasses of them)."""
    h = hashlib.sha256()
    for part in parts:
        h.update(repr(part).encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()[:40]


@lru_cache(maxsize=None)
def code_version(*more: Path, folder: Path | None = None, libraries: tuple[str, ...] = DRAWING_LIBRARIES) -> str:
    """A hash of every file under `folder` (default: the rendering core, code and fonts), of the files
    `more` (what assembles an entry, such as a TTS sheet's bands: tts.py) and of the versions of
    `libraries`.

    Kept for the life of the process, as each file's hash is: the code it hashes is the code the
    process runs."""
    h = hashlib.sha256()
    for path in (*_files(folder or RENDER_DIR), *more):
        name = path.relative_to(GENERATOR_DIR.parent) if path.is_relative_to(GENERATOR_DIR.parent) else path.name
        h.update(str(name).replace("\\", "/").encode("utf-8") + b"\0")
        h.update(_code_digest(path))
    for lib in libraries:
        h.update(f"{lib} {package_version(lib)}\0".encode("utf-8"))
    return h.hexdigest()[:16]


def forget_code() -> None:
    """Forget the code's hashes (for a test that edits a copy of the code between builds)."""
    for kept in (code_version, _files, _code_digest):
        kept.cache_clear()


@lru_cache(maxsize=None)
def _files(folder: Path) -> tuple[Path, ...]:
    """Every file under `folder`, sorted; bytecode folders left out (they are made from the code)."""
    found = []
    for here, dirs, names in os.walk(folder):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        found += [os.path.join(here, n) for n in names]
    return tuple(sorted(Path(f) for f in found))


@lru_cache(maxsize=None)
def _code_digest(path: Path) -> bytes:
    return hashlib.sha256(path.read_bytes()).digest()


@lru_cache(maxsize=None)
def package_version(name: str) -> str:
    """The installed version of distribution `name` ("" if it is not installed).

    Read from the name of its `NAME-VERSION.dist-info` folder on sys.path, as importlib.metadata
    finds it, without importing importlib.metadata (its imports cost more than every key of a
    rebuild); importlib.metadata answers where no such folder is found."""
    wanted = _normal(name)
    for folder in sys.path:
        for entry in _dist_infos(folder or "."):
            stem, _, version = entry[:-len(".dist-info")].partition("-")
            if _normal(stem) == wanted:
                return version
    from importlib.metadata import PackageNotFoundError, version  # lazy: rarely needed (see above)

    try:
        return version(name)
    except PackageNotFoundError:
        return ""


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


@lru_cache(maxsize=None)
def _dist_infos(folder: str) -> tuple[str, ...]:
    try:
        return tuple(sorted(e for e in os.listdir(folder) if e.endswith(".dist-info")))
    except OSError:
        return ()


def drawing(face, memo: dict[Path, str] | None = None) -> bytes:
    """A face's display list as bytes: equal display lists give equal bytes, and different ones
    different bytes (pickle, its memo off, so the bytes depend on the values alone, floats exact).
    An item that draws a file (a picture, an icon, a text in a designer's font) stands by its
    file's bytes (their sha256), not by where the file is: the same manifest and files in another
    folder draw the same face."""
    items = face.items if memo is None else tuple([_by_content(i, memo) for i in face.items])
    buf = io.BytesIO()
    p = pickle.Pickler(buf, protocol=4)
    p.fast = True  # no memo: shared objects are written out in full, so object identity cannot show
    p.dump(items)
    return buf.getvalue()


#: The fields by which an item names a file it draws (items.py): a picture's or an icon's `path`,
#: a text's `font` (a designer's font file; "" for the built-in typeface, named by `bold`).
_FILE_FIELDS = ("path", "font")


def _by_content(item, memo: dict[Path, str]):
    """The item with each file it names replaced by the sha256 of the file's bytes (of the same
    type: a Path stays a Path, a string a string); an item that names none, as it is."""
    named = {name: value for name in _FILE_FIELDS if (value := getattr(item, name, ""))}
    if not named:
        return item
    return dataclasses.replace(item, **{name: type(value)(_digest(Path(value), memo)) for name, value in named.items()})


def _digest(path: Path, memo: dict[Path, str]) -> str:
    if path not in memo:
        memo[path] = hashlib.sha256(path.read_bytes()).hexdigest()
    return memo[path]


def files_digest(paths: Iterable[Path], memo: dict[Path, str]) -> list[tuple[str, str]]:
    """(file name, sha256 of its bytes) of each file, sorted: in no order that depends on where
    the files are (a project's icons beside the program's fonts sort first in one folder and
    last in another). `memo` holds the files read in one build."""
    return sorted({(path.name, memo.get(path) or _digest(path, memo)) for path in map(Path, paths)})


def face_key(face, memo: dict[Path, str]) -> str:
    """What a face draws, the files it reads and the rendering core's code, as one hash."""
    h = hashlib.sha256(drawing(face, memo))
    return key("face", code_version(), h.hexdigest(), files_digest(face.files(), memo))
