"""Decisions as small values with a text form that parses back (`play STEAL 2`, `discard G7`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.engine.errors import ActionSyntaxError, suggest

PLAY = "play"
DISCARD = "discard"
GIVE = "give"
LATE = "late"
#: Teams (R7.2): the teammate asked to give keeps its cards.
NO_GIVE = "no give"
KINDS = (PLAY, DISCARD, GIVE, LATE, NO_GIVE)
#: Seat kinds of a played card: no seat, another player still in, anyone still in.
NO_SEAT, OTHER_SEAT, ANY_SEAT = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of a game.

    `str(action)` is the decision string of docs/formats.md and `Action.parse` reads it back;
    `repr(action)` evaluates back into an equal action.
    """

    kind: str  #: "play", "discard", "give", "no give" or "late"
    code: str = ""  #: the card code played, discarded or given ("" for late and no give)
    seat: int | None = None  #: play: the seat a Steal, Trade or Re-Deal names; give: the giving teammate
    card: int = field(default=-1, compare=False, repr=False)  #: the engine's card index (-1: not yet resolved)
    arg: int = field(default=-1, compare=False, repr=False)  #: `seat` as an int, -1 for none (engine use)

    def __str__(self) -> str:
        if self.kind == PLAY:
            return f"play {self.code}" if self.seat is None else f"play {self.code} {self.seat}"
        if self.kind == DISCARD:
            return f"discard {self.code}"
        if self.kind == GIVE:
            return f"give {self.seat} {self.code}"
        return self.kind  # late, no give

    def __repr__(self) -> str:
        return f"Action.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> "Action":
        """Read a decision string; raise ActionSyntaxError if it is not one."""
        if not isinstance(text, str):
            raise ActionSyntaxError(f"a decision is a string, not {type(text).__name__}")
        words = text.split()
        if not words:
            raise ActionSyntaxError("empty decision")
        kind = words[0].lower()
        if kind == PLAY and len(words) in (2, 3):
            return cls(PLAY, words[1], _seat(words[2], text) if len(words) == 3 else None)
        if kind == DISCARD and len(words) == 2:
            return cls(DISCARD, words[1])
        if kind == GIVE and len(words) == 3:
            return cls(GIVE, words[2], _seat(words[1], text))
        if kind == LATE and len(words) == 1:
            return cls(LATE)
        if kind == "no" and len(words) == 2 and words[1].lower() == GIVE:
            return cls(NO_GIVE)
        forms = "'play CODE [SEAT]', 'discard CODE', 'give SEAT CODE', 'no give' or 'late'"
        if kind not in KINDS and kind != "no":
            raise ActionSyntaxError(f"unknown decision {words[0]!r}{suggest(kind, KINDS)}; expected {forms}")
        raise ActionSyntaxError(f"malformed decision {text!r}; expected {forms}")


def _seat(word: str, text: str) -> int:
    try:
        seat = int(word)
    except ValueError:
        raise ActionSyntaxError(f"{word!r} is not a seat number in {text!r}") from None
    if seat < 0:
        raise ActionSyntaxError(f"seat {seat} is negative in {text!r}")
    return seat
