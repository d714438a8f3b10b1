"""Each card's effect on winning, measured by restricted play (Jaffe et al., AIIDE 2012).

For a cell of the report (edition, players, bots) and its deals 0..N-1 (game i is the report's
game i: seed `game_seed(seed, i)`), game i is played as usual and again with one seat, seat
i mod players, kept from playing card X (report/restricted.py: it discards X first when it owes
a discard and plays anything else it can). The card's **effect** is that seat's win rate as usual
minus its win rate without X: how many points of winning the card is worth to whoever holds it.
The deals are paired, so the interval is the paired one: a normal interval on the mean of the
per-deal differences (each -1, 0 or 1).

A deal in which the seat never had X among its choices plays out the same without X (the filter
changes nothing there), so it is not played again: its difference is 0. That keeps the cost to a
fraction of one game per card and deal.

Like with like: a card is compared with its **group**, the other cards of its kind: every wild
with the other wilds of the edition, every number card with the cards of the same value in other
colours (duals among them). Per deal, the card's difference minus the mean of the others' is the
contrast; its mean, a 95% interval and a z-test, Holm-Bonferroni corrected over every row of the
cell, give the verdict:

- `stronger than its group` / `weaker than its group`: the contrast is significant (adjusted p < 0.05);
- `in line`: not significant, and its interval lies within ±CARD_TOLERANCE of the fair share;
- `not clear yet`: neither; `games_needed` says how many deals would settle it.

By colour: the rows `cyan cards`, `green cards`, ... (and `dual cards`) are per deal means of the
colour's number cards' differences, compared with each other in the group `colours` the same way,
from the same games (no more are played for them).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping, Sequence

from generator.ai.bots import ladder_bot
from generator.backends import Backend, open_backend
from generator.deck.model import CardType, Deck
from generator.engine import Game
from generator.report.restricted import Watching, WithoutCard
from generator.engine.simulate import Z95, game_seed, play_game
from generator.report import stats
from generator.report.summarize import ALPHA, TOLERANCE, r

#: How far from its group's a card's worth when held may be and still be `in line`: this share of the
#: fair win rate (the seat verdict's tolerance: 5 points at 4 players, 10 at 2 players).
CARD_TOLERANCE = TOLERANCE
#: Without --games, a cell's card effects play on to at most this many times their first round's deals.
CARD_ROUNDS = 3
#: Deals per chunk of work.
CHUNK = 100
#: The group of the colour rows and of the wilds.
WILDS, COLOURS = "wilds", "colours"
VERDICTS = ("stronger than its group", "weaker than its group", "in line", "not clear yet")


def group_of(card: CardType) -> str:
    """The group a card is compared within: "wilds", or "value 3" for every 3 (duals too)."""
    return WILDS if card.kind == "wild" else f"value {card.value}"


def group_order(group: str) -> tuple[int, int]:
    """Groups in the order a designer reads them: the wilds, each value from the lowest, the colours."""
    if group == WILDS:
        return (0, 0)
    if group == COLOURS:
        return (2, 0)
    return (1, int(group.removeprefix("value ")))


def measured(deck: Deck, edition: str) -> list[CardType]:
    """The edition's playing card types, each once, in manifest order."""
    return list({c.code: c for c in deck.edition_cards(edition)}.values())


@dataclass(frozen=True)
class Setup:
    """What every chunk of one cell's card effects shares (sent once per worker)."""

    deck: Deck
    options: Mapping[str, Any]
    edition: str
    players: int
    bots: tuple[str, ...]  #: one name per seat
    seed: int
    only: tuple[str, ...] | None = None  #: measure these groups alone (default: every card)


@dataclass(frozen=True)
class Job:
    start: int
    stop: int
    codes: tuple[str, ...]  #: the cards measured on these deals


@dataclass
class Chunk:
    """One job's outcome: per card, the deals where a seat had it and the nonzero differences."""

    held: dict[str, int] = field(default_factory=dict)
    diffs: dict[str, dict[int, int]] = field(default_factory=dict)  #: code -> {deal: +1 or -1}
    restricted_games: int = 0  #: games played again


def _won(state, seat: int, teams: bool) -> int:
    if state.stopped or state.winner is None:
        return 0
    return int(state.winner == (seat % 2 if teams else seat))


#: Bots that keep nothing from one decision to the next but what the game and their Random hold: a
#: restricted game of theirs may start from where the card was first offered rather than from the deal.
MEMORYLESS = ("random", "greedy")


