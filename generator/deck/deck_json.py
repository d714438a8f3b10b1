"""output/deck.json: the validated deck, every edition expanded to card instances, for other tools."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from generator.deck.look import LENGTH_KEYS, Look
from generator.deck.model import CardType, Deck


def card_json(card: CardType, deck: Deck) -> dict[str, Any]:
    """A card for other tools: its name and text in plain words (inline icons said as words,
    deck/icons.py)."""
    out: dict[str, Any] = {"code": card.code, "kind": card.kind, "set": card.set, "name": deck.words(card.name, card),
                           "copies": card.copies}
    if card.colours:
        out["colours"] = list(card.colours)
    if card.value is not None:
        out["value"] = card.value
    if card.effect is not None:
        if card.effect.name:
            out["effect"] = {"name": card.effect.name, "params": dict(card.effect.params)}
        out["does"] = [{s.kind: s.args[0][1] if s.args and s.args[0][0] == s.kind else s.mapping} for s in card.effect.steps]
        if not card.effect.playable:
            out["rule"] = card.effect.rule
    if card.text:
        out["text"] = deck.words(card.text, card)
    if card.art is not None:
        out["art"] = _art(card.art, _folder(card.origin))
    return out


def _folder(origin: Any) -> Path | None:
    """The manifest's folder, where the deck says a part was written (None for a deck made in code)."""
    return origin.at.home() if origin is not None and origin.at.path else None


def _file(path: Any, folder: Path | None) -> str:
    """A file the manifest names, as it names it (relative to its folder), for the same text anywhere."""
    path = Path(path)
    return path.relative_to(folder).as_posix() if folder is not None and path.is_relative_to(folder) else path.name


def _art(art: Any, folder: Path | None) -> dict[str, Any]:
    return {"file": _file(art.path, folder), "fit": art.fit, "bleed": art.bleed}


def look_json(look: Look) -> dict[str, Any]:
    """The manifest's `look:` as deck.json lists it: the deck's fonts and icons, and each element
    it changes or adds, named "KIND ELEMENT", "set SET KIND ELEMENT" or "card CODE ELEMENT" (an
    added one "+NAME"), with the values it gives (lengths in mm, files as the manifest names them)."""
    folder = _folder(look.origin)
    elements = []
    for layer in look.layers:
        scope = {"kind": layer.kind, "set": f"set {layer.key} {layer.kind}", "card": f"card {layer.key}"}[layer.scope]
        for name, change in layer.changes:
            elements.append({"element": f"{scope} {name}", **{k: _value(k, v, folder) for k, v in change}})
        for el in layer.added:
            given = {"text": el.text} if el.text else {"file": _file(el.file, folder)}
            elements.append({"element": f"{scope} +{el.name}", **given,
                             **{k: _value(k, getattr(el, k), folder) for k in ("x", "y", "width", "height", "size")}})
    return {"fonts": {weight: _file(p, folder) for weight, p in look.fonts if p is not None},
            "icons": {name: _file(p, folder) for name, p in look.icons},
            "elements": elements}


def _value(key: str, value: Any, folder: Path | None) -> Any:
    if key in LENGTH_KEYS:
        return f"{value * 25.4 / 300:.2f}mm"
    if key in ("file", "font"):
        return _file(value, folder)
    if key == "align":  # as the manifest writes it, not the layout's one-letter code
        return {"l": "left", "m": "centre", "r": "right"}.get(value, value)
    return value


def deck_json(deck: Deck) -> dict[str, Any]:
    p = deck.params
    out: dict[str, Any] = {
        "game": {"name": p.name, "target": p.target, "hand_size": p.hand_size, "players": {"min": p.min_players, "max": p.max_players}},
        "colours": [{"name": c.name, "code": c.letter, "print": c.rgb, "shape": c.shape,
                     **({"cmyk": list(c.cmyk)} if c.cmyk else {})} for c in deck.colours],
        "sets": [{"key": s.key, "name": s.name, "interior": s.interior, "printed": deck.set_totals()[s.key],
                  **({"art": _art(s.art, _folder(s.origin))} if s.art is not None else {})} for s in deck.sets],
        "printed": deck.printed,
        "cards": [card_json(c, deck) for c in deck.cards],
        "editions": {
            e.key: {
                "name": e.name,
                "description": e.description,
                "count": deck.edition_count(e.key),
                "by_kind": deck.edition_breakdown(e.key),
                "cards": [c.code for c in deck.edition_cards(e.key)],
            }
            for e in deck.editions
        },
    }
    if deck.look.layers or deck.look.icons or any(weight for weight, path in deck.look.fonts if path):
        out["look"] = look_json(deck.look)  # only a manifest with a look: the shipped deck.json is as it was
    return out
