"""Frozen card and deck types.

This module knows nothing of YAML, rendering or the engine: the manifest loader builds
these values once, and every product (faces, sheets, rulebook, engine) reads them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path, PurePath
from typing import Any, Iterable, Mapping

from generator.deck import icons
from generator.deck.look import DEFAULT_LOOK, Art, Look

#: Kinds of card. Only the first three are ever shuffled into a game.
PLAYING_KINDS = ("number", "dual", "wild")
KINDS = PLAYING_KINDS + ("reference", "blank")

class Place:
    """Where a value stands in the manifest: its file, line and column (counted from 1).

    A plain class rather than a dataclass, as is Origin: the manifest makes one per card, and
    each dataclass costs validate's start-up about a millisecond to define."""

    __slots__ = ("path", "line", "column", "folder")

    def __init__(self, path: str, line: int, column: int, folder: str | None = None):
        self.path, self.line, self.column = path, line, column
        #: the folder the files the manifest names are relative to, when it is not the folder of
        #: `path` (a manifest read from git: `path` names the commit, the files are on disk)
        self.folder = folder

    def home(self) -> Path:
        """The manifest's folder: where the pictures and fonts it names are found."""
        return Path(self.folder) if self.folder else Path(self.path).resolve().parent

    def _key(self) -> tuple:
        return (self.path, self.line, self.column)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Place) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Place({self.path!r}, {self.line}, {self.column})"

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


class Origin:
    """Where a part of the deck was written: its entry (for a number card, its own item of
    `values:`) and the value of each of the entry's keys, so a later check (the typeface's,
    say) reports at the card's own line without reading the manifest again."""

    __slots__ = ("at", "fields")

    def __init__(self, at: Place, fields: tuple[tuple[str, Place], ...] = ()):
        self.at, self.fields = at, fields

    def of(self, name: str) -> Place:
        """Where the entry's `name` value stands; the entry's own place when it has no such key."""
        return next((place for key, place in self.fields if key == name), self.at)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Origin) and (self.at, self.fields) == (other.at, other.fields)

    def __hash__(self) -> int:
        return hash((self.at, self.fields))

    def __repr__(self) -> str:
        return f"Origin({self.at!r}, {self.fields!r})"


def _origin() -> Any:
    """The `origin` field of every part of a deck: where the manifest wrote it (None for a deck
    made in code). Left out of equality, hashing and repr, so a card moved to another line is
    the same card, and nothing keyed by a card's content (the face cache) sees its line."""
    return field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Colour:
    """A card colour, always shown together with its shape."""

    name: str  #: lower-case name, e.g. "cyan"
    letter: str  #: one upper-case letter used in card codes, e.g. "C"
    rgb: str  #: print colour as "#RRGGBB" (sRGB)
    shape: str  #: shape symbol for colour-blind players: circle, triangle, square, ...
    #: the designer's own process colour, percent (c, m, y, k): every CMYK file prints it as it is
    cmyk: tuple[int, int, int, int] | None = None
    origin: Origin | None = _origin()


@dataclass(frozen=True)
class CardSet:
    """A printed set; its interior colour tells base from chaos cards."""

    key: str  #: "base" or "chaos"
    name: str
    interior: str  #: "white" or "black"
    origin: Origin | None = _origin()
    art: Art | None = None  #: the picture of its cards that have none of their own


@dataclass(frozen=True)
class Step:
    """One step of a wild's rule (generator.deck.steps): its kind and its arguments, as cards.yaml gives them."""

    kind: str  #: the step's key: "count", "draw", "skip", ...
    args: tuple[tuple[str, Any], ...] = ()  #: (name, value); a step written `skip: 2` has ("skip", 2)

    @property
    def mapping(self) -> dict[str, Any]:
        return dict(self.args)

    def arg(self, key: str) -> Any:
        return dict(self.args)[key]


#: How a wild's rule is played: by the engine from its steps, or by the players from its text
#: (`rule: table`, a house wild before anyone wrote its steps: it prints, but no command plays it).
RULES = ("engine", "table")


@dataclass(frozen=True)
class Effect:
    """A wild card's rule: its steps, and the catalogue's name (generator.deck.effects) when it was
    written as `effect:` ("" for `does:`), with that effect's integer parameters."""

    name: str
    params: tuple[tuple[str, int], ...] = ()
    origin: Origin | None = _origin()
    steps: tuple[Step, ...] = ()  #: what it does, in order (the named effect's steps, parameters filled in)
    rule: str = "engine"  #: one of RULES
    short: str = ""  #: the designer's own quick-reference line (`short:`), else ""

    def param(self, key: str) -> int:
        return dict(self.params)[key]

    @property
    def playable(self) -> bool:
        """The engine can play it (not `rule: table`)."""
        return self.rule == "engine"


