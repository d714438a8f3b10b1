"""Print rules for whatever the layout draws, checked by `validate` and before every build.

The manifest's `look:` may move, resize and add elements and put pictures and fonts on the
cards; these checks keep what it draws printable, each problem at the line of the element (or
of the card, or of the file entry) that causes it:

- every picture and font file the deck names can be read and used (render/assets/art.py's `inspect`,
  render/assets/font_files.py's `inspect_font`: missing, unreadable, not a picture or a font, too large,
  a licence that forbids embedding);
- no text element set under 6.5 pt (the text a card actually prints is checked by printable.py);
- nothing that must be read (texts: the corner, value, name, glyph, text, title, body, added
  texts) outside the safe zone, 1/8 in inside the trim;
- no edge of a frame, an interior or a picture between the bleed's edge and 1/16 in inside the
  trim, where a miscut of 1/16 in would show it or cut it off; and, as a warning, none between
  there and 7.9 mm inside the trim, where that miscut makes the borders on opposite sides differ
  by more than 1.5:1.

Backs are identical within every set by construction: the deck has one back (`look: back:`), and
the manifest refuses a set's own back at its line. Raster art below 300 dpi where it prints is a
warning (`warnings`), not an error.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

from generator.deck.look import BORDER_MIN, EDGED, READ, Element, Layout
from generator.deck.model import Deck, Origin, Place
from generator.deck.problems import Problem
from generator.products import picture_verdicts
from generator.products.render import faces
from generator.products.render.faces import MIN_TEXT, MISCUT, art_box
from generator.products.render.items import H, W, Text
from generator.products.render.units import BLEED, SAFE, dots_to_pt

MM_PER_DOT = 25.4 / 300


def problems(deck: Deck) -> list[Problem]:
    """Every print-rule problem of the deck's look (none for the default look of a good deck)."""
    if file_problems(deck):
        return []  # a face that names a broken file cannot be laid out (printable.py reports the files)
    found: list[Problem] = []
    seen: set[tuple] = set()
    for who, lay, drawn, origin in _faces(deck):
        for problem in _safe(who, lay, drawn, origin) + _miscut(who, lay) + _identified(lay):
            # one message per place: the cards of one `values:` item overflow alike
            key = (problem.path, problem.line, problem.column) if problem.message.startswith("card '") else \
                (problem.path, problem.line, problem.column, problem.message)
            if key not in seen:
                seen.add(key)
                found.append(problem)
    return sorted(found)


def small_elements(deck: Deck) -> list[Problem]:
    """Text elements the look sets under 6.5 pt, each once at its `size:` (printable.py checks the
    sizes the texts of each card need only when there are none: one cause, one message)."""
    if file_problems(deck):
        return []
    return sorted({p for who, lay, _, _ in _faces(deck) for p in _small(who, lay)})


def warnings(deck: Deck) -> list[Problem]:
    """Pictures that print below 300 dpi in their box, naming the effective dpi (render/assets/art.py);
    variable fonts, of which the faces print the default instance alone."""
    out: dict[tuple, Problem] = {}
    for place, path in _font_entries(deck):
        from generator.products.render.assets.font_files import inspect_font  # lazy: only a deck with fonts asks

        axes = inspect_font(path).axes
        if axes:
            ranges = ", ".join(f"{tag} {lo:g}..{hi:g}, default {at:g}" for tag, lo, at, hi in axes)
            message = (f"{Path(path).name} is a variable font ({ranges}): the cards print its default instance "
                       "alone; for another weight or width, use a static instance of it")
            out.setdefault((place, message), Problem.at(place, message))
    for who, lay, _, origin in _faces(deck):
        for problem in _lopsided(who, lay):
            out.setdefault((problem, problem.message), problem)
        for el in _pictures(lay):
            from generator.products.render.assets import art  # lazy: only a deck with pictures asks

            x0, y0, x1, y1 = art_box(el)
            message = art.dpi_warning(Path(el.file).name, art.picture_info(el.file), x1 - x0, y1 - y0, el.fit)
            if message:
                place = _place(el, "file", origin)
                out.setdefault((place, message), Problem.at(place, message))
    return sorted(out.values())


