"""A second, independent implementation of docs/rules.md, for the differential test.

It was written from docs/rules.md (and the designer's text it settles) alone, without
reading the engine's rules loop or its effects, and it is kept deliberately plain: card
codes as strings, piles as lists, one method per rule. tests/engine/test_independent_rules.py
plays it in lock-step with the engine and compares every decision point.

What it takes from outside the rules, and why:

- the cards (codes, colours, values, each wild's steps with their numbers, editions) come from
  the Deck, the manifest's model, as every product reads them (a named effect such as `steal`
  comes as its steps: docs/rules.md R6.12-R6.22 say what each step does, and R6.1-R6.11 which
  steps each named wild is);
- randomness is not a rule. R8.4 only says it all comes from the game's seed. The deal is
  reproduced (the edition's cards in manifest order, `shuffle` of
  generator/engine/shuffling.py with `random.Random(seed)`, the top of the pile at the end of
  the list) so that R3.1's "one card at a time, starting with the player who plays first"
  is checked card by card. Every later random event (a reshuffle, Steal's pick, Re-Deal's
  shuffle) is done here in a fixed, arbitrary way and what it touched is marked *unsure*:
  `sync` then checks what the rules fix about the outcome (hand sizes, which cards are
  shared out among the unsure hands and the draw pile) and takes the engine's arrangement.
  Within one decision no rule depends on which card a random event picked, only on how many.

Positions are compared in the shape of docs/formats.md (`to_position`): the draw pile top
first, the discard pile and the cards in play oldest first, `out` in the order seats went out.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from generator.engine.shuffling import shuffle  # the seed's deal only: the one engine module used here

#: Every rule option of docs/rules.md ("All rule options"), at its default.
DEFAULTS: dict[str, Any] = {
    "wild_sets_target": False, "all_out": "sixteen_wins", "invert_through_wilds": False,
    "play2_draws": 1, "sixteen_hits": "others", "max_turns": 2000, "dealer": 0, "teams": False,
    "speed_seconds": None,
}

#: Who a step naming a seat lets the player choose (docs/rules.md, "Who a step names"): another
#: player still in, or anyone still in.
NAMES_ANOTHER, NAMES_ANYONE = "chosen", "anyone"


@dataclass(frozen=True)
class Card:
    code: str
    number: bool
    colours: frozenset
    value: int  #: a number card's printed value (0 for a wild)
    steps: tuple  #: a wild's steps: (kind, {argument: value}), in order; () for a number card

    def names(self) -> str | None:
        """NAMES_ANOTHER or NAMES_ANYONE when a play of this card names a seat, else None."""
        for _, args in self.steps:
            for v in args.values():
                if v in (NAMES_ANOTHER, NAMES_ANYONE):
                    return v
        return None


def cards_of(deck) -> dict[str, Card]:
    """The playing cards of a deck, by code."""
    out = {}
    for c in deck.cards:
        if not c.playing:
            continue
        steps = tuple((s.kind, dict(s.args)) for s in c.effect.steps) if c.effect else ()
        out[c.code] = Card(c.code, c.is_number, frozenset(c.colours), c.value if c.is_number else 0, steps)
    return out


def shuffled_pile(deck, edition: str, seed: int) -> list[str]:
    """The edition's cards as the seed shuffles them, top of the pile first (see the module's docstring)."""
    cards = [c.code for c in deck.edition_cards(edition)]
    shuffle(random.Random(seed), cards)
    return cards[::-1]


class Table:
    """One game, by the rules. `legal()`, `actor()`, `apply(decision)`; `sync(position)` after each decision."""

    def __init__(self, deck, edition: str, players: int, options: dict[str, Any], seed: int):
        """A new deal (R3.1-R3.3)."""
        self._start(deck, players, options)
        pile = shuffled_pile(deck, edition, seed)
        first = (self.opt["dealer"] + 1) % players  # R3.2
        k = min(len(pile), deck.params.hand_size * players)
        for t in range(k):  # R3.1: from the top, one card at a time, starting with the first player
            self.hands[(first + t) % players].append(pile[t])
        self.draw = pile[k:]
        self.turn = first
        self._settle()

    @classmethod
    def from_position(cls, deck, pos: dict[str, Any]) -> "Table":
        """A game part way through, from a position (docs/formats.md): between turns or in the
        middle of one (`pending`: discards owed, cards played, a Play 2 turn or one waiting,
        Skips, a give made, the turn's draw made, a +/- waiting), with seats out, turns
        counted, or over (a winner, stopped)."""
        self = cls.__new__(cls)
        self._start(deck, len(pos["hands"]), pos.get("options") or {})
        self.hands = [list(h) for h in pos["hands"]]
        self.draw = list(pos.get("draw", []))
        self.discard = list(pos.get("discard", []))
        self.in_play = list(pos.get("in_play", []))
        self.count = pos.get("count", 0)
        self.match = None if pos.get("match", "start") == "start" else pos["match"]
        self.direction = pos.get("direction", 1)
        self.turn = pos.get("turn", 0)
        self.out = list(pos.get("out", []))
        self.turns = pos.get("turns", 0)
        self.winner = pos.get("winner")
        self.stopped = pos.get("stopped", False)
        pending = pos.get("pending", {})
        self.invert = pending.get("invert", False)
        self.played = pending.get("played", 0)
        self.plays = 2 if pending.get("play2") else 1
        # the position's `drawn` is the draw still to come before the next play: the turn's
        # first, or with play2_draws=2 the one before the second play
        if self.played == 0:
            self.drawn = pending.get("drawn", False)
        else:
            self.drawn, self.second_drawn = True, pending.get("drawn", True)
        self.play2_next = pending.get("play2_next", False)
        self.skip = pending.get("skip", 0)
        self.gave = pending.get("gave", False)
        self.kept = list(pending.get("kept", []))
        self.owed = list(pending.get("owed", []))
        if self.winner is not None or self.stopped or len(self.out) == self.n:
            self.over = True
        else:
            self._settle()
        return self

    def _start(self, deck, players: int, options: dict[str, Any]) -> None:
        self.cards = cards_of(deck)
        self.target = deck.params.target
        self.n = players
        self.opt = {**DEFAULTS, **options}
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.draw: list[str] = []  # top first
        self.discard: list[str] = []  # bottom first
        self.in_play: list[str] = []  # oldest first
        # R3.3
        self.count = 0
        self.match: str | None = None  # None: the start marker
        self.direction = 1
        self.turn = 0
        self.out: list[int] = []
        self.winner: int | None = None
        self.over = False
        self.stopped = False
        self.turns = 0
        # the turn in progress
        self.drawn = False  # the turn's draw (R4.1) is made
        self.second_drawn = False  # play2_draws=2: the draw before the second play is made
        self.played = 0
        self.plays = 1  # plays this turn: 2 in a Play 2 turn (R6.8)
        self.play2_next = False
        self.skip = 0
        self.gave = False
        self.kept: list[int] = []  # R7.2: teammates asked this turn who kept their cards
        self.owed: list[int] = []
        self.invert = False
        self.sixteen_by: int | None = None  # who just made the target, until the end is judged (R5.2)
        # what a random event touched since the last sync
        self.unsure_hands: set[int] = set()
        self.unsure_draw = False

    # --- seats ---------------------------------------------------------------------
    def is_in(self, seat: int) -> bool:
        return seat not in self.out

    def seats_in(self) -> list[int]:
        return [s for s in range(self.n) if self.is_in(s)]

    def next_in(self, seat: int) -> int:
        """R4.7: the next seat still in after `seat`, in the current direction (`seat` may be out)."""
        s = seat
        for _ in range(self.n):
            s = (s + self.direction) % self.n
            if self.is_in(s):
                return s
        raise AssertionError("nobody is in")

    def order_from(self, seat: int) -> list[int]:
        """The seats still in, in order of play, starting with `seat`."""
        order = [seat]
        s = self.next_in(seat)
        while s != seat:
            order.append(s)
            s = self.next_in(s)
        return order

    def team(self, seat: int) -> int:
        return seat % 2  # R7.1

    # --- decisions -----------------------------------------------------------------
    def actor(self) -> int:
        if self.over:
            return -1
        if self.owed:
            return self.owed[0]
        giver = self.giver()
        return self.turn if giver is None else giver

    def giver(self) -> int | None:
        """R7.2: before the first play of a turn, each teammate still in with a card is asked in
        order of play whether to give one, until one gives."""
        if not self.opt["teams"] or self.played or self.gave or self.owed or self.over:
            return None
        me = self.turn
        for s in self.order_from(me)[1:]:
            if self.team(s) == self.team(me) and self.hands[s] and s not in self.kept:
                return s
        return None

    def legal(self) -> set[str]:
        if self.over:
            return set()
        if self.owed:  # R4.6: the first who owes chooses one card of their own hand
            return {f"discard {c}" for c in self.hands[self.owed[0]]}
        giver = self.giver()
        if giver is not None:  # R7.2: a card of the giver's own hand, or none
            return {f"give {giver} {c}" for c in self.hands[giver]} | {"no give"}
        me = self.turn
        out = set()
        for c in self.hands[me]:
            names = self.cards[c].names()
            if names == NAMES_ANOTHER:  # R6.4, R6.5, who: chosen
                out |= {f"play {c} {s}" for s in self.seats_in() if s != me}
            elif names == NAMES_ANYONE:  # R6.9, who: anyone
                out |= {f"play {c} {s}" for s in self.seats_in()}
            else:
                out.add(f"play {c}")
        return out

    def late_allowed(self) -> bool:
        """R7.5: at SPEED, the player about to play may be late."""
        return self.opt["speed_seconds"] is not None and not self.over and not self.owed

    def apply(self, decision: str) -> None:
        words = decision.split()
        if decision == "late":
            assert self.late_allowed(), decision
            self.owed = [self.turn]
        else:
            assert decision in self.legal(), f"{decision!r} is not legal here: {sorted(self.legal())}"
            if words[0] == "play":
                self._play(words[1], int(words[2]) if len(words) == 3 else None)
            elif words[0] == "discard":
                seat = self.owed.pop(0)
                self.hands[seat].remove(words[1])
                self.discard.append(words[1])
            elif decision == "no give":
                self.kept.append(self.giver())
            else:  # give SEAT CODE
                giver = int(words[1])
                self.hands[giver].remove(words[2])
                self.hands[self.turn].append(words[2])
                self.gave = True
        self._settle()

    # --- a card played -------------------------------------------------------------
    def matches(self, card: Card) -> bool:
        """R4.4."""
        if self.match is None or not card.number:
            return True
        target = self.cards[self.match]
        if not target.number:  # wild_sets_target: every card matches a wild
            return True
        return bool(card.colours & target.colours) or card.value == target.value

    def _play(self, code: str, named: int | None) -> None:
        me = self.turn
        card = self.cards[code]
        self.hands[me].remove(code)
        self.in_play.append(code)
        self.played += 1
        missed = not self.matches(card)
        if card.number:
            value = -card.value if self.invert else card.value  # R4.3, R6.2
            self.invert = False
            self.count += value
            self.match = code
        else:
            if not self.opt["invert_through_wilds"]:
                self.invert = False  # R6.2: the next card was a wild: the +/- is used up (a new one may start)
            step_owed = self._effect(card, named)
            if self.opt["wild_sets_target"]:
                self.match = code
        # R4.5: penalties, which add up; R4.6: the order of the discards; R6.14: a wild's own come first
        owed = step_owed if not card.number else []
        owed += [me] if missed else []
        if self.count > self.target or self.count < 0:  # R4.5b
            owed.append(me)
            self._reset()
        elif self.count == self.target:  # R4.5c, R7.3
            hit = [s for s in self.order_from(me) if s != me]
            if self.opt["teams"] and self.opt["sixteen_hits"] == "opponents":
                hit = [s for s in hit if self.team(s) != self.team(me)]
            owed += hit
            self.sixteen_by = me
            self._reset()
        self.owed = owed

    def _reset(self) -> None:
        """R4.5d."""
        self.discard += self.in_play
        self.in_play = []
        self.count = 0
        self.match = None
        self.invert = False

    def _who(self, who: str, named: int | None) -> list[int]:
        """docs/rules.md, "Who a step names": in the order of play from the player of the wild."""
        me = self.turn
        if who == "me":
            return [me]
        if who == "next":
            return [self.next_in(me)]
        if who == "previous":
            self.direction = -self.direction
            try:
                return [self.next_in(me)]
            finally:
                self.direction = -self.direction
        if who == "others":
            return self.order_from(me)[1:]
        if who == "everyone":
            return self.order_from(me)
        assert named is not None
        return [named]  # chosen, anyone

    def _effect(self, card: Card, named: int | None) -> list[int]:
        """R6.12-R6.22, each step in order; the discards the steps make owed (R6.14)."""
        me = self.turn
        owed: list[int] = []
        for kind, a in card.steps:
            if kind == "count":  # R6.12
                if "add" in a:
                    self.count += a["add"]
                elif "set" in a:
                    self.count = a["set"]
                elif "multiply" in a:
                    self.count *= a["multiply"]
                else:
                    self.count = self.count // a["divide"]  # rounds down
            elif kind == "draw":  # R6.13
                for s in self._who(a["who"], named):
                    for _ in range(a["cards"]):
                        self._draw(s)
            elif kind == "discard":  # R6.14
                for s in self._who(a["who"], named):
                    owed += [s] * a["cards"]
            elif kind == "take":  # R6.15: at random
                for s in self._who(a["from"], named):
                    for _ in range(a["cards"]):
                        if self.hands[s]:
                            self._take(me, s)
            elif kind == "trade_hands":  # R6.16
                other = self._who(a["with"], named)[0]
                self.hands[me], self.hands[other] = self.hands[other], self.hands[me]
            elif kind == "pass_hands":  # R6.17
                order = self.seats_in()
                if a["to"] == "next":
                    moved = {self.next_in(s): self.hands[s] for s in order}
                else:
                    moved = {s: self.hands[self.next_in(s)] for s in order}
                for s, hand in moved.items():
                    self.hands[s] = hand
            elif kind == "redeal":  # R6.18
                self._deal(self.order_from(self._who(a["first"], named)[0]))
            elif kind == "reverse":  # R6.19
                self.direction = -self.direction
            elif kind == "skip":  # R6.20
                self.skip += a["skip"]
            elif kind == "next_plays":  # R6.21: for whoever takes the next turn; Play 2s do not add up
                self.play2_next = True
            elif kind == "invert_next":  # R6.22
                self.invert = (not self.invert) if self.opt["invert_through_wilds"] else True
            else:
                raise AssertionError(f"no rule for step {kind!r}")
        return owed

    def _take(self, me: int, victim: int) -> None:
        """R6.15: one card of `victim`'s (not empty) hand, at random, to `me`."""
        self.hands[me].append(self.hands[victim].pop())
        self.unsure_hands |= {me, victim}

    def _deal(self, order: list[int]) -> None:
        """R6.18: the hands of `order` (everyone still in, from the first dealt to) pooled, shuffled, dealt."""
        pool = sorted(c for s in order for c in self.hands[s])
        for s in order:
            self.hands[s] = []
        for i, c in enumerate(pool):
            self.hands[order[i % len(order)]].append(c)
        self.unsure_hands |= set(order)

    def _draw(self, seat: int) -> None:
        """R4.1."""
        if not self.draw and self.discard:
            self.draw, self.discard = self.discard, []
            self.unsure_draw = True
        if self.draw:
            self.hands[seat].append(self.draw.pop(0))
            if self.unsure_draw:
                self.unsure_hands.add(seat)

    # --- what needs no decision ------------------------------------------------------
    def _eliminate(self, seat: int) -> None:
        """Out (R4.2, R4.6): whatever else they owe lapses."""
        assert not self.hands[seat]
        self.out.append(seat)
        self.owed = [s for s in self.owed if s != seat]

    def _judge(self) -> bool:
        """R5.0-R5.2, R7.4, once every discard is made; True when the game is over."""
        by, self.sixteen_by = self.sixteen_by, None
        alive = self.seats_in()
        sides = {self.team(s) for s in alive} if self.opt["teams"] else set(alive)
        if len(sides) > 1:
            return False
        if sides:
            self.winner = sides.pop()
        elif by is not None and self.opt["all_out"] == "sixteen_wins":
            self.winner = self.team(by) if self.opt["teams"] else by
        else:
            self.winner = None
        self.over = True
        return True

    def _settle(self) -> None:
        """Resolve everything up to the next decision (or the end)."""
        while True:
            while self.owed:  # R4.6: who owes with no card left is out
                if self.hands[self.owed[0]]:
                    return
                self._eliminate(self.owed[0])
            if self._judge():
                return
            me = self.turn
            if self.is_in(me) and self.played < self.plays:
                if self.played == 0 and not self.drawn:  # R4.1
                    self._draw(me)
                    self.drawn = True
                elif self.played == 1 and self.opt["play2_draws"] == 2 and not self.second_drawn:  # R6.8 option
                    self._draw(me)
                    self.second_drawn = True
                if self.hands[me]:
                    return
                # R4.2 (R6.8: no card for the second play; R7.5: a late discard took the last card)
                self._eliminate(me)
                if self.played == 0 and self.plays == 2:
                    self.play2_next = True  # R6.8: the Play 2 goes to whoever takes the next turn
                continue
            # R4.7, R5.3: the turn ends
            self.turns += 1
            if self.turns >= self.opt["max_turns"]:
                self.stopped = True
                self.over = True
                return
            nxt = self.next_in(me)
            for _ in range(self.skip):  # R6.11
                nxt = self.next_in(nxt)
            self.turn = nxt
            self.plays = 2 if self.play2_next else 1
            self.play2_next = False
            self.drawn = self.second_drawn = self.gave = False
            self.kept = []
            self.played = self.skip = 0

    # --- comparing with a position ---------------------------------------------------
    def sync(self, pos: dict[str, Any]) -> list[str]:
        """Compare with the engine's position after the same decisions; return the differences.

        What a random event decided (see the module's docstring) is checked as far as the
        rules fix it, then taken from `pos`.
        """
        diffs = []

        def same(key: str, mine: Any, theirs: Any) -> None:
            if mine != theirs:
                diffs.append(f"{key}: rules say {mine!r}, engine has {theirs!r}")

        same("count", self.count, pos["count"])
        same("match", self.match or "start", pos["match"])
        same("direction", self.direction, pos["direction"])
        same("out", self.out, pos["out"])
        same("winner", self.winner, pos["winner"])
        same("stopped", self.stopped, pos["stopped"])
        same("turns", self.turns, pos["turns"])
        same("turn", self.turn, pos["turn"])
        same("owed", self.owed, pos["pending"]["owed"])
        same("invert", self.invert, pos["pending"]["invert"])
        same("skip", self.skip, pos["pending"]["skip"])
        if not self.over:  # R6.8: a Play 2 turn with a play to come; a Play 2 waiting for the next turn
            same("play2", int(self.plays == 2 and self.played < 2), pos["pending"]["play2"])
            same("play2_next", self.play2_next, pos["pending"]["play2_next"])
        same("played", self.played, pos["pending"]["played"])
        same("gave", self.gave, pos["pending"]["gave"])
        same("kept", self.kept, pos["pending"]["kept"])
        same("in_play", self.in_play, pos["in_play"])
        same("discard", self.discard, pos["discard"])
        theirs = pos["hands"]
        same("hand sizes", [len(h) for h in self.hands], [len(h) for h in theirs])
        for s in range(self.n):
            if s not in self.unsure_hands:
                same(f"hands[{s}]", Counter(self.hands[s]), Counter(theirs[s]))
        if self.unsure_draw:
            same("draw size", len(self.draw), len(pos["draw"]))
        else:
            same("draw", self.draw, pos["draw"])
        unsure = [s for s in range(self.n) if s in self.unsure_hands]
        pooled_mine = sum((Counter(self.hands[s]) for s in unsure), Counter(self.draw if self.unsure_draw else []))
        pooled_theirs = sum((Counter(theirs[s]) for s in unsure), Counter(pos["draw"] if self.unsure_draw else []))
        same("cards a random event shared out", pooled_mine, pooled_theirs)
        # the random outcome, as the engine drew it
        for s in unsure:
            self.hands[s] = list(theirs[s])
        if self.unsure_draw:
            self.draw = list(pos["draw"])
        self.unsure_hands.clear()
        self.unsure_draw = False
        return diffs
