"""What the output folder holds, as the preview page shows it: cards, editions, sheets, rulebook, changes.

Everything is read from the files the last good build left (build.json, deck.json,
cards/index.json, changes.json), never from the manifest being edited: a manifest with a
mistake builds nothing, so the page keeps showing the last good build. Every file address
carries `?v=` and the first hex digits of the file's sha256 from build.json, so the browser
fetches a face again exactly when the build redrew it.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, Mapping
from urllib.parse import quote, urlencode

from generator.products.output import earlier

#: Hex digits of a file's sha256 in its address: enough to tell builds apart.
VERSION_DIGITS = 16


def _read(path: Path) -> Any:
    """The JSON in an earlier build's file, read as untrusted (earlier.py); None if unusable.
    What the page takes from it is checked where it is taken."""
    try:
        return earlier.read_json(path)
    except earlier.Unusable:
        return None


def file_url(path: str, sha256: str = "") -> str:
    """The preview's address of output file `path` (relative, with / separators)."""
    url = "/out/" + quote(path)
    return f"{url}?v={sha256[:VERSION_DIGITS]}" if sha256 else url


def thumb_url(path: str, page: int, sha256: str) -> str:
    return "/thumb?" + urlencode({"file": path, "page": page, "v": sha256[:VERSION_DIGITS]})


def read_output(out: Path) -> dict[str, Any]:
    """The page's view of the build in `out`; empty lists where no build (or no such product) is there.

    The files are read as untrusted: where one holds values of other types than a build writes
    (somebody's edit), the page shows the build without it rather than failing."""
    for attempt in ({"details": True, "changes_too": True}, {"details": True, "changes_too": False},
                    {"details": False, "changes_too": False}):
        try:
            return _view(out, **attempt)
        except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError):
            continue
    return _view(None, details=False, changes_too=False)


def _view(out: Path | None, details: bool, changes_too: bool) -> dict[str, Any]:
    record = _read(out / "build.json") if out is not None else None
    artifacts = record.get("artifacts") if isinstance(record, Mapping) else None
    files: dict[str, Mapping[str, Any]] = {a["path"]: a for a in (artifacts if earlier.is_listing(artifacts) else [])
                                           if isinstance(a, Mapping) and earlier.inside(a.get("path"))}
    sha = {path: str(a.get("sha256", "")) for path, a in files.items()}
    deck = _read(out / "deck.json") if details and out is not None and "deck.json" in files else None
    deck = deck if isinstance(deck, Mapping) else {}
    index = _read(out / "cards" / "index.json") if details and out is not None and "cards/index.json" in files else None
    faces = index.get("cards", {}) if isinstance(index, Mapping) else {}
    changes = _read(out / "changes.json") if changes_too and out is not None and "changes.json" in files else None
    changes = changes if isinstance(changes, Mapping) else {}
    return {
        "built": bool(files),
        "seconds": _seconds(record.get("seconds")) if isinstance(record, Mapping) else None,
        "game": _game(deck),
        "cards": _cards(deck, faces, sha, changes),
        "editions": _editions(deck),
        "sheets": [_sheet(path, a) for path, a in sorted(files.items(), key=_sheet_order)
                   if path.startswith("print/") and path.endswith(".pdf")],
        "rulebook": file_url("rulebook.html", sha["rulebook.html"]) if "rulebook.html" in files else None,
        "changes": {"summary": [str(line) for line in changes.get("summary", [])],
                    "files": changes.get("files", {})},
    }


def _seconds(value: Any) -> float | None:
    """build.json's `seconds` as a build writes it (a time of at most a day), else None."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 86_400
    return float(value) if ok else None


def sheet_hashes(out: Path) -> set[str]:
    """The sha256 of every print sheet the build in `out` lists (the thumbnails worth keeping)."""
    view = read_output(out)
    return {s["sha256"] for s in view["sheets"]}


def _game(deck: Mapping[str, Any]) -> dict[str, Any]:
    game = deck.get("game", {})
    return {"name": game.get("name", ""), "target": game.get("target"), "hand_size": game.get("hand_size"),
            "printed": deck.get("printed")} if isinstance(game, Mapping) else {}


def _cards(deck: Mapping[str, Any], faces: Mapping[str, Any], sha: dict[str, str],
           changes: Mapping[str, Any]) -> list[dict[str, Any]]:
    section = changes.get("cards", {}) if isinstance(changes.get("cards"), Mapping) else {}
    changed = {c.get("code") for c in section.get("changed", []) if isinstance(c, Mapping)}
    added = {c.get("code") for c in section.get("added", []) if isinstance(c, Mapping)}
    files = changes.get("files", {}) if isinstance(changes.get("files"), Mapping) else {}
    redrawn = set(files.get("redrawn", [])) if earlier.is_listing(files.get("redrawn", [])) else set()
    cards = []
    for card in deck.get("cards", []):
        if not isinstance(card, Mapping):
            continue
        code = str(card.get("code", ""))
        face = faces.get(code, {})
        image = f"cards/{face['file']}" if isinstance(face, Mapping) and isinstance(face.get("file"), str) else None
        cards.append({
            "code": code, "name": card.get("name", ""), "kind": card.get("kind", ""), "set": card.get("set", ""),
            "copies": card.get("copies", 0), "text": card.get("text", ""), "value": card.get("value"),
            "colours": card.get("colours", []),
            "image": file_url(image, sha.get(image, "")) if image and image in sha else None,
            "change": "added" if code in added else "changed" if code in changed else None,
            "redrawn": image in redrawn,  # its image is new, whatever drew it anew (a look: edit too)
        })
    return cards


def _editions(deck: Mapping[str, Any]) -> list[dict[str, Any]]:
    editions = deck.get("editions", {})
    found = []
    for key, e in (editions.items() if isinstance(editions, Mapping) else ()):
        if isinstance(e, Mapping):
            found.append({"key": key, "name": e.get("name", key), "count": e.get("count", 0),
                          "description": e.get("description", ""), "cards": dict(Counter(e.get("cards", [])))})
    return sorted(found, key=lambda e: (str(e["name"]).lower(), e["key"]))


def _sheet_order(item: tuple[str, Any]) -> tuple[int, str]:
    """The two-sided files first (the page opens the first), then the gutterfold ones, the
    fronts-only and backs-only ones, and the card-count sheets."""
    path = item[0]
    tails = ("-gutterfold.pdf", ("-fronts.pdf", "-backs.pdf"), "-card-count.pdf")
    return (next((n for n, tail in enumerate(tails, 1) if path.endswith(tail)), 0), path)


def _sheet(path: str, artifact: Mapping[str, Any]) -> dict[str, Any]:
    sha = str(artifact.get("sha256", ""))
    pages = artifact.get("pages")
    pages = pages if earlier.is_count(pages, earlier.MAX_PAGES) else 0  # a number no build writes: no thumbnails
    return {"path": path, "name": path.rpartition("/")[2], "url": file_url(path, sha), "sha256": sha,
            "pages": pages, "thumbs": [thumb_url(path, n, sha) for n in range(pages)]}