def _font_entries(deck: Deck) -> list[tuple[Place | None, Path]]:
    """Each font file the look names, with where it names it."""
    look = deck.look
    found = [(look.fonts_origin.of(weight) if look.fonts_origin else None, Path(path))
             for weight, path in look.fonts if path is not None]
    for layer in look.layers:
        origins = dict(layer.origins)
        for name, change in layer.changes:
            font = dict(change).get("font")
            if font:
                found.append((origins[name].of("font") if origins.get(name) else None, Path(font)))
        found += [(el.origin.of("font") if el.origin else None, Path(el.font)) for el in layer.added if el.font]
    return found


# --- what the deck draws ----------------------------------------------------------------

def _faces(deck: Deck) -> Iterator[tuple[str, Layout, list, Origin | None]]:
    """(what the face is called, its layout, its drawn items, where the card was written) for
    every card face and the back."""
    for card in deck.cards:
        yield f"card '{card.code}'", faces.layout(card, deck), _readable(faces.face(card, deck)), card.origin
    yield "the back", deck.look.layout("back"), _readable(faces.back_face(deck)), deck.params.origin


def _readable(face) -> tuple:
    """A face's items, less the texts of an element that runs out of its box (printable.py
    reports that at the element, once, rather than each card's text past the safe zone)."""
    if all(f.fits for f in face.fitted):
        return face.items
    return tuple(i for i in face.items if not isinstance(i, Text))


def _pictures(lay: Layout) -> list[Element]:
    return [e for e in (*lay.elements, *lay.added) if e.file is not None and not e.hidden]


def _place(el: Element, key: str, fallback: Origin | None) -> Place | None:
    """Where an element's `key` was written: its look entry, else the card's (or the back's) entry."""
    origin = el.origin if el.origin is not None else fallback
    if origin is None:
        return None
    return origin.of(key)


def file_problems(deck: Deck) -> list[Problem]:
    """Each picture and font file the deck names, inspected once, a problem at each entry naming it."""
    kept = _CHECKED.get(id(deck))
    if kept is None or kept[0] is not deck:
        kept = _CHECKED[id(deck)] = (deck, _file_problems(deck))
        while len(_CHECKED) > 4:
            del _CHECKED[next(iter(_CHECKED))]
    return kept[1]


#: The file problems of the last few decks checked (validate asks for them from three checks).
_CHECKED: dict[int, tuple[Deck, list[Problem]]] = {}


def _file_problems(deck: Deck) -> list[Problem]:
    # lazy: PIL, the SVG reader and fontTools, only for decks with files
    from generator.products.render.assets import art
    from generator.products.render.assets.font_files import FontError, inspect_font

    named: dict[tuple[str, Path], list[Place | None]] = {}

    def note(kind: str, path: Path | str | None, place: Place | None) -> None:
        if path:
            named.setdefault((kind, Path(path)), []).append(place)

    for s in deck.sets:
        if s.art is not None:
            note("picture", s.art.path, s.art.origin.at if s.art.origin else None)
    for card in deck.cards:
        if card.art is not None:
            note("picture", card.art.path, card.art.origin.at if card.art.origin else None)
    look = deck.look
    for weight, path in look.fonts:
        note("font", path, look.fonts_origin.of(weight) if look.fonts_origin else None)
    for name, path in look.icons:
        note("icon", path, look.icons_origin.of(name) if look.icons_origin else None)
    for layer in look.layers:
        origins = dict(layer.origins)
        for name, change in layer.changes:
            values = dict(change)
            place = origins.get(name)
            note("picture", values.get("file"), place.of("file") if place else None)
            note("font", values.get("font"), place.of("font") if place else None)
        for el in layer.added:
            note("picture", el.file, el.origin.of("file") if el.origin else None)
            note("font", el.font, el.origin.of("font") if el.origin else None)
    found: list[Problem] = []
    # the verdicts on these pictures' bytes kept by an earlier process: not read again (no lxml)
    unknown = picture_verdicts.recall([path for kind, path in named if kind != "font"])
    for (kind, path), places in named.items():
        try:
            if kind == "picture":
                art.inspect(path)
                if path in unknown:
                    _drawn(path)
            elif kind == "icon":
                _inspect_icon(path, path in unknown)
            else:
                inspect_font(path)
        except (art.ArtError, FontError) as exc:
            found += [Problem.at(place, str(exc)) for place in dict.fromkeys(places)]
            unknown.pop(path, None)  # no verdict kept: checked again next time
    picture_verdicts.keep(unknown)
    return sorted(found)


