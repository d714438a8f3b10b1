"""Game: a deck, an edition, a player count and rule options, with the tables play runs on.

Cards are small ints (indices of the deck's playing card types, manifest order); matching,
values and effects are looked up in tables built once per Game, so a turn allocates little.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Mapping

from generator.deck.effects import wild_entry
from generator.deck.model import Deck
from generator.engine.actions import ANY_SEAT, DISCARD, GIVE, LATE, NO_GIVE, NO_SEAT, OTHER_SEAT, PLAY, Action
from generator.engine.effects import compile_rule
from generator.engine.errors import ActionSyntaxError, OptionError, suggest
from generator.engine.options import Options
from generator.engine.shuffling import SHUFFLE_AHEAD, shuffle_steps
from generator.engine.state import State, TurnTables

#: A game dealt without a seed given (`play`, `play --web`) gets one of this many: too many for a
#: player to search offline for the deal that fits the hand they see (2**31 could be), and below
#: 2**53, so a browser's JavaScript (the replay page) reads every one exactly.
RANDOM_SEEDS = 2**52


def random_seed() -> int:
    """A seed for a game nobody chose one for, unpredictable (`secrets`)."""
    import secrets  # lazy: start-up (hashlib and hmac), only for a game without a seed

    return secrets.randbelow(RANDOM_SEEDS)


class Game:
    """The fixed parts of a game. `new_initial_state(seed)` deals a new game.

    `deck` is the validated manifest (generator.deck.manifest.load), `edition` an edition key,
    `players` 2..8, `options` an Options (taken whole) or a mapping of option names (docs/rules.md)
    to values, which override the rule options the deck prints (`Options.for_deck`).
    """

    def __init__(self, deck: Deck, edition: str = "the-og", players: int = 4, options: Options | Mapping[str, Any] | None = None):
        self.deck = deck
        try:
            self.edition = deck.edition(edition)
        except KeyError:
            keys = [e.key for e in deck.editions]
            said = edition if len(str(edition)) <= 60 else f"{str(edition)[:60]}... ({len(str(edition)):,} characters)"
            raise OptionError(f"unknown edition '{said}'{suggest(edition, keys)}; editions are {', '.join(keys)}") from None
        # an Options is taken whole; a mapping (a command's --option NAME=VALUE) goes over the deck's own
        self.options = options if isinstance(options, Options) else Options.for_deck(deck, options)
        p = deck.params
        lo, hi = max(2, p.min_players), max(p.max_players, 2)
        if not isinstance(players, int) or isinstance(players, bool) or not lo <= players <= hi:
            raise OptionError(f"players must be {lo}..{hi}, not {players!r}")
        self.players = players
        if self.options.teams and (players < 4 or players % 2):
            raise OptionError(f"the Teams variant needs an even number of players, 4 or more, not {players}")
        if self.options.sixteen_hits != "others" and not self.options.teams:
            raise OptionError("option sixteen_hits applies only to the Teams variant (option teams=true)")
        if self.options.dealer >= players:
            raise OptionError(f"option dealer is seat {self.options.dealer}, but there are only {players} seats")
        self.target = p.target
        self.hand_size = p.hand_size
        for c in deck.edition_cards(self.edition.key):
            if c.effect is not None and not c.effect.playable:
                at = f"{c.effect.origin.at}: " if c.effect.origin else ""
                raise OptionError(f"{at}wild '{c.code}' has 'rule: table': the players resolve it by its text, and the "
                                  f"engine cannot play it; play an edition without it, or give it 'does:' steps")
        self._build_tables()

    # --- tables ----------------------------------------------------------------------
    def _build_tables(self) -> None:
        t = _deck_tables(self.deck)
        self.card_types = t["card_types"]
        self.codes: tuple[str, ...] = t["codes"]
        self.index: dict[str, int] = t["index"]
        self.is_number = t["is_number"]
        self.value = t["value"]
        #: number_value[card]: the value of a number card, None for a wild.
        self.number_value = tuple(v if num else None for v, num in zip(self.value, self.is_number))
        #: effect_name[card]: a wild's effect name in the catalogue, or its code for a wild written with `does:`.
        self.effect_name = t["effect_name"]
        #: effect[card]: the wild's entry (generator.deck.effects.wild_entry: its words), None for a number card.
        self.effect = t["effect"]
        #: steps[card]: a wild's steps (generator.deck.model.Step), () for a number card.
        self.steps = t["steps"]
        self.effect_fn = t["effect_fn"]
        self.seat_kind = t["seat_kind"]
        #: The cards that name a seat when played (Steal, Trade, Re-Deal).
        self.seat_cards = frozenset(c for c, k in enumerate(self.seat_kind) if k)
        #: START is the match index of "0 of all colours"; every card matches it.
        self.START = len(self.codes)
        #: matches[target][card]: does `card` match the match target (a card index or START)?
        self.matches: tuple[tuple[bool, ...], ...] = t["matches"]
        #: Interned actions, so legal_actions() allocates nothing but its list.
        self.play_actions, self.discard_actions, self.give_actions = _action_tables(self.codes, self.players)
        self.late_action = Action(LATE)
        self.no_give_action = Action(NO_GIVE)
        #: play_actions[card][0]: the play of a card that names no seat.
        self.plain_plays = tuple(row[0] for row in self.play_actions)
        #: full_seat_plays[card][me]: the plays of a seat-naming card by `me` while nobody is out.
        self.full_seat_plays = _full_seat_plays(self.codes, self.players, self.seat_kind)
        #: misses[target][card]: 1 if `card` does not match the match target (the discard a mismatch costs), else 0.
        self.misses = t["misses"]
        n = self.players
        #: next_seat[direction][seat]: the seat after `seat` in that direction (1 or -1), out or not.
        self.next_seat = (None, tuple((s + 1) % n for s in range(n)), tuple((s - 1) % n for s in range(n)))
        o = self.options
        #: What State._run reads on every call, by name.
        self.turn_tables = TurnTables(
            misses=self.misses, number_value=self.number_value, target=self.target,
            plain_plays=list(self.plain_plays), discard_actions=list(self.discard_actions),
            seat_naming_cards=self.seat_cards, next_seat=self.next_seat, effect_rule=self.effect_fn,
            solo=not o.teams, max_turns=o.max_turns,
            sixteen_hits_others=not (o.teams and o.sixteen_hits == "opponents"),
            wild_sets_target=o.wild_sets_target, invert_through_wilds=o.invert_through_wilds,
            play2_draws=o.play2_draws,
        )
        #: The same as a plain tuple, which the rules loop unpacks (see TurnTables).
        self.turn_row = tuple(self.turn_tables)
        #: Edition cards in manifest order (copies expanded), as card indices.
        self.edition_cards = tuple(self.index[c.code] for c in self.deck.edition_cards(self.edition.key))

    # --- states ----------------------------------------------------------------------
    def new_initial_state(self, seed: int = 0):
        """Shuffle the edition with `random.Random(seed)` and deal (R3)."""
        draw = list(self.edition_cards)
        size = len(draw)
        k = self.deal_size
        # The shuffle (state.shuffle: Fisher-Yates with rng.random()) puts the top of the pile in
        # place first, so only the cards dealt and drawn need it: the seed's Random makes its
        # draws as they are needed, and once the shuffle is done it goes on as the game's RNG.
        # Until then the game's RNG, if a rule needs it, is a second Random from the seed that
        # skips the shuffle's draws at once (random() takes two 32-bit words; getrandbits(64 * m)
        # takes the same 2m words); most games never need it.
        srng = random.Random(seed)
        stop = max(size - k - SHUFFLE_AHEAD, 1)
        shuffle_steps(draw, srng.random, size, stop)
        # One card at a time from the top (the end of the list), starting left of the dealer.
        dealt = draw[size - k:][::-1]
        del draw[size - k:]
        hands, first = self.hands_of(dealt), self.first_seat
        if stop > 1:
            state = State(self, None, seed, hands, draw, turn=first, deal_rng=srng, deal_stop=stop)
        else:
            state = State(self, srng, seed, hands, draw, turn=first)
        return state

    @property
    def deal_size(self) -> int:
        """How many cards the deal gives out (R3): a hand each, or the whole edition if it has fewer."""
        return min(len(self.edition_cards), self.hand_size * self.players)

    @property
    def first_seat(self) -> int:
        """The seat left of the dealer: it is dealt the first card and plays first (R3)."""
        return (self.options.dealer + 1) % self.players

    def hands_of(self, dealt: list[int]) -> list[list[int]]:
        """The hands of a deal whose cards were dealt in the order `dealt`: the t-th card dealt goes to
        seat (first_seat + t) % players, one card at a time (R3)."""
        n, first = self.players, self.first_seat
        return [dealt[(s - first) % n::n] for s in range(n)]

    def dealt_state(self, dealt: list[int], rest: list[int], chance) -> State:
        """A new game whose deal a chance source made (the OpenSpiel adapter's chance nodes, card by card):
        `dealt` the cards in the order dealt, `rest` the draw pile in any fixed order (not yet shuffled),
        `chance` the source that chooses each card of the draw pile as it is drawn and every later
        random event (generator/engine/shuffling.py). Its `seed` is -1: no seed makes this game."""
        rest = list(rest)
        return State(self, chance, -1, self.hands_of(list(dealt)), rest, turn=self.first_seat, deal_rng=chance,
                     deal_stop=len(rest))

    def action(self, decision: "str | Action") -> Action:
        """The interned Action for a decision string or Action; raise ActionSyntaxError if unknown."""
        a = Action.parse(decision) if isinstance(decision, str) else decision
        if a.kind == LATE:
            return self.late_action
        if a.kind == NO_GIVE:
            return self.no_give_action
        i = self.index.get(a.code)
        if i is None:
            raise ActionSyntaxError(f"unknown card code {a.code!r}{suggest(a.code, self.codes)}")
        if a.seat is not None and a.seat >= self.players:
            raise ActionSyntaxError(f"there is no seat {a.seat} in a {self.players}-player game")
        if a.kind == PLAY:
            return self.play_actions[i][0 if a.seat is None else a.seat + 1]
        if a.kind == DISCARD:
            return self.discard_actions[i]
        return self.give_actions[a.seat][i]  # type: ignore[index]

    def card_index(self, code: str) -> int:
        """The engine's index of a card code; raise KeyError naming a near miss."""
        try:
            return self.index[code]
        except KeyError:
            raise KeyError(f"unknown card code {code!r}{suggest(code, self.codes)}") from None

    def team_of(self, seat: int) -> int:
        return seat % 2

    def __repr__(self) -> str:
        return f"<Game {self.edition.key} players={self.players} options={self.options.to_dict()}>"


# Tables depend only on the (immutable) deck, and actions on the card codes and player count; both
# are cached so that loading many positions or replaying many records stays cheap.
_TABLE_CACHE: dict[int, tuple[Deck, dict]] = {}
_TABLE_CACHE_SIZE = 8  #: decks whose tables are kept (the oldest go first: a watch loop makes a deck per build)


def _deck_tables(deck: Deck) -> dict:
    hit = _TABLE_CACHE.get(id(deck))
    if hit is not None and hit[0] is deck:
        return hit[1]
    cards = [c for c in deck.cards if c.playing]
    n = len(cards)
    colour_bit = {c.name: 1 << i for i, c in enumerate(deck.colours)}
    masks = [sum(colour_bit[name] for name in c.colours) for c in cards]
    numbers = [c.is_number for c in cards]
    values = [c.value if c.is_number else 0 for c in cards]
    everything = (True,) * n
    rows = []
    for m in range(n):
        if not numbers[m]:
            rows.append(everything)  # a wild target (wild_sets_target): everything matches
        else:
            mm, mv = masks[m], values[m]
            rows.append(tuple((not numbers[i]) or bool(masks[i] & mm) or values[i] == mv for i in range(n)))
    rows.append(everything)  # START
    tables = {
        "card_types": tuple(cards),
        "codes": tuple(c.code for c in cards),
        "index": {c.code: i for i, c in enumerate(cards)},
        "is_number": tuple(numbers),
        "value": tuple(values),
        "effect_name": tuple((c.effect.name or c.code) if c.effect else "" for c in cards),
        "effect": tuple(wild_entry(c.effect) if c.effect else None for c in cards),
        "steps": tuple(c.effect.steps if c.effect else () for c in cards),
        "effect_fn": tuple(compile_rule(c.effect.steps) if c.effect and c.effect.playable else None for c in cards),
        "seat_kind": tuple(_SEAT_KINDS[wild_entry(c.effect).seat] if c.effect else NO_SEAT for c in cards),
        "matches": tuple(rows),
        "misses": tuple(tuple(0 if m else 1 for m in row) for row in rows),
    }
    while len(_TABLE_CACHE) >= _TABLE_CACHE_SIZE:
        del _TABLE_CACHE[next(iter(_TABLE_CACHE))]
    _TABLE_CACHE[id(deck)] = (deck, tables)
    return tables


#: What a seat-naming play may name (the catalogue's `seat`), as actions.py counts it.
_SEAT_KINDS = {None: NO_SEAT, "other": OTHER_SEAT, "any": ANY_SEAT}

@lru_cache(maxsize=16)
def _full_seat_plays(codes: tuple[str, ...], n: int, seat_kind: tuple) -> tuple:
    play_actions = _action_tables(codes, n)[0]
    return tuple(
        tuple(tuple(row[s + 1] for s in range(n) if k == ANY_SEAT or s != me) for me in range(n)) if k else ()
        for row, k in zip(play_actions, seat_kind))


@lru_cache(maxsize=16)
def _action_tables(codes: tuple[str, ...], players: int) -> tuple:
    """The interned actions of these cards and players: the same for any deck with the same codes,
    so a deck changed only in its texts (a rebuild after an edit) finds them made."""
    plays = tuple(tuple(Action(PLAY, code, None if s < 0 else s, i, s) for s in range(-1, players)) for i, code in enumerate(codes))
    discards = tuple(Action(DISCARD, code, None, i) for i, code in enumerate(codes))
    gives = tuple(tuple(Action(GIVE, code, g, i) for i, code in enumerate(codes)) for g in range(players))
    return plays, discards, gives
