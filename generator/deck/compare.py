"""What changed between two decks: the comparison `county-uppy diff` prints and every build
writes into changes.json.

Both sides are deck.json documents (deck_json.deck_json), so a build can compare the deck it
is making with the deck.json the previous build left, and `diff` two manifests, with one
implementation. An older or partial document is compared as far as it goes: a missing
section counts as empty.
"""

from __future__ import annotations

from typing import Any, Mapping

#: Card fields compared, in the order a summary names them.
CARD_FIELDS = ("name", "kind", "set", "copies", "colours", "value", "effect", "params", "text", "art")
#: What deck.json says of an element the manifest's `look:` changes or adds (deck_json.look_json).
ELEMENT_FIELDS = ("x", "y", "width", "height", "size", "min_size", "spacing", "radius", "line", "colour", "font",
                  "bold", "align", "fit", "hidden", "file", "bleed", "text")
GAME_FIELDS = ("name", "target", "hand_size", "players", "options")
SET_FIELDS = ("name", "interior", "printed", "art")
COLOUR_FIELDS = ("code", "print", "shape", "cmyk")
EDITION_FIELDS = ("name", "description", "count", "by_kind")
#: A summary names at most this many cards per list, then says how many more there are.
SUMMARY_CARDS = 12

Doc = Mapping[str, Any]


def compare(before: Doc | None, after: Doc) -> dict[str, Any]:
    """The structured difference from deck.json `before` to deck.json `after`.

    With no `before` (a first build), every "before" is null, nothing is listed as changed
    and `same` is null: there is nothing to compare with.
    """
    known = before is not None
    old: Doc = before or {}
    game_old, game_new = _game(old) if known else None, _game(after)
    cards = _keyed([_card(c) for c in _list(old, "cards")], [_card(c) for c in _list(after, "cards")], "code", CARD_FIELDS)
    sets = _keyed(_list(old, "sets"), _list(after, "sets"), "key", SET_FIELDS)
    colours = _keyed(_list(old, "colours"), _list(after, "colours"), "name", COLOUR_FIELDS)
    editions = _editions(old, after)
    look = _look(old, after)
    printed = {"before": old.get("printed") if known else None, "after": after.get("printed")}
    diff: dict[str, Any] = {
        "same": None,
        "game": {"before": game_old, "after": game_new, "changed": _changed(game_old or {}, game_new, GAME_FIELDS) if known else {}},
        "cards": cards,
        "editions": editions,
        "sets": sets,
        "colours": colours,
        "printed": printed,
        "look": look,
    }
    if known:
        diff["same"] = not (diff["game"]["changed"] or any(cards[k] or sets[k] or colours[k] or editions[k] or look[k]
                                                           for k in ("added", "removed", "changed"))
                            or look["fonts"] or look["icons"] or printed["before"] != printed["after"])
    else:
        look.update(fonts={}, icons={})
        for section in (cards, sets, colours, editions, look):
            section.update(added=[], removed=[], changed=[])
    return diff


