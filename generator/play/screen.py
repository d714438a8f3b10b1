"""The play screen: table, players, what just happened, your hand, numbered choices."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from generator.engine import State
from generator.play.describe import card_text, match_text, seat_name
from generator.play.events import waiting


#: Lines of the log the screen shows; `log` (and the end of the game) shows them all.
HISTORY = 8


@dataclass
class Prompt:
    """What the human is asked now."""

    question: str
    choices: list[Text]
    timer: str = ""  #: SPEED: seconds left, or "late!"
    typed: str = ""  #: what has been typed so far (terminal only)
    problem: str = ""  #: why the last answer was not taken


@dataclass
class Screen:
    state: State
    human: int
    bots: list[str]
    seed: int
    acting: int = -1  #: the seat to act (-1: nobody, the game is over)
    #: the game has ended for the human (over, quit, end of input): only then does the header name the
    #: seed, which rebuilds the deck's order and so every hand and every draw to come
    ended: bool = False
    log: list[Text] = field(default_factory=list)
    prompt: Prompt | None = None
    banner: str = ""

    @property
    def watching(self) -> bool:
        """The human is out (and has no teammate still in): the bots play on quickly."""
        s = self.state
        if not s.out[self.human]:
            return False
        if s.game.options.teams:
            return not any(not s.out[t] for t in range(self.human % 2, s.game.players, 2))
        return True

    def renderable(self, *, with_status: bool = True, with_asking: bool = True) -> Group:
        parts = [self.table(), self.players(), self.history(), self.hand(), *(self.asking() if with_asking else ())]
        if self.prompt is not None and with_status:
            parts.append(self.status())
        return Group(*parts)

    def table(self) -> Panel:
        s = self.state
        game = s.game
        line = Text()
        line.append("COUNT ", style="dim")
        line.append(f"{s.count}", style="bold")
        line.append(f" / {game.target}", style="dim")
        line.append("     MATCH ", style="dim")
        line.append_text(match_text(s))
        line.append("     DIRECTION ", style="dim")
        line.append("clockwise ↻" if s.direction == 1 else "counterclockwise ↺")
        extra = waiting(s)  # what the wilds left waiting, in the catalogue's words
        body = Group(line, *(Text(e, style="yellow") for e in extra)) if extra else line
        title = (f"{game.deck.params.name} · {game.edition.name} · {game.players} players"
                 f"{' · Teams' if game.options.teams else ''}"
                 f"{f' · SPEED {game.options.speed_seconds:g} s' if game.options.speed_seconds else ''}"
                 f" · turn {s.turns + 1}{f' · seed {self.seed}' if self.ended else ''}")
        return Panel(body, title=title, title_align="left", subtitle=self.banner or None)

    def players(self) -> Table:
        s = self.state
        t = Table(box=None, show_header=True, header_style="dim", padding=(0, 2))
        t.add_column("")
        t.add_column("player")
        t.add_column("cards", justify="right")
        if s.game.options.teams:
            t.add_column("team")
        t.add_column("")
        # who acts now, read from the position itself: the first seat owing a discard, else a teammate
        # asked to give (Teams), else whose turn it is (after a decision, before the next one is asked,
        # `self.acting` still names the last actor)
        acting = -1 if s.is_terminal() else (s.owed[0] if s.owed else s.turn if s.giver < 0 else s.giver)
        for seat in range(s.game.players):
            mark = "▶" if seat == acting and not s.is_terminal() else ""  # who acts now (a discard owed too)
            status = []
            if s.out[seat]:
                status.append("out")
            if seat in s.owed:
                status.append("owes a discard")
            if seat == acting and not s.owed:
                status.append("to play")
            if s.winner is not None and (seat == s.winner if not s.game.options.teams else seat % 2 == s.winner):
                status.append("WINNER")
            style = "bold" if seat == self.human else ("dim" if s.out[seat] else "")
            row = [mark, seat_name(seat, self.human, self.bots), str(len(s.hands[seat]))]
            if s.game.options.teams:
                row.append(f"team {seat % 2}{' (yours)' if seat % 2 == self.human % 2 else ''}")
            row.append(", ".join(status))
            t.add_row(*row, style=style)
        return t

    def history(self) -> Panel:
        lines = self.log[-HISTORY:] or [Text("the game begins", style="dim")]
        title = "what just happened" + (f" (last {HISTORY} of {len(self.log)}; type log for all)"
                                        if len(self.log) > HISTORY else "")
        return Panel(Group(*lines), title=title, title_align="left", border_style="dim")

    def full_log(self) -> Group:
        """Every line of the game so far, numbered: `log`, and the end of a game at a terminal."""
        return Group(*(Text(f"{i:>4}. ").append_text(line) for i, line in enumerate(self.log, 1)))

    def hand(self) -> Text:
        s = self.state
        codes = [s.game.codes[c] for c in s.hands[self.human]]
        out = Text(f"Your hand ({len(codes)}): ", style="bold")
        for i, code in enumerate(codes):
            if i:
                out.append("  ·  ", style="dim")
            out.append_text(card_text(s.game, code))
        if not codes:
            out.append("empty", style="dim")
        return out

    def asking(self) -> list:
        p = self.prompt
        if p is None:
            return []
        out: list = [Text(p.question, style="bold cyan")]
        for i, choice in enumerate(p.choices, 1):
            line = Text(f"{i:>3}. ")
            line.append_text(choice)
            out.append(line)
        if p.problem:
            out.append(Text(p.problem, style="bold red"))
        return out

    def status(self) -> Text:
        """The input line: SPEED timer, the range of choices, what has been typed."""
        p = self.prompt
        assert p is not None
        status = Text()
        if p.timer:
            status.append(f"[{p.timer}] ", style="bold red" if "late" in p.timer else "bold yellow")
        status.append(f"choice 1-{len(p.choices)} (q quits)> ")
        status.append(p.typed)
        return status
