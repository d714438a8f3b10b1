"""The steps a wild's rule is made of (docs/rules.md R6.12-R6.22): one record per kind of step.

A wild card says what it does as a list of steps in cards.yaml (`does: [count: {divide: 2}]`),
or names an effect of the catalogue (deck/effects.py), which is a named list of these steps. A
step kind's record holds everything every layer needs of it but its rule: its arguments, with
their ranges and the reason for each (for located errors), the English clause the quick
reference and the rulebook print, the default glyph of the face, what a seat-naming play may
name, the pending part of a turn it keeps, and how much the bots value it. The rule is the
function of the same name in generator/engine/steps.py (`STEP_RULES`);
tests/deck/test_effect_catalogue.py checks that every kind has one, and walks each through every
layer.

Adding a step kind: its record here (`register(StepKind(...))`), its rule there, and a line in
docs/rules.md (README, "Adding a wild").

This module imports nothing of the project: the deck layer sits below everything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping


#: The largest count a card may set (the largest value a card may print, manifest.MAX_VALUE).
MAX_COUNT = 999


@dataclass(frozen=True)
class Pending:
    """A part of a turn a step leaves waiting, as positions show it in `pending`."""

    key: str  #: the key in a position's `pending` (docs/formats.md)
    field: str  #: the engine's field for it (State, and Turn if the rule writes it)
    default: bool | int  #: its value when nothing waits; its type is the type the key takes
    meaning: str  #: what the value says, for messages about positions
    shown: str  #: the terminal game's line while it is set: {n} the value, {s} "s" if n > 1, {seat} the seat to act
    before: str  #: the key of a position's turn state (drawn, played, gave, owed) it is listed before
    hi: int = 1  #: the largest value a whole-number key can reach in a game (per unit of `per`)
    #: the step argument that scales `hi` (a Skip of 2 passes over twice as many): the largest
    #: value the deck gives it times `hi` is the largest value in a game of that deck
    per: str = ""

#: Who a step names: you, the next or previous player still in (in the order of play), everyone
#: still in but you (in the order of play from you), everyone still in (you first), another
#: player still in named by the play, or any player still in (you too) named by the play.
WHO = ("me", "next", "previous", "others", "everyone", "chosen", "anyone")
#: What a play names when one of its steps names `chosen` or `anyone` (deck/effects.SEAT_CHOICES).
CHOOSES = {"chosen": "other", "anyone": "any"}
#: Cards a draw, discard or take step moves per player: one digit, as a card can print it.
MAX_CARDS = 9
#: Players a skip passes over: more would pass over the whole table of four.
MAX_SKIP = 3


@dataclass(frozen=True)
class Arg:
    """One argument of a step: a whole number within lo..hi, a `who` among `choices`, or `true`."""

    name: str  #: its key in cards.yaml (the step's own key for a step written `skip: 2`)
    kind: str  #: "int", "who" or "true"
    lo: int = 0  #: smallest whole number allowed
    hi: int = 0  #: largest whole number allowed
    why: str = ""  #: what the range or the choices protect, for the error message
    choices: tuple[str, ...] = ()  #: the `who` values it takes (a subset of WHO)
    not_zero: bool = False  #: 0 is outside the range though lo <= 0 <= hi (`add: 0` changes nothing)

    def problem(self, value: Any) -> str | None:
        """What is wrong with `value` for this argument, if anything."""
        if self.kind == "true":
            return None if value is True else f"'{self.name}' takes only true (leave the step out otherwise), not {value!r}"
        if self.kind == "who":
            if value in self.choices:
                return None
            from generator.deck.problems import suggest  # lazy: only to word a mistake

            known = ", ".join(self.choices)
            if value in WHO:
                return f"'{self.name}: {value}' is not allowed here ({self.why}); it takes {known}"
            return f"unknown player {value!r}{suggest(str(value), self.choices)}; '{self.name}' takes {known}"
        if type(value) is not int:
            return f"'{self.name}' must be a whole number, not {value!r}"
        if not self.lo <= value <= self.hi or (self.not_zero and value == 0):
            allowed = f"{self.lo}..{self.hi}" + (", not 0" if self.not_zero else "")
            return f"'{self.name}' must be {allowed} ({self.why}), not {value}"
        return None


@dataclass(frozen=True)
class StepKind:
    """One kind of step: everything but its rule (generator/engine/steps.py, the same name)."""

    key: str  #: the step's key in cards.yaml, and its rule's name
    rule_no: str  #: its rule in docs/rules.md
    args: tuple[Arg, ...]  #: its arguments; a step with `scalar` is written `key: value`
    say: Callable[[Mapping[str, Any]], str]  #: the clause, in the second person ("everyone else draws a card")
    glyph: Callable[[Mapping[str, Any]], str]  #: the default sign on the face
    #: greedy's keep value of a card holding it (higher: keep longer; number cards score -1..3)
    keep: Callable[[Mapping[str, Any]], float]
    scalar: bool = False  #: written `skip: 2` (its one argument has the step's key as name)
    one_of: bool = False  #: exactly one of its arguments is given (`count: {divide: 2}`)
    question: str = ""  #: the terminal's question when the play names a seat, after the card's name ("take from whom?")
    verb: str = ""  #: the word before the seat a play names: "play Steal a Card from seat 2"
    pending: tuple[Pending, ...] = ()  #: the part of a turn it leaves waiting, as positions show it
    options: tuple[str, ...] = ()  #: rule options (docs/rules.md names) that change what it does
    writes: tuple[str, ...] = ()  #: fields the rule writes besides the count, hands and pending state

    def chooses(self, args: Mapping[str, Any]) -> str | None:
        """What a play of it names (deck/effects.SEAT_CHOICES), or None."""
        for a in self.args:
            if a.kind == "who" and args.get(a.name) in CHOOSES:
                return CHOOSES[args[a.name]]
        return None


#: Every step kind, by key, in the order docs/rules.md lists them.
STEPS: dict[str, StepKind] = {}


def register(kind: StepKind) -> StepKind:
    """Add `kind` (a test may add one and remove it again with `unregister`)."""
    if kind.key in STEPS:
        raise ValueError(f"step '{kind.key}' is already registered")
    STEPS[kind.key] = kind
    return kind


def unregister(key: str) -> None:
    del STEPS[key]


# --- words --------------------------------------------------------------------------------
_WORDS = ("no", "a", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def cards(n: int) -> str:
    """'a card', 'two cards'."""
    return f"{_WORDS[n] if 0 <= n < len(_WORDS) else n} card{'' if n == 1 else 's'}"


def number(n: int) -> str:
    return _WORDS[n] if 1 < n < len(_WORDS) else str(n)


#: Who, as the subject of a clause (singular verb but for "you"), and as its object.
_SUBJECT = {"me": "you", "next": "the next player", "previous": "the previous player", "others": "everyone else",
            "everyone": "everyone", "chosen": "a player you choose", "anyone": "a player you choose (you too)"}
_OBJECT = {"next": "the next player", "previous": "the previous player", "others": "each other player",
           "chosen": "a player", "anyone": "a player"}


def _verb(who: str, base: str, third: str) -> str:
    return f"{base}" if who == "me" else f"{_SUBJECT[who]} {third}"


def _say_count(a: Mapping[str, Any]) -> str:
    if "add" in a:
        n = a["add"]
        return f"add {n} to the count" if n > 0 else f"take {-n} from the count"
    if "set" in a:
        return f"the count becomes {a['set']}"
    if "multiply" in a:
        return f"multiply the count by {a['multiply']}"
    d = a["divide"]
    return "halve the count, rounding down" if d == 2 else f"divide the count by {d}, rounding down"


def _glyph_count(a: Mapping[str, Any]) -> str:
    if "add" in a:
        n = a["add"]
        return f"+{n}" if n > 0 else f"\u2212{-n}"
    if "set" in a:
        return f"={a['set']}"
    if "multiply" in a:
        return f"\u00d7{a['multiply']}"
    return "\u00bd" if a["divide"] == 2 else f"\u00f7{a['divide']}"


def _keep_count(a: Mapping[str, Any]) -> float:
    return 9.0 if "multiply" in a else 8.0 if "set" in a else 6.0


def _who_sign(who: str) -> float:
    """+1 when the step acts on you, -1 when on others, 0 when the play may choose either."""
    return 1.0 if who == "me" else 0.0 if who == "anyone" else -1.0


_WHO_ALL = WHO
_ONE_SEAT = ("next", "previous", "chosen")
_COUNTS = ("add", "set", "multiply", "divide")

register(StepKind(
    "count", "R6.12", one_of=True,
    args=(Arg("add", "int", -MAX_COUNT, MAX_COUNT, "the count moves by at most the largest count", not_zero=True),
          Arg("set", "int", 0, MAX_COUNT, "the count it sets"),
          Arg("multiply", "int", 2, MAX_COUNT, "x1 would change nothing; write set: 0 for x0"),
          Arg("divide", "int", 2, MAX_COUNT, "dividing by 1 would change nothing, by 0 is not defined")),
    say=_say_count, glyph=_glyph_count, keep=_keep_count))
register(StepKind(
    "draw", "R6.13",
    args=(Arg("who", "who", choices=_WHO_ALL, why="who draws"),
          Arg("cards", "int", 1, MAX_CARDS, "one digit, as a card prints it")),
    say=lambda a: _verb(a["who"], f"draw {cards(a['cards'])}", f"draws {cards(a['cards'])}"),
    glyph=lambda a: f"+{a['cards']}", question="who draws?", verb="for",
    keep=lambda a: 6.0 + a["cards"] if a["who"] == "me" else 3.0))
register(StepKind(
    "discard", "R6.14",
    args=(Arg("who", "who", choices=_WHO_ALL, why="who discards"),
          Arg("cards", "int", 1, MAX_CARDS, "one digit, as a card prints it")),
    say=lambda a: _verb(a["who"], f"discard {cards(a['cards'])}", f"discards {cards(a['cards'])}"),
    glyph=lambda a: f"\u2212{a['cards']}", question="who discards?", verb="against",
    keep=lambda a: 2.0 if a["who"] == "me" else 6.0 + a["cards"]))
register(StepKind(
    "take", "R6.15",
    args=(Arg("from", "who", choices=("next", "previous", "others", "chosen"), why="you take from other players"),
          Arg("cards", "int", 1, MAX_CARDS, "one digit, as a card prints it")),
    say=lambda a: f"take {cards(a['cards'])} at random from {_OBJECT[a['from']]}",
    glyph=lambda a: "\u261a" if a["cards"] == 1 else f"\u261a{a['cards']}", question="take from whom?", verb="from",
    keep=lambda a: 7.0 + a["cards"]))
register(StepKind(
    "trade_hands", "R6.16",
    args=(Arg("with", "who", choices=_ONE_SEAT, why="you trade with one other player"),),
    say=lambda a: f"trade hands with {_OBJECT[a['with']]}", glyph=lambda a: "\u21c5", keep=lambda a: 7.0,
    question="trade hands with whom?", verb="with"))
register(StepKind(
    "pass_hands", "R6.17",
    args=(Arg("to", "who", choices=("next", "previous"), why="hands pass one way round the table"),),
    say=lambda a: "everyone passes their hand on" if a["to"] == "next" else "everyone passes their hand back",
    glyph=lambda a: "\u21bb" if a["to"] == "next" else "\u21ba", keep=lambda a: 5.0))
register(StepKind(
    "redeal", "R6.18",
    args=(Arg("first", "who", choices=("me", "next", "previous", "chosen", "anyone"), why="the deal starts with one player"),),
    say=lambda a: "shuffle all hands together and deal them out again, starting with " + (
        {"me": "you", "anyone": "a player you choose"}.get(a["first"]) or _OBJECT[a["first"]]),
    glyph=lambda a: "\u267b", keep=lambda a: 6.0, question="deal first to whom?", verb="dealing first to"))
register(StepKind(
    "reverse", "R6.19", scalar=True, args=(Arg("reverse", "true"),),
    say=lambda a: "reverse the order of play", glyph=lambda a: "\u21c4", keep=lambda a: 4.0, writes=("direction",)))
register(StepKind(
    "skip", "R6.20", scalar=True,
    args=(Arg("skip", "int", 1, MAX_SKIP, f"more than {MAX_SKIP} would pass over the whole table of four"),),
    say=lambda a: "the next player loses a turn" if a["skip"] == 1 else f"the next {number(a['skip'])} players lose a turn",
    glyph=lambda a: "\u2298" if a["skip"] == 1 else f"\u2298{a['skip']}", keep=lambda a: 5.0,
    pending=(Pending("skip", "to_skip", 0, "players to pass over: one per Skip, at most two plays a turn",
                     "Skip: {n} player{s} will be passed over", before="gave", hi=2, per="skip"),)))
register(StepKind(
    "next_plays", "R6.21", scalar=True,
    args=(Arg("next_plays", "int", 2, 2, "nobody plays more than two cards in a turn (R6.8)"),),
    say=lambda a: "the next player plays two cards", glyph=lambda a: "\u25b6\u25b6", keep=lambda a: 5.0,
    options=("play2_draws",),
    pending=(Pending("play2", "play2", 0, "1 while a Play 2 turn is in progress, else 0",
                     "Play 2: seat {seat} plays two cards this turn", before="gave"),
             Pending("play2_next", "play2_next", False, "a Play 2 waits for the next player to take a turn",
                     "Play 2: the next player plays two cards", before="gave"))))
register(StepKind(
    "invert_next", "R6.22", scalar=True, args=(Arg("invert_next", "true"),),
    say=lambda a: "if the next card is a number, its sign flips", glyph=lambda a: "\u00b1", keep=lambda a: 4.0,
    options=("invert_through_wilds",),
    pending=(Pending("invert", "invert", False, "a +/- waits for the next number card",
                     "+/- waiting: the next number card counts the other way", before="drawn"),)))


# --- a card's steps -------------------------------------------------------------------------
def sentence(steps: "tuple[Any, ...]") -> str:
    """The steps as one English sentence: "Everyone else draws a card, then the next player loses a turn."."""
    clauses = [STEPS[s.kind].say(s.mapping) for s in steps]
    if not clauses:
        return ""
    text = ", then ".join(clauses)
    return text[0].upper() + text[1:] + "."


def glyph(steps: "tuple[Any, ...]") -> str:
    """The default sign on a face: the signs of the first two steps."""
    return "".join(STEPS[s.kind].glyph(s.mapping) for s in steps[:2])


def chooser(steps: "tuple[Any, ...]") -> "tuple[StepKind, str] | tuple[None, None]":
    """The step of a card with these steps that names a seat, and what it names
    (deck/effects.SEAT_CHOICES: "other" or "any"), or (None, None)."""
    for s in steps:
        kind = STEPS[s.kind]
        seat = kind.chooses(s.mapping)
        if seat:
            return kind, seat
    return None, None


def keep(steps: "tuple[Any, ...]") -> float:
    """Greedy's keep value of a card with these steps: the best of its steps."""
    return max((STEPS[s.kind].keep(s.mapping) for s in steps), default=1.0)