def _inspect_icon(path: Path, new: bool) -> None:
    """An icon picture: a file within the icon size limit, a picture, and drawn as the faces draw
    it: a one-colour SVG's shapes as its outlines read them (in plain Python: tracing them loads
    fontTools, which a rebuild whose outlines are kept in the face cache never does), any other
    picture as _drawn() draws it (only for a file with no verdict kept: one kept passed this check)."""
    from generator.products.render.assets import art, icon_files  # lazy: as _file_problems

    try:
        size = path.stat().st_size
    except OSError:
        size = 0  # the picture check says why it cannot be read
    if size > icon_files.MAX_ICON_BYTES:
        raise art.ArtError(f"{path.name}: the icon is {size / 1024:,.0f} KiB, over the limit of "
                           f"{icon_files.MAX_ICON_BYTES // 1024} KiB for an icon (it prints one em tall: simplify the "
                           "drawing, or save the picture smaller)")
    info = art.inspect(path)
    if not new:
        return
    try:
        tinted = info.vector and icon_files.picture(path).tinted
        if tinted:
            icon_files.check_shapes(icon_files.read(path))
    except ValueError as exc:
        raise art.ArtError(f"{path.name}: the icon's outlines cannot be read ({exc})") from None
    if not tinted:
        _drawn(path)


def _drawn(path: Path) -> None:
    """A picture drawn as the PDFs draw it (render/pdf_pictures.py), once per content: an SVG made
    into its vector form, a raster's every pixel decoded. What validate passes, the build draws."""
    from generator.products.render import pdf_pictures  # lazy: as _file_problems

    pdf_pictures.check_drawn(path)


# --- the rules --------------------------------------------------------------------------

def _texts(lay: Layout) -> list[Element]:
    """The elements that must be read: texts, shown."""
    return [e for e in lay.elements if e.name in READ and not e.hidden and _draws_text(lay.kind, e.name)] + \
           [e for e in lay.added if e.file is None and not e.hidden]


def _draws_text(kind: str, name: str) -> bool:
    return not (kind == "blank" and name in ("corner", "text"))  # a blank card's boxes and ruled lines


def _small(who: str, lay: Layout) -> list[Problem]:
    """A text element the look sets under 6.5 pt (its size, or the smallest it may shrink to)."""
    out = []
    for el in _texts(lay):
        if el.origin is None or el.size >= MIN_TEXT - 1e-6:
            continue
        out.append(Problem.at(el.origin.of("size"), f"element '{el.name}' is set at {dots_to_pt(el.size):.1f} pt; "
                              "no text prints under 6.5 pt"))
    return out


