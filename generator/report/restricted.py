"""Restricted play (Jaffe et al., "Evaluating Competitive Game Balance with Restricted Play", AIIDE 2012):
any bot, kept from playing one card.

`WithoutCard(bot, code)` chooses as `bot` does among the legal actions left once every play (and,
Teams, every take from a teammate) of card `code` is taken out; when it owes a discard and holds the
card, it discards that card first. If nothing else is legal it plays the card after all (a hand of
nothing but that card). It filters the choice and leaves the bot's own judgement alone, so it works
the same for every bot on the ladder, whatever the bot thinks of the card.

`Watching(bot, seen)` chooses exactly as `bot` does and notes in `seen` the code of every card among
its legal actions: a game in which a seat never had card X among its choices plays out the same
with that seat restricted from X, so it need not be played again (report/card_effects.py).
"""

from __future__ import annotations

import random
from typing import Sequence

from generator.engine.actions import DISCARD, GIVE, PLAY, Action
from generator.engine.simple_bots import Bot
from generator.engine.view import PlayerView


class WithoutCard:
    """`bot`, never playing card `code` while it has anything else to do."""

    def __init__(self, bot: Bot, code: str):
        self.bot = bot
        self.code = code
        self.name = f"{bot.name} without {code}"

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        code = self.code
        if legal[0].kind == DISCARD:
            for a in legal:
                if a.code == code:
                    return a
            return self.bot.choose(view, legal, rng)
        allowed = [a for a in legal if a.code != code or a.kind not in (PLAY, GIVE)]
        if not allowed or len(allowed) == len(legal):
            return self.bot.choose(view, legal, rng)
        return self.bot.choose(view, allowed, rng)


class Watching:
    """`bot` unchanged, noting in `seen` every card code among its legal actions; with `marks`, also
    where each code was first offered: marks[code] = (a copy of the State, the bots' Random's state)
    just before that decision, from which `simulate.play_game(start=...)` plays the game on."""

    def __init__(self, bot: Bot, seen: set[str], marks: dict[str, tuple] | None = None):
        self.bot = bot
        self.seen = seen
        self.marks = marks
        self.name = bot.name

    def choose(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        seen = self.seen
        if self.marks is not None:
            new = [a.code for a in legal if a.code not in seen]
            if new:
                mark = (view._state.clone(), rng.getstate())
                for code in new:
                    self.marks.setdefault(code, mark)
        seen.update(a.code for a in legal)
        return self.bot.choose(view, legal, rng)
