"""What one seat has seen of a game, as tensors and text, for learning libraries.

Everything here is computed from the seat's PlayerView (what the engine lets a player see)
and the decisions announced at the table (`Table`): never from the hidden cards. (In Teams a
give is the giver's decision, R7.2: the player about to play sees none of its teammates' cards.) So a policy trained on these tensors sees exactly what a player at the table sees.

Seats are relative: slot 0 is the seat itself, slot 1 the next seat clockwise, and so on, so
a policy is the same whichever chair it sits in. The layout (`Layout.segments`) is listed in
docs/formats.md ("Observations for learning").

- observation: the table now (own hand, discard pile, cards in play, match, count, hand
  sizes, who is out, whose turn, who owes a discard, who is asked to give (Teams), direction
  and the wilds' pending state).
- information state: the observation plus, for every seat, how many of each card type it
  has played and discarded so far. It is not perfect recall (the order of the decisions and
  the cards drawn are summed away); the information-state string keeps the order.
"""

from __future__ import annotations

from collections import Counter

from generator.engine.actions import DISCARD, GIVE, PLAY, Action


class Table:
    """The decisions announced at the table so far, with the seat that made each.

    Every play and discard is face up. A give (Teams) passes a card face down between
    teammates: the other team learns only that a card was given.
    """

    __slots__ = ("game", "plays", "discards", "log")

    def __init__(self, game):
        self.game = game
        k, n = len(game.codes), game.players
        # floats, as the tensors hold them: information_state copies the rows as they are
        self.plays = [[0.0] * k for _ in range(n)]  #: plays[seat][card]
        self.discards = [[0.0] * k for _ in range(n)]  #: discards[seat][card]
        self.log: list[tuple[int, Action]] = []

    def note(self, seat: int, action: Action) -> None:
        """Count a decision made by `seat` (call it before or after applying; it reads only the action)."""
        c = action.card if action.card >= 0 or action.kind not in (PLAY, DISCARD, GIVE) else self.game.index[action.code]
        if action.kind == PLAY:
            self.plays[seat][c] += 1
        elif action.kind == DISCARD:
            self.discards[seat][c] += 1
        self.log.append((seat, action))

    def copy(self) -> "Table":
        new = Table.__new__(Table)
        new.game = self.game
        new.plays = [list(r) for r in self.plays]
        new.discards = [list(r) for r in self.discards]
        new.log = list(self.log)
        return new

    def lines(self, seat: int, public: bool = False) -> list[str]:
        """The decisions as `seat` heard them: `s2: play C5`; the other team's gives without the card
        (`public`: every give without its card, as everyone at the table hears it)."""
        teams = self.game.options.teams
        out = []
        for who, a in self.log:
            if a.kind == GIVE and teams and (public or who % 2 != seat % 2):
                out.append(f"s{who}: give {a.seat} ?")
            else:
                out.append(f"s{who}: {a}")
        return out