def summary(diff: Mapping[str, Any]) -> list[str]:
    """The difference in a few lines a designer reads after a rebuild (no trailing dots)."""
    if diff["same"] is None:
        return ["nothing to compare with"]
    if diff["same"]:
        return ["the deck is the same"]
    lines: list[str] = []
    for key, change in diff["game"]["changed"].items():
        b, a = change["before"], change["after"]
        if key == "options" and isinstance(b, Mapping) and isinstance(a, Mapping):
            lines += [f"game: option {k} {_show(b.get(k))} -> {_show(a.get(k))}" for k in dict.fromkeys([*b, *a])
                      if b.get(k) != a.get(k)]
        else:
            lines.append(f"game: {key.replace('_', ' ')} {_show(b)} -> {_show(a)}")
    for label, section, key in (("set", diff["sets"], "key"), ("colour", diff["colours"], "name")):
        lines += [f"{label} {item[key]} added" for item in section["added"]]
        lines += [f"{label} {item[key]} removed" for item in section["removed"]]
        lines += [f"{label} {item[key]} changed: {_changes(item['changes'])}" for item in section["changed"]]
    look = diff.get("look") or {}
    lines += [f"look: {e['element']} added: " + ", ".join(f"{k} {_show(v)}" for k, v in e["after"].items())
              for e in look.get("added", [])]
    lines += [f"look: {e['element']} removed" for e in look.get("removed", [])]
    lines += [f"look: {e['element']} changed: {_changes(e['changes'])}" for e in look.get("changed", [])]
    for part in ("fonts", "icons"):
        lines += [f"look: {part[:-1]} {k} {_show(c['before'])} -> {_show(c['after'])}" for k, c in look.get(part, {}).items()]
    cards = diff["cards"]
    lines += _capped([f"card {c['code']} added: {_describe(c['after'])}" for c in cards["added"]])
    lines += _capped([f"card {c['code']} removed: {_describe(c['before'])}" for c in cards["removed"]])
    lines += _capped([f"card {c['code']} changed: {_changes(c['changes'])}" for c in cards["changed"]])
    editions = diff["editions"]
    lines += [f"edition {e['key']} added" for e in editions["added"]]
    lines += [f"edition {e['key']} removed" for e in editions["removed"]]
    for key, counts in editions["counts"].items():
        b, a = counts["before"], counts["after"]
        if b is None or a is None or b == a:
            continue
        kinds = ", ".join(f"{k} {b['by_kind'].get(k, 0)} -> {a['by_kind'].get(k, 0)}"
                          for k in dict.fromkeys([*b["by_kind"], *a["by_kind"]])
                          if b["by_kind"].get(k, 0) != a["by_kind"].get(k, 0))
        lines.append(f"edition {key}: {b['count']} -> {a['count']} playing cards" + (f" ({kinds})" if kinds else ""))
    for e in editions["changed"]:
        counted = "count" in e["changes"]  # the count line above says it; the cards are listed above too
        rest = {k: v for k, v in e["changes"].items() if k not in ("count", "by_kind") and not (counted and k == "cards")}
        if rest:
            lines.append(f"edition {e['key']} changed: {_changes(rest)}")
    printed = diff["printed"]
    if printed["before"] != printed["after"]:
        lines.append(f"printed cards: {printed['before']} -> {printed['after']}")
    return lines


# --- the parts of a deck.json -------------------------------------------------------------------

def _list(doc: Doc, key: str) -> list[Mapping[str, Any]]:
    value = doc.get(key)
    return [item for item in value if isinstance(item, Mapping)] if isinstance(value, list) else []


def _look(old: Doc, new: Doc) -> dict[str, Any]:
    """The layout's changes by element (added, removed, changed: each value before and after),
    and the deck's fonts and icons that changed."""
    def part(doc: Doc, key: str) -> Any:
        look = doc.get("look")
        return look.get(key) if isinstance(look, Mapping) else None

    def elements(doc: Doc) -> list[Mapping[str, Any]]:
        found = part(doc, "elements")
        return [e for e in found if isinstance(e, Mapping)] if isinstance(found, list) else []

    out = _keyed(elements(old), elements(new), "element", ELEMENT_FIELDS)
    for key in ("fonts", "icons"):
        b, a = part(old, key), part(new, key)
        b, a = (b if isinstance(b, Mapping) else {}), (a if isinstance(a, Mapping) else {})
        out[key] = {k: {"before": b.get(k), "after": a.get(k)} for k in dict.fromkeys([*b, *a]) if b.get(k) != a.get(k)}
    return out


def _game(doc: Doc) -> dict[str, Any]:
    game = doc.get("game")
    return {k: game[k] for k in GAME_FIELDS if k in game} if isinstance(game, Mapping) else {}


def _card(card: Mapping[str, Any]) -> dict[str, Any]:
    """A card with its effect split into the effect's name and its parameters."""
    out = {k: v for k, v in card.items() if k != "effect"}
    effect = card.get("effect")
    if isinstance(effect, Mapping):
        out["effect"] = effect.get("name")
        out["params"] = dict(effect.get("params") or {})
    return out