def play_chunk(setup: Setup, job: Job) -> tuple[Job, Chunk]:
    """Play deals job.start..job.stop as usual and, for each card some seat had among its choices,
    again with the first such seat (counting from seat deal mod players) kept from playing it.

    Up to the first decision where that seat is offered the card, the game without it is the game
    as usual; with memoryless bots it is played on from a copy of that decision (the same result,
    for a fraction of the cost), with others from the deal."""
    game = Game(setup.deck, setup.edition, setup.players, setup.options)
    teams = game.options.teams
    n = setup.players
    resume = all(name in MEMORYLESS for name in setup.bots)
    out = Chunk()
    for i in range(job.start, job.stop):
        seed = game_seed(setup.seed, i)
        seen: list[set[str]] = [set() for _ in range(n)]
        marks: list[dict[str, tuple] | None] = [{} if resume else None for _ in range(n)]
        bots = [Watching(ladder_bot(name), seen[s], marks[s]) for s, name in enumerate(setup.bots)]
        usual = play_game(game, bots, seed)
        order = [(i + k) % n for k in range(n)]
        for code in job.codes:
            seat = next((s for s in order if code in seen[s]), None)
            if seat is None:
                continue  # nobody could play or discard it: the game is the same without it
            out.held[code] = out.held.get(code, 0) + 1
            bots = [ladder_bot(name) for name in setup.bots]
            bots[seat] = WithoutCard(bots[seat], code)
            start = None
            if resume:
                state, rng_state = marks[seat][code]  # type: ignore[index]
                rng = random.Random()
                rng.setstate(rng_state)
                start = (state.clone(), rng)
            d = _won(usual, seat, teams) - _won(play_game(game, bots, seed, start=start), seat, teams)
            out.restricted_games += 1
            if d:
                out.diffs.setdefault(code, {})[i] = d
    return job, out


@dataclass
class EffectTally:
    """A cell's card effects so far: per card, the deals 0..games[code]-1 measured."""

    games: dict[str, int] = field(default_factory=dict)
    held: dict[str, int] = field(default_factory=dict)
    diffs: dict[str, dict[int, int]] = field(default_factory=dict)
    played: int = 0  #: the deals played as usual (the highest deal measured, plus one)
    restricted_games: int = 0

    def add(self, job: Job, chunk: Chunk) -> None:
        for code in job.codes:
            self.games[code] = max(self.games.get(code, 0), job.stop)
        for code, k in chunk.held.items():
            self.held[code] = self.held.get(code, 0) + k
        for code, d in chunk.diffs.items():
            self.diffs.setdefault(code, {}).update(d)
        self.played = max(self.played, job.stop)
        self.restricted_games += chunk.restricted_games


def jobs(targets: Mapping[str, int], done: Mapping[str, int], chunk: int = CHUNK) -> Iterator[Job]:
    """Deals to play: the cards that stand at the same deal and want the same number of deals share
    their chunks; each card plays only deals it has not played yet."""
    spans: dict[tuple[int, int], list[str]] = {}
    for code, target in targets.items():
        if done.get(code, 0) < target:
            spans.setdefault((done.get(code, 0), target), []).append(code)
    for (first, target), codes in sorted(spans.items()):
        for lo in range(first, target, chunk):
            yield Job(lo, min(lo + chunk, target), tuple(codes))


# --- numbers from the tally ----------------------------------------------------------------
@dataclass(frozen=True)
class Mean:
    """The mean of per-deal values over n deals, with its normal 95% interval."""

    mean: float
    low: float
    high: float
    sd: float
    n: int

    @classmethod
    def of(cls, values: Mapping[int, float], n: int) -> "Mean":
        """`values`: the nonzero values among deals 0..n-1 (the rest are 0)."""
        if n <= 0:
            return cls(0.0, 0.0, 0.0, 0.0, 0)
        total = sum(values.values())
        squares = sum(v * v for v in values.values())
        mean = total / n
        var = max(0.0, (squares - n * mean * mean) / (n - 1)) if n > 1 else 0.0
        sd = math.sqrt(var)
        half = Z95 * sd / math.sqrt(n)
        return cls(mean, mean - half, mean + half, sd, n)

    def p(self) -> float:
        if self.sd == 0 or self.n < 2:
            return 1.0 if self.mean == 0 or self.n < 2 else 0.0
        return stats.normal_two_sided_p(self.mean / (self.sd / math.sqrt(self.n)))


