"""Icons named inline in a printed text: `{cyan}`, `{icon:skip}`, `{icon:NAME}`.

A card's name and text, and the quick reference's lines, may name an icon in braces:

- `{cyan}`: a colour's shape, by the colour's key (its `name:` under `colours:`);
- `{icon:skip}`: a wild effect's glyph, by the effect's name in the catalogue (deck/effects.py);
- `{icon:NAME}`: a picture the layout declares (`look: icons: {NAME: file}`); a declared picture
  named like an effect replaces that effect's glyph.

Parameter placeholders (`{factor}`, `{count:word}`: deck/wording.py) are filled first; what is
left in braces is an icon. `{{` and `}}` print one literal brace.

A filled text is kept *marked*: its icons stay as `{cyan}` / `{icon:skip}` and its literal braces
as `{{` / `}}`, so a text without braces is the text itself. The faces and the rulebook draw the
icons (products/render/inline.py); every plain-text form (the terminal game, the web table,
deck.json, alt text) says them in words (`words`).

This module imports nothing of the project but the deck layer.
"""

from __future__ import annotations

import re

import string
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Mapping, Union

from generator.deck import wording

#: The prefix of an icon that is not a colour: `{icon:skip}`.
ICON = "icon"


@dataclass(frozen=True)
class Mark:
    """One icon named in a text: a colour key (`{cyan}`) or `icon:NAME` (`{icon:skip}`)."""

    name: str  #: "cyan", or the NAME of `{icon:NAME}`
    colour: bool  #: True for `{cyan}`, False for `{icon:NAME}`

    @property
    def source(self) -> str:
        """The mark as written: `{cyan}` or `{icon:skip}`."""
        return f"{{{self.name}}}" if self.colour else f"{{{ICON}:{self.name}}}"


Run = Union[str, Mark]

_PARSER = string.Formatter()


def has_marks(text: str) -> bool:
    """Whether `text` (marked) holds anything but plain characters: an icon or a literal brace."""
    return "{" in text or "}" in text


def escape(text: str) -> str:
    """Plain text as marked text: its braces doubled."""
    return text.replace("{", "{{").replace("}", "}}") if has_marks(text) else text


def fill(text: str, values: Mapping[str, Any]) -> str:
    """`text` (as written in the manifest) with its parameter placeholders filled from `values`,
    its icons kept as marks and its literal braces kept doubled: the marked text. Any field not in
    `values` is kept as an icon (the manifest checks the names first, see `unknown`); ValueError
    for a malformed text."""
    if not has_marks(text):
        return text
    out: list[str] = []
    for literal, field, spec, conversion in _PARSER.parse(text):
        out.append(literal.replace("{", "{{").replace("}", "}}"))
        if field is None:
            continue
        if field in values:
            if "{" in (spec or "") or "}" in (spec or ""):
                raise ValueError(f"the format of '{{{field}}}' holds another placeholder, which it cannot take")
            out.append(escape(wording.fill("{v" + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}",
                                           {"v": values[field]})))
        else:
            out.append(_mark_of(field, spec or "").source)
    return "".join(out)


def _mark_of(field: str, spec: str) -> Mark:
    return Mark(spec, False) if field == ICON and spec else Mark(field, True)


@lru_cache(maxsize=4096)
def parse(marked: str) -> tuple[Run, ...]:
    """The runs of a marked text: plain strings (braces undoubled) and icons, adjacent strings joined."""
    if not has_marks(marked):
        return (marked,) if marked else ()
    runs: list[Run] = []
    for literal, field, spec, _ in _PARSER.parse(marked):
        if literal:
            if runs and isinstance(runs[-1], str):
                runs[-1] += literal
            else:
                runs.append(literal)
        if field is not None:
            runs.append(_mark_of(field, spec or ""))
    return tuple(runs)


def marks(marked: str) -> list[Mark]:
    """The icons a marked text names, in order."""
    return [r for r in parse(marked) if isinstance(r, Mark)]


def fields(text: str) -> list[tuple[str, str]]:
    """(field, format spec) of every placeholder or icon of a text as written (ValueError if it
    does not parse)."""
    return [(f, spec or "") for _, f, spec, _ in _PARSER.parse(text) if f is not None]


def known_names(colours: Iterable[str], effects: Iterable[str], images: Iterable[str] = ()) -> tuple[str, ...]:
    """Every icon a text may name, as written: `{cyan}`... then `{icon:skip}`... (images and
    effects, each once)."""
    named = dict.fromkeys([*images, *effects])
    return tuple([f"{{{c}}}" for c in colours] + [f"{{{ICON}:{n}}}" for n in named])


def words(marked: str, colour_words: Mapping[str, str], icon_words: Mapping[str, str], drop: str = "") -> str:
    """A marked text in plain words: a colour's icon as the colour's name ("a cyan card"); any
    other icon as its name in brackets, an effect's glyph as the name of its card ("[Skip]"), a
    declared picture as its name ("[logo]"), so it never runs on into the words beside it; an icon
    named `drop` (the card's own effect, which would repeat the card's name) left out; an icon
    that is the whole text as its bare name; literal braces single."""
    if not has_marks(marked):
        return marked
    runs = parse(marked)
    alone = len(runs) == 1
    out = []
    for run in runs:
        if isinstance(run, str):
            out.append(run)
        elif run.colour:
            out.append(colour_words.get(run.name, run.name))
        elif run.name == drop and not alone:
            out.append(" ")
        else:
            word = icon_words.get(run.name, run.name.replace("_", " ").replace("-", " "))
            out.append(word if alone else f"[{word}]")
    if drop and not alone:  # spaces a left-out icon leaves: one between words, none before punctuation
        return re.sub(r" ([,.;:!?])", r"\1", " ".join("".join(out).split()))
    return "".join(out)
