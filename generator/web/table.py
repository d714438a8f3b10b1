"""One web game: who sits where, whose decision it is, and what each seat is told.

The table drives the engine through its public surface only (Game, State.current_player,
legal_actions, apply, view, make_record). Every message for a seat is built from
`state.view(seat)` and from log lines told from that seat's side (the terminal game's own
words, play/events.py), never from the State itself, so no seat is sent a card it cannot see.
Someone watching, with no seat yet, is told the same words from no seat's side.

Teams: before the turn's first play each teammate is asked in turn whether to give a card
(R7.2); the engine makes that the teammate's decision, so a bot teammate decides from its own view.
SPEED: a person deciding a play has `speed_seconds`; past the deadline the table applies the
decision `late` (R7.5). The player discards, then plays with a new clock.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from generator.engine import Action, EngineError, Game, State, make_bot, make_record
from generator.engine.actions import DISCARD, GIVE, NO_GIVE, PLAY
from generator.engine.state import PHASE_GIVE, PHASE_PLAY
from generator.engine.simulate import bot_seed
from generator.play.describe import action_parts, action_text, card_text
from generator.play.events import cause_text, event_text, out_text, waiting
from generator.play.penalties import Out, costly_plays, target_plays

HUMAN = "human"
#: The bot that plays a person's seat the table gives away (docs/commands.md, "play --web").
TAKEOVER_BOT = "greedy"


class Refused(Exception):
    """A decision the table does not take, with the reason shown to the player who sent it."""


@dataclass
class Choice:
    decision: str  #: the decision string (docs/formats.md), or NO_GIVE
    label: str  #: how the terminal game words it
    code: str = ""  #: the card it plays, discards or gives ("" for NO_GIVE)
    cost: str = ""  #: hint: why this play would cost a discard ("" when it costs none)
    target: str = ""  #: hint: this play makes the count exactly the target, and who then owes a discard
    head: str = ""  #: a play that names a seat: the card and its verb (`play Steal a Card (...) from`), shown once
    seat: str = ""  #: ... and the seat it names (`seat 2 (greedy bot), 3 cards`), the button's words


@dataclass
class Table:
    """A game in progress at one web table, and the log each seat has been told."""

    game: Game
    seed: int
    seats: list[str]  #: per seat: HUMAN or a bot name
    clock: Callable[[], float] = time.monotonic
    after_decision: Callable[[], None] | None = None  #: called after every decision (the record written as it goes)
    start: State | None = None  #: play on from this position (a test's stacked deck) rather than the seed's deal
    state: State = field(init=False)

    def __post_init__(self) -> None:
        if len(self.seats) != self.game.players:
            raise EngineError(f"--seats names {len(self.seats)} seats but the game has {self.game.players} players")
        self.state = self.start if self.start is not None else self.game.new_initial_state(self.seed)
        self.rng = random.Random(bot_seed(self.seed))
        self.bots = {s: make_bot(n) for s, n in enumerate(self.seats) if n != HUMAN}
        self.logs: list[list[str]] = [[] for _ in self.seats]  #: what each seat has been told, in order
        self.public: list[str] = []  #: what someone watching is told: the seats' words, from no seat's side
        self.deadline: float | None = None  #: SPEED: when the person deciding a play is late
        self.late_seat: int | None = None  #: SPEED: the seat whose discard is owed for being late, until it is paid
        self._deadline_seq = -1
        self._settle()

    # --- whose decision ------------------------------------------------------------------
    @property
    def seq(self) -> int:
        """Decisions made so far: a decision names the seq it answers, so a stale or replayed one is refused."""
        return len(self.state.history)

    @property
    def over(self) -> bool:
        return self.state.is_terminal()

    def decider(self) -> int:
        """The seat that decides next (Teams: a teammate asked to give, R7.2), -1 when the game is over."""
        return self.state.current_player()

    def choices(self, seat: int) -> list[Action]:
        """The decisions `seat` may make now (empty when it is not that seat's decision)."""
        if seat != self.decider():
            return []
        return list(self.state.legal_actions())

    def human_to_decide(self) -> int:
        """The person whose decision the table waits for, or -1 (a bot's turn, or the end)."""
        seat = self.decider()
        return seat if seat >= 0 and self.seats[seat] == HUMAN else -1

    # --- deciding -------------------------------------------------------------------------
    def decide(self, seat: int, decision: Any, seq: Any) -> None:
        """A person's decision for `seat`, answering position `seq`; raise Refused (the game goes on)."""
        if self.over:
            raise Refused("the game is over")
        if not isinstance(decision, str) or not isinstance(seq, int) or isinstance(seq, bool):
            raise Refused("a decision is a text and the number of the position it answers")
        if seq != self.seq:
            raise Refused(f"that answer was for decision {seq}, but the game is at decision {self.seq}: "
                          "it is stale or replayed, so it was not taken")
        who = self.decider()
        if seat != who:
            raise Refused(f"it is not your decision: seat {who} is to act")
        try:
            action = self.game.action(decision)
        except EngineError as exc:
            raise Refused(str(exc)) from None
        allowed = self.choices(seat)
        if action not in allowed:
            raise Refused(self._why_not(seat, action))
        self._apply(action, seat)

    def _why_not(self, seat: int, action: Action) -> str:
        hand = self.state.view(seat).hand
        if action.code and action.kind in (PLAY, DISCARD, GIVE) and action.code not in hand:
            return f"you do not hold {action.code}: your hand is {' '.join(hand) or 'empty'}"
        if self.state.owed and action.kind == PLAY:
            return "you owe a discard first: choose a card to discard"
        return f"'{action}' is not one of your choices now: " + ", ".join(str(a) for a in self.choices(seat))

    def bot_to_decide(self) -> bool:
        seat = self.decider()
        return seat >= 0 and self.seats[seat] != HUMAN

    def step_bot(self) -> bool:
        """Make one bot decision if a bot is to decide; return whether one was made."""
        if not self.bot_to_decide():
            return False
        seat = self.decider()
        s = self.state
        self._apply(self.bots[seat].choose(s.view(seat), s.legal_actions(), self.rng), seat)  # a giver from its own view
        return True

    def late(self) -> bool:
        """SPEED: apply `late` if the person deciding a play is past the deadline; return whether it was."""
        if self.deadline is None or self.clock() < self.deadline or self.over:
            return False
        seat = self.decider()
        self.deadline = None
        self._apply(self.game.late_action, seat)
        return True

    def seat_to(self, seat: int, name: str, line: str) -> None:
        """Seat `seat` is played by `name` (HUMAN or a bot) from now on; every seat is told `line`."""
        self.seats[seat] = name
        self.bots.pop(seat, None)
        if name != HUMAN:
            self.bots[seat] = make_bot(name)
        self.note(line)
        self.deadline = None  # SPEED: whoever plays the seat now gets a whole clock
        self._start_clock()

    def note(self, line: str) -> None:
        """A line about the table, not a decision, told alike to every seat and to someone watching."""
        self.public.append(line)
        for log in self.logs:
            log.append(line)

    def _apply(self, action: Action, seat: int) -> None:
        s = self.state
        before = s.clone()
        s.apply(action)
        if self.after_decision is not None:
            self.after_decision()
        self.late_seat = seat if action == self.game.late_action else None
        self.public.append(event_text(before, action, s, seat, None, self.seats).plain)
        for viewer, log in enumerate(self.logs):
            log.append(event_text(before, action, s, seat, viewer, self.seats).plain)
        self._settle()

    def _settle(self) -> None:
        """After a decision: the next turn's draw (told to its drawer only), outs, the give window, the clock."""
        s = self.state
        hands = [s.view(seat).hand for seat in range(self.game.players)]
        gone = len(s.out_order)
        s.current_player()  # makes the turn's draw (R4.1), or puts a player with no card out (R4.2)
        for seat, old in enumerate(hands):
            new = s.view(seat).hand
            drawn = _minus(new, old)
            if drawn:
                self.logs[seat].append("you drew " + ", ".join(card_text(self.game, c).plain for c in drawn))
        for seat in s.out_order[gone:]:
            for viewer, log in enumerate(self.logs):
                log.append(out_text(Out(seat, owed=False), viewer).plain)
            self.public.append(out_text(Out(seat, owed=False), None).plain)
        if self.seq != self._deadline_seq:
            self._deadline_seq = self.seq
            self.deadline = None
        self._start_clock()

    def _start_clock(self) -> None:
        """SPEED: a person about to decide a play, with no discard owed, has speed_seconds from now."""
        s = self.state
        speed = self.game.options.speed_seconds
        human = self.human_to_decide()
        if speed and human >= 0 and self.deadline is None and s.phase() == PHASE_PLAY:
            self.deadline = self.clock() + speed

    # --- what a seat is told ----------------------------------------------------------------
    def message(self, seat: int | None, hints: bool = False) -> dict[str, Any]:
        """The table as `seat` sees it (None: the public table, no hand), built from state.view(seat)."""
        s = self.state
        view = s.view(0 if seat is None else seat)
        game = self.game
        decider = self.decider()
        acting = -1 if self.over else view.owed[0] if view.owed else view.turn  # who plays or discards
        msg: dict[str, Any] = {
            "type": "table", "seq": self.seq, "seat": seat, "players": game.players,
            "seats": [self._seat_label(k, seat) for k in range(game.players)],
            "target": view.target, "count": view.count, "match": view.match, "direction": view.direction,
            "turn": view.turn, "acting": acting, "decider": decider, "hand_sizes": view.hand_sizes,
            "out": view.out, "owed": view.owed, "in_play": view.in_play, "discard_top": (view.discard or [None])[-1],
            "discards": len(view.discard), "draw_size": view.draw_size, "play2": 0 if self.over else view.play2, "played": view.played,
            "teams": view.teams, "speed": game.options.speed_seconds, "waiting": [] if self.over else waiting(s),
            "deadline": (max(0.0, self.deadline - self.clock()) if self.deadline is not None else None),
            "log": list(self.logs[seat]) if seat is not None else list(self.public),
            "over": self._result(seat) if self.over else None,
        }
        if seat is not None:
            msg["hand"] = view.hand
            msg["question"], msg["choices"] = self._question(seat, hints)
        return msg

    def _seat_label(self, k: int, viewer: int | None) -> str:
        kind = "person" if self.seats[k] == HUMAN else f"{self.seats[k]} bot"
        team = f", team {k % 2}" if self.game.options.teams else ""
        return f"seat {k} (you{team})" if k == viewer else f"seat {k} ({kind}{team})"

    def _question(self, seat: int, hints: bool) -> tuple[str, list[dict[str, str]]]:
        actions = self.choices(seat)
        if not actions:
            return "", []
        s = self.state
        if s.phase() == PHASE_GIVE:
            options = [Choice(NO_GIVE, "give nothing")]
            for a in actions:
                if a.kind == GIVE:
                    options.append(Choice(str(a), f"give seat {s.turn} " + card_text(self.game, a.code).plain, a.code))
            question = f"Seat {s.turn}, your teammate, is about to play. Give them a card?"
        elif actions[0].kind == DISCARD:
            options = [Choice(str(a), action_text(s, a, seat, self.seats).plain, a.code) for a in actions]
            question = "You owe a discard: which card goes?"
            if self.late_seat == seat:
                question = (f"Too late: SPEED gives {self.game.options.speed_seconds:g} s to play, so you owe a "
                            "discard. Which card goes?")
        else:
            costs = costly_plays(s) if hints else {}
            targets = target_plays(s) if hints else set()
            opts = self.game.options
            whom = "every opponent" if opts.teams and opts.sixteen_hits == "opponents" else "every other player"
            options = []
            for a in actions:
                cost = "; ".join(cause_text(p, self.game, with_card=False).plain for p in costs.get(a.code, []))
                target = f"makes {self.game.target}: {whom} owes a discard" if a.code in targets else ""
                head, named = action_parts(s, a, seat, self.seats)
                options.append(Choice(str(a), action_text(s, a, seat, self.seats).plain, a.code, cost, target,
                                      head.plain if named else "", named))
            question = "Your turn (your second card: Play 2): which card do you play?" if s.played else \
                "Your turn: which card do you play?"
        return question, [vars(o) for o in options]

    def _result(self, seat: int | None) -> dict[str, Any]:
        s = self.state
        return {"winner": s.winner, "text": result_text(s, seat), "out": list(s.out_order), "turns": s.turns}

    def record(self) -> dict[str, Any]:
        """The game record (docs/formats.md), as `county-uppy play` writes it."""
        return make_record(self.state, self.seats)


def result_text(s: State, seat: int | None) -> str:
    """How a finished game ended, told to `seat` (None: to someone watching, or a replay)."""
    if s.stopped:
        return f"The game stopped unfinished after {s.turns} turns."
    if s.winner is None:
        return "Everyone is out: a draw."
    if s.game.options.teams:
        mine = seat is not None and seat % 2 == s.winner
        return "Your team wins!" if mine else f"Team {s.winner} wins."
    return "You win!" if s.winner == seat else f"Seat {s.winner} wins."


def _minus(new: Sequence[str], old: Sequence[str]) -> list[str]:
    left = list(old)
    out = []
    for c in new:
        if c in left:
            left.remove(c)
        else:
            out.append(c)
    return out


def parse_seats(text: str, players: int | None) -> list[str]:
    """`--seats human,human,greedy`: one entry per seat; `players` (if given) must agree."""
    names = [n.strip() for n in text.split(",")]
    if any(not n for n in names):
        raise EngineError(f"--seats takes a comma-separated list like human,human,greedy,search, not {text!r}")
    for n in names:
        if n != HUMAN:
            make_bot(n)
    if players is not None and players != len(names):
        raise EngineError(f"--seats names {len(names)} seats but --players is {players}")
    if HUMAN not in names:
        raise EngineError("--seats needs at least one 'human' seat")
    return names

