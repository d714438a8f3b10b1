"""The web table's game logic: what each seat is told, which decisions it refuses, its records.

The hidden-information test plays whole games (plain, Teams, SPEED, Play 2 rules) and reads
every message the table builds for seat 1: none names a card of another hand or of the draw
pile, in its fields or in its log lines.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from generator.engine import Game, replay
from generator.play.describe import card_text
from generator.web.table import HUMAN, NO_GIVE, Refused, Table


def play_out(table: Table, seed: int = 1, watch=None) -> int:
    """Play `table` to its end, people choosing at random; return the number of people's decisions."""
    rng = random.Random(seed)
    made = 0
    while not table.over:
        if table.step_bot():
            if watch:
                watch()
            continue
        seat = table.human_to_decide()
        msg = table.message(seat, hints=True)
        choice = rng.choice(msg["choices"])
        table.decide(seat, choice["decision"], msg["seq"])
        made += 1
        if watch:
            watch()
    return made


def labels(game: Game) -> dict[str, re.Pattern]:
    """Each card's words in a log line, matched whole (`● cyan 1` is not in `● cyan 10` or `… / ● cyan 1`)."""
    return {code: re.compile(r"(?<!/ )" + re.escape(card_text(game, code).plain) + r"(?![\d/])") for code in game.codes}


