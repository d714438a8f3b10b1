"""The wild-effect catalogue: one entry per effect, read by every layer.

A wild card's `effect` in cards.yaml names an entry here. The entry holds everything about the
effect except its rule: the parameters the manifest must give (with their ranges), whether a
play names a seat, the pending state the effect keeps between plays, the glyph on the card,
the quick-reference line, the rulebook's clarification partial, the terminal game's words and
the bots' hints. The rule itself is the function of the same name in
generator/engine/effects.py (`EFFECTS`). Nothing reads an effect's data from anywhere else,
and nothing falls back: tests/deck/test_effect_catalogue.py fails, naming the effect and what it
lacks, for an entry without a rule, a partial, a glyph the typeface can draw, or any field.

Adding an effect: its entry (`register(WildEffect(...))`), its rule function and, if it has
one, its partial templates/partials/effects/NAME.html.j2 (README, "Adding a wild effect").

This module imports nothing of the project: the deck layer sits below everything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

#: What a seat-naming play may name: another player still in, or any player still in (you too).
SEAT_CHOICES = ("other", "any")
#: How the greedy bot scores playing a wild (generator/engine/simple_bots.py), by what it does:
#: multiply or set the count (by the parameter), gain a card (more from a bigger hand), swap hands
#: with the named seat, pool and re-deal the hands, pass the hands on, or nothing it can value.
PLAY_HINTS = ("multiply_count", "fix_count", "gain_card", "swap_hands", "pool_hands", "pass_hands", "neutral")
#: The largest count a card may set (the largest value a card may print, manifest.MAX_VALUE).
MAX_COUNT = 999
#: State fields a rule may write besides the count, the pending state and the hands (see Turn).
WRITES = ("match", "direction")


@dataclass(frozen=True)
class Param:
    """A whole-number parameter of an effect, given per card in cards.yaml (`params: {factor: 2}`)."""

    name: str  #: the key in cards.yaml, and the placeholder `{name}` in texts and glyphs
    lo: int  #: smallest allowed value
    hi: int | None  #: largest allowed value (None: no upper bound)
    why: str  #: what the range protects, for the error message ("x1 would change nothing")
    default: int | None = None  #: its value when the manifest leaves it out (None: the manifest must give it)


@dataclass(frozen=True)
class Pending:
    """A part of a turn an effect leaves waiting, as positions show it in `pending`."""

    key: str  #: the key in a position's `pending` (docs/formats.md)
    field: str  #: the engine's field for it (State, and Turn if the rule writes it)
    default: bool | int  #: its value when nothing waits; its type is the type the key takes
    meaning: str  #: what the value says, for messages about positions
    shown: str  #: the terminal game's line while it is set: {n} the value, {s} "s" if n > 1, {seat} the seat to act
    before: str  #: the key of a position's turn state (drawn, played, gave, owed) it is listed before
    hi: int = 1  #: the largest value a whole-number key can reach in a game


@dataclass(frozen=True)
class BotHints:
    """What the bots know of an effect: how much a card of it is worth keeping, how to score playing it."""

    keep: float  #: worth keeping when a discard is owed (higher: keep longer; number cards score -1..3)
    play: str  #: one of PLAY_HINTS


@dataclass(frozen=True)
class WildEffect:
    """One wild effect: everything but its rule (generator/engine/effects.py, the same name)."""

    name: str  #: the name cards.yaml uses (`effect: multiply`), and the rule's function name
    glyph: str  #: the large glyph on the card face; `{param}` placeholders are filled in
    short: str  #: the quick-reference line; `{param}`, `{target}` and `{hand_size}` are filled in (deck/wording.py)
    bot: BotHints
    params: tuple[Param, ...] = ()
    seat: str | None = None  #: one of SEAT_CHOICES if a play names a seat (`play STEAL 2`), else None
    seat_question: str = ""  #: the terminal's question for the seat, with {name} the card's name
    seat_verb: str = ""  #: the terminal's word before the seat: "play Steal a Card from seat 2"
    pending: tuple[Pending, ...] = ()  #: the pending state its rule (and the loop) keep for it
    options: tuple[str, ...] = ()  #: rule options (docs/rules.md names) that change what it does
    writes: tuple[str, ...] = ()  #: fields of WRITES its rule changes, so texts can name the card
    partial: bool = True  #: it has a rulebook clarification, templates/partials/effects/NAME.html.j2
    #: the quick-reference line when a rule option of `options` has another value than its
    #: default: (option, value, line); `short` is the line for the default (docs/rules.md)
    short_when: tuple[tuple[str, object, str], ...] = ()

    def short_for(self, options: Mapping[str, object]) -> str:
        """The quick-reference line (placeholders unfilled) under the rule options `options`."""
        for option, value, line in self.short_when:
            if option in options and options[option] == value and type(options[option]) is type(value):
                return line
        return self.short

    @property
    def param_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)

    @property
    def partial_path(self) -> str | None:
        """The clarification partial's path under templates/, or None."""
        return f"partials/effects/{self.name}.html.j2" if self.partial else None