@dataclass(frozen=True)
class CardType:
    """One distinct card face; `copies` of it are printed."""

    code: str  #: unique code used in positions, logs and the CLI ("C5", "GM-4", "x2")
    kind: str  #: one of KINDS
    set: str  #: CardSet key
    copies: int
    name: str  #: human title ("Cyan 5", "x2", "Quick Reference")
    colours: tuple[str, ...] = ()  #: colour names; two for a dual card, none for others
    value: int | None = None  #: printed number of number and dual cards
    effect: Effect | None = None  #: wild cards only
    #: effect text as printed (placeholders already filled in); it and `name` are *marked* texts,
    #: which may name inline icons (deck/icons.py; `Deck.words` says them in words)
    text: str = ""
    origin: Origin | None = _origin()
    art: Art | None = None  #: its picture (else its set's)
    corner: str = ""  #: a wild's corner index as the manifest gives it (marked text); "": from its name

    @property
    def playing(self) -> bool:
        return self.kind in PLAYING_KINDS

    @property
    def is_number(self) -> bool:
        return self.kind in ("number", "dual")


@dataclass(frozen=True)
class Edition:
    """A selection of playing cards shuffled together for one way of playing."""

    key: str  #: slug, e.g. "the-og"
    name: str  #: "The OG"
    description: str
    codes: tuple[str, ...]  #: selected card types, in manifest order
    expect: int | None = None  #: the playing-card count the designer expects
    origin: Origin | None = _origin()


@dataclass(frozen=True)
class GameParams:
    name: str
    target: int  #: the count to reach exactly (16)
    hand_size: int  #: cards dealt to each player (5)
    min_players: int
    max_players: int
    origin: Origin | None = _origin()
    #: every rule option (deck/rule_options.py) as the printed rules play it: the manifest's
    #: `game.options` over the defaults, in the options table's order
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def rule_options(self) -> dict[str, Any]:
        return dict(self.options)


@dataclass(frozen=True)
class BuildSettings:
    """What a plain `county-uppy build` makes besides the complete set (the manifest's `build:`)."""

    editions: tuple[str, ...] = ()  #: editions whose own print files every build makes
    papers: tuple[str, ...] = ("letter", "a4")  #: paper sizes of the print sheets
    origin: Origin | None = _origin()


#: The rulebook's sections, in the order it prints them: the names a manifest's `rulebook:` uses
#: (`leave_out`, a section's `after`); templates/rulebook.html.j2 includes one partial for each.
RULEBOOK_SECTIONS = ("contents", "game", "objective", "setup", "turn", "penalties", "examples", "wilds",
                     "variations", "teams_speed", "clarifications", "quick_reference", "designer_notes")
#: The sections a rulebook may leave out (`rulebook: leave_out:`); the designer notes are only in
#: rulebook-designer.html unless `designer_notes: true`.
RULEBOOK_OPTIONAL = ("contents", "examples", "variations", "teams_speed", "clarifications", "quick_reference")


@dataclass(frozen=True)
class RulebookSection:
    """A section of the designer's own text (`rulebook: sections:`), printed after section `after`."""

    title: str
    after: str
    text: str  #: Markdown, its placeholders filled and its icons kept (deck/icons.py)


@dataclass(frozen=True)
class RulebookSettings:
    """What the designer chooses of the rulebook (the manifest's `rulebook:`)."""

    title: str | None = None  #: the cover's title; None: the game's name
    intro: str | None = None  #: the cover's one paragraph (icons kept); None: the built-in one
    minutes: tuple[int, int] | None = None  #: the playing time, fewest and most minutes
    leave_out: tuple[str, ...] = ()  #: sections of RULEBOOK_OPTIONAL the players' rulebook leaves out
    designer_notes: bool = False  #: the players' rulebook has the designer notes too
    sections: tuple[RulebookSection, ...] = ()
    origin: Origin | None = _origin()


