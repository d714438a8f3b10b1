"""The engine against a second implementation of docs/rules.md, decision by decision.

`independent_rules.Table` was written from the rules alone (see its docstring). Each game here
is played by both in lock-step with random legal decisions: at every decision both must offer
the same decisions and the same seat must be the one to act, and after every decision the
positions must agree (count, card to match, direction, whose turn, every hand, the piles, who
is out and in what order, the discards owed, a pending +/-, Skip or give, turns, and at the end
the winner or the draw). Whole seeded games cover every edition, 2 to 8 players and every rule
option; positions shaped for them reach the rare cases (two Skips in a Play 2, a Play 2 passed
on, everyone out at once) more often; every rule scenario of tests/scenarios/ is played by both,
from its position; a deck with other game parameters checks R4.8. The
simulator's own loop (`State.play_out`) must play the same games as decisions applied one by one.
`SeededTable` draws every random event from the seed as docs/formats.md ("What the seed
decides") says, and must then match the engine card for card, hands in order.
`python -m pytest -m slow tests/engine/test_independent_rules.py` plays ten times as many.
"""

from __future__ import annotations

import json
import random
from math import floor
from pathlib import Path

import pytest

from generator.deck.manifest import check
from generator.deck.tweak import tweak
from generator.deck.yaml_source import read
from generator.engine import EngineError, Game, IllegalActionError, compare_expected, from_position, run_scenario, to_position
from generator.engine.position import POSITION_KEYS
from tests.conftest import MANIFEST

from .independent_rules import DEFAULTS, Table
from .sweep import EDITIONS, OPTION_VALUES as SWEPT_OPTIONS

#: The values each rule option takes here: the invariant sweep's (docs/rules.md, "All rule
#: options"), with Teams, SPEED and max_turns small enough to stop games early as well.
OPTION_VALUES = {
    **SWEPT_OPTIONS,
    "teams": (False, True),
    "speed_seconds": (None, 10),
    "max_turns": (2000, 2000, 2000, 1, 7, 30),
}

#: New deals in the quick run, and twice as many positions (the slow run plays about ten times as many).
QUICK = 250


