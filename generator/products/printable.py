"""Checks that a deck can be printed, run by `validate` and before every build: what passes here builds.

The deck layer checks the manifest's form and meaning; whether a character can be drawn is
a question for the typeface, which lives with the products. Each problem is located in the
manifest (`cards.yaml:56:11: ...`) and names the card and the character, so a designer knows
what to change before a build fails half-way through drawing the faces.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from generator.deck.look import ELEMENTS, Element, Layout
from generator.deck.model import CardType, Deck, Origin, Place
from generator.deck.problems import Problem, char_name
from generator.products import print_rules
from generator.products.render import typeface as tf
from generator.products.render import faces
from generator.products.render.faces import MIN_TEXT, face
from generator.products.render.items import Face, Fitted
from generator.products.render.press.shops import lowest_ink_limit
from generator.products.render.units import dots_to_pt

MM_PER_DOT = 25.4 / 300


def problems(deck: Deck) -> list[Problem]:
    """Located problems that would stop `build` for this deck (none for a printable deck).

    Each is placed where the deck says its part was written (`origin`): a named card at its
    `name:` or `text:`, a number card at its own item of `values:`; the manifest is not read again."""
    broken = print_rules.file_problems(deck)
    if broken:
        return broken  # a picture or font that cannot be read: nothing can be measured with it
    found: list[Problem] = []
    back = deck.look.layout("back")
    for ch in _undrawable(deck.params.name, _fonts(back, ("title",))):
        found.append(_at(deck.params.origin, "name", f"the game's name holds {char_name(ch)}, which "
                         f"{_typeface(back, ('title',))} cannot draw on the card backs; use another character"))
    for card in deck.cards:
        lay = faces.layout(card, deck)
        for field, names in (("name", NAME_ELEMENTS), ("text", TEXT_ELEMENTS)):
            for ch in _undrawable(getattr(card, field), _fonts(lay, names)):
                found.append(_at(card.origin, field, f"card '{card.code}': its {field} holds {char_name(ch)}, which "
                                 f"{_typeface(lay, names)} cannot draw; use another character"))
        glyph = lay["glyph"] if card.kind == "wild" else None
        if glyph is not None and glyph.font and not glyph.hidden:  # the built-in face draws every catalogue glyph
            sign = faces.wild_glyph(card, faces.icons_of(deck))
            for ch in _undrawable(sign, (glyph.font,)):
                place = glyph.origin.of("font") if glyph.origin is not None else card.origin.at if card.origin else None
                found.append(Problem.at(place, f"card '{card.code}': its glyph {sign} holds {char_name(ch)}, which the "
                                        f"font {Path(glyph.font).name} cannot draw; give the glyph element another "
                                        "font, or the effect an icon picture (look: icons:)"))
    found += _drawn_glyphs(deck, found)
    found += print_rules.small_elements(deck) or _too_small(deck)
    found += _own_cmyk(deck)
    found += print_rules.problems(deck)
    return sorted(set(found))


#: The elements that print a card's name, and its text.
NAME_ELEMENTS = ("corner", "name", "title")
TEXT_ELEMENTS = ("text", "body")


def _fonts(lay: Layout, names: tuple[str, ...]) -> tuple[str, ...]:
    """The font files the shown elements `names` of a face print in ("" for the built-in typeface)."""
    found = {lay[n].font for n in names if n in ELEMENTS[lay.kind] and not lay[n].hidden}
    return tuple(sorted(found)) or ("",)


def _typeface(lay: Layout, names: tuple[str, ...]) -> str:
    fonts = [f for f in _fonts(lay, names) if f]
    return f"the font {', '.join(Path(f).name for f in fonts)}" if fonts else "the typeface (DejaVu Sans)"


def _drawn_glyphs(deck: Deck, found: list[Problem]) -> list[Problem]:
    """Every character a face draws that the font drawing it lacks, beyond the card names and
    texts checked above: a number's value (its minus sign), a number card's colour names, the
    quick reference's lines and bullets, the back's title, an added text. One problem per font
    and character, at the line that chose the font, naming the first card that shows it."""
    reported = {ch for p in found for _, ch in _named(p.message)}  # a card's name or text: the quick reference repeats it
    missing: dict[tuple, list[str]] = {}
    for card, drawn in [(c, face(c, deck)) for c in deck.cards] + [(None, faces.back_face(deck))]:
        lay = faces.layout(card, deck) if card is not None else deck.look.layout("back")
        for text in drawn.texts():
            for ch in dict.fromkeys(text.text):
                if _has(ch, text.bold, text.font):
                    continue
                who = f"card '{card.code}'" if card is not None else "the back"
                if ch in reported:
                    continue
                missing.setdefault((_font_place(deck, lay, text.font, card), ch, text.font, text.bold), []).append(who)
    out = []
    for (place, ch, font, bold), who in missing.items():
        shown = list(dict.fromkeys(who))
        more = f" (and {len(shown) - 1} more card{'s' if len(shown) > 2 else ''})" if len(shown) > 1 else ""
        typeface = f"the font {Path(font).name}" if font else "the typeface (DejaVu Sans)"
        out.append(Problem.at(place, f"{shown[0]}{more} prints {char_name(ch)}, which {typeface} cannot draw (it would "
                              "print as an empty box); give that text a font that has it"))
    return out


@lru_cache(maxsize=4096)
def _has(ch: str, bold: bool, font: str) -> bool:
    return ch.isspace() or tf.has_glyph(ch, bold, font)


def _named(message: str) -> list[tuple[str, str]]:
    """(the card, the character) a glyph problem above names: "card 'SKIP': ... U+00D7 (...)"."""
    card = re.match(r"(card '.*?'|the game's name)", message)
    who = "the back" if card and card.group(1) == "the game's name" else card.group(1) if card else ""
    return [(who, chr(int(code, 16))) for code in re.findall(r"U\+([0-9A-F]{4,6}) \(", message)]


def _font_place(deck: Deck, lay: Layout, font: str, card) -> Place | None:
    """Where the font a text is drawn in was chosen: the `font:` of an element the look changed,
    else the deck's `fonts:` entry, else the card's own entry (the built-in typeface)."""
    for el in (*lay.elements, *lay.added):
        if font and el.font == font and el.origin is not None and any(k == "font" for k, _ in el.origin.fields):
            return el.origin.of("font")
    look = deck.look
    for weight, path in look.fonts:
        if font and path is not None and str(path) == font and look.fonts_origin is not None:
            return look.fonts_origin.of(weight)
    origin = card.origin if card is not None else deck.params.origin
    return origin.at if origin is not None else None


def _own_cmyk(deck: Deck) -> list[Problem]:
    """Colours whose own CMYK (`cmyk:`) no shop file could print as given: more total ink than
    the CMYK shop with the lowest limit allows (render/press/shops.py), or another CMYK for the same
    print colour."""
    out: list[Problem] = []
    strictest = lowest_ink_limit()
    given: dict[str, tuple[str, tuple[int, ...]]] = {}
    for colour in deck.colours:
        if colour.cmyk is None:
            continue
        total = sum(colour.cmyk)
        if strictest is not None and strictest.ink_limit is not None and total > strictest.ink_limit:
            out.append(_at(colour.origin, "cmyk", f"colour '{colour.name}': cmyk {list(colour.cmyk)} is {total}% of ink, "
                           f"over the {strictest.ink_limit}% limit of {strictest.title}; lower it"))
        other = given.setdefault(colour.rgb, (colour.name, colour.cmyk))
        if other[1] != colour.cmyk:
            out.append(_at(colour.origin, "cmyk", f"colour '{colour.name}' prints as {colour.rgb}, like '{other[0]}', "
                           f"but gives another cmyk ({list(colour.cmyk)} against {list(other[1])})"))
    return out


def _at(origin: Origin | None, field: str | None, message: str) -> Problem:
    """A problem at the part's `field` (at the part itself when None, or when it has no such key)."""
    if origin is None:
        return Problem.at(None, message)
    return Problem.at(origin.of(field) if field else origin.at, message)