def _within(values: Mapping[str, Mapping[int, float]], codes: Sequence[str], n: int,
            scale: Mapping[str, float] | None = None) -> dict[int, float]:
    """Per deal below n, the mean over `codes` of their values, each divided by its `scale` (nonzero deals only)."""
    out: dict[int, float] = {}
    for code in codes:
        k = scale.get(code, 0.0) if scale is not None else 1.0
        if not k:
            continue  # never held: no difference to scale
        for i, d in values.get(code, {}).items():
            if i < n:
                out[i] = out.get(i, 0.0) + d / k / len(codes)
    return {i: v for i, v in out.items() if v}


def _minus(a: Mapping[int, float], b: Mapping[int, float]) -> dict[int, float]:
    out = dict(a)
    for i, v in b.items():
        out[i] = out.get(i, 0.0) - v
    return {i: v for i, v in out.items() if v}


@dataclass
class Unit:
    """A row: one card, or the number cards of one colour averaged."""

    code: str
    name: str
    group: str
    kind: str  #: "wild", "number", "dual" or "colour"
    codes: tuple[str, ...]  #: the cards whose differences it averages
    colours: tuple[str, ...] = ()


def units(deck: Deck, edition: str, only: Sequence[str] | None = None) -> list[Unit]:
    """The rows of a cell: every card of the edition, then a row per colour (and the duals) if it has
    numbers; `only`: the rows of these groups alone ("wilds", "value 3", "colours")."""
    if only is not None:
        return [u for u in units(deck, edition) if u.group in only]
    cards = measured(deck, edition)
    rows = [Unit(c.code, deck.words(c.name), group_of(c), c.kind, (c.code,), tuple(c.colours)) for c in cards]
    numbers = [c for c in cards if c.kind != "wild"]
    by_colour: list[Unit] = []
    for colour in deck.colours:
        codes = tuple(c.code for c in numbers if tuple(c.colours) == (colour.name,))
        if codes:
            by_colour.append(Unit(colour.letter, f"{colour.name} cards", COLOURS, "colour", codes, (colour.name,)))
    duals = tuple(c.code for c in numbers if len(c.colours) > 1)
    if duals:
        by_colour.append(Unit("duals", "dual cards", COLOURS, "colour", duals))
    return rows + (by_colour if len(by_colour) > 1 else [])


