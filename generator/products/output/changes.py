"""changes.json: what this build changed against the previous one in the same output folder.

The deck comparison is deck/compare.py's (the one `county-uppy diff` prints), made between the
deck.json the previous build left and the deck being built; the product files are compared
by the sha256s the previous build.json lists (listing.Previous, read once per build). It runs
inside the build, before the commit, so it reads the previous build's files while they are
still in place, and changes.json is part of the same all-or-nothing commit as everything else.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Mapping

from generator.deck.compare import compare, summary
from generator.products.output.listing import Previous
from generator.products.output import earlier
from generator.products.output.outputs import Artifact, WriteTarget, json_bytes

CHANGES_JSON = "changes.json"
DECK_JSON = "deck.json"
#: The summary names the files themselves when there are at most this many.
NAMED_FILES = 6


def write_changes(target: WriteTarget, document: Mapping[str, Any], artifacts: list[Artifact], previous: Previous,
                  kept: Iterable[Artifact] = ()) -> tuple[Artifact, list[str]]:
    """Compare with the previous build in `target.dest` (its build.json, as read once per build:
    `previous`), write changes.json into `target`, and return it with the summary's lines for
    the user.

    `document` is the deck.json this build writes (products/deck_json.py's deck_document).

    `artifacts` are the files this build made; `kept` those it lists without making them again
    (another product's files, left as they were by an `--only` build): neither added nor removed.
    """
    listed = {a.path: a.sha256 for a in previous.artifacts if a.path != CHANGES_JSON}
    before = _read(target.dest / DECK_JSON) if DECK_JSON in listed else None
    files = _files(listed, [*artifacts, *kept])
    diff, lines = _compared(before, document, previous.found, files)
    record = {"previous": {"build": previous.found, "deck": diff["same"] is not None}, **diff,
              "files": files, "summary": lines}
    return target.write(CHANGES_JSON, json_bytes(record), "json"), lines


def summary_again(dest: Path, document: Mapping[str, Any], listed: Iterable[str]) -> list[str]:
    """The summary's lines of the next build into `dest` when nothing changes before it: the
    deck.json now in `dest` (when the build.json now there, `listed`, names it) against the same
    deck, and the same files."""
    before = _read(dest / DECK_JSON) if DECK_JSON in listed else None
    return _compared(before, document, True, _files({}, []))[1]


def _read(path: Path) -> Any:
    """The JSON in `path` (read as untrusted: earlier.py), or None when it is missing or cannot
    be used (then there is nothing to compare)."""
    try:
        return earlier.read_json(path)
    except earlier.Unusable:
        return None


def _compared(before: Any, document: Mapping[str, Any], had_build: bool,
              files: dict[str, list[str]]) -> tuple[dict[str, Any], list[str]]:
    """The deck comparison and the summary's lines. The earlier deck.json is compared only when it
    has deck.json's shape (`_deck_shaped`) and the comparison goes through: one edited by hand
    into other types counts as no deck.json, never as an error of the build."""
    if _deck_shaped(before):
        try:
            diff = compare(before, document)
            return diff, _summary(had_build, diff, files)
        except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError):
            pass
    diff = compare(None, document)
    return diff, _summary(had_build, diff, files)


def _deck_shaped(doc: Any) -> bool:
    """Does `doc` have deck.json's shape where the comparison reads it: its sections of the right
    types, each card with a text code and its effect's parameters a mapping?"""
    if not isinstance(doc, Mapping) or not isinstance(doc.get("game", {}), Mapping):
        return False
    for section, ident in (("cards", "code"), ("sets", "key"), ("colours", "name")):
        items = doc.get(section, [])
        if not earlier.is_listing(items) or not all(isinstance(i, Mapping) and isinstance(i.get(ident), str)
                                                    for i in items):
            return False
    editions = doc.get("editions", {})
    if not isinstance(editions, Mapping) or len(editions) > earlier.MAX_ENTRIES or not all(
            isinstance(e, Mapping) and isinstance(e.get("by_kind", {}), Mapping) and earlier.is_listing(e.get("cards", []))
            for e in editions.values()):
        return False
    for card in doc.get("cards", []):
        effect = card.get("effect")
        if effect is not None and not (isinstance(effect, Mapping) and isinstance(effect.get("params") or {}, Mapping)):
            return False
    return True


def _files(before: dict[str, str], artifacts: list[Artifact]) -> dict[str, list[str]]:
    after = {a.path: a.sha256 for a in artifacts if a.path != CHANGES_JSON}
    if not before:
        return {"added": [], "removed": [], "redrawn": []}
    return {"added": sorted(p for p in after if p not in before),
            "removed": sorted(p for p in before if p not in after),
            "redrawn": sorted(p for p in after if p in before and before[p] != after[p])}


def _summary(had_build: bool, diff: dict[str, Any], files: dict[str, list[str]]) -> list[str]:
    if not had_build:
        return ["changes: nothing to compare with (no earlier build in this folder)"]
    lines = ["changes since the previous build:"]
    if diff["same"] is None:
        lines.append(f"  the previous build wrote no {DECK_JSON}: its cards cannot be compared")
    else:
        lines += [f"  {line}" for line in summary(diff)]
    counts = ", ".join(f"{len(files[k])} {k}" for k in ("added", "removed", "redrawn"))
    if not any(files.values()):
        lines.append("  files: none added, removed or redrawn")
    elif sum(map(len, files.values())) <= NAMED_FILES:
        lines.append("  files: " + "; ".join(f"{k} {', '.join(files[k])}" for k in ("added", "removed", "redrawn") if files[k]))
    else:
        lines.append(f"  files: {counts} ({CHANGES_JSON} lists them)")
    return lines