def _too_small(deck: Deck) -> list[Problem]:
    """Texts that would have to shrink below the 6.5 pt minimum to fit (faces.MIN_TEXT), or that
    run out of their element's box when held at its `min_size` (the quick reference's body is
    held at 7 pt).

    The faces are laid out exactly as the build lays them out (each face records how it set each
    text element: items.Fitted), so what passes here prints at 6.5 pt or more, inside its box. A
    text element whose box the look moved or sized is the cause when its text does not fit: one
    problem at that key of the element, naming the first card; otherwise each card is named at
    what it prints (its name, its text, its values' item). Only worth running on text the
    typeface can draw (else layout is moot).
    """
    out: list[Problem] = []
    caused: dict[tuple, list[tuple[str, Fitted, Element]]] = {}
    shown: list[tuple[CardType | None, Layout, Face]] = []
    for card in deck.cards:
        lay = faces.layout(card, deck)
        if any(_undrawable(getattr(card, f), _fonts(lay, names))
               for f, names in (("name", NAME_ELEMENTS), ("text", TEXT_ELEMENTS))):
            continue
        try:
            shown.append((card, lay, face(card, deck)))
        except Exception:  # noqa: BLE001 -- a face that cannot be drawn is the build's to report, naming the card
            continue
    shown.append((None, deck.look.layout("back"), faces.back_face(deck)))
    for card, lay, drawn in shown:
        for fitted in drawn.fitted:
            if fitted.size >= MIN_TEXT - 1e-6 and fitted.fits:
                continue
            el = next(e for e in (*lay.elements, *lay.added) if e.name == fitted.element)
            who = f"card '{card.code}'" if card is not None else "the back"
            key = _sized_by_look(el, fitted)
            if key is not None:
                caused.setdefault((el.origin.of(key), el.name, key, fitted.fits), []).append((who, fitted, el))
            else:
                out.append(_content_problem(deck, card, el, fitted))
    for (place, name, key, fits), found in caused.items():
        who, fitted, el = min(found, key=lambda f: f[1].size)
        cards = list(dict.fromkeys(w for w, _, _ in found))
        more = f" (and {len(cards) - 1} more card{'s' if len(cards) > 2 else ''})" if len(cards) > 1 else ""
        box = f"{el.width * MM_PER_DOT:.1f} × {el.height * MM_PER_DOT:.1f} mm"
        pt = f"{dots_to_pt(fitted.size):.1f} pt"
        if fitted.size < MIN_TEXT - 1e-6:
            what = (f"{who}{more} would print at {pt} to fit in it; the smallest legible size is 6.5 pt: make the box "
                    "larger")
        else:
            what = (f"{who}{more} runs out of it even at {pt}, its min_size; make the box larger, or min_size smaller "
                    "(6.5 pt at least)")
        out.append(Problem.at(place, f"element '{name}' ({box}) is too small for what it holds: {what}"))
    return out