def rows(deck: Deck, edition: str, tally: EffectTally, fair: float, only: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """The cell's `card_effects`: a row per card (and colour), with effect, interval and verdict.

    The verdict compares what a card is worth when its seat has it (its per-deal differences
    divided by the share of deals its seat had it, so a card printed once is not called weak for
    turning up less often than one printed three times) with the same figure of its group."""
    us = units(deck, edition, only)
    groups: dict[str, list[Unit]] = {}
    for u in us:
        groups.setdefault(u.group, []).append(u)
    share = {c: tally.held.get(c, 0) / g for c, g in tally.games.items() if g}
    band = CARD_TOLERANCE * fair
    out = []
    contrasts = []
    for u in us:
        n = min(tally.games.get(c, 0) for c in u.codes)
        effect = Mean.of(_within(tally.diffs, u.codes, n), n)
        worth = Mean.of(_within(tally.diffs, u.codes, n, share), n)
        peers = [p for p in groups[u.group] if p is not u]
        if not peers:  # alone in its group: compared with every other card of the edition
            peers = [p for p in us if p is not u and p.kind != "colour"]
        m = min([n, *(tally.games.get(c, 0) for p in peers for c in p.codes)])
        others: dict[int, float] = {}
        for p in peers:
            for i, v in _within(tally.diffs, p.codes, m, share).items():
                others[i] = others.get(i, 0.0) + v / len(peers)
        contrast = Mean.of(_minus(_within(tally.diffs, u.codes, m, share), others), m)
        held = sum(tally.held.get(c, 0) for c in u.codes)
        contrasts.append(contrast)
        out.append({
            "code": u.code, "name": u.name, "group": u.group, "kind": u.kind, "colours": list(u.colours),
            "effect": r(effect.mean), "low": r(effect.low), "high": r(effect.high), "games": n,
            "held": r(held / (n * len(u.codes)) if n else 0.0, 3),
            "when_held": {"effect": r(worth.mean), "low": r(worth.low), "high": r(worth.high)},
            "vs_group": {"difference": r(contrast.mean), "low": r(contrast.low), "high": r(contrast.high),
                         "games": m, "p": r(contrast.p(), 6)},
        })
    adjusted = stats.holm([c.p() for c in contrasts])
    for row, contrast, p in zip(out, contrasts, adjusted):
        row["vs_group"]["p_adjusted"] = r(p, 6)
        row["verdict"], need = verdict(contrast, p, band)
        if need:
            row["games_needed"] = need
    return out


def verdict(contrast: Mean, p_adjusted: float, band: float) -> tuple[str, int | None]:
    """The verdict on a card's contrast with its group, and (not clear yet) the deals that would settle it."""
    if contrast.n == 0:
        return "not clear yet", CHUNK
    if p_adjusted < ALPHA:
        return ("stronger than its group" if contrast.mean > 0 else "weaker than its group"), None
    if -band <= contrast.low and contrast.high <= band:
        return "in line", None
    room = band - abs(contrast.mean)
    need = 4 * contrast.n if room <= 0 else (Z95 * contrast.sd / room) ** 2
    need = max(need, 2 * contrast.n)
    return "not clear yet", int(math.ceil(need / CHUNK) * CHUNK)


def unsettled(deck: Deck, edition: str, table: Sequence[dict[str, Any]], only: Sequence[str] | None = None) -> dict[str, int]:
    """Per card to play on, the deals its row (or a row it is compared with) asks for."""
    us = {u.code: u for u in units(deck, edition, only)}
    need: dict[str, int] = {}
    for row in table:
        if row["verdict"] != "not clear yet":
            continue
        u = us[row["code"]]
        peers = [p for p in us.values() if p.group == u.group] if u.group != COLOURS else [u]
        for p in peers:
            for code in p.codes:
                need[code] = max(need.get(code, 0), row["games_needed"])
    return need


# --- running them ------------------------------------------------------------------------------
@dataclass
class Target:
    """One cell whose card effects are measured."""

    setup: Setup
    fair: float
    start: int  #: the cell's games: the first round measures the cards on these deals


def _run_chunk(context: tuple[Setup, ...], item: tuple[int, Job]) -> tuple[int, Job, Chunk]:
    k, job = item
    job, chunk = play_chunk(context[k], job)
    return k, job, chunk


def measure(targets: Sequence[Target], *, cap: int | None, rounds: int = CARD_ROUNDS, workers: int | None = None,
            backend: Backend | None = None, announce: Callable[[int, int], Callable[[int], None] | None] | None = None,
            ) -> list[EffectTally]:
    """Every target's card effects: first on its own games, then (`cap` given) on until each verdict is
    settled or the card has `cap` deals. `announce(round, games)` before each round returns a
    progress callback (games played so far in the round). Chunks come back in order, so the numbers
    are the same on any backend. A card plays on to at most `rounds` times its target's own games.
    KeyboardInterrupt propagates (the work is stopped)."""
    setups = tuple(t.setup for t in targets)
    tallies = [EffectTally() for _ in targets]
    want = [{u: t.start for u in dict.fromkeys(c for x in units(t.setup.deck, t.setup.edition, t.setup.only)
                                               for c in x.codes)}
            for t in targets]
    number = 0
    while True:
        todo = [(k, job) for k, tally in enumerate(tallies) for job in jobs(want[k], tally.games)]
        if not todo:
            return tallies
        number += 1
        planned = sum(job.stop - job.start for _, job in todo)
        tick = announce(number, planned) if announce else None
        owned = backend is None
        runner = open_backend(None, workers, work=len(todo)) if owned else backend
        played = 0
        try:
            for k, job, chunk in runner.map_chunks(_run_chunk, setups, iter(todo)):
                tallies[k].add(job, chunk)
                played += job.stop - job.start
                if tick:
                    tick(played)
        except KeyboardInterrupt:
            runner.cancel()
            raise
        finally:
            if owned:
                runner.close()
        if cap is None:
            return tallies
        for k, t in enumerate(targets):
            table = rows(t.setup.deck, t.setup.edition, tallies[k], t.fair, t.setup.only)
            for code, need in unsettled(t.setup.deck, t.setup.edition, table, t.setup.only).items():
                done = tallies[k].games.get(code, 0)
                most = min(cap, rounds * t.start)
                want[k][code] = max(done, min(most, max(need, done)))
