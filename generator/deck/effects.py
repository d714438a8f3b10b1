"""The wild-effect catalogue: the named wilds, each a list of steps (deck/steps.py) with its words.

A wild card in cards.yaml either says what it does as steps (`does: [skip: 1]`) or names an
effect here (`effect: skip`), which is shorthand for the entry's steps with the card's
parameters filled in: `effect: steal` and `does: [take: {from: chosen, cards: 1}]` play the
same. The engine knows only steps (generator/engine/steps.py), so every wild has one path to
its rule. An entry adds what a designer would otherwise write: the parameters the manifest
gives (with their ranges), the glyph on the card, the quick-reference line, the rulebook's
clarification partial and the terminal game's words. A card written with `does:` gets all of
these from its steps (`wild_entry`), and may give its own `short:`.
tests/deck/test_effect_catalogue.py fails, naming the effect and what it lacks, for an entry
without a partial, a glyph the typeface can draw, or any field.

Adding a named effect: its entry (`register(WildEffect(...))`) and, if it has one, its partial
templates/partials/effects/NAME.html.j2. A new wild needs neither: it is written in cards.yaml
(README, "Adding a wild").

This module imports nothing of the project but the deck's own records.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from generator.deck.model import Effect, Step
from generator.deck.steps import MAX_COUNT, STEPS, Pending, StepKind, chooser, glyph, sentence

__all__ = ["MAX_COUNT", "Pending", "SEAT_CHOICES", "WRITES", "Param", "WildEffect", "CATALOGUE", "register", "unregister",
           "catalogue", "wild_entry", "pending_keys", "param_problem"]

#: What a seat-naming play may name: another player still in, or any player still in (you too).
SEAT_CHOICES = ("other", "any")
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
class WildEffect:
    """One named wild: its steps (parameters as `{name}`) and its words."""

    name: str  #: the name cards.yaml uses (`effect: multiply`)
    steps: tuple[tuple[str, Mapping[str, Any]], ...]  #: (step kind, arguments); an argument may be "{param}"
    glyph: str  #: the large glyph on the card face; `{param}` placeholders are filled in
    short: str  #: the quick-reference line; `{param}`, `{target}` and `{hand_size}` are filled in (deck/wording.py)
    params: tuple[Param, ...] = ()
    seat_question: str = ""  #: the terminal's question for the seat, with {name} the card's name
    seat_verb: str = ""  #: the terminal's word before the seat: "play Steal a Card from seat 2"
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
    def kinds(self) -> tuple[StepKind, ...]:
        return tuple(STEPS[k] for k, _ in self.steps)

    @property
    def seat(self) -> str | None:
        """One of SEAT_CHOICES if a play names a seat (`play STEAL 2`), else None."""
        return _seat_of(self.steps)

    @property
    def pending(self) -> tuple[Pending, ...]:
        """The pending state its steps (and the loop) keep for it."""
        return tuple(p for k in self.kinds for p in k.pending)

    @property
    def options(self) -> tuple[str, ...]:
        """Rule options (docs/rules.md names) that change what it does."""
        return tuple(dict.fromkeys(o for k in self.kinds for o in k.options))

    @property
    def writes(self) -> tuple[str, ...]:
        """Fields of WRITES its steps change, so texts can name the card."""
        return tuple(dict.fromkeys(w for k in self.kinds for w in k.writes))

    @property
    def param_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)

    @property
    def partial_path(self) -> str | None:
        """The clarification partial's path under templates/, or None."""
        return f"partials/effects/{self.name}.html.j2" if self.partial else None

    def resolve(self, params: Mapping[str, int]) -> tuple[Step, ...]:
        """Its steps with the card's parameters filled in."""
        return tuple(Step(kind, tuple((k, params[v[1:-1]] if isinstance(v, str) and v.startswith("{") else v)
                                      for k, v in args.items()))
                     for kind, args in self.steps)


def _seat_of(steps) -> str | None:
    return chooser(tuple(Step(k, tuple(a.items())) for k, a in steps))[1]


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