#: The keys of an element that size what its text fits in, the most likely cause first.
SIZING = ("width", "height", "size", "min_size", "x", "y")


def _sized_by_look(el: Element, fitted: Fitted) -> str | None:
    """The key of `el` the look wrote that sizes its text (its box, size or min_size), or None
    when the element is the default's (the card's own words are then what does not fit)."""
    if el.origin is None:
        return None
    written = {k for k, _ in el.origin.fields}
    order = SIZING if fitted.size < MIN_TEXT - 1e-6 else ("min_size", *SIZING)
    return next((k for k in order if k in written), None)


#: What each element prints, in a message naming a card.
SAYS = {"corner": "its corner", "value": "its value", "glyph": "its glyph", "title": "its name", "name": "its name",
        "text": "its text", "body": "the quick reference"}


def _content_problem(deck: Deck, card: CardType | None, el: Element, fitted: Fitted) -> Problem:
    """A text of the default layout that does not fit: the card's words (or the game's name) are
    the cause, named at the line that writes them."""
    pt = f"{dots_to_pt(fitted.size):.1f} pt"
    small = fitted.size < MIN_TEXT - 1e-6
    if card is None:
        return _at(deck.params.origin, "name", f"the game's name would print at {pt} to fit on the card backs; the "
                   "smallest legible size is 6.5 pt: shorten it" if small else
                   f"the game's name runs out of the back's title box at {pt}: shorten it")
    if card.is_number:  # its title is made of its colours' names: the card's own place is its item of `values:`
        what = "its colour names" if el.name == "name" else SAYS.get(el.name, f"element '{el.name}'")
        drawn = " / ".join(deck.colour(c).name.upper() for c in card.colours) if el.name == "name" else ""
        fix = "shorten the colour's name" if el.name == "name" else f"give element '{el.name}' more room"
        return _at(card.origin, None, f"card '{card.code}': {what}{f' ({drawn})' if drawn else ''} would print at {pt} "
                   f"to fit on the card; the smallest legible size is 6.5 pt: {fix}" if small else
                   f"card '{card.code}': {what} runs out of its box at {pt}: {fix}")
    if card.kind == "reference":
        where = "code" if el.name == "body" else "name"
        fix = ("shorten the wild cards' names or texts, or the rules lines it lists" if el.name == "body" else "shorten it")
        return _at(card.origin, where, f"card '{card.code}': {SAYS.get(el.name, 'its text')} would print at {pt} to fit "
                   f"on one face; the smallest legible size is 6.5 pt: {fix}" if small else
                   f"card '{card.code}': {SAYS.get(el.name, 'its text')} does not fit its box even at {pt}, the smallest "
                   f"it prints at (the element's min_size): {fix}")
    where = "text" if el.name == "text" and card.text else "code" if el.name in ("glyph",) or el.name.startswith("+") \
        else "name" if el.name in ("name", "corner", "title") else "code"
    what = SAYS.get(el.name, f"its text '{el.text}'")
    return _at(card.origin, where, f"card '{card.code}': {what} would print at {pt} to fit on the card; the smallest "
               "legible size is 6.5 pt: shorten it" if small else
               f"card '{card.code}': {what} runs out of its box even at {pt}, the smallest it may print at (the "
               "element's min_size): shorten it")


def _undrawable(text: str, fonts: tuple[str, ...] = ("",)) -> list[str]:
    """The characters of `text` (each once, in order) missing from one of `fonts` (a font file, or
    "": the built-in typeface, regular or bold)."""
    return [ch for ch in dict.fromkeys(text) if not all(_drawable(ch, font) for font in fonts)]


@lru_cache(maxsize=4096)
def _drawable(ch: str, font: str = "") -> bool:
    """Kept per character: a deck's texts share a few dozen, and validate asks about each often.
    The built-in typeface must draw it in both weights; a font file, in itself."""
    if font:
        return ch.isspace() or tf.has_glyph(ch, font=font)
    return ch.isspace() or (tf.has_glyph(ch) and tf.has_glyph(ch, True))
