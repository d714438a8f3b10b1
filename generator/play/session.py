"""A person against bots: the game loop of `county-uppy play`, on the engine's public API.

The human answers for one seat; bots (the engine's, seeded as in `simulate`) for the rest.
SPEED: each of the human's plays has `speed_seconds`; past it the engine's `late` decision
is applied (the player owes a discard, then still plays), at most once per turn.
Teams: before a player's first play each teammate is asked in turn whether to give a card
(R7.2): the engine makes it the teammate's decision, so a bot decides from its own view and
the human is asked when it is theirs.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Callable
from dataclasses import asdict, dataclass, field

from rich.text import Text

from generator.deck.effects import wild_entry
from generator.engine import Action, Game, State, make_bot
from generator.engine.actions import DISCARD, PLAY
from generator.engine.state import PHASE_GIVE
from generator.engine.simulate import bot_seed
from generator.play.describe import action_text, card_text, seat_name
from generator.play.events import cause_text, event_text, out_text
from generator.deck.quickref import quick_reference
from generator.play.penalties import Out, costly_plays, target_plays
from generator.play.screen import Prompt, Screen

QUIT_WORDS = ("q", "quit", "exit")
HELP_WORDS = ("?", "h", "help")
LOG_WORDS = ("l", "log")
#: What `_ask` returns when the SPEED limit passed before an answer came.
TIMEOUT = object()


@dataclass
class Session:
    game: Game
    seed: int
    human: int
    bot_names: list[str]  #: one per seat; the human's entry is "human"
    inp: object  #: a LineInput or TerminalInput
    clock: object = None
    hints: bool = False  #: mark the cards whose play would cost the human a discard
    start: State | None = None  #: play on from this position instead of dealing `seed` (tests, puzzles)
    after_decision: Callable[[], None] | None = None  #: called after every decision (the record written as it goes)
    state: State = field(init=False)
    outcome: str = field(init=False, default="")  #: "over", "quit", "eof" or "interrupted"

    def __post_init__(self) -> None:
        self.state = self.start if self.start is not None else self.game.new_initial_state(self.seed)
        self.rng = random.Random(bot_seed(self.seed))
        self.bots = {s: make_bot(n) for s, n in enumerate(self.bot_names) if s != self.human}
        self.screen = Screen(self.state, self.human, self.bot_names, self.seed)
        if self.clock is None:
            self.clock = self.inp.clock  # type: ignore[attr-defined]
        for line in self.intro():
            self.screen.log.append(line)

    def intro(self) -> list[Text]:
        """What the game is about, said once at the start (the quick reference's goal and matching)."""
        ref = quick_reference(self.game.deck, asdict(self.game.options))  # the rules this game plays
        return [Text(f"Goal: {ref.goal}", style="bold"),
                Text(f"Each turn: {ref.turn[0]} {ref.turn[1]}"),
                Text("Type the number of a choice; ? shows the rules, log the whole log, q quits.", style="dim")]

    def help_text(self) -> Text:
        """`?`: the quick reference (goal, turn, penalties, this deck's wilds) and what can be typed."""
        ref = quick_reference(self.game.deck, asdict(self.game.options))  # the rules this game plays
        out = Text()
        out.append(f"{ref.title}\n", style="bold")
        out.append(f"Goal: {ref.goal}\n")
        for step in ref.turn:
            out.append(f"  - {step}\n")
        out.append("Penalties:\n", style="bold")
        for line in ref.penalties:
            out.append(f"  - {line}\n")
        dealt = {self.game.codes[c] for c in self.game.edition_cards}
        wilds = [w for w in ref.wilds if w.code in dealt]
        if wilds:
            out.append("Wilds in this game:\n", style="bold")
            for w in wilds:
                out.append(f"  - {self.game.deck.words(w.name)}: {self.game.deck.words(w.short)}\n")
        out.append("Type the number of a choice (or the decision, like 'play C5'); log shows the whole log; q quits.",
                   style="dim")
        return out

    # --- the loop ----------------------------------------------------------------------
    def run(self) -> str:
        """Play until the game ends or the human stops; return why it stopped."""
        try:
            self.outcome = self._loop()
        except KeyboardInterrupt:
            self.outcome = "interrupted"
        self.screen.prompt = None
        self.screen.ended = True  # the seed may be shown now, as the saved record holds it
        self.screen.acting = -1 if self.state.is_terminal() else self.screen.acting
        return self.outcome

    def _loop(self) -> str:
        s = self.state
        while True:
            drawing = s.turn == self.human and not s.drawn and not s.owed
            before = Counter(s.hands[self.human]) if drawing else None
            gone = len(s.out_order)
            # makes the turn's draw (R4.1), or puts a player with no card out (R4.2), which may end the game
            actor = -1 if s.is_terminal() else s.current_player()
            if before is not None:
                self._tell_draw(before)
            for seat in s.out_order[gone:]:
                self._log(out_text(Out(seat, owed=False), self.human))
            if s.is_terminal():
                break
            self.screen.acting = actor
            if actor == self.human:
                stop = self._human_turn()
            else:
                stop = self._bot_turn(actor)
            if stop:
                return stop
        self.screen.acting = -1
        return "over"

    def _human_turn(self) -> str | None:
        s = self.state
        legal = s.legal_actions()
        if legal[0].kind == DISCARD:
            return self._ask_and_apply("You owe a discard: which card goes?", legal)
        if s.phase() == PHASE_GIVE:
            return self._ask_and_apply(f"Seat {s.turn}, your teammate, is about to play. Give them a card?", legal)
        plays = [a for a in legal if a.kind == PLAY]
        speed = self.game.options.speed_seconds
        deadline = None
        if speed:  # every play has its clock, also the play after a late discard
            deadline = self.clock() + speed  # type: ignore[operator]
        second = " (your second card: Play 2)" if s.played else ""
        # One choice per card; a card that names a player (Steal, Trade, Re-Deal) asks whom next.
        firsts = [a if a.seat is None else Action(PLAY, a.code) for a in plays]
        firsts = list(dict.fromkeys(firsts))
        self._costs: dict | None = None  # the hints, worked out once per question
        while True:
            pick = self._ask(f"Your turn{second}: which card do you play?", firsts, deadline, typed=plays,
                             labels=[self._card_label(a, plays) for a in firsts])
            if not isinstance(pick, Action) or any(pick is a for a in plays):
                break
            targets = [a for a in plays if a.code == pick.code]
            labels = [Text(f"{seat_name(a.seat, self.human, self.bot_names)}, {len(s.hands[a.seat])} cards")
                      for a in targets] + [Text("back: choose another card")]
            pick = self._ask(self._target_question(pick.code), [*targets, None], deadline, typed=plays, labels=labels)
            if pick is not None:
                break
        return self._settle_pick(pick)

    def _bot_turn(self, actor: int) -> str | None:
        s = self.state
        action = self.bots[actor].choose(s.view(actor), s.legal_actions(), self.rng)
        self._apply(action, actor)
        return None

    # --- asking ------------------------------------------------------------------------
    def _card_label(self, first: Action, plays: list[Action]) -> Text:
        label = action_text(self.state, first, self.human, self.bot_names)
        if first not in plays:
            label.append(" → then choose a player", style="italic")
        if self.hints:
            if self._costs is None:
                self._costs = costly_plays(self.state)
                self._targets = target_plays(self.state)
            if first.code in self._targets:
                whom = "every opponent" if self.game.options.teams and self.game.options.sixteen_hits == "opponents" \
                    else "every other player"
                label.append(f"  ★ makes {self.game.target}: {whom} owes a discard", style="bold green")
            cost = self._costs.get(first.code)
            if cost:
                label.append("  ✗ costs a discard: ", style="bold red")
                label.append_text(Text("; ").join(cause_text(p, self.game, with_card=False) for p in cost))
        return label

    def _target_question(self, code: str) -> str:
        card = self.game.deck.card(code)
        assert card.effect is not None  # only a wild's play names a seat
        return wild_entry(card.effect).seat_question.format(name=self.game.deck.words(card.name))

    def _ask_and_apply(self, question: str, choices: list[Action], deadline: float | None = None) -> str | None:
        return self._settle_pick(self._ask(question, choices, deadline))

    def _settle_pick(self, pick) -> str | None:
        if pick is TIMEOUT:
            self._apply(self.game.late_action, self.human)
            return None
        if isinstance(pick, str):
            return pick
        self._apply(pick, self.human)
        return None

    def _ask(self, question: str, choices: list, deadline: float | None = None, *, typed: list | None = None,
             labels: list[Text] | None = None, none_label: str = "no card"):
        """The chosen Action (None for "no card" or "back"), TIMEOUT, or why to stop ("quit", "eof").

        Answers are a number from 1, or a decision typed out (`play STEAL 2`) among `typed`.
        """
        s = self.state
        if labels is None:
            labels = [Text(none_label) if c is None else action_text(s, c, self.human, self.bot_names) for c in choices]
        prompt = Prompt(question, labels)
        self.screen.prompt = prompt
        self.inp.show(self.screen)  # type: ignore[attr-defined]
        while True:
            answer = self.inp.ask(self.screen, deadline)  # type: ignore[attr-defined]
            if answer.kind == "timeout":
                self.screen.prompt = None
                return TIMEOUT
            if answer.kind == "eof":
                return "eof"
            text = answer.text
            if text.lower() in QUIT_WORDS:
                return "quit"
            if text.lower() in HELP_WORDS:
                self.inp.page(self.screen, self.help_text())  # type: ignore[attr-defined]
                continue
            if text.lower() in LOG_WORDS:
                self.inp.page(self.screen, self.screen.full_log())  # type: ignore[attr-defined]
                continue
            index = self._parse(text, choices)
            if index is not None:
                self.screen.prompt = None
                return choices[index]
            spelled = [a for a in typed or () if str(a).lower() == text.lower()]
            if spelled:
                self.screen.prompt = None
                return spelled[0]
            prompt.problem = (f"'{text}' is not one of the choices: type a number from 1 to {len(choices)}"
                              if text else f"type a number from 1 to {len(choices)}")
            self.inp.problem(self.screen)  # type: ignore[attr-defined]

    @staticmethod
    def _parse(text: str, choices: list) -> int | None:
        """A number from 1, a decision as text (`play STEAL 2`), or a card code that names one choice."""
        if text.isascii() and text.isdigit():  # '²' is a digit to str.isdigit, not to int()
            k = int(text) if len(text) < 10 else 0
            return k - 1 if 1 <= k <= len(choices) else None
        lowered = text.lower()
        for i, c in enumerate(choices):
            if c is not None and str(c).lower() == lowered:
                return i
        by_code = [i for i, c in enumerate(choices) if c is not None and c.code.lower() == lowered]
        return by_code[0] if len(by_code) == 1 else None

    # --- applying and telling -----------------------------------------------------------
    def _apply(self, action: Action, actor: int) -> None:
        before = self.state.clone()
        self.state.apply(action)
        if self.after_decision is not None:
            self.after_decision()
        line = event_text(before, action, self.state, actor, self.human, self.bot_names)
        self._log(line)

    def _tell_draw(self, before: Counter) -> None:
        got = Counter(self.state.hands[self.human]) - before
        if got:
            codes = self.game.codes
            line = Text("you drew ")
            line.append_text(Text(", ").join(card_text(self.game, codes[c]) for c in sorted(got.elements())))
            self._log(line)

    def _log(self, line: Text) -> None:
        self.screen.log.append(line)
        self.screen.prompt = None
        self.inp.event(self.screen, line)  # type: ignore[attr-defined]

    # --- the end -------------------------------------------------------------------------
    def result_text(self) -> str:
        s = self.state
        if s.is_terminal():
            if s.stopped:
                return f"The game stopped unfinished after {s.turns} turns."
            if s.winner is None:
                return "Everyone is out: a draw."
            if self.game.options.teams:
                return "Your team wins!" if s.winner == self.human % 2 else f"Team {s.winner} wins."
            return "You win!" if s.winner == self.human else f"Seat {s.winner} ({self.bot_names[s.winner]} bot) wins."
        return {"quit": "You left the game.", "eof": "End of input: the game stops here.",
                "interrupted": "Interrupted: the game stops here."}.get(self.outcome, "The game stops here.")
