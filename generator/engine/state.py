"""State: one game in progress, and the rules that move it (RULES.md §3–8).

A State is mutated in place by `apply(action)`. Everything that needs no decision
(discards owed by empty hands, eliminations, the winner, passing the turn, skips) is
resolved right after each decision; the draw at the start of a turn (and its R4.2 check)
happens when the turn's first decision is asked for (`legal_actions`, `current_player`,
`apply`).
"""

from __future__ import annotations

import random
from itertools import repeat
from operator import is_
from typing import TYPE_CHECKING

from generator.engine.actions import DISCARD, GIVE, LATE, PLAY, Action
from generator.engine.errors import IllegalActionError
from generator.engine.game import ANY_SEAT, NO_SEAT, OTHER_SEAT

if TYPE_CHECKING:
    from generator.engine.view import PlayerView

def shuffle(rng: random.Random, cards: list[int]) -> None:
    """Fisher-Yates with rng.random(): the same order on every machine, and fast."""
    shuffle_steps(cards, rng.random, len(cards), 1)


def shuffle_steps(cards: list[int], rnd, start: int, stop: int) -> None:
    """Fisher-Yates steps i = start-1 down to stop (stop >= 1): each puts position i's final card there.

    The steps from the top (the end of the list) down: after the steps down to i, positions
    i.. hold their final cards, so a draw pile can be shuffled only as far as it is drawn.
    """
    for i in range(start - 1, stop - 1, -1):
        j = int(rnd() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


#: Cards a lazily shuffled draw pile puts in place at a time (see State.draw).
SHUFFLE_AHEAD = 8


#: What the player to act is asked to do.
PHASE_PLAY, PHASE_DISCARD, PHASE_OVER = "play", "discard", "over"

#: Why a discard is owed, in the order of `State.penalties`: the played card missed the match
#: (R4.4), the count went over the target or below 0 (R4.5), another player hit the target
#: (R4.6: one per other player who owes), the player was late (SPEED).
PENALTY_CAUSES = ("mismatch", "bust", "target", "late")
MISMATCH, BUST, TARGET, LATE_PENALTY = 0, 1, 2, 3


class State:
    """A game in progress.

    Public attributes (read them; change them only through `apply`):
    hands (card indices per seat), draw (top last), discard and in_play (most recent last),
    count, match (card index or game.START), direction (1 clockwise, -1), turn (the seat
    whose turn it is), out (bool per seat), out_order (seats in the order they went out),
    winner (seat, Teams: team, or None), turns (turns completed), and the pending parts of a
    turn: drawn, played, play2, play2_next, skip, gave, owed, invert.

    What the last play did, for logs, statistics and rulebook captions:
    last_count (the count once the last card played had taken effect, before any reset: the
    count it "reaches", e.g. 19 before a bust resets it to 0), last_penalty (discards that
    play cost its own player: 1 for a mismatch, 1 for a bust, so 0..2), sixteen_by (the seat
    whose play just hit the target, -1 if the last play did not).
    penalties: discards owed since the State was created, by cause (`PENALTY_CAUSES` order:
    mismatch, bust, target, late); `penalties_by_cause()` gives them as a dict. A discard owed
    is counted when it is owed, even if its player then goes out before making it.
    """

    __slots__ = (
        "game", "rng", "seed", "hands", "_pile", "_srng", "_sfin", "discard", "in_play", "count", "match", "direction", "turn",
        "out", "out_order", "n_in", "winner", "done", "stopped", "turns", "drawn", "played", "play2",
        "play2_next", "skip", "gave", "owed", "invert", "sixteen_by", "last_penalty", "last_count", "penalties", "history", "_legal",
        "_target", "_matches", "_misses", "_is_number", "_value", "_number", "_plain_play", "_discard_of", "_seat_cards", "_effect_fn", "_effect_param", "_wst", "_itw", "_p2d",
        "_others", "_teams", "_solo", "_speed", "_max_turns", "_n", "_next_seat",
    )

    def __init__(self, game, rng: random.Random, seed: int, hands: list[list[int]], draw: list[int], *, turn: int = 0,
                 discard: list[int] | None = None, in_play: list[int] | None = None, count: int = 0,
                 match: int | None = None, direction: int = 1, out: list[bool] | None = None,
                 out_order: list[int] | None = None, winner: int | None = None, turns: int = 0):
        self.game = game
        self.rng = rng
        self.seed = seed
        self.hands = hands
        self._pile = draw
        #: A deal's draw pile is shuffled lazily: positions >= _sfin hold their final cards, and
        #: _srng (a Random replaying the deal's shuffle) puts the rest in place as they are drawn.
        self._sfin = 0
        self._srng: random.Random | None = None
        self.discard = discard if discard is not None else []
        self.in_play = in_play if in_play is not None else []
        self.count = count
        self.match = game.START if match is None else match
        self.direction = direction
        self.turn = turn
        self._n = n = game.players
        self.out = out if out is not None else [False] * n
        self.out_order = out_order if out_order is not None else [s for s in range(n) if self.out[s]]
        self.n_in = n - sum(self.out)
        self.winner = winner
        self.done = winner is not None
        self.stopped = False
        self.turns = turns
        self.drawn = False
        self.played = 0
        self.play2 = 0
        self.play2_next = False
        self.skip = 0
        self.gave = False
        self.owed: list[int] = []
        self.invert = False
        #: The seat whose last play hit the target (every other player then owes a discard), else -1.
        self.sixteen_by = -1
        #: Discards the last play cost its own player: mismatch and/or bust (0..2).
        self.last_penalty = 0
        #: The count once the last card played took effect, before any reset (what the count "reached").
        self.last_count = count
        #: Discards owed by cause since this State was created, in PENALTY_CAUSES order.
        self.penalties = [0, 0, 0, 0]
        #: Every decision applied since the State was created, as Actions.
        self.history: list[Action] = []
        self._legal: list[Action] | None = None
        o = game.options
        self._target = game.target
        self._matches = game.matches
        self._misses = game.misses
        self._is_number = game.is_number
        self._value = game.value
        self._number = game.number_value
        self._plain_play = game.plain_plays.__getitem__
        self._discard_of = game.discard_actions.__getitem__
        self._seat_cards = game.seat_cards
        self._next_seat = game.next_seat
        self._effect_fn = game.effect_fn
        self._effect_param = game.effect_param
        self._wst = o.wild_sets_target
        self._itw = o.invert_through_wilds
        self._p2d = o.play2_draws
        self._others = not (o.teams and o.sixteen_hits == "opponents")
        self._teams = o.teams
        self._solo = not o.teams
        self._speed = o.speed_seconds is not None
        self._max_turns = o.max_turns

    @property
    def draw(self) -> list[int]:
        """The draw pile, top last (card indices)."""
        if self._sfin:
            self._shuffle_down(0)
        return self._pile

    @draw.setter
    def draw(self, cards: list[int]) -> None:
        self._pile = cards
        self._sfin = 0
        self._srng = None

    def _shuffle_down(self, stop: int) -> None:
        """Finish the deal's shuffle down to position `stop` (0: all of it)."""
        stop = max(stop, 1)
        if stop < self._sfin:
            shuffle_steps(self._pile, self._srng.random, self._sfin, stop)  # type: ignore[union-attr]
            if stop > 1:
                self._sfin = stop
            else:
                self._sfin = 0
                self._srng = None

    # --- the OpenSpiel / python-chess surface ------------------------------------------
    def is_terminal(self) -> bool:
        """The game is over: a winner, everyone out (a draw), or max_turns reached (unfinished)."""
        return self.done

    def current_player(self) -> int:
        """The seat to act: who owes the next discard, else whose turn it is; -1 when over."""
        self._prepare()
        if self.done:
            return -1
        return self.owed[0] if self.owed else self.turn

    def phase(self) -> str:
        """What the player to act does next: "play" (or, in Teams, receive a give), "discard", "over"."""
        self._prepare()
        if self.done:
            return PHASE_OVER
        return PHASE_DISCARD if self.owed else PHASE_PLAY

    def legal_actions(self) -> list[Action]:
        """The decisions allowed now, in a fixed order (hand order, seats ascending).

        Before the turn's first play in Teams this also lists each teammate's possible
        gives (`give SEAT CODE`); the decision stands for the team. `late` (SPEED) is never
        listed: the terminal applies it when a player is late.
        """
        legal = self._legal
        if legal is not None:
            return legal
        if self.done:
            self._legal = legal = []
            return legal
        owed = self.owed
        if owed:
            self._legal = legal = [*map(self._discard_of, dict.fromkeys(self.hands[owed[0]]))]
            return legal
        me = self.turn
        if not self.drawn:
            draw = self._pile
            if len(draw) <= self._sfin:  # empty (a reshuffle, or the R4.2 check), or not yet shuffled this far
                self._prepare()
                return self.legal_actions()
            hand = self.hands[me]
            hand.append(draw.pop())
            self.drawn = True
        else:
            hand = self.hands[me]
        cards = dict.fromkeys(hand)
        if self._seat_cards.isdisjoint(cards):
            legal = [*map(self._plain_play, cards)]
        else:
            game = self.game
            seat_kind = game.seat_kind
            plays = game.play_actions
            everyone = self.n_in == self._n
            full = game.full_seat_plays
            out = self.out
            legal = []
            for c in cards:
                k = seat_kind[c]
                if not k:
                    legal.append(plays[c][0])
                elif everyone:
                    legal.extend(full[c][me])
                else:
                    row = plays[c]
                    legal.extend(row[s + 1] for s in range(self._n) if not out[s] and (k == ANY_SEAT or s != me))
        if self._teams and not self.gave and self.played == 0:
            out = self.out
            for g in range(me % 2, self._n, 2):
                if g != me and not out[g] and self.hands[g]:
                    gives = self.game.give_actions[g]
                    legal.extend(gives[c] for c in dict.fromkeys(self.hands[g]))
        self._legal = legal
        return legal

    def apply(self, action: "Action | str") -> None:
        """Apply one decision (an Action or its string); raise IllegalActionError if not allowed.

        `late` (SPEED only) makes the player whose turn it is owe one discard (RULES.md §7).
        """
        if action.__class__ is not Action or action.card < 0 and action.kind != LATE:
            action = self.game.action(action)
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if any(map(is_, legal, repeat(action))):  # the interned action: no dataclass __eq__ calls
            self._apply(action)
            return
        if action in legal:
            self._apply(legal[legal.index(action)])
            return
        if action.kind == LATE and self._speed and not self.done and not self.owed:
            self.history.append(action)
            self._legal = None
            self.owed.append(self.turn)
            self.penalties[LATE_PENALTY] += 1
            self._settle()
            return
        raise IllegalActionError(self._why_illegal(action))

    def late(self) -> None:
        """SPEED: the player whose turn it is went over the tempo limit and owes one discard.

        The terminal game calls this (or applies the decision string "late") when a player
        takes longer than `options.speed_seconds`; it is recorded like any decision, so
        replays reproduce it. The player discards, then still plays.
        """
        self.apply(self.game.late_action)

    def penalties_by_cause(self) -> dict[str, int]:
        """Discards owed since the State was created, by cause: {"mismatch", "bust", "target", "late"}."""
        return dict(zip(PENALTY_CAUSES, self.penalties))

    def position(self) -> dict:
        """This state as a position dict (CONTRACT.md)."""
        from generator.engine.position import to_position

        return to_position(self)

    def __repr__(self) -> str:
        codes = self.game.codes
        match = "start" if self.match == self.game.START else codes[self.match]
        status = f"winner={self.winner}" if self.done else f"to_act={self.owed[0] if self.owed else self.turn}"
        return f"<State count={self.count} match={match} turn={self.turn} {status} out={self.out_order}>"

    def _apply(self, action: Action) -> None:
        """Apply an action known to be legal (taken from legal_actions()).

        A play (R4.3-R4.6) resolves here in full: its effect, its penalties, the reset, and
        the end of the turn when nothing is owed; `_settle` does the rest.
        """
        self.history.append(action)
        self._legal = None
        kind = action.kind
        if kind != PLAY:
            if kind == DISCARD:
                owed = self.owed
                hands = self.hands
                hands[owed.pop(0)].remove(action.card)
                self.discard.append(action.card)
                if owed and hands[owed[0]]:
                    return  # the next discard waits for its player
                self._settle()
            else:  # GIVE
                self.hands[action.seat].remove(action.card)  # type: ignore[index]
                self.hands[self.turn].append(action.card)
                self.gave = True
            return
        card = action.card
        me = self.turn
        self.hands[me].remove(card)
        self.in_play.append(card)
        played = self.played = self.played + 1
        self.sixteen_by = -1
        miss = self._misses[self.match][card]
        value = self._number[card]
        if value is not None:
            if self.invert:
                count = self.count = self.count - value
                self.invert = False
            else:
                count = self.count = self.count + value
            self.match = card
        else:
            if self.invert and not self._itw:
                self.invert = False
            self._effect_fn[card](self, self._effect_param[card], action.arg)
            if self._wst:
                self.match = card
            count = self.count
        if self.play2:
            if played >= 2:
                self.play2 = 0
            elif self._p2d == 2:
                self.drawn = False
        self.last_count = count
        if 0 <= count < self._target:
            self.last_penalty = miss
            if miss:
                self.owed.append(me)
                self.penalties[MISMATCH] += 1
                if self.hands[me]:
                    return  # the discard waits for its player
            elif self._solo and not self.play2:
                self._end_turn()  # nothing owed, no second play, nobody can have won: what _settle does
                return
            self._settle()
            return
        owed = self.owed
        counts = self.penalties
        if miss:
            counts[MISMATCH] += 1
        self.discard.extend(self.in_play)  # R4.5 / R4.6: the count resets
        self.in_play.clear()
        self.count = 0
        self.match = self.game.START
        self.invert = False
        if count != self._target:
            counts[BUST] += 1
            self.last_penalty = miss + 1
            owed.append(me)
            if miss:
                owed.append(me)
        else:
            self.sixteen_by = me
            self.last_penalty = miss
            if miss:
                owed.append(me)
            out, n, d = self.out, self._n, self.direction
            s = (me + d) % n
            hits = len(owed)
            while s != me:
                if not out[s] and (self._others or s % 2 != me % 2):
                    owed.append(s)
                s = (s + d) % n
            counts[TARGET] += len(owed) - hits
        self._settle()

    def returns(self) -> list[float]:
        """+1 for the winning seat(s), -1 for the others, 0 for all in a draw or unfinished game."""
        n = self._n
        if self.winner is None:
            return [0.0] * n
        if self._teams:
            return [1.0 if s % 2 == self.winner else -1.0 for s in range(n)]
        return [1.0 if s == self.winner else -1.0 for s in range(n)]

    def view(self, seat: int) -> "PlayerView":
        """What `seat` may see (own hand, hand sizes, count, match, in play, direction...)."""
        from generator.engine.view import PlayerView

        return PlayerView(self, seat)

    def clone(self) -> "State":
        """An independent copy (its RNG too), for search."""
        if self._sfin:  # finish the deal's shuffle once, here, rather than in every copy
            self._shuffle_down(0)
        new = object.__new__(State)
        for name in State.__slots__:
            setattr(new, name, getattr(self, name))
        new.rng = random.Random()
        new.rng.setstate(self.rng.getstate())
        new.hands = [list(h) for h in self.hands]
        new._pile = list(self._pile)
        new.discard = list(self.discard)
        new.in_play = list(self.in_play)
        new.out = list(self.out)
        new.out_order = list(self.out_order)
        new.owed = list(self.owed)
        new.history = list(self.history)
        new.penalties = list(self.penalties)
        return new

    # --- helpers used by effects ---------------------------------------------------------
    def seats_in(self) -> list[int]:
        """Seats still in, ascending."""
        return [s for s in range(self._n) if not self.out[s]]

    def next_in(self, seat: int) -> int:
        """The next seat still in after `seat` in the current direction."""
        n, d, out = self._n, self.direction, self.out
        s = (seat + d) % n
        while out[s]:
            s = (s + d) % n
        return s

    def order_from(self, seat: int) -> list[int]:
        """Seats still in, in order of play, starting with `seat` (which must be in)."""
        order = [seat]
        s = self.next_in(seat)
        while s != seat:
            order.append(s)
            s = self.next_in(s)
        return order

    def team_in(self, team: int) -> bool:
        return any(not self.out[s] for s in range(team, self._n, 2))

    def _draw(self, seat: int) -> None:
        """R4.1: draw one card, reshuffling the discard pile into an empty draw pile."""
        draw = self._pile
        if not draw:
            if not self.discard:
                return
            draw.extend(self.discard)
            self.discard.clear()
            shuffle(self.rng, draw)
        elif len(draw) <= self._sfin:
            self._shuffle_down(len(draw) - SHUFFLE_AHEAD)
        self.hands[seat].append(draw.pop())

    # --- the rules ---------------------------------------------------------------------
    def _prepare(self) -> None:
        """The draw before a play (R4.1) and the R4.2 check, when a play is owed and not yet drawn for."""
        while not self.drawn and not self.done and not self.owed:
            me = self.turn
            self._draw(me)
            self.drawn = True
            if not self.hands[me]:
                self._legal = None
                self._eliminate(me)
                self._settle()

    def _reset(self) -> None:
        self.discard.extend(self.in_play)
        self.in_play.clear()
        self.count = 0
        self.match = self.game.START
        self.invert = False

    def _eliminate(self, seat: int) -> None:
        """The player is out; whatever else they owe lapses (R4.6)."""
        self.out[seat] = True
        self.out_order.append(seat)
        self.n_in -= 1
        if seat in self.owed:
            self.owed[:] = [s for s in self.owed if s != seat]
        if seat == self.turn and self.played == 0 and self.play2:
            self.play2 = 0
            self.play2_next = True  # R6.8: out before they could play, so it passes on

    def _judge(self) -> bool:
        """R5: set the winner (or a draw) once the last discards have resolved."""
        if self._teams:
            alive = [t for t in (0, 1) if self.team_in(t)]
        else:
            if self.n_in > 1:
                return False
            alive = [s for s in range(self._n) if not self.out[s]]
        if len(alive) > 1:
            return False
        if alive:
            self.winner = alive[0]
        elif self.sixteen_by >= 0 and self.game.options.all_out == "sixteen_wins":
            self.winner = self.sixteen_by % 2 if self._teams else self.sixteen_by
        self.done = True
        self.owed.clear()
        return True

    def _settle(self) -> None:
        """Resolve what needs no decision, then stop at the next decision (or the end)."""
        owed, hands, out = self.owed, self.hands, self.out
        if owed and hands[owed[0]]:
            return  # the next discard waits for its player
        while True:
            while owed:
                s = owed[0]
                if hands[s]:
                    return
                self._eliminate(s)
            if (self.n_in <= 1 or self._teams) and self._judge():
                return
            me = self.turn
            if not out[me] and (self.played == 0 or self.play2):
                if self.drawn and not hands[me]:
                    self._eliminate(me)  # R4.2 / R6.8: no card to play
                    continue
                return
            self._end_turn()
            return

    def _end_turn(self) -> None:
        turns = self.turns = self.turns + 1
        if turns >= self._max_turns:
            self.done = self.stopped = True
            return
        out = self.out
        step = self._next_seat[self.direction]
        s = step[self.turn]
        while out[s]:
            s = step[s]
        if self.skip:
            for _ in range(self.skip):
                s = self.next_in(s)
            self.skip = 0
        self.turn = s
        self.drawn = False
        self.played = 0
        self.gave = False
        if self.play2_next:
            self.play2 = 1
            self.play2_next = False
        elif self.play2:
            self.play2 = 0

    def _why_illegal(self, action: Action) -> str:
        if self.done:
            return "the game is over"
        game = self.game
        if action.kind == LATE:
            if not self._speed:
                return "'late' applies only to SPEED games (option speed_seconds)"
            return f"seat {self.owed[0]} owes a discard; 'late' applies to the player whose turn it is"
        if self.owed:
            seat = self.owed[0]
            if action.kind != DISCARD:
                return f"seat {seat} owes a discard first, not a {action.kind}"
            return f"seat {seat} has no {action.code} to discard"
        me = self.turn
        if action.kind == DISCARD:
            return f"nobody owes a discard; seat {me} is to play"
        if action.kind == GIVE:
            g = action.seat
            if not self._teams:
                return "'give' is only for the Teams variant"
            if g == me or g % 2 != me % 2:  # type: ignore[operator]
                return f"seat {g} is not a teammate of seat {me}"
            if self.out[g]:  # type: ignore[index]
                return f"seat {g} is out"
            if self.gave or self.played:
                return "a teammate may give only once per turn, before the first play"
            return f"seat {g} has no {action.code} to give"
        card = action.card
        if card not in self.hands[me]:
            return f"seat {me} has no {action.code} to play"
        k = game.seat_kind[card]
        if k == NO_SEAT:
            return f"{action.code} names no seat; play it as 'play {action.code}'"
        if action.seat is None:
            return f"{action.code} needs a seat: 'play {action.code} SEAT'"
        if action.seat == me and k == OTHER_SEAT:
            return f"{action.code} must name another player, not seat {me} itself"
        return f"seat {action.seat} is out"