#: Every effect, by name, in the order the rulebook and references list them.
CATALOGUE: dict[str, WildEffect] = {}


def register(effect: WildEffect) -> WildEffect:
    """Add `effect` to the catalogue (a test may add one and remove it again with `unregister`)."""
    if effect.name in CATALOGUE:
        raise ValueError(f"effect '{effect.name}' is already in the catalogue")
    CATALOGUE[effect.name] = effect
    return effect


def unregister(name: str) -> None:
    del CATALOGUE[name]


def catalogue() -> Mapping[str, WildEffect]:
    """The catalogue as it stands (effects registered later included)."""
    return CATALOGUE


register(WildEffect(
    "draw_extra", glyph="+{count}", short="Draw {count:word} extra card{count:/s}.", bot=BotHints(7, "gain_card"),
    params=(Param("count", 1, 9, "the cards it draws, one digit on the card", default=1),)))
register(WildEffect(
    "invert_next", glyph="±", short="If the next card is a number, its sign flips.", bot=BotHints(4, "neutral"),
    short_when=(("invert_through_wilds", True, "The next number card's sign flips; two cancel."),),
    pending=(Pending("invert", "invert", False, "a +/- waits for the next number card",
                     "+/- waiting: the next number card counts the other way", before="drawn"),),
    options=("invert_through_wilds",)))
register(WildEffect(
    "reverse", glyph="⇄", short="Reverse the order of play.", bot=BotHints(4, "neutral"), writes=("direction",)))
register(WildEffect(
    "steal", glyph="☚", short="Take a card from a player.", bot=BotHints(8, "gain_card"),
    seat="other", seat_question="{name}: take a card from whom?", seat_verb="from"))
register(WildEffect(
    "trade_hands", glyph="⇅", short="Trade hands with a player.", bot=BotHints(7, "swap_hands"),
    seat="other", seat_question="{name}: trade hands with whom?", seat_verb="with"))
register(WildEffect(
    "multiply", glyph="×{factor}", short="Multiply the count by {factor}.", bot=BotHints(9, "multiply_count"),
    params=(Param("factor", 2, None, "x1 would change nothing"),)))
register(WildEffect(
    "set_count", glyph="={value}", short="The count becomes {value}.", bot=BotHints(8, "fix_count"),
    params=(Param("value", 0, MAX_COUNT, "the count it sets"),)))
register(WildEffect(
    "play_two", glyph="▶▶", short="The next player plays two cards.", bot=BotHints(5, "neutral"),
    short_when=(("play2_draws", 2, "The next player plays two cards, drawing before each."),),
    pending=(Pending("play2", "play2", 0, "1 while a Play 2 turn is in progress, else 0",
                     "Play 2: seat {seat} plays two cards this turn", before="gave"),
             Pending("play2_next", "play2_next", False, "a Play 2 waits for the next player to take a turn",
                     "Play 2: the next player plays two cards", before="gave")),
    options=("play2_draws",)))
register(WildEffect(
    "redeal", glyph="♻", short="Shuffle all hands together; re-deal.", bot=BotHints(6, "pool_hands"),
    seat="any", seat_question="{name}: deal first to whom?", seat_verb="dealing first to"))
register(WildEffect(
    "rotate_hands", glyph="↻", short="Everyone passes their hand on.", bot=BotHints(5, "pass_hands")))
register(WildEffect(
    "skip", glyph="⊘", short="The next player loses a turn.", bot=BotHints(5, "neutral"),
    pending=(Pending("skip", "to_skip", 0, "players to pass over: one per Skip, at most two plays a turn",
                     "Skip: {n} player{s} will be passed over", before="gave", hi=2),)))


def pending_keys() -> list[Pending]:
    """Every effect's pending state, in catalogue order (a key two effects share is listed once)."""
    seen: dict[str, Pending] = {}
    for effect in CATALOGUE.values():
        for p in effect.pending:
            seen.setdefault(p.key, p)
    return list(seen.values())


def param_problem(effect: WildEffect, key: str, value: int) -> str | None:
    """What is wrong with the value of parameter `key` of `effect`, if anything."""
    for p in effect.params:
        if p.name == key and not (p.lo <= value and (p.hi is None or value <= p.hi)):
            allowed = f"at least {p.lo}" if p.hi is None else f"{p.lo}..{p.hi}"
            return f"'{key}' must be {allowed} ({p.why}), not {value}"
    return None