def parse(raw: Any) -> tuple[list[tuple[str, dict[str, Any]]], list[tuple[tuple, str, bool]]]:
    """A `does:` list as written: the steps as (kind, args), and the problems as (location within
    the list, message, whether the location is a key): every problem, each at its own place."""
    from generator.deck.problems import suggest  # lazy: only to word a mistake

    steps: list[tuple[str, dict[str, Any]]] = []
    problems: list[tuple[tuple, str, bool]] = []
    if not isinstance(raw, list):
        return [], [((), "'does' must be a list of steps, like '- count: {divide: 2}'", False)]
    for i, item in enumerate(raw):
        if not isinstance(item, dict) or len(item) != 1:
            what = "a step with no key" if isinstance(item, dict) and not item else \
                f"{len(item)} keys ({', '.join(map(str, item))}): write each as its own '- ' entry" if isinstance(item, dict) else repr(item)
            problems.append(((i,), f"each step is one key, like '- skip: 1', not {what}", False))
            continue
        (key, value), = item.items()
        kind = STEPS.get(key) if isinstance(key, str) else None
        if kind is None:
            problems.append(((i, key), f"unknown step '{key}'{suggest(str(key), STEPS)}; steps are {', '.join(STEPS)}", True))
            continue
        args, bad = _args(kind, value, (i, key), suggest)
        problems.extend(bad)
        if not bad:
            steps.append((key, args))
    chooser = [i for i, (k, a) in enumerate(steps) if STEPS[k].chooses(a)]
    if len(chooser) > 1:
        problems.append(((chooser[1],), "a card may let its player choose a seat in one step only (this is the second)", False))
    return steps, problems


