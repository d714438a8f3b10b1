"""The rulebook in the deck's look: its fonts and colours as a stylesheet the page carries.

- The deck's fonts (`look: fonts:`, regular and bold) as @font-face rules of the family DECK_FAMILY,
  their files as data: URIs, first in the page's font stack; the print stylesheet (pdf.py) puts
  the same family first, so the rulebook PDF embeds the designer's fonts (a glyph one lacks comes
  from the cards' DejaVu Sans, the family after it).
- The accent (headings, the cover, the worked examples' edge): the back's interior colour, the
  colour every player sees most, when it reads on white (WCAG contrast 4.5:1 or more; else the ink).
- The rule under each chapter's heading: a band of each of the deck's colours, in manifest order.
"""

from __future__ import annotations

import base64
from pathlib import Path

from markupsafe import Markup

from generator.deck.model import Deck
from generator.products.render.items import contrast

#: The family of the deck's own fonts, in the page and in the print stylesheet.
DECK_FAMILY = "County Uppy Deck"
INK = "#1a1a1a"
_MIME = {".otf": ("font/otf", "opentype"), ".ttf": ("font/ttf", "truetype")}


def deck_fonts(deck: Deck) -> dict[bool, Path]:
    """The deck's font files by bold (False: regular), those `look: fonts:` names."""
    return {bold: path for bold in (False, True) if (path := deck.look.font(bold)) is not None}


def font_faces(deck: Deck) -> str:
    """@font-face rules of DECK_FAMILY for the deck's fonts ('' for the built-in look)."""
    rules = []
    for bold, path in deck_fonts(deck).items():
        mime, form = _MIME.get(path.suffix.lower(), ("font/ttf", "truetype"))
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        rules.append(f'@font-face {{ font-family: "{DECK_FAMILY}"; font-weight: {700 if bold else 400}; '
                     f'font-style: normal; src: url(data:{mime};base64,{data}) format("{form}"); }}')
    return "\n".join(rules)


def back_colour(deck: Deck) -> str:
    """The back's interior colour, as the layout draws it."""
    interior = next(e for e in deck.look.layout("back").elements if e.name == "interior")
    return interior.colour or INK


def accent(deck: Deck) -> str:
    """The rulebook's accent colour: the back's, when it reads on white; else the ink."""
    colour = back_colour(deck)
    return colour if contrast(colour, "#ffffff") >= 4.5 else INK


def stylesheet(deck: Deck) -> Markup:
    """The deck's look as CSS, for a <style> element after the rulebook's own."""
    colours = [c.rgb for c in deck.colours]
    step = 100 / len(colours)
    bands = ", ".join(f"{rgb} {i * step:.3f}% {(i + 1) * step:.3f}%" for i, rgb in enumerate(colours))
    fonts = deck_fonts(deck)
    lines = [font_faces(deck)] if fonts else []
    lines.append(f":root {{ --accent: {accent(deck)}; --bands: linear-gradient(to right, {bands}); }}")
    if fonts:
        lines.append(f'body {{ font-family: "{DECK_FAMILY}", "DejaVu Sans", sans-serif; }}')
    css = "\n".join(lines)
    if "</" in css:  # a font's base64 never holds it; a colour is #RRGGBB
        raise ValueError("the deck's stylesheet must not contain '</'")
    return Markup(css)