def strings(value) -> list[str]:
    """Every text inside a JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in strings(k) + strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


@pytest.mark.parametrize("options, seats", [
    ({}, [HUMAN, HUMAN, "greedy", "random"]),
    ({"teams": True}, [HUMAN, HUMAN, "greedy", "greedy"]),
    ({"speed_seconds": 5, "play2_draws": 2}, ["greedy", HUMAN, "random", HUMAN, "greedy"]),
    ({}, [HUMAN, HUMAN]),
    ({"teams": True, "sixteen_hits": "opponents"}, [HUMAN, HUMAN, "greedy", HUMAN, "random", "greedy", "greedy", "greedy"]),
])
@pytest.mark.parametrize("seed", [3, 11])
def test_seat_1_is_never_told_a_card_it_cannot_see(deck, options, seats, seed):
    game = Game(deck, "the-og", len(seats), options)
    table = Table(game, seed, seats)
    words = labels(game)
    codes = set(game.codes)
    told = [0]
    checked = {"messages": 0, "lines": 0}
    hand_before = [list(table.state.view(1).hand)]

    def watch():
        s = table.state
        msg = table.message(1, hints=True)
        assert not {"hands", "draw", "seed"} & set(msg)
        own = s.view(1).hand
        assert msg["hand"] == own
        public = set(s.view(1).in_play) | set(s.view(1).discard) | {s.view(1).match}
        seen = set(own) | set(hand_before[0]) | public
        named = {word for text in strings({k: v for k, v in msg.items() if k != "log"})
                 for word in text.split() if word in codes}  # every field, a field added later too
        assert named <= seen, f"seat 1 was sent {sorted(named - seen)}"
        hidden = set()
        for seat in range(game.players):
            if seat != 1:
                hidden |= set(s.view(seat).hand)
        hidden |= {game.codes[c] for c in s.draw}
        hidden -= seen
        for line in msg["log"][told[0]:]:
            for code in hidden:
                assert not words[code].search(line), f"seat 1 was told {code} ({line!r})"
            checked["lines"] += 1
        told[0] = len(msg["log"])
        hand_before[0] = list(own)
        checked["messages"] += 1

    watch()
    play_out(table, seed, watch)
    assert table.over and table.state.winner is not None or table.state.stopped
    assert checked["messages"] > 10 and checked["lines"] > 10
    # the record replays to the same result
    state, same = replay(deck, table.record())
    assert same is True and state.winner == table.state.winner


@pytest.mark.parametrize("options, seats", [
    ({}, [HUMAN, "greedy", "greedy", "random"]),
    ({"teams": True}, [HUMAN, "greedy", "random", "greedy"]),
])
def test_someone_watching_reads_the_players_words_and_no_hidden_card(deck, options, seats):
    """The log of the table before a seat is taken (message(None)) words each decision as the
    seats' logs do, `seat 1 (greedy bot) played ● cyan 9; count 9`, not in engine codes
    (`seat 1: play C9; count 9 match C9; next seat 2`), and names no card of a hand or the draw pile."""
    game = Game(deck, "the-og", len(seats), options)
    table = Table(game, 7, seats)
    words = labels(game)
    token = re.compile(r"[^\s;:,()]+")
    # codes that are no word of their own card's words: C9 (● cyan 9), PLAY2, REV, GM0; not +1 (+1 Card) or x2
    engine_only = {code for code in game.codes if code not in token.findall(card_text(game, code).plain)}
    told = [0]
    lines = []

    def watch():
        s = table.state
        msg = table.message(None)
        assert "hand" not in msg and "choices" not in msg
        v = s.view(0)
        public = set(v.in_play) | set(v.discard) | {v.match}
        hidden = {c for seat in range(game.players) for c in s.view(seat).hand} | {game.codes[c] for c in s.draw}
        for line in msg["log"][told[0]:]:
            tokens = set(token.findall(line))
            assert not tokens & engine_only, f"a watcher reads engine codes {sorted(tokens & engine_only)}: {line!r}"
            assert not re.search(r"\b(match start|owed \d|next seat)\b", line), line
            for code in hidden - public:
                assert not words[code].search(line), f"a watcher was told {code} ({line!r})"
            lines.append(line)
        told[0] = len(msg["log"])

    play_out(table, 7, watch)
    assert len(lines) > 20
    assert any(re.match(r"seat \d \((person|\w+ bot)\) played ", line) for line in lines)
    assert any(re.search(r"seat \d is out: ", line) for line in lines)  # outs are told to a watcher too
    assert not any(line.startswith("you ") or "; you " in line for line in lines)


def test_a_decision_out_of_turn_or_of_a_card_not_held_or_stale_is_refused(deck):
    game = Game(deck, "the-og", 3, {})
    table = Table(game, 4, [HUMAN, HUMAN, "greedy"])
    while table.step_bot():
        pass
    seat = table.human_to_decide()
    other = 1 - seat
    msg = table.message(seat)
    with pytest.raises(Refused, match=f"not your decision: seat {seat} is to act"):
        table.decide(other, msg["choices"][0]["decision"], msg["seq"])
    held = set(table.state.view(seat).hand)
    missing = next(c for c in game.codes if c not in held and game.deck.card(c).is_number)
    with pytest.raises(Refused, match=f"you do not hold {re.escape(missing)}"):
        table.decide(seat, f"play {missing}", msg["seq"])
    with pytest.raises(Refused, match="stale or replayed"):
        table.decide(seat, msg["choices"][0]["decision"], msg["seq"] - 1)
    with pytest.raises(Refused, match="unknown decision"):
        table.decide(seat, "steal everything", msg["seq"])
    with pytest.raises(Refused, match="'no give' is not one of your choices now"):
        table.decide(seat, NO_GIVE, msg["seq"])
    # the game goes on: the right decision is taken, and sent again it is refused as replayed
    table.decide(seat, msg["choices"][0]["decision"], msg["seq"])
    assert table.seq == msg["seq"] + 1
    with pytest.raises(Refused, match="stale or replayed"):
        table.decide(seat, msg["choices"][0]["decision"], msg["seq"])


def test_teams_asks_a_person_teammate_to_give_first(deck):
    game = Game(deck, "the-og", 4, {"teams": True})
    table = Table(game, 2, [HUMAN, "greedy", HUMAN, "greedy"])
    asked = 0
    rng = random.Random(0)
    while not table.over:
        if table.step_bot():
            continue
        seat = table.human_to_decide()
        msg = table.message(seat)
        if table.state.phase() == "give":  # R7.2: the teammate's own decision
            asked += 1
            assert seat == table.state.current_player() and seat != table.state.turn
            assert msg["question"].startswith(f"Seat {table.state.turn}, your teammate")
            assert msg["choices"][0]["decision"] == NO_GIVE
            assert all(c["decision"].startswith(f"give {seat} ") for c in msg["choices"][1:])
        table.decide(seat, rng.choice(msg["choices"])["decision"], msg["seq"])
    assert asked > 0
    assert replay(deck, table.record())[1] is True


def test_speed_applies_late_and_then_gives_a_new_clock(deck):
    now = [0.0]
    game = Game(deck, "the-og", 2, {"speed_seconds": 10})
    table = Table(game, 6, [HUMAN, "greedy"], clock=lambda: now[0])
    while table.step_bot():
        pass
    assert table.deadline == 10.0
    now[0] = 9.9
    assert not table.late()
    now[0] = 10.5
    assert table.late()
    assert table.state.history[-1].kind == "late"
    assert "took too long (SPEED)" in table.message(0)["log"][-1]
    msg = table.message(0)
    assert msg["question"] == "Too late: SPEED gives 10 s to play, so you owe a discard. Which card goes?" and msg["deadline"] is None
    table.decide(0, msg["choices"][0]["decision"], msg["seq"])
    if not table.over and table.human_to_decide() == 0:
        assert table.deadline == pytest.approx(20.5)  # the play after the late discard has its own clock
        assert table.message(0)["deadline"] == pytest.approx(10.0)


def test_card_images_are_read_only_from_the_build_folder(tmp_path):
    import io

    from PIL import Image

    from generator.web.card_images import snapshot

    def png() -> bytes:
        buf = io.BytesIO()
        Image.new("RGB", (8, 11)).save(buf, "PNG")
        return buf.getvalue()

    cards = tmp_path / "out" / "cards"
    cards.mkdir(parents=True)
    (cards / "plus_1.png").write_bytes(png())
    (tmp_path / "out" / "secret.png").write_bytes(png())
    (cards / "index.json").write_text(json.dumps({"cards": {"+1": {"file": "plus_1.png"}, "C5": {"file": "../secret.png"},
                                                            "C6": {"file": "/etc/passwd"}, "C7": {"file": "index.json"}}}))
    assert snapshot(cards, ("+1", "C5", "C6", "C7", "C8")) == {"+1": png()}


def test_a_game_over_in_the_middle_of_a_play_2_shows_no_play_2_waiting(deck):
    # seed 15: the game ends while a Play 2's second card is owed; the table is over, so
    # "Play 2: second card" would tell of a play nobody will make
    table = Table(Game(deck, "the-og", 3, {}), 15, [HUMAN, "greedy", "greedy"])
    play_out(table, 15)
    assert table.over and table.state.view(0).play2
    for seat in (0, 1, None):
        msg = table.message(seat)
        assert msg["over"] and not msg["play2"] and msg["waiting"] == []


def test_how_to_play_names_the_variants_in_force(deck):
    from generator.web.cards import deck_json

    assert deck_json(Game(deck, "the-og", 4, {}))["rules"]["variants"] == []
    lines = deck_json(Game(deck, "the-og", 6, {"teams": True, "sixteen_hits": "opponents", "speed_seconds": 8}))
    said = " ".join(lines["rules"]["variants"])
    assert "Teams: seats 0, 2, 4 are team 0, seats 1, 3, 5 team 1." in said
    assert "a teammate still in may give you one card of their choice" in said
    assert "When a card makes exactly 16, only the other team's players owe a discard." in said
    assert "SPEED: you have 8 s for each play" in said and "Teams" not in " ".join(
        deck_json(Game(deck, "the-og", 4, {"speed_seconds": 8}))["rules"]["variants"])


def test_a_waiting_plus_minus_and_play_2_are_in_every_seats_message(deck):
    from generator.engine import from_position

    state = from_position(deck, {"edition": "the-og", "players": 3, "count": 4, "match": "C4", "in_play": ["C4"],
                                 "pending": {"invert": True, "play2": 1, "played": 1, "drawn": True},
                                 "hands": [["C5", "G2"], ["M2"], ["C1"]], "draw": ["G7"]})
    table = Table(state.game, 1, [HUMAN, HUMAN, "greedy"], start=state)
    for seat in (0, 1, None):
        assert table.message(seat)["waiting"] == ["+/- waiting: the next number card counts the other way",
                                                   "Play 2: seat 0 plays two cards this turn"]
    table.decide(0, "play C5", table.seq)  # the +/- is spent (4 - 5 < 0: a bust), the Play 2 done
    assert table.message(1)["waiting"] == []


def test_a_deck_of_house_wilds_plays_at_the_web_table(tmp_path):
    """Wilds written in YAML (tests/house_wilds.py) at the table: people and bots play them to the
    end, a seat-naming one is offered with the seat to name, and the record replays."""
    from generator.deck.manifest import load
    from tests.house_wilds import CODES, house_manifest

    deck = load(house_manifest(tmp_path))
    game = Game(deck, "the-og", 4)
    played: set[str] = set()
    offered: list[str] = []
    for seed in range(1, 9):
        table = Table(game, seed, [HUMAN, HUMAN, "greedy", "random"])

        def watch():
            for seat in (0, 1):
                offered.extend(c["label"] for c in table.message(seat, hints=True)["choices"]
                               if c["decision"].startswith("play GRAB2 "))
            played.update(a.code for a in table.state.history if a.kind == "play" and a.code in CODES)

        play_out(table, seed, watch)
        state, same = replay(deck, table.record())
        assert same is True and state.winner == table.state.winner
    assert played == set(CODES)
    assert offered and all(re.match(r"play Grab Two \(Take two cards at random from a player\.\) from seat \d", label)
                           for label in offered), offered[:3]