def _safe(who: str, lay: Layout, drawn, origin: Origin | None) -> list[Problem]:
    """Text outside the safe zone: a text element's box, else a line the face draws."""
    out = []
    for el in _texts(lay):
        side = _outside(el.x, el.y, el.x1, el.y1)
        if side:
            key, gap = side
            out.append(Problem.at(_place(el, key, origin), f"{_who(who, el)}element '{el.name}' reaches {_reach(gap)} on "
                                  f"its {_SIDE[key]}; text must stay 1/8 in (3.2 mm) inside the trim (the "
                                  "safe zone), where no cut reaches it"))
    out += _shapes_safe(lay)
    if out:
        return out
    for item in drawn:
        if isinstance(item, Text):
            side = _outside(*item.bbox())
            if side:
                key, gap = side
                return [Problem.at(origin.at if origin else None,
                                   f"{who}: the text '{item.text}' reaches {_reach(gap)} on its "
                                   f"{_SIDE[key]}; text must stay 1/8 in (3.2 mm) inside the trim (the safe zone): "
                                   "make its element's box smaller, or its size")]
    return []


_SIDE = {"x": "left", "y": "top", "width": "right", "height": "bottom"}


#: What a face must still show when the look hides elements: one element of each group (a number's
#: value, its colours' shapes for colour-blind players, a wild's name), by kind of face.
SHOWN = {"number": (("corner", "value"), ("shapes", "corner_shapes")),
         "dual": (("corner", "value"), ("shapes", "corner_shapes")),
         "wild": (("corner", "glyph", "name"),)}
_SHOWS = {("corner", "value"): "its value", ("shapes", "corner_shapes"): "the shapes that tell its colours apart "
          "(colour-blind players read them)", ("corner", "glyph", "name"): "which wild it is"}


def _identified(lay: Layout) -> list[Problem]:
    """A face the look hides every element of a group of (SHOWN) cannot be played from: an error at
    the last `hidden:` of the group."""
    out = []
    for group in SHOWN.get(lay.kind, ()):
        els = [lay[name] for name in group]
        if not all(el.hidden for el in els) or any(el.origin is None for el in els):
            continue
        el = els[-1]
        names = " and ".join(f"'{n}'" for n in group) if len(group) == 2 else \
            ", ".join(f"'{n}'" for n in group[:-1]) + f" and '{group[-1]}'"
        out.append(Problem.at(el.origin.of("hidden"), f"with elements {names} {'both' if len(group) == 2 else 'all'} "
                              f"hidden, the card shows {_SHOWS[group]} nowhere; show one of them"))
    return out


def _shapes_safe(lay: Layout) -> list[Problem]:
    """The colour shapes of a number or dual card (its centre row, its corner column) inside the
    safe zone: they tell the colours apart for colour-blind players (render/faces.py draws them:
    a row centred on the box, `spacing` apart; a column from the box's top)."""
    if lay.kind not in ("number", "dual"):
        return []
    n = 2 if lay.kind == "dual" else 1
    out = []
    for name in ("shapes", "corner_shapes"):
        el = lay.shown(name)
        if el is None or el.origin is None:
            continue  # the default layout keeps them inside (test_the_default_look_keeps_every_rule)
        r = el.size / 2
        if name == "shapes":
            half = (n - 1) / 2 * el.spacing + r
            box = (el.cx - half, el.cy - r, el.cx + half, el.cy + r)
        else:
            box = (el.cx - r, el.y, el.cx + r, el.y + (n - 1) * el.spacing + el.size)
        side = _outside(*box)
        if side:
            key, gap = side
            out.append(Problem.at(_place(el, key, None), f"element '{name}' puts the colour shapes {_reach(gap)} on "
                                  f"its {_SIDE[key]}; they tell the colours apart, so they stay 1/8 in (3.2 mm) "
                                  "inside the trim (the safe zone), where no cut reaches them"))
    return out


def _outside(x0: float, y0: float, x1: float, y1: float) -> tuple[str, float] | None:
    """(the key of the side past the safe margin, its distance from the trim) or None."""
    eps = 1e-6
    for key, gap in (("x", x0), ("y", y0), ("width", W - x1), ("height", H - y1)):
        if gap < SAFE - eps:
            return key, gap
    return None


