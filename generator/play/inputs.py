"""Where the human's answers come from: a terminal (live timer, line editing) or lines of text.

Both return an Answer; neither ever raises for bad input. At a terminal the prompt line is
redrawn in place by rich (the SPEED timer counts down while you type); elsewhere one answer
is read per line, so a game can be scripted.
"""

from __future__ import annotations

import codecs
import os
import re
import select
import sys
import time
from dataclasses import dataclass
from typing import IO, Callable

from rich.console import Console
from rich.live import Live
from rich.text import Text

from generator.play.screen import Screen

Clock = Callable[[], float]

#: What a terminal sends for a key that types nothing (arrows, function keys, Alt+key): CSI
#: parameters and a final byte, SS3 and one character, ESC and one character, or ESC alone.
_ESCAPES = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|O.|.)?", re.DOTALL)


def typed_keys(data: str) -> str:
    """What was typed in `data`, one read from the terminal, without its escape sequences: a
    read holds whatever arrived together (an arrow key and the answer after it, a paste)."""
    return _ESCAPES.sub("", data)


@dataclass(frozen=True)
class Answer:
    kind: str  #: "text" (see `text`), "timeout" (SPEED limit passed), "eof" (no more input)
    text: str = ""


class LineInput:
    """One answer per line from a stream (a pipe, a file, a test's StringIO)."""

    def __init__(self, stream: IO[str], console: Console, clock: Clock = time.monotonic):
        self.stream = stream
        self.console = console
        self.clock = clock

    def show(self, screen: Screen) -> None:
        self.console.print(screen.renderable(with_status=False, with_asking=False))
        for line in screen.asking():  # unwrapped, so that each choice stays on one line of the transcript
            self.console.print(line, soft_wrap=True)

    def event(self, screen: Screen, line: Text) -> None:
        self.console.print(Text("  ").append_text(line), soft_wrap=True)

    def problem(self, screen: Screen) -> None:
        assert screen.prompt is not None
        self.console.print(screen.prompt.problem, style="bold red")

    def page(self, screen: Screen, text) -> None:
        """`?` and `log`: print it, then the question again."""
        self.console.print(text, soft_wrap=True)
        for line in screen.asking():
            self.console.print(line, soft_wrap=True)

    def ask(self, screen: Screen, deadline: float | None) -> Answer:
        assert screen.prompt is not None
        if deadline is not None:
            left = deadline - self.clock()
            if left <= 0 or not self._ready(left):
                return Answer("timeout")
        self.console.print(screen.status(), end="")
        line = self._readline()
        if not line:
            self.console.print()
            return Answer("eof")
        text = line.strip()
        self.console.print(text)
        return Answer("text", text)

    def _readline(self) -> str:
        """The next line, or "" at the end of input, also when there is no input at all (standard
        input closed: the stream is None) or it can no longer be read."""
        if self.stream is None:
            return ""
        try:
            return self.stream.readline()
        except (OSError, ValueError):  # a closed or unreadable stream
            return ""

    def _ready(self, seconds: float) -> bool:
        """Wait up to `seconds` for a line; True if there is one (always True where select cannot tell)."""
        try:
            fd = self.stream.fileno()
        except (AttributeError, OSError, ValueError):
            return True
        try:
            ready, _, _ = select.select([fd], [], [], seconds)
        except (OSError, ValueError, OverflowError):
            return True
        return bool(ready)


class TerminalInput:
    """Keys from a terminal in cbreak mode, with the prompt line (and SPEED timer) redrawn live."""

    def __init__(self, console: Console, clock: Clock = time.monotonic, stream: IO[str] = sys.stdin, delay: float = 0.7):
        self.console = console
        self.clock = clock
        self.fd = stream.fileno()
        self.delay = delay  #: seconds to let each bot move sink in
        self.skipping = False  #: the human is out and pressed Enter: the rest plays without pauses

    def show(self, screen: Screen) -> None:
        self.console.clear()
        self.console.print(screen.renderable(with_status=False))

    def event(self, screen: Screen, line: Text) -> None:
        if screen.watching:
            if self.skipping:
                return
            screen.banner = "you are out: press Enter to skip to the end"
            if self._enter_pressed():
                self.skipping = True
                screen.banner = "skipping to the end…"
        self.show(screen)
        if self.delay and not self.skipping:
            time.sleep(self.delay if not screen.watching else min(self.delay, 0.15))

    def _enter_pressed(self) -> bool:
        try:
            ready, _, _ = select.select([self.fd], [], [], 0)
            if ready:
                os.read(self.fd, 1024)
            return bool(ready)
        except (OSError, ValueError):
            return False

    def problem(self, screen: Screen) -> None:
        self.show(screen)

    def page(self, screen: Screen, text) -> None:
        """`?` and `log`: in the terminal's pager (scroll, q to come back), then the screen again."""
        with self.console.pager(styles=False):  # plain text: a pager shows colour codes as they are
            self.console.print(text)
        self.show(screen)

    def ask(self, screen: Screen, deadline: float | None) -> Answer:
        # lazy: POSIX only; TerminalInput is chosen only where termios exists (LineInput elsewhere)
        import termios
        import tty

        prompt = screen.prompt
        assert prompt is not None
        prompt.typed = ""
        decoder = codecs.getincrementaldecoder("utf-8")("ignore")
        old = termios.tcgetattr(self.fd)
        try:
            tty.setcbreak(self.fd)
            with Live(screen.status(), console=self.console, auto_refresh=False, transient=True) as live:
                while True:
                    if deadline is not None:
                        left = deadline - self.clock()
                        if left <= 0:
                            return Answer("timeout")
                        prompt.timer = f"{left:4.1f} s left"
                    live.update(screen.status(), refresh=True)
                    ready, _, _ = select.select([self.fd], [], [], 0.1)
                    if not ready:
                        continue
                    raw = os.read(self.fd, 64)
                    if not raw:
                        return Answer("eof")
                    for ch in typed_keys(decoder.decode(raw)):  # a character split between reads waits
                        if ch in "\r\n":
                            self.console.print(screen.status())
                            return Answer("text", prompt.typed.strip())
                        if ch == "\x04":
                            if not prompt.typed:
                                return Answer("eof")
                        elif ch in "\x7f\x08":
                            prompt.typed = prompt.typed[:-1]
                        elif ch == "\x15":
                            prompt.typed = ""
                        elif ch.isprintable() and len(prompt.typed) < 40:
                            prompt.typed += ch
        finally:
            try:
                termios.tcsetattr(self.fd, termios.TCSADRAIN, old)
            except (termios.error, OSError):
                pass  # the terminal closed (SIGHUP): nothing left to restore
