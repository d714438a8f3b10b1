"""What the designer chooses of the rulebook (the manifest's `rulebook:`), as the templates' data:
the cover (title, introduction, players, playing time), the sections in their order with the
designer's own among them, and those sections' Markdown as HTML.

The players' rulebook (rulebook.html) leaves out the sections `leave_out` names and, unless
`designer_notes: true`, the designer notes; rulebook-designer.html has every section.
"""

from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup

from generator.deck import icons as marks
from generator.deck.model import RULEBOOK_SECTIONS, Deck
from generator.products.rulebook import inline_html

#: The partial of each section under templates/partials/ (its file is named after it but for two).
PARTIALS = {name: f"partials/{name}.html.j2" for name in RULEBOOK_SECTIONS} | {
    "quick_reference": "partials/quickref.html.j2", "designer_notes": "partials/designers.html.j2"}


def cover(deck: Deck) -> dict[str, Any]:
    """The cover's data: the title, the designer's introduction (HTML, icons inline; None: the
    template's own), the players and the playing time as printed."""
    p, book = deck.params, deck.rulebook
    low, high = book.minutes or (None, None)
    minutes = None if low is None else f"{low} minutes" if low == high else f"{low}–{high} minutes"
    players = f"{p.min_players} players" if p.min_players == p.max_players else f"{p.min_players}–{p.max_players} players"
    return {"title": book.title or p.name, "intro": inline_html.html(book.intro, deck) if book.intro else None,
            "players": players, "minutes": minutes}


def order(deck: Deck, designer: bool) -> list[dict[str, Any]]:
    """The sections of a rulebook in their order: {"name", "partial"} for the rulebook's own,
    {"extra": {"title", "id", "html"}} for the designer's, each after the section it names."""
    book = deck.rulebook
    left_out = set() if designer else set(book.leave_out)
    if not (designer or book.designer_notes):
        left_out.add("designer_notes")
    extras: dict[str, list[dict[str, Any]]] = {}
    for i, s in enumerate(book.sections):
        extras.setdefault(s.after, []).append({"title": s.title, "id": f"designer-section-{i + 1}",
                                               "html": markdown_html(s.text, deck)})
    out: list[dict[str, Any]] = []
    for name in RULEBOOK_SECTIONS:
        if name not in left_out:
            out.append({"name": name, "partial": PARTIALS[name]})
        out.extend({"extra": e} for e in extras.get(name, ()))
    return out


_TAG = re.compile(r"(<[^>]*>)")
_HEADING = re.compile(r"<(/?)h([1-6])>")


def markdown_html(text: str, deck: Deck) -> Markup:
    """A designer's section (marked text, deck/icons.py) as HTML: Markdown without raw HTML,
    links or images (the page loads nothing and links only within itself), its headings under
    the section's own (# is a third-level heading), its icons inline as the cards draw them."""
    from markdown_it import MarkdownIt  # lazy: only a page that is not in the face cache is rendered

    md = MarkdownIt("commonmark", {"html": False}).disable(["link", "image", "autolink", "html_inline", "html_block"])
    html = md.render(text)
    html = _HEADING.sub(lambda m: f"<{m.group(1)}h{min(6, int(m.group(2)) + 2)}>", html)
    parts = []
    for piece in _TAG.split(html):
        if piece.startswith("<") or not marks.has_marks(piece):
            parts.append(piece)
            continue
        parts.append(str(inline_html.html(piece, deck, raw=True)))
    return Markup("".join(parts))