@lru_cache(maxsize=256)
def wild_entry(effect: Effect) -> WildEffect:
    """The entry that gives a wild card its words: the catalogue's for a named effect, else one
    made from the card's steps (its sentence, its glyph, the choosing step's question), with
    `short` the card's own `short:` when it gives one."""
    named = CATALOGUE.get(effect.name)
    if named is not None and not effect.short:
        return named
    steps = effect.steps
    kind, _ = chooser(steps)
    line = effect.short or sentence(steps)
    if named is not None:
        return WildEffect(named.name, named.steps, named.glyph, line, named.params, named.seat_question, named.seat_verb,
                          named.partial)
    return WildEffect("", tuple((s.kind, s.mapping) for s in steps), glyph(steps).replace("{", "{{").replace("}", "}}"),
                      line.replace("{", "{{").replace("}", "}}") if not effect.short else line,
                      seat_question="{name}: " + kind.question if kind else "", seat_verb=kind.verb if kind else "",
                      partial=False)


register(WildEffect(
    "draw_extra", (("draw", {"who": "me", "cards": "{count}"}),), glyph="+{count}",
    short="Draw {count:word} extra card{count:/s}.",
    params=(Param("count", 1, 9, "the cards it draws, one digit on the card", default=1),)))
register(WildEffect(
    "invert_next", (("invert_next", {"invert_next": True}),), glyph="±", short="If the next card is a number, its sign flips.",
    short_when=(("invert_through_wilds", True, "The next number card's sign flips; two cancel."),)))
register(WildEffect(
    "reverse", (("reverse", {"reverse": True}),), glyph="⇄", short="Reverse the order of play."))
register(WildEffect(
    "steal", (("take", {"from": "chosen", "cards": 1}),), glyph="☚", short="Take a card from a player.",
    seat_question="{name}: take a card from whom?", seat_verb="from"))
register(WildEffect(
    "trade_hands", (("trade_hands", {"with": "chosen"}),), glyph="⇅", short="Trade hands with a player.",
    seat_question="{name}: trade hands with whom?", seat_verb="with"))
register(WildEffect(
    "multiply", (("count", {"multiply": "{factor}"}),), glyph="×{factor}", short="Multiply the count by {factor}.",
    params=(Param("factor", 2, None, "x1 would change nothing"),)))
register(WildEffect(
    "set_count", (("count", {"set": "{value}"}),), glyph="={value}", short="The count becomes {value}.",
    params=(Param("value", 0, MAX_COUNT, "the count it sets"),)))
register(WildEffect(
    "play_two", (("next_plays", {"next_plays": 2}),), glyph="▶▶", short="The next player plays two cards.",
    short_when=(("play2_draws", 2, "The next player plays two cards, drawing before each."),)))
register(WildEffect(
    "redeal", (("redeal", {"first": "anyone"}),), glyph="♻", short="Shuffle all hands together; re-deal.",
    seat_question="{name}: deal first to whom?", seat_verb="dealing first to"))
register(WildEffect(
    "rotate_hands", (("pass_hands", {"to": "next"}),), glyph="↻", short="Everyone passes their hand on."))
register(WildEffect(
    "skip", (("skip", {"skip": 1}),), glyph="⊘", short="The next player loses a turn."))


def pending_keys() -> list[Pending]:
    """Every step's pending state (a key two steps share is listed once), in the catalogue's order of
    the named effects that keep it (as positions and messages have always listed them), then any
    other step's."""
    seen: dict[str, Pending] = {}
    for kind in [k for e in CATALOGUE.values() for k in e.kinds] + list(STEPS.values()):
        for p in kind.pending:
            seen.setdefault(p.key, p)
    return list(seen.values())


def param_problem(effect: WildEffect, key: str, value: int) -> str | None:
    """What is wrong with the value of parameter `key` of `effect`, if anything."""
    for p in effect.params:
        if p.name == key and not (p.lo <= value and (p.hi is None or value <= p.hi)):
            allowed = f"at least {p.lo}" if p.hi is None else f"{p.lo}..{p.hi}"
            return f"'{key}' must be {allowed} ({p.why}), not {value}"
    return None