def _editions(old: Doc, new: Doc) -> dict[str, Any]:
    def rows(doc: Doc) -> list[dict[str, Any]]:
        eds = doc.get("editions")
        if not isinstance(eds, Mapping):
            return []
        return [{"key": key, **{k: e.get(k) for k in EDITION_FIELDS if k in e}, "cards": _tally(e.get("cards"))}
                for key, e in eds.items() if isinstance(e, Mapping)]

    before, after = rows(old), rows(new)
    out = _keyed(before, after, "key", (*EDITION_FIELDS, "cards"))
    old_by, new_by = {e["key"]: e for e in before}, {e["key"]: e for e in after}
    out["counts"] = {key: {side: ({"count": e.get("count"), "by_kind": dict(e.get("by_kind") or {})} if e else None)
                           for side, e in (("before", old_by.get(key)), ("after", new_by.get(key)))}
                     for key in dict.fromkeys([*new_by, *old_by])}
    for item in out["changed"]:  # which cards came in or went out, rather than two long lists
        cards = item["changes"].pop("cards", None)
        if cards:
            b, a = cards["before"], cards["after"]
            item["changes"]["cards"] = {"added": {c: a[c] - b.get(c, 0) for c in a if a[c] > b.get(c, 0)},
                                        "removed": {c: b[c] - a.get(c, 0) for c in b if b[c] > a.get(c, 0)}}
    return out


def _tally(codes: Any) -> dict[str, int]:
    counts: dict[str, int] = {}
    for code in codes if isinstance(codes, list) else []:
        counts[str(code)] = counts.get(str(code), 0) + 1
    return counts


def _keyed(before: list[Mapping[str, Any]], after: list[Mapping[str, Any]], key: str,
           fields: tuple[str, ...]) -> dict[str, Any]:
    """Items added, removed and changed, matched by `key`; for a change, each field before and after."""
    old = {item.get(key): item for item in before}
    new = {item.get(key): item for item in after}
    view = lambda item: {k: item[k] for k in fields if k in item}  # noqa: E731
    return {
        "added": [{key: k, "after": view(new[k])} for k in new if k not in old],
        "removed": [{key: k, "before": view(old[k])} for k in old if k not in new],
        "changed": [{key: k, "changes": ch} for k in new if k in old and (ch := _changed(old[k], new[k], fields))],
    }


def _changed(old: Mapping[str, Any], new: Mapping[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    return {k: {"before": old.get(k), "after": new.get(k)} for k in fields
            if (k in old or k in new) and old.get(k) != new.get(k)}


# --- words ---------------------------------------------------------------------------------------

def _show(value: Any) -> str:
    if isinstance(value, Mapping):
        if set(value) == {"min", "max"}:
            return f"{value['min']}-{value['max']}"
        return "{" + ", ".join(f"{k} {_show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "/".join(_show(v) for v in value) or "none"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value) if value != "" else "''"
    return str(value)


def _changes(changes: Mapping[str, Any]) -> str:
    parts = []
    for field, change in changes.items():
        b, a = change.get("before"), change.get("after")
        if field == "params" and isinstance(b, Mapping) and isinstance(a, Mapping):
            parts += [f"param {k} {_show(b.get(k))} -> {_show(a.get(k))}" for k in dict.fromkeys([*b, *a]) if b.get(k) != a.get(k)]
        elif field == "cards" and set(change) == {"added", "removed"}:
            moved = [f"+{n} {c}" for c, n in change["added"].items()] + [f"-{n} {c}" for c, n in change["removed"].items()]
            parts.append("cards " + " ".join(moved))
        else:
            parts.append(f"{field} {_show(b)} -> {_show(a)}")
    return ", ".join(parts)


def _describe(card: Mapping[str, Any]) -> str:
    copies = card.get("copies")
    bits = [str(card.get(k)) for k in ("kind", "set") if card.get(k)]
    if copies is not None:
        bits.append(f"{copies} {'copy' if copies == 1 else 'copies'}")
    return f"{card.get('name', '?')} ({', '.join(bits)})"


def _capped(lines: list[str]) -> list[str]:
    if len(lines) <= SUMMARY_CARDS:
        return lines
    return lines[:SUMMARY_CARDS] + [f"... and {len(lines) - SUMMARY_CARDS} more (the JSON lists them all)"]
