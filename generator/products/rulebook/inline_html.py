"""Inline icons in the rulebook: a marked text (deck/icons.py) as HTML, each icon an inline SVG.

The page shows a text's icons as the cards print them (render/inline.py decides what each draws):
- a colour's shape in its colour, outlined in the text's colour;
- a one-colour SVG picture (the shipped wild glyphs) as its outlines, filled with the text's colour;
- another picture as an image, from a data: address (an <img> runs no script an SVG may hold);
- an effect's glyph with no picture, as the glyph's character.
Every icon is labelled with its words (`Deck.words`), so a screen reader and a copied text say it.
"""

from __future__ import annotations

import base64
import hashlib
from html import escape
from pathlib import Path

from markupsafe import Markup
from markupsafe import escape as html_escape

from generator.deck import icons as marks
from generator.deck.icons import Mark
from generator.deck.model import Deck
from generator.products.render.assets.icon_files import contours
from generator.products.render.inline import SHAPE_ADVANCE, SHAPE_RADIUS, Icons, icons_of
from generator.products.render.items import shape_points

#: An icon's box, one em tall and standing on the baseline (its descent below it), written on each
#: icon rather than in the stylesheet, so a page without icons is byte for byte what it was.
BOX = "display:inline-block;height:1em;vertical-align:-.24em;overflow:visible"
_MIME = {".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg"}


def html(text: str, deck: Deck, icons: Icons | None = None, raw: bool = False) -> Markup:
    """A marked text as HTML: its words escaped (`raw`: the text is HTML already, its words
    kept as they are), its icons inline SVG."""
    if not marks.has_marks(text):
        return Markup(text) if raw else html_escape(text)  # as the page's autoescape writes any text
    icons = icons if icons is not None else icons_of(deck)
    out = []
    for run in marks.parse(text):
        if isinstance(run, str):
            out.append(run if raw else str(html_escape(run)))
        else:
            out.append(icon_html(run, deck, icons))
    return Markup("".join(out))


def icon_html(mark: Mark, deck: Deck, icons: Icons) -> str:
    label = escape(deck.words(mark.source))
    if mark.colour:
        shape, rgb = icons.colours.get(mark.name, ("circle", "#888888"))
        r = SHAPE_RADIUS * 100
        pts = shape_points(shape, SHAPE_ADVANCE * 50, round(-r * 1.02, 2), r)  # the baseline at y = 0
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        return (f'<svg class="icon" role="img" aria-label="{label}" viewBox="0 -76 {SHAPE_ADVANCE * 100:g} 100" '
                f'style="{BOX};width:{SHAPE_ADVANCE:g}em"><polygon points="{points}" fill="{rgb}" '
                f'stroke="currentColor" stroke-width="{max(3.0, r * 0.1):.2f}" stroke-linejoin="round"/></svg>')
    picture = icons.pictures.get(mark.name)
    if picture is None:
        return f'<span class="icon glyph" role="img" aria-label="{label}">{escape(icons.sign(mark))}</span>'
    if picture.tinted:
        d = " ".join("M" + " L".join(f"{x * 100:.1f} {y * 100:.1f}" for x, y in c) + " Z" for c in contours(picture.path))
        return (f'<svg class="icon" role="img" aria-label="{label}" viewBox="0 0 {picture.aspect * 100:.1f} 100" '
                f'style="{BOX};width:{picture.aspect:.3f}em"><path d="{d}" fill="currentColor"/></svg>')
    data = Path(picture.path).read_bytes()
    mime = _MIME.get(Path(picture.path).suffix.lower(), "application/octet-stream")
    return (f'<img class="icon" alt="{label}" style="{BOX};width:{picture.aspect:.3f}em" '
            f'src="data:{mime};base64,{base64.b64encode(data).decode("ascii")}">')


def files_key(deck: Deck) -> str:
    """The bytes of every icon picture the deck declares, as a digest (the page's cache key)."""
    declared = dict(getattr(getattr(deck, "look", None), "icons", None) or ())
    h = hashlib.sha256()
    for name, path in sorted(declared.items()):
        h.update(name.encode() + b"\0")
        try:
            h.update(Path(path).read_bytes())
        except OSError:
            h.update(b"\1missing")
    return h.hexdigest()