@dataclass(frozen=True)
class Deck:
    """The whole validated manifest."""

    params: GameParams
    colours: tuple[Colour, ...]
    sets: tuple[CardSet, ...]
    cards: tuple[CardType, ...]
    editions: tuple[Edition, ...]
    build: BuildSettings = BuildSettings()
    #: how the cards look (deck/look.py): the manifest's `look:` over the default layout
    look: Look = DEFAULT_LOOK
    #: what the designer chooses of the rulebook (`rulebook:`)
    rulebook: RulebookSettings = RulebookSettings()
    _by_code: Mapping[str, CardType] = field(default=None, repr=False, compare=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_code", {c.code: c for c in self.cards})

    def card(self, code: str) -> CardType:
        try:
            return self._by_code[code]
        except KeyError:
            raise KeyError(f"unknown card code {code!r}") from None

    def colour(self, name: str) -> Colour:
        return next(c for c in self.colours if c.name == name)

    def card_set(self, key: str) -> CardSet:
        return next(s for s in self.sets if s.key == key)

    def edition(self, key: str) -> Edition:
        for e in self.editions:
            if e.key == key:
                return e
        raise KeyError(f"unknown edition {key!r}")

    def edition_cards(self, key: str) -> list[CardType]:
        """Every card instance shuffled into the edition (copies expanded), manifest order."""
        return [c for code in self.edition(key).codes for c in _copies(self.card(code))]

    def edition_count(self, key: str) -> int:
        return sum(self.card(code).copies for code in self.edition(key).codes)

    def edition_breakdown(self, key: str) -> dict[str, int]:
        """Playing cards of an edition by kind: numbers, duals, wilds, chaos wilds."""
        counts: Counter[str] = Counter()
        for code in self.edition(key).codes:
            card = self.card(code)
            counts[breakdown_group(card, self)] += card.copies
        return {g: counts[g] for g in BREAKDOWN_GROUPS}

    @property
    def printed(self) -> int:
        return sum(c.copies for c in self.cards)

    def set_totals(self) -> dict[str, int]:
        totals = {s.key: 0 for s in self.sets}
        for c in self.cards:
            totals[c.set] += c.copies
        return totals

    def set_breakdown(self, set_key: str) -> dict[str, int]:
        """Printed cards of one set by kind (number, dual, wild, reference, blank)."""
        counts: Counter[str] = Counter()
        for c in self.cards:
            if c.set == set_key:
                counts[c.kind] += c.copies
        return {k: counts[k] for k in KINDS if counts[k]}

    def words(self, text: str, card: CardType | None = None) -> str:
        """A printed text (a card's name or text, a quick-reference line) in plain words: its
        inline icons (deck/icons.py) said as words, `{cyan}` as "cyan", `{icon:skip}` as "[Skip]",
        the name of the deck's Skip card in brackets (the bare name where it is the whole text);
        in the text of `card`, the icon of the card's own effect is left out, as it would only
        repeat the card's name ("Steal a Card Take a card..."). For every plain-text form: the
        terminal, the web table, deck.json (and so the build's summary and `diff`), TTS, reports."""
        if not icons.has_marks(text):
            return text
        colour_words = {c.name: c.name for c in self.colours}
        effect_words: dict[str, str] = {}
        for c in self.cards:
            if c.effect is not None and c.effect.name and c.effect.name not in effect_words and not icons.has_marks(c.name):
                effect_words[c.effect.name] = c.name
        # the card's own icon: its effect's, or the picture named by its code (a wild of steps)
        own = (card.effect.name or card.code.lower()) if card is not None and card.effect is not None else ""
        return icons.words(text, colour_words, effect_words, drop=own)

    def cards_of(self, kinds: Iterable[str]) -> list[CardType]:
        wanted = set(kinds)
        return [c for c in self.cards if c.kind in wanted]


BREAKDOWN_GROUPS = ("numbers", "duals", "wilds", "chaos wilds")


def breakdown_group(card: CardType, deck: Deck) -> str:
    if card.kind == "dual":
        return "duals"
    if card.kind == "wild":
        return "chaos wilds" if deck.card_set(card.set).interior == "black" else "wilds"
    return "numbers"


def _copies(card: CardType) -> list[CardType]:
    return [card] * card.copies


def portable(value: object) -> object:
    """`value` (a deck, or a part of one) as plain tuples that say what it holds wherever its
    folder is: each file it names (a picture, an icon, a font) by its name alone, not by the
    absolute path the loader resolved. Its repr stands for the deck in a cache key and lists
    the characters its faces can print, so the same manifest in another folder (`Café/` too)
    keys and encodes the same. Fields left out of a part's repr (where the manifest wrote it)
    are left out here."""
    if isinstance(value, PurePath):
        return ("file", value.name)
    if is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, tuple((f.name, portable(getattr(value, f.name))) for f in fields(value) if f.repr))
    if isinstance(value, (tuple, list)):
        return tuple(portable(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted((portable(v) for v in value), key=repr)))
    if isinstance(value, dict):
        return ("dict", tuple((portable(k), portable(v)) for k, v in value.items()))
    return value