class Layout:
    """The tensors' segments for one Game: names, sizes and offsets (the same for every seat)."""

    def __init__(self, game):
        k, n = len(game.codes), game.players
        self.game = game
        self.cards, self.players = k, n
        self.teams = game.options.teams
        obs = [("hand", k), ("discard_pile", k), ("in_play", k), ("match", k + 1), ("count", game.target + 1),
               ("hand_sizes", n), ("out", n), ("turn", n), ("owed", n), ("to_discard", 1), ("clockwise", 1),
               ("invert", 1), ("play2", 1), ("played", 1), ("draw_size", 1)]
        if self.teams:
            obs.append(("giver", n))
        self.observation_segments = obs
        self.segments = obs + [("plays_by_seat", n * k), ("discards_by_seat", n * k)]
        self.observation_size = sum(size for _, size in obs)
        self.size = sum(size for _, size in self.segments)
        self.offsets: dict[str, int] = {}
        at = 0
        for name, size in self.segments:
            self.offsets[name] = at
            at += size

    def bounds(self) -> list[float]:
        """Each slot's scale, in tensor order, for a normalised tensor (PettingZoo's and the Gymnasium
        environment's `normalize`): a card count over the most copies a card type has, a hand or pile
        size over the edition's cards, the discards a seat owes over 3, plays this turn over 2, a
        one-hot or flag over 1. Divided by it and clipped to 1, every slot lies in 0..1 (only a card
        type played or discarded more often than it has copies, after reshuffles, is clipped)."""
        game = self.game
        copies = float(max(Counter(game.edition_cards).values()))
        total = float(len(game.edition_cards))
        per = {"hand": copies, "discard_pile": copies, "in_play": copies, "plays_by_seat": copies,
               "discards_by_seat": copies, "hand_sizes": total, "draw_size": total, "owed": 3.0, "played": 2.0}
        return [per.get(name, 1.0) for name, size in self.segments for _ in range(size)]

    def observation(self, view) -> list[float]:
        """The observation tensor of `view.seat` (a list of floats)."""
        k, n, me = self.cards, self.players, view.seat
        game = self.game
        out = [0.0] * self.observation_size
        o = self.offsets
        for c in view.hand_ids:
            out[c] += 1
        for c in view.discard_ids:
            out[o["discard_pile"] + c] += 1
        for c in view.in_play_ids:
            out[o["in_play"] + c] += 1
        out[o["match"] + view.match_id] = 1.0
        out[o["count"] + max(0, min(game.target, view.count))] = 1.0
        sizes, gone, owed = view.hand_sizes, view.out, view.owed
        for seat in range(n):
            rel = (seat - me) % n
            out[o["hand_sizes"] + rel] = float(sizes[seat])
            out[o["out"] + rel] = 1.0 if gone[seat] else 0.0
        if not view.over:
            out[o["turn"] + (view.turn - me) % n] = 1.0
        for seat in owed:
            out[o["owed"] + (seat - me) % n] += 1
        out[o["to_discard"]] = 1.0 if owed and owed[0] == me else 0.0
        out[o["clockwise"]] = 1.0 if view.direction == 1 else 0.0
        out[o["invert"]] = 1.0 if view.invert else 0.0
        out[o["play2"]] = float(view.play2)
        out[o["played"]] = float(view.played)
        out[o["draw_size"]] = float(view.draw_size)
        if self.teams and view.giver >= 0:  # R7.2: the teammate asked whether to give
            out[o["giver"] + (view.giver - me) % n] = 1.0
        return out

    def information_state(self, view, table: Table) -> list[float]:
        """The information-state tensor: the observation, then each seat's plays and discards by card type
        (whole numbers, as floats like the counts of the observation)."""
        out = self.observation(view)
        n, me = self.players, view.seat
        for rows in (table.plays, table.discards):
            for rel in range(n):
                out += rows[(me + rel) % n]
        return out


def observation_string(view) -> str:
    """The table as `view.seat` sees it, in one line per fact (hidden cards never appear)."""
    game = view.game
    lines = [f"seat {view.seat} of {game.players}{' (teams)' if game.options.teams else ''}",
             f"count {view.count}/{view.target} match {view.match} {'clockwise' if view.direction == 1 else 'counterclockwise'}",
             f"hand {' '.join(view.hand) or '-'}",
             "sizes " + " ".join(f"s{i}:{'out' if o else h}" for i, (h, o) in enumerate(zip(view.hand_sizes, view.out))),
             f"draw {view.draw_size} discard {' '.join(view.discard) or '-'}",
             f"in play {' '.join(view.in_play) or '-'}"]
    if view.over:
        lines.append("over" + (f", winner {view.winner}" if view.winner is not None else ", no winner"))
    else:
        owed, giver = view.owed, view.giver
        lines.append(f"to act s{owed[0] if owed else view.turn if giver < 0 else giver} "
                     f"({'discard' if owed else 'play' if giver < 0 else f'give to s{view.turn}'})"
                     f"{' owed ' + ','.join(map(str, owed)) if owed else ''}"
                     f"{' invert' if view.invert else ''}{f' play2 {view.play2}' if view.play2 else ''}")
    return "\n".join(lines)


def information_state_string(view, table: Table, public: bool = False) -> str:
    """The observation string, then every decision so far in order, as this seat heard it
    (`public`: as everyone heard it, a give's card unnamed)."""
    return observation_string(view) + "\nheard " + " | ".join(table.lines(view.seat, public))