def _miscut(who: str, lay: Layout) -> list[Problem]:
    """An edge of a frame, interior or picture in the band a 1/16 in miscut moves over."""
    out = []
    for el, edges in _edges(lay, EDGED):
        for key, gap in edges:
            if -BLEED + 1e-6 < gap < MISCUT - 1e-6:
                place = _place(el, key, None)
                if place is None:
                    continue  # the default layout keeps its edges clear (tests/products/test_print_rules.py)
                edge = f"{_mm(gap)} inside the trim" if gap >= 0 else f"{_mm(-gap)} outside the trim"
                fix = " (or bleed: true)" if el.file is not None else ""
                out.append(Problem.at(place, f"{_who(who, el)}the {_SIDE[key]} edge of element '{el.name}' is {edge}, where a "
                                      "1/16 in (1.6 mm) miscut would show it or cut it off; take it out to the bleed's "
                                      f"edge, 1/8 in (3.2 mm) outside the trim{fix}, or 1/16 in inside the trim or more"))
                break
    return out


def _edges(lay: Layout, names: tuple[str, ...]) -> Iterator[tuple[Element, list[tuple[str, float]]]]:
    """Each shown element of `names` that draws an area (an art box only with its picture) and
    each added picture, with how far each of its sides stands inside the trim, by the key that
    places it (negative: outside)."""
    for el in [e for e in lay.elements if e.name in names and not e.hidden] + \
            [e for e in lay.added if e.file is not None and not e.hidden]:
        if el.name == "art" and el.file is None:
            continue
        x0, y0, x1, y1 = art_box(el) if el.file is not None else (el.x, el.y, el.x1, el.y1)
        yield el, [("x", x0), ("y", y0), ("width", W - x1), ("height", H - y1)]


#: The widest two opposite borders may differ after a 1/16 in miscut: a border nearer the trim
#: than look.BORDER_MIN goes lopsided beyond this.
LOPSIDED = 1.5
#: Elements whose edges make a border along the trim (a picture's too, where it has one).
BORDERED = ("frame", "interior", "inner_frame", "art")


def _lopsided(who: str, lay: Layout) -> list[Problem]:
    """Warnings at a look's element whose edge runs along the trim between 1/16 in and BORDER_MIN
    inside it: a 1/16 in miscut makes that border d - 1/16 in on one side and d + 1/16 in on the
    other, over 1.5:1 (the band nearer the trim is an error, _miscut). The default look keeps
    every edge out of it (tests/products/render/test_cut_and_smooth.py measures the images)."""
    out = []
    for el, edges in _edges(lay, BORDERED):
        for key, gap in edges:
            if MISCUT - 1e-6 <= gap < BORDER_MIN - 1e-6:
                place = _place(el, key, None)
                if place is None:
                    continue
                low, high = gap - MISCUT, gap + MISCUT
                ratio = f"{high / low:.2f}:1" if low > 0 else "none on one side"
                out.append(Problem.at(place, f"{_who(who, el)}the {_SIDE[key]} edge of element '{el.name}' is "
                                      f"{_mm(gap)} inside the trim: a 1/16 in (1.6 mm) miscut makes that border "
                                      f"{_mm(low)} on one side and {_mm(high)} on the other ({ratio}, over "
                                      f"{LOPSIDED:g}:1), and the card looks lopsided; keep its edges "
                                      f"{_mm(BORDER_MIN)} or more inside the trim, or run it out to the bleed"))
                break
    return out


def _who(who: str, el: Element) -> str:
    """The face a message names: none when the element's own entry is where it points (a change
    for a whole kind of card is reported once, not once per card)."""
    return "" if el.origin is not None else f"{who}: "


def _reach(gap: float) -> str:
    """How far inside (or past) the trim an edge is."""
    return f"{_mm(gap)} from the trim" if gap >= 0 else f"{_mm(-gap)} past the trim"


def _mm(dots: float) -> str:
    return f"{dots * MM_PER_DOT:.1f} mm"