def _args(kind: StepKind, value: Any, at: tuple, suggest: Callable) -> tuple[dict[str, Any], list]:
    if kind.scalar:
        arg = kind.args[0]
        problem = arg.problem(value)
        return {arg.name: value}, ([(at, f"{kind.key}: {problem}", False)] if problem else [])
    names = [a.name for a in kind.args]
    example = f"{kind.key}: {{{names[0]}: ...}}" if kind.one_of else f"{kind.key}: {{{', '.join(n + ': ...' for n in names)}}}"
    if not isinstance(value, dict):
        return {}, [(at, f"'{kind.key}' takes {'one of ' if kind.one_of else ''}{', '.join(names)}, like '{example}'", False)]
    problems = []
    for key in value:
        if key not in names:
            problems.append((at + (key,), f"step '{kind.key}' has no '{key}'{suggest(str(key), names)}; it takes "
                             f"{'one of ' if kind.one_of else ''}{', '.join(names)}", True))
    if problems:
        return {}, problems
    if kind.one_of and len(value) != 1:
        return {}, [(at, f"'{kind.key}' takes exactly one of {', '.join(names)}, like '{example}'", False)]
    for a in kind.args:
        if a.name not in value and not kind.one_of:
            problems.append((at, f"step '{kind.key}' needs '{a.name}' ({example})", False))
        elif a.name in value:
            problem = a.problem(value[a.name])
            if problem:
                problems.append((at + (a.name,), problem, False))
    return ({k: value[k] for k in names if k in value} if not problems else {}), problems
