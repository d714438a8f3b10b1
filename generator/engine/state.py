"""State: one game in progress, and the rules that move it (docs/rules.md R3-R8).

A State is mutated in place by `apply(action)`. Everything that needs no decision
(discards owed by empty hands, eliminations, the winner, passing the turn, skips) is
resolved right after each decision; the draw at the start of a turn (and its R4.2 check)
happens when the turn's first decision is asked for (`legal_actions`, `current_player`,
`apply`).

The rules of a turn are one loop, `State._run`: `apply` and `legal_actions` run it one
step at a time, and the simulator's random players run it to the end of the game without
leaving it. There is no second copy of the rules.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import repeat
from math import floor
from operator import is_
from typing import Any, Callable, NamedTuple

from generator.engine.actions import ANY_SEAT, DISCARD, GIVE, LATE, NO_GIVE, NO_SEAT, OTHER_SEAT, PLAY, Action
from generator.engine.effects import Turn
from generator.engine.errors import IllegalActionError
from generator.engine.shuffling import ahead, is_chance, shuffle, shuffle_down
from generator.engine.view import PlayerView


class TurnTables(NamedTuple):
    """What the rules loop reads on every call, built once per Game (game.py).

    `State._run` unpacks `Game.turn_row` (this, as a plain tuple: a tuple subclass unpacks about
    three times slower) into locals named exactly like these fields; a test checks the names,
    so the two cannot drift apart.
    """

    misses: tuple  #: misses[target][card]: 1 if card does not match the target (card index or START), R4.4
    number_value: tuple  #: number_value[card]: a number card's value, None for a wild (R4.3)
    target: int  #: the count to reach exactly (R4.5c)
    plain_plays: list  #: plain_plays[card]: the Action playing it without naming a seat
    discard_actions: list  #: discard_actions[card]: the Action discarding it (R4.6)
    seat_naming_cards: frozenset  #: cards whose play names a seat (R6.4 Steal, R6.5 Trade, R6.9 Re-Deal)
    next_seat: tuple  #: next_seat[direction][seat], out or not
    effect_rule: tuple  #: effect_rule[card]: a wild's rule, compiled from its steps (engine/effects.py), None for a number card
    solo: bool  #: not the Teams variant (R7.1)
    max_turns: int  #: the game stops unfinished after this many turns (R5.3)
    sixteen_hits_others: bool  #: hitting the target costs every other player a discard, else only the opponents (R7.3)
    wild_sets_target: bool  #: option wild_sets_target (R4.4)
    invert_through_wilds: bool  #: option invert_through_wilds (R6.2)
    play2_draws: int  #: option play2_draws (R6.8)


#: What the player to act is asked to do.
PHASE_PLAY, PHASE_DISCARD, PHASE_GIVE, PHASE_OVER = "play", "discard", "give", "over"

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
    turn: drawn, played, play2, play2_next, to_skip, gave, owed, invert, and in Teams giver (the
    teammate asked to give now, -1 for none) and kept (the teammates who kept their cards this turn).

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
        "game", "_rng", "_rng_skip", "seed", "hands", "_pile", "_deal_rng", "_shuffled_from", "discard", "in_play", "count", "match",
        "direction", "turn", "out", "out_order", "n_in", "winner", "done", "stopped", "turns", "drawn", "played", "play2",
        "play2_next", "to_skip", "gave", "giver", "kept", "owed", "invert", "sixteen_by", "last_penalty", "last_count", "penalties", "history",
        "_legal", "_n", "_teams", "_speed",
    )

    def __init__(self, game, rng: random.Random | None, seed: int, hands: list[list[int]], draw: list[int], *, turn: int = 0,
                 discard: list[int] | None = None, in_play: list[int] | None = None, count: int = 0,
                 match: int | None = None, direction: int = 1, out: list[bool] | None = None,
                 out_order: list[int] | None = None, winner: int | None = None, turns: int = 0,
                 deal_rng: random.Random | None = None, deal_stop: int = 0):
        """`deal_rng` and `deal_stop` (a new deal, Game.new_initial_state): the draw pile is shuffled
        only down to position `deal_stop` so far, and `deal_rng` (Random(seed) part way through
        the shuffle) finishes it as cards are drawn; `rng` is then None."""
        self.game = game
        #: The game's RNG (reshuffles, Steal, Re-Deal); None: `Random(seed)` past `_rng_skip` bits, made when needed.
        self._rng = rng
        #: Random bits the deal's shuffle takes from Random(seed) before the game's RNG starts.
        self._rng_skip = 64 * (len(draw) + sum(map(len, hands)) - 1) if deal_rng is not None else 0
        self.seed = seed
        self.hands = hands
        self._pile = draw
        #: A deal's draw pile is shuffled lazily: positions >= _shuffled_from hold their final cards, and
        #: _deal_rng (a Random replaying the deal's shuffle) puts the rest in place as they are drawn.
        self._shuffled_from = deal_stop if deal_rng is not None else 0
        self._deal_rng: random.Random | None = deal_rng
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
        self.to_skip = 0
        self.gave = False
        #: Teams (R7.2): the teammate asked now whether to give a card (-1: nobody is asked).
        self.giver = -1
        #: Teams (R7.2): the teammates asked this turn who kept their cards, in the order asked.
        self.kept: list[int] = []
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
        self._teams = game.options.teams
        self._speed = game.options.speed_seconds is not None

    @property
    def rng(self) -> random.Random:
        """The game's RNG: reshuffles (R4.1), Steal's pick (R6.4), Re-Deal's shuffle (R6.9)."""
        rng = self._rng
        if rng is None:  # a new deal's: the seed's Random once the deal's shuffle has drawn from it
            rng = self._rng = random.Random(self.seed)
            rng.getrandbits(self._rng_skip)
        return rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng = rng

    @property
    def draw(self) -> list[int]:
        """The draw pile, top last (card indices)."""
        if self._shuffled_from:
            self._shuffle_down(0)
        return self._pile

    @draw.setter
    def draw(self, cards: list[int]) -> None:
        self._pile = cards
        self._shuffled_from = 0
        self._deal_rng = None

    def _shuffle_down(self, stop: int) -> None:
        """Finish the deal's shuffle down to position `stop` (0: all of it)."""
        stop = max(stop, 1)
        if stop < self._shuffled_from:
            shuffle_down(self._pile, self._deal_rng, self._shuffled_from, stop)
            if stop > 1:
                self._shuffled_from = stop
            else:  # the shuffle is done: its Random is now where the game's RNG starts
                if self._rng is None:
                    self._rng = self._deal_rng
                self._shuffled_from = 0
                self._deal_rng = None

    # --- the OpenSpiel / python-chess surface ------------------------------------------
    def is_terminal(self) -> bool:
        """The game is over: a winner, everyone out (a draw), or max_turns reached (unfinished).

        The turn's draw waits until a decision is asked for (`current_player`, `legal_actions`),
        so that a front end can tell what was drawn and who went out at it. One draw cannot wait:
        when there is nothing to draw for a player with no card, they are out at it (R4.2), and
        that can end the game (R5.1) or its last turn (R5.3) with no decision left to ask for.
        When it does, it is resolved here (no card is drawn by it); otherwise nothing changes.
        """
        if self._legal is None and not self.done and self._out_at_the_draw():
            probe = self.clone()
            probe._run(None)
            if probe.done:
                self._run(None)
        return self.done

    def _out_at_the_draw(self) -> bool:
        """The player to act is still to draw, holds no card and there is nothing to draw (R4.1, R4.2)."""
        return not (self.owed or self.drawn or self.hands[self.turn] or self._pile or self.discard)

    def current_player(self) -> int:
        """The seat to act: who owes the next discard, else (Teams) the teammate asked to give, else
        whose turn it is; -1 when over."""
        if self._legal is None:
            self._run(None)
        if self.done:
            return -1
        return self.owed[0] if self.owed else self.turn if self.giver < 0 else self.giver

    def phase(self) -> str:
        """What the player to act does next: "play", "discard", (Teams) "give", or "over"."""
        if self._legal is None:
            self._run(None)
        if self.done:
            return PHASE_OVER
        return PHASE_DISCARD if self.owed else PHASE_PLAY if self.giver < 0 else PHASE_GIVE

    def legal_actions(self) -> list[Action]:
        """The decisions allowed now, in a fixed order (hand order, seats ascending).

        In Teams, before the turn's first play, each teammate still in with a card is asked in
        turn (R7.2): the decision is then that teammate's (`current_player()`), and lists a
        `give SEAT CODE` per card of its own hand and `no give`. `late` (SPEED) is never
        listed: the terminal applies it when a player is late.
        """
        legal = self._legal
        if legal is None:
            self._run(None)
            legal = self._legal
        return legal  # type: ignore[return-value]

    def apply(self, action: "Action | str") -> None:
        """Apply one decision (an Action or its string); raise IllegalActionError if not allowed.

        `late` (SPEED only) makes the player whose turn it is owe one discard (docs/rules.md R7.5).
        """
        if action.__class__ is not Action or action.card < 0 and action.kind != LATE:
            action = self.game.action(action)
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if any(map(is_, legal, repeat(action))):  # the interned action: no dataclass __eq__ calls
            self._run(action)
        elif action in legal:
            self._run(legal[legal.index(action)])
        elif action.kind == LATE and self._speed and not self.done and not self.owed:
            self._run(action)
        else:
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

    # --- the engine's own interface (simulate, search, positions); not for bots ---------------
    def play_out(self, rnd: Callable[[], float], stats: list[int] | None = None) -> None:
        """Play to the end, each decision uniformly at random: the action at `floor(rnd() * len(legal))`.

        `stats`: 2 * len(game.codes) counters, each card's plays then the discards they cost (see _run).
        """
        self._run(None, rnd, stats)

    def settle(self) -> None:
        """Resolve what needs no decision (a position just loaded): empty hands, the winner, the turn's end."""
        self._run(None, settle=True)

    @property
    def draw_size(self) -> int:
        """Cards in the draw pile (without finishing a deal's lazy shuffle)."""
        return len(self._pile)

    def card_counts(self) -> Counter[int]:
        """Every card of the game (hands, draw pile, discard pile, in play) by index; no order, no shuffle."""
        counts: Counter[int] = Counter(self._pile)
        counts.update(self.discard)
        counts.update(self.in_play)
        for hand in self.hands:
            counts.update(hand)
        return counts

    def __repr__(self) -> str:
        codes = self.game.codes
        match = "start" if self.match == self.game.START else codes[self.match]
        status = f"winner={self.winner}" if self.done else f"to_act={self.owed[0] if self.owed else self.turn}"
        return f"<State count={self.count} match={match} turn={self.turn} {status} out={self.out_order}>"

    def _run(self, action: Action | None, rnd: Callable[[], float] | None = None, stats: list[int] | None = None,
             settle: bool = False) -> None:
        """The rules of a turn (docs/rules.md R4-R8), in one loop: apply decisions, resolve what needs none.

        - `action` (a legal Action, or `late`): apply it and resolve what follows, up to the
          next decision; the next turn's draw waits until that decision is asked for.
        - `settle` and no action: only resolve what needs no decision (a position just loaded).
        - neither: make the turn's draw if it is owed and list the legal actions (`_legal`).
        - `rnd` as well: then keep deciding, uniformly at random over the legal actions
          (the random bot: the action at `floor(rnd() * len(legal))`), until the game is over,
          adding each card's plays and the discards they cost its player to `stats`
          (2 * cards counters).

        Each pass of the loop has four parts, each headed by a comment naming its rules:
        1. the decision: a card played (R4.3, R4.4, R6, R6.8, then the penalties R4.5a-d),
           a discard (R4.6), a teammate's give (R7.2), late (R7.5);
        2. what follows without a decision: empty hands go out (R4.6, R4.2), the end (R5);
        3. the turn passes (R4.7, R6.11, R6.8, R5.3);
        4. the next decision: a discard owed (R4.6), else the draw (R4.1, R4.2) and the plays.

        The values every decision touches live in locals while the loop runs; they go back to
        the State when it stops and around the calls that use them (effects, eliminations, R5).
        """
        (misses, number_value, target, plain_plays, discard_actions, seat_naming_cards, next_seat, effect_rule,
         solo, max_turns, sixteen_hits_others, wild_sets_target, invert_through_wilds,
         play2_draws) = self.game.turn_row
        hands, owed, out, in_play, pile = self.hands, self.owed, self.out, self.in_play, self._pile
        record = self.history.append
        distinct = dict.fromkeys  # bound once: dict.fromkeys makes a new bound method at every use
        penalties = self.penalties
        count, match, player, turns = self.count, self.match, self.turn, self.turns
        played, play2, drawn, shuffled_from = self.played, self.play2, self.drawn, self._shuffled_from
        sixteen_by, last_count, last_penalty = self.sixteen_by, self.last_count, self.last_penalty
        seat_after = next_seat[self.direction]
        one_step = rnd is None and (action is not None or settle)  # stop at the next decision
        resolve = settle
        done = self.done
        leave = one_step or done  # leave the loop before the next decision
        n_cards = len(number_value)
        turn_over = False
        legal: list[Action] = []
        while True:
            # --- 1. the decision ------------------------------------------------------------
            if action is not None:
                record(action)
                kind = action.kind
                if kind is PLAY:  # R4.2: the player plays a card
                    card = action.card
                    hands[player].remove(card)
                    in_play.append(card)
                    played += 1
                    missed = misses[match][card]  # R4.4, against the card to match before this one
                    value = number_value[card]
                    if value is not None:  # R4.3 (R6.2: a pending +/- reverses it); the card is the new match
                        if self.invert:
                            count -= value
                            self.invert = False
                        else:
                            count += value
                        match = card
                    else:  # R6: a wild's effect resolves before the penalties (the contract: effects.Turn)
                        if self.invert and not invert_through_wilds:
                            self.invert = False  # R6.2: a wild uses up a pending +/-
                        wild = Turn(self, count, match, player, played)
                        effect_rule[card](wild, action.arg)
                        if wild.seat != player or wild.played != played or wild.hands is not hands:
                            self._broken_contract(card, wild)
                        count, shuffled_from, seat_after = wild.count, self._shuffled_from, next_seat[self.direction]
                        match = card if wild_sets_target and wild.match == match else wild.match  # R4.4's option
                    if play2:  # R6.8: the second play ends the Play 2; play2_draws=2 draws before it
                        if played >= 2:
                            play2 = 0
                        elif play2_draws == 2:
                            drawn = False
                    last_count = count
                    if 0 <= count < target:  # R4.5: no reset
                        sixteen_by = -1
                        last_penalty = missed
                        if missed:  # R4.5a
                            owed.append(player)
                            penalties[MISMATCH] += 1
                            resolve = True
                        elif play2 or not solo or owed:  # owed: discards a wild's step made owed (R6.14)
                            resolve = True
                        else:
                            turn_over = True  # nothing owed, no second play, nobody can have won
                    else:  # R4.5b / R4.5c: the count resets (R4.5d)
                        self.discard.extend(in_play)
                        in_play.clear()
                        match = self.game.START
                        self.invert = False
                        if missed:  # R4.5a: the player's own discards come first (R4.6)
                            penalties[MISMATCH] += 1
                            owed.append(player)
                        if count != target:  # R4.5b: a bust
                            penalties[BUST] += 1
                            owed.append(player)
                            last_penalty = missed + 1
                            sixteen_by = -1
                        else:  # R4.5c: every other player (R7.3: or opponent) still in owes, in order of play
                            last_penalty = missed
                            sixteen_by = player
                            owed_before = len(owed)
                            seat = seat_after[player]
                            while seat != player:
                                if not out[seat] and (sixteen_hits_others or seat % 2 != player % 2):
                                    owed.append(seat)
                                seat = seat_after[seat]
                            penalties[TARGET] += len(owed) - owed_before
                        count = 0
                        resolve = True
                    if stats is not None:
                        stats[card] += 1
                        if last_penalty:
                            stats[n_cards + card] += last_penalty
                elif kind is DISCARD:  # R4.6: the first seat owing discards a card of its choice
                    card = action.card
                    hands[owed.pop(0)].remove(card)
                    self.discard.append(card)
                    resolve = True
                elif kind is GIVE:  # R7.2: the teammate asked gives a card before the first play
                    hands[action.seat].remove(action.card)  # type: ignore[index]
                    hands[player].append(action.card)
                    self.gave = True
                    self.giver = -1
                elif kind is NO_GIVE:  # R7.2: the teammate asked keeps its cards; the next one is asked
                    self.kept.append(self.giver)
                    self.giver = -1
                else:  # R7.5: late (SPEED), one discard owed
                    owed.append(player)
                    penalties[LATE_PENALTY] += 1
                    resolve = True
                action = None
            # --- 2. what follows without a decision: R4.6 / R4.2 out, R5 the end ---------------
            while resolve:
                if owed:
                    seat = owed[0]
                    if hands[seat]:
                        break  # the next discard waits for its player
                    # R4.6: owes a discard with no card left: out
                elif (self.n_in <= 1 or not solo) and self._judge(sixteen_by):  # R5
                    done = leave = True
                    break
                elif not out[player] and (played == 0 or play2):
                    if not drawn or hands[player]:
                        break  # the player's (next) play
                    seat = player  # R4.2 / R6.8: no card to play after the draw: out
                else:
                    turn_over = True
                    break
                self.played, self.play2 = played, play2
                self._eliminate(seat)
                play2 = self.play2
            resolve = False
            # --- 3. R4.7: the turn passes --------------------------------------------------
            if turn_over:
                turn_over = False
                turns += 1
                if turns >= max_turns:  # R5.3: the game stops unfinished
                    self.done = self.stopped = done = leave = True
                else:
                    seat = seat_after[player]
                    while out[seat]:
                        seat = seat_after[seat]
                    if self.to_skip:  # R6.11
                        for _ in range(self.to_skip):
                            seat = self.next_in(seat)
                        self.to_skip = 0
                    self.turn = player = seat
                    drawn = False
                    played = 0
                    self.gave = False
                    self.giver = -1
                    if self.kept:
                        self.kept = []
                    if self.play2_next:  # R6.8: a Play 2 comes to this turn
                        play2 = 1
                        self.play2_next = False
                    elif play2:
                        play2 = 0
            if leave:
                break
            # --- 4. the next decision ------------------------------------------------------
            if owed:  # R4.6: a discard, any card of the hand
                choices = [*distinct(hands[owed[0]])]  # the distinct cards, in hand order
                actions_of = discard_actions
            else:
                hand = hands[player]
                if not drawn:  # R4.1: draw before playing
                    if len(pile) > shuffled_from:
                        hand.append(pile.pop())
                    else:  # the deal's shuffle still to finish here, or a reshuffle (or nothing to draw)
                        self.draw_card(player)
                        shuffled_from = self._shuffled_from
                    drawn = True
                    if not hand:  # R4.2: nothing drawn and no card: out
                        resolve = True
                        continue
                choices = [*distinct(hand)]
                actions_of = plain_plays
                if not (solo or self.gave or played):  # R7.2: a teammate still to be asked is asked first
                    giver = self._next_giver(player)
                    if giver >= 0:
                        self.giver = giver
                        legal = self._gives(giver)
                        if rnd is None:
                            break
                        action = legal[floor(rnd() * len(legal))]
                        continue
                if not seat_naming_cards.isdisjoint(choices):
                    legal = self._plays(choices, player, played)  # seats to name (R6.4, R6.5, R6.9)
                    if rnd is None:
                        break
                    action = legal[floor(rnd() * len(legal))]
                    continue
            if rnd is None:
                legal = [*map(actions_of.__getitem__, choices)]
                break
            action = actions_of[choices[floor(rnd() * len(choices))]]
        self.count, self.match, self.played, self.play2, self.drawn, self.turns = count, match, played, play2, drawn, turns
        self.sixteen_by, self.last_count, self.last_penalty = sixteen_by, last_count, last_penalty
        self._legal = [] if done else None if one_step else legal

    #: `advance(action)`: apply an Action that `legal_actions()` just listed (that very object) and
    #: resolve what follows, without checking it: for the simulator and the search bot's playouts,
    #: which take their actions from that list. It is the rules loop itself: no extra call per decision.
    advance = _run

    def _broken_contract(self, card: int, t: Turn) -> None:
        """A wild's rule reassigned a read-only field of its Turn (effects.py): say which rule and field."""
        name = self.game.effect_name[card]
        field = "seat" if t.seat != self.turn else "hands" if t.hands is not self.hands else "played"
        raise AttributeError(f"the rule of effect '{name}' assigned turn.{field}, which is read only (generator/engine/effects.py)")

    def _plays(self, cards: list[int], me: int, played: int) -> list[Action]:
        """The legal plays of `me`'s distinct cards, naming seats (Steal, Trade, Re-Deal)."""
        game = self.game
        seat_kind = game.seat_kind
        plays = game.play_actions
        everyone = self.n_in == self._n
        full = game.full_seat_plays
        out, hands = self.out, self.hands
        legal: list[Action] = []
        for c in cards:
            k = seat_kind[c]
            if not k:
                legal.append(plays[c][0])
            elif everyone:
                legal.extend(full[c][me])
            else:
                row = plays[c]
                legal.extend(row[s + 1] for s in range(self._n) if not out[s] and (k == ANY_SEAT or s != me))
        return legal

    def _next_giver(self, me: int) -> int:
        """R7.2: the next teammate of `me` to ask whether to give, in order of play from `me`: still in,
        holding a card, not asked yet this turn; -1 when there is none."""
        seat_after = self.game.next_seat[self.direction]
        out, hands, kept = self.out, self.hands, self.kept
        s = seat_after[me]
        while s != me:
            if s % 2 == me % 2 and not out[s] and hands[s] and s not in kept:
                return s
            s = seat_after[s]
        return -1

    def _gives(self, giver: int) -> list[Action]:
        """R7.2: what the teammate asked may decide: give one card of its own hand, or keep them all."""
        row = self.game.give_actions[giver]
        return [*(row[c] for c in dict.fromkeys(self.hands[giver])), self.game.no_give_action]

    def returns(self) -> list[float]:
        """+1 for the winning seat(s), -1 for the others, 0 for all in a draw or unfinished game."""
        self.is_terminal()  # the game may end at the draw that follows the last decision (R4.2)
        n = self._n
        if self.winner is None:
            return [0.0] * n
        if self._teams:
            return [1.0 if s % 2 == self.winner else -1.0 for s in range(n)]
        return [1.0 if s == self.winner else -1.0 for s in range(n)]

    def view(self, seat: int) -> PlayerView:
        """What `seat` may see (own hand, hand sizes, count, match, in play, direction...)."""
        return PlayerView(self, seat)

    def clone(self, seed: int | None = None) -> "State":
        """An independent copy (its RNG too), for search.

        `seed`: the copy's random draws to come (reshuffles, Steal's pick, Re-Deal's shuffle)
        are `Random(seed)`'s instead of a copy of this State's RNG, and that Random is made
        only if a rule of the copy needs it (a search trying each move on copies of one world
        with the same draws).
        """
        chance = is_chance(self._rng)
        if self._shuffled_from and not chance:  # finish the deal's shuffle once, here, rather than in every copy
            self._shuffle_down(0)
        new = object.__new__(State)
        _copy_slots(self, new)
        if seed is None and chance:  # a chance source's copy; the draw pile stays to be drawn card by card
            new._rng = self._rng.copy()  # type: ignore[union-attr]
            if self._deal_rng is not None:
                new._deal_rng = new._rng
        elif seed is None:
            new._rng = random.Random()
            new._rng.setstate(self.rng.getstate())
        else:
            new.seed, new._rng, new._rng_skip = seed, None, 0
        new.hands = [list(h) for h in self.hands]
        new._pile = list(self._pile)
        self._copy_piles_into(new)
        return new

    def _copy_piles_into(self, new: "State") -> None:
        """Give `new` its own copies of the public lists (clone and resample share them otherwise)."""
        new.discard = list(self.discard)
        new.in_play = list(self.in_play)
        new.out = list(self.out)
        new.out_order = list(self.out_order)
        new.owed = list(self.owed)
        new.kept = list(self.kept)
        new.history = list(self.history)
        new.penalties = list(self.penalties)

    def resample(self, seat: int, rng: random.Random, chance=None) -> "State":
        """A new State that `seat` cannot tell from this one: the cards it cannot see, dealt again with `rng`.

        This is the determinization a searching bot plays on (a seat's view gives it as
        `PlayerView.sample_world(rng)`), and what an adapter's "resample from the information
        state" calls. What `seat` sees stays as it is: its own hand, every hand's size, the
        draw pile's size, the discard pile, the cards in play, the count and the card to match,
        whose turn it is, who is out and who owes a discard, the direction, a pending Play 2,
        Skip or +/-, who is asked to give (Teams), the decisions so far (`history`) and the
        penalties counted. What a seat remembers (a hand it traded away, a card stolen from it) is
        not kept: the seat sees the table as it is now.

        The cards it cannot see (the draw pile and the other hands) are pooled in a fixed order
        (sorted, so the true order does not leak), shuffled with `rng` and dealt back: the draw
        pile first, then the other hands in seat order, each keeping its size. The game's own
        random draws to come (reshuffles, Steal's pick, Re-Deal's shuffle) are hidden too: the
        new State's RNG is `Random(seed)` for a new `seed` of `rng.getrandbits(64)`.

        `chance`: a chance source (generator/engine/shuffling.py) instead: the new draw pile is in
        no order yet, and its cards and the random events to come are chosen as they happen.

        `rng` is a `random.Random` (a caller holding only a uniform sampler, as OpenSpiel's
        `resample_from_infostate` does, seeds one from it: `random.Random(int(sampler() * 2**53))`).
        It alone decides the deal (the same rng state gives the same State), and this State
        is not changed. The new State is independent of it and plays on by the rules
        (`legal_actions`, `apply`), terminal or not.
        """
        hands = self.hands
        dealt = [s for s in range(self._n) if s != seat]
        hidden = list(self._pile)  # unshuffled rest of a lazy deal included: sorted below, order is moot
        for s in dealt:
            hidden.extend(hands[s])
        hidden.sort()
        shuffle(rng, hidden)
        new = object.__new__(State)
        _copy_slots(self, new)
        size = len(self._pile)
        new._pile = hidden[:size]
        new._shuffled_from, new._deal_rng = 0, None
        new.hands = new_hands = [list(h) for h in hands]
        for s in dealt:
            start, size = size, size + len(hands[s])
            new_hands[s] = hidden[start:size]
        new.seed = rng.getrandbits(64)
        new._rng, new._rng_skip = None, 0  # Random(seed), made if a rule needs it
        if chance is not None:  # the draw pile's order and the events to come are chance's as they happen
            new._rng = new._deal_rng = chance
            new._shuffled_from = len(new._pile)
        self._copy_piles_into(new)
        new._legal = None  # listed again from the new hands (a discard owed by a dealt seat)
        return new

    # --- helpers (effects reach them through effects.Turn) ----------------------------------
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

    def previous_in(self, seat: int) -> int:
        """The seat still in before `seat` in the current direction."""
        n, d, out = self._n, self.direction, self.out
        s = (seat - d) % n
        while out[s]:
            s = (s - d) % n
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

    def draw_card(self, seat: int) -> None:
        """R4.1: draw one card, reshuffling the discard pile into an empty draw pile."""
        draw = self._pile
        if not draw:
            if not self.discard:
                return
            draw.extend(self.discard)
            self.discard.clear()
            rng = self.rng
            if is_chance(rng):  # each card of the new pile is chosen when it is drawn
                self._deal_rng, self._shuffled_from = rng, len(draw)
            else:
                shuffle(rng, draw)
        if len(draw) <= self._shuffled_from:
            self._shuffle_down(len(draw) - ahead(self._deal_rng))
        self.hands[seat].append(draw.pop())

    # --- the rules ---------------------------------------------------------------------
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

    def _judge(self, sixteen_by: int) -> bool:
        """R5: set the winner (or a draw) once the last discards have resolved; `sixteen_by`: who just hit the target, or -1."""
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
        elif sixteen_by >= 0 and self.game.options.all_out == "sixteen_wins":
            self.winner = sixteen_by % 2 if self._teams else sixteen_by
        self.done = True
        self.owed.clear()
        return True

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
        asked = self.giver
        if action.kind == DISCARD:
            return f"nobody owes a discard; seat {asked if asked >= 0 else me} is to {'give' if asked >= 0 else 'play'}"
        if action.kind in (GIVE, NO_GIVE):
            g = asked if action.kind == NO_GIVE else action.seat
            if not self._teams:
                return f"'{action.kind}' is only for the Teams variant"
            if self.gave or self.played:
                return "a teammate may give only once per turn, before the first play"
            if g is not None and (g == me or g % 2 != me % 2):
                return f"seat {g} is not a teammate of seat {me}"
            if g is not None and self.out[g]:
                return f"seat {g} is out"
            if asked < 0:
                return f"no teammate is asked to give now; seat {me} is to play"
            if g != asked:
                return f"seat {asked} is asked whether to give now (R7.2), not seat {g}"
            return f"seat {g} has no {action.code} to give"
        if asked >= 0:
            return f"seat {asked}, a teammate of seat {me}, is asked first whether to give a card: 'give {asked} CODE' or 'no give'"
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


def _slot_copier(cls) -> Callable[[Any, Any], None]:
    """A function that sets every slot of `cls` on one object from another, written out line by line
    (made once, from `cls.__slots__`, as dataclasses make their __init__): a loop of getattr and
    setattr took five times the instructions, and a State is copied at every step of a search and
    twice at every chance node of the OpenSpiel game."""
    lines = "".join(f"    new.{name} = old.{name}\n" for name in cls.__slots__)
    namespace: dict[str, Any] = {}
    exec(f"def copy_slots(old, new):\n{lines}", namespace)  # names from __slots__ only: identifiers
    return namespace["copy_slots"]


_copy_slots = _slot_copier(State)