def configs(k: int) -> tuple[str, int, dict]:
    """Game k: every edition with every player count in turn, rule options drawn from k."""
    r = random.Random(k)
    edition, players = EDITIONS[k % len(EDITIONS)], 2 + (k // len(EDITIONS)) % 7
    options = {name: r.choice(values) for name, values in OPTION_VALUES.items()}
    options["teams"] = options["teams"] and players >= 4 and players % 2 == 0
    if not options["teams"]:
        del options["sixteen_hits"]  # R7.3: Teams only
    options["dealer"] = r.randrange(players)
    return edition, players, {k: v for k, v in options.items() if v != DEFAULTS[k]}


def rare_position(deck, k: int) -> dict:
    """A position between turns (docs/formats.md) shaped for the rare cases, by k % 3:

    0. hands mostly wilds, some empty;
    1. a Play 2 turn whose player holds Skips and Play 2s (or nothing), the other hands small:
       two Skips in one turn (R6.11), a Play 2 passed on by a player out before their first
       play (R6.8);
    2. nothing left to draw, the player holding one or two cards, the others at most one, and
       the count one of the player's number cards short of the target: a hit can knock
       everyone out (R5.2).

    Shape 2, half of shape 1 and a quarter of shape 0 hold only a few cards (a position may
    hold a handful), so the piles run dry and empty hands go out at the draw (R4.2).
    """
    edition, players, options = configs(k)
    r = random.Random(-k)
    shape = k % 3
    numbers = {c.code for c in deck.cards if c.playing and c.is_number}
    cards = [c.code for c in deck.edition_cards(edition)]
    r.shuffle(cards)
    target = deck.params.target
    hits = {c for c in numbers if 0 < deck.card(c).value < target}  # a number that can make the target
    first = (lambda c: c in numbers, lambda c: c not in ("SKIP", "PLAY2"), lambda c: c not in hits)[shape]
    if shape or r.random() < 0.7:
        cards.sort(key=first)  # a stable sort keeps the shuffle within each part
    turn = r.randrange(players)
    any_size = (0, 1, 1, 2, 3, 4, 5, 7)
    mine, theirs = ((any_size, any_size), ((0, 2, 3, 3, 4), (0, 0, 1, 2)), ((1, 1, 2), (0, 0, 0, 0, 1)))[shape]
    hands: list[list[str]] = [[] for _ in range(players)]
    for seat in [turn, *(s for s in range(players) if s != turn)]:
        size = r.choice(mine if seat == turn else theirs)
        hands[seat] = [cards.pop(0) for _ in range(min(size, len(cards)))]
    if not any(hands):
        hands[turn].append(cards.pop())
    r.shuffle(cards)
    in_play = [c for c in cards[:1] if c in numbers and r.random() < 0.8]
    del cards[:len(in_play)]
    dry = shape == 2 or r.random() < (0.25 if shape == 0 else 0.5)
    cut = 0 if shape == 2 else r.randrange(3) if dry else r.randrange(len(cards) + 1)
    draw, discard = cards[:cut], [] if dry else cards[cut:]
    count = r.randrange(target)
    if shape == 2:
        count = target - deck.card(r.choice(hands[turn])).value if hits.issuperset(hands[turn]) else count
    return {
        "players": players, "edition": edition, "options": options, "seed": k,
        "count": count, "match": in_play[0] if in_play else "start",
        "direction": r.choice((1, -1)), "turn": turn, "hands": hands,
        "draw": draw, "discard": discard, "in_play": in_play,
        "pending": {"invert": shape != 2 and r.random() < 0.2, "play2": int(shape == 1 or r.random() < 0.3)},
    }


def lockstep(state, table: Table, seed: int, what: str, *, wilds: float = 0.0) -> list[str]:
    """Play both to the end with the same random decisions; fail at the first difference."""
    rng = random.Random(seed)
    decisions: list[str] = []
    speed = table.opt["speed_seconds"] is not None

    def where() -> str:
        return f"{what}, after decisions {decisions}"

    while True:
        legal = sorted(str(a) for a in state.legal_actions())  # makes the turn's draw (R4.1)
        diffs = table.sync(to_position(state))
        assert not diffs, f"{where()}:\n  " + "\n  ".join(diffs)
        assert state.is_terminal() == table.over, f"{where()}: game over? engine {state.is_terminal()}, rules {table.over}"
        if table.over:
            return decisions
        assert set(legal) == table.legal(), (
            f"{where()}: only the engine allows {sorted(set(legal) - table.legal())}, "
            f"only the rules allow {sorted(table.legal() - set(legal))}")
        assert state.current_player() == table.actor(), f"{where()}: engine asks seat {state.current_player()}, rules seat {table.actor()}"
        if speed and table.owed and rng.random() < 0.05:  # R7.5: late is for a play, not a discard
            with pytest.raises(IllegalActionError):
                state.clone().apply("late")
        if table.late_allowed() and rng.random() < 0.05:
            decision = "late"
        else:
            plays = [d for d in legal if d.startswith("play") and not table.cards[d.split()[1]].number]
            pool = plays if plays and rng.random() < wilds else legal
            decision = pool[rng.randrange(len(pool))]
        decisions.append(decision)
        state.apply(decision)
        table.apply(decision)


def new_deals(deck, ks) -> int:
    n = 0
    for k in ks:
        edition, players, options = configs(k)
        game = Game(deck, edition, players, options=options)
        what = f"{edition}, {players} players, options {options}, seed {k}"
        n += len(lockstep(game.new_initial_state(k), Table(deck, edition, players, options, k), k, what, wilds=0.3))
    return n


def positions(deck, ks) -> int:
    n = 0
    for k in ks:
        pos = rare_position(deck, k)
        n += len(lockstep(from_position(deck, pos), Table.from_position(deck, pos), k, f"position {pos}", wilds=0.7))
    return n


def mid_turn(pos: dict, k: int) -> dict:
    """`pos` (a rare_position) in the middle of a turn, as docs/formats.md allows: seats with no card
    out, a card played and discards owed, Skips to apply and a Play 2 waiting when the turn passes."""
    r = random.Random(~k)
    players, turn, pending = pos["players"], pos["turn"], pos["pending"]
    out = [s for s in range(players) if s != turn and not pos["hands"][s] and r.random() < 0.5][:players - 2]
    still_in = [s for s in range(players) if s not in out]
    if r.random() < 0.4:
        pending.update(owed=r.sample(still_in, r.randint(1, min(3, len(still_in)))), played=1, drawn=True)
    if r.random() < 0.3:
        pending["skip"] = r.randint(1, 2)
    if r.random() < 0.3:
        pending["play2_next"] = True
    return {**pos, "out": out}


def test_positions_in_the_middle_of_a_turn_agree(deck):
    """Loading a position resolves what needs no decision (docs/formats.md): empty hands that owe a
    discard go out, the winner, the turn's end with its Skips and a Play 2 handed on; both agree."""
    n = 0
    for k in range(QUICK):
        pos = mid_turn(rare_position(deck, k), k)
        n += len(lockstep(from_position(deck, pos), Table.from_position(deck, pos), k, f"position {pos}", wilds=0.5))
    assert n > 3 * QUICK


@pytest.fixture(scope="module")
def other_decks():
    """The deck with other game parameters (R4.8): target 12 (so =14 busts), 4 cards a hand, x3, +2 Cards;
    and target 21, 7 cards a hand, =20."""
    src = read(MANIFEST)
    base = check(src)
    return [tweak(src, base, {"target": 12, "hand_size": 4, "params.x2.factor": 3, "params.+1.count": 2,
                              "params.=15.value": 14}),
            tweak(src, base, {"target": 21, "hand_size": 7, "params.=15.value": 20})]


def test_the_configurations_reach_every_edition_player_count_and_option_value():
    seen = {(name, value) for k in range(QUICK) for name, value in configs(k)[2].items()}
    editions = {(configs(k)[0], configs(k)[1]) for k in range(QUICK)}
    assert len(editions) == len(EDITIONS) * 7
    for name, values in OPTION_VALUES.items():
        assert {(name, v) for v in values if v != DEFAULTS[name]} <= seen, name
    assert {("dealer", s) for s in range(1, 8)} <= seen


def test_new_deals_agree(deck):
    assert new_deals(deck, range(QUICK)) > 10 * QUICK


def test_positions_shaped_for_rare_cases_agree(deck):
    assert positions(deck, range(2 * QUICK)) > 5 * QUICK


def test_other_game_parameters_agree(other_decks):
    for deck in other_decks:
        new_deals(deck, range(QUICK // 5))
        positions(deck, range(QUICK // 5))


def test_a_rule_played_otherwise_is_caught(deck):
    """The lock-step fails when one side breaks a rule: here R4.6's order of discards."""

    class Reversed(Table):
        def order_from(self, seat):
            first, *rest = super().order_from(seat)
            return [first, *rest[::-1]]

    with pytest.raises(AssertionError, match=r"owed: rules say \[\d, \d"):
        for k in range(40):
            _, players, options = configs(k)
            if players >= 3:
                lockstep(Game(deck, "keep-it-simple", players, options=options).new_initial_state(k),
                         Reversed(deck, "keep-it-simple", players, options, k), k, f"game {k}")


def test_the_simulator_s_loop_plays_the_same_games(deck):
    """`play_out` (random players, the loop `simulate` runs without leaving it) against the decisions
    applied one by one, which the lock-step checks: the same random draws give the same game."""
    starts = [(configs(k), lambda k=k, c=configs(k): Game(deck, c[0], c[1], options=c[2]).new_initial_state(k)) for k in range(QUICK)]
    starts += [(k, lambda k=k: from_position(deck, rare_position(deck, k))) for k in range(2 * QUICK)]
    for what, start in starts:
        fast, stepped = start(), start()
        rnd = random.Random(7).random
        fast.play_out(random.Random(7).random)
        while not stepped.is_terminal():
            legal = stepped.legal_actions()
            if legal:
                stepped.apply(legal[floor(rnd() * len(legal))])
        assert to_position(fast) == to_position(stepped), what


@pytest.mark.slow  # about 23 s on one core
def test_many_more_games_agree(deck, other_decks):
    new_deals(deck, range(QUICK, 11 * QUICK))
    positions(deck, range(2 * QUICK, 20 * QUICK))
    for other in other_decks:
        new_deals(other, range(QUICK, 3 * QUICK))


SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "scenarios").glob("*.json"))


HOUSE_SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "scenarios" / "house").glob("*.json"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_scenario_plays_alike(deck, path):
    """Every rule scenario (tests/scenarios/), played by both: the same position after each of its
    decisions, and an illegal decision refused by both. Its `expected` was worked out by hand;
    this checks the second implementation reaches the same end by the rules alone."""
    _plays_alike(deck, path)


@pytest.fixture(scope="module")
def house_deck(tmp_path_factory):
    from generator.deck.manifest import load
    from tests.house_wilds import house_manifest

    return load(house_manifest(tmp_path_factory.mktemp("house")))


@pytest.mark.parametrize("path", HOUSE_SCENARIOS, ids=[p.stem for p in HOUSE_SCENARIOS])
def test_every_house_wild_scenario_plays_alike_and_as_expected(house_deck, path):
    """The house wilds written in YAML (tests/house_wilds.py), each in a scenario worked out by hand
    from docs/rules.md R6.12-R6.22: the engine reaches `expected`, and the second implementation
    the same positions on the way."""
    scenario = json.loads(path.read_text(encoding="utf-8"))
    assert compare_expected(scenario["expected"], run_scenario(house_deck, scenario)) == []
    _plays_alike(house_deck, path)


def test_whole_games_with_house_wilds_agree(house_deck):
    """Seeded games of a deck holding wilds written as steps (draws and discards owed by others,
    two cards taken, hands passed back, the count halved), every edition and option mix, in
    lock-step with the second implementation."""
    assert new_deals(house_deck, range(QUICK // 2)) > 0
    assert positions(house_deck, range(QUICK // 2)) > 0


def _plays_alike(deck, path) -> None:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    pos = {k: v for k, v in scenario.items() if k in POSITION_KEYS}
    state = from_position(deck, pos)
    table = (Table.from_position(deck, pos) if "hands" in pos else
             Table(deck, pos.get("edition", "the-og"), pos["players"], pos.get("options") or {}, pos.get("seed", 0)))
    decisions = scenario.get("decisions", [])
    for i, decision in enumerate(decisions):
        state.legal_actions()  # the turn's draw, which the Table makes at once
        diffs = table.sync(to_position(state))
        assert not diffs, f"before decision {i} ({decision!r}):\n  " + "\n  ".join(diffs)
        try:
            state.apply(decision)
        except EngineError:
            assert "expected_error" in scenario and i == len(decisions) - 1, f"decision {i} ({decision!r}) refused"
            assert decision not in table.legal() and not (decision == "late" and table.late_allowed()), \
                f"the rules allow {decision!r}"
            return
        table.apply(decision)
    assert "expected_error" not in scenario, "every decision was legal"
    state.legal_actions()
    diffs = table.sync(to_position(state))
    assert not diffs, "after the last decision:\n  " + "\n  ".join(diffs)


def _fisher_yates(rng: random.Random, cards: list) -> None:
    """docs/formats.md, "What the seed decides": from the end, j = floor(random() * (i + 1))."""
    for i in range(len(cards) - 1, 0, -1):
        j = floor(rng.random() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


class SeededTable(Table):
    """The Table drawing every random event from the seed as docs/formats.md says the engine does,
    rather than taking the engine's outcome: then hands (in order), piles and all must be equal."""

    def __init__(self, deck, edition: str, players: int, options: dict, seed: int):
        self._start(deck, players, options)
        self.rng = random.Random(seed)
        cards = [c.code for c in deck.edition_cards(edition)]
        _fisher_yates(self.rng, cards)
        pile = cards[::-1]  # top first
        first = (self.opt["dealer"] + 1) % players
        k = min(len(pile), deck.params.hand_size * players)
        for t in range(k):
            self.hands[(first + t) % players].append(pile[t])
        self.draw = pile[k:]
        self.turn = first
        self._settle()

    def _draw(self, seat: int) -> None:
        if not self.draw and self.discard:  # the discard pile, bottom first, shuffled; its last card on top
            pile, self.discard = self.discard, []
            _fisher_yates(self.rng, pile)
            self.draw = pile[::-1]
        if self.draw:
            self.hands[seat].append(self.draw.pop(0))

    def _take(self, me: int, victim: int) -> None:
        hand = self.hands[victim]
        self.hands[me].append(hand.pop(self.rng.randrange(len(hand))))

    def _deal(self, order: list[int]) -> None:
        pool = [c for s in sorted(order) for c in self.hands[s]]
        _fisher_yates(self.rng, pool)
        for i, s in enumerate(order):
            self.hands[s] = pool[i::len(order)]


def test_the_seed_decides_what_docs_formats_md_says(deck):
    """R8.4: the deal, reshuffles, Steal's pick and Re-Deal's shuffle follow from the seed exactly as
    docs/formats.md describes, so another program can deal the same games from a record."""
    decisions = 0
    for k in range(80):
        edition, players, options = configs(k)
        state = Game(deck, edition, players, options=options).new_initial_state(k)
        table = SeededTable(deck, edition, players, options, k)
        rng = random.Random(k)
        while True:
            legal = sorted(str(a) for a in state.legal_actions())
            pos = to_position(state)
            assert (pos["hands"], pos["draw"], pos["discard"]) == (table.hands, table.draw, table.discard), \
                f"game {k}, after {decisions} decisions"
            assert not table.sync(pos)
            if table.over:
                break
            wilds = [d for d in legal if d.startswith("play") and not table.cards[d.split()[1]].number]
            decision = rng.choice(wilds if wilds and rng.random() < 0.5 else legal)
            state.apply(decision)
            table.apply(decision)
            decisions += 1
    assert decisions > 2000
