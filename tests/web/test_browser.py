"""The web table in real Chromium: people and bots play whole games over 127.0.0.1.

Every wait is bounded; the server is stopped at the end of each test. Without Chromium these
are skipped with the reason (CI fails instead: tests/browser.py).
"""

from __future__ import annotations

import json
import re

import pytest

from generator.deck.manifest import load
from generator.engine import replay
from tests.conftest import MANIFEST
from tests.web.conftest import served

WAIT = 60_000  #: ms; a page answers in well under a second, but a loaded machine stalls Chromium
DECK = load(MANIFEST)


def until_mine_or_over(page) -> str:
    page.wait_for_function("() => ['play', 'over', 'handover'].includes(document.body.dataset.status)", timeout=WAIT)
    return page.evaluate("document.body.dataset.status")


def take_seat(page, url: str, seat: int) -> None:
    page.goto(url)
    page.click(f"#free button[data-seat='{seat}']", timeout=WAIT)
    page.wait_for_function(f"() => document.getElementById('who').textContent === 'you are seat {seat}'", timeout=WAIT)


def frames(page) -> list[dict]:
    got: list[dict] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda data: got.append(json.loads(data))))
    return got


@pytest.mark.slow  # a whole game clicked through in two browser contexts: 10-20 s
def test_two_people_and_two_bots_play_to_the_end_and_the_record_replays(browser, tmp_path):
    with served(tmp_path, ["human", "human", "greedy", "greedy"], seed=9) as (web, url):
        one, two = browser.new_context(), browser.new_context()
        a, b = one.new_page(), two.new_page()
        seen_by_b = frames(b)
        take_seat(a, url, 0)
        take_seat(b, url, 1)
        a.click("#how summary")  # how to play: the quick reference's goal
        assert a.inner_text("#goal") == "Get the count to exactly 16, and be the last player able to play."
        assert "Steal a Card: Take a card from a player." in a.inner_text("#how-wilds")
        decisions = 0
        for _ in range(600):
            if web.table.over:
                break
            for page in (a, b):
                if page.evaluate("document.body.dataset.status") == "play":
                    seq = page.evaluate("document.body.dataset.seq")
                    page.click("#choices button >> nth=0")
                    page.wait_for_function(f"() => document.body.dataset.seq !== '{seq}'", timeout=WAIT)
                    decisions += 1
            a.wait_for_timeout(20)
        for page in (a, b):
            page.wait_for_function("() => document.body.dataset.status === 'over'", timeout=WAIT)
            assert re.search(r"wins|draw", page.inner_text("#result"))
        assert decisions > 5
        # the record it saved replays to the same result
        saved = list((tmp_path / "games").glob("web-*.json"))
        assert len(saved) == 1
        record = json.loads(saved[0].read_text())
        assert record["bots"] == ["human", "human", "greedy", "greedy"]
        state, same = replay(DECK, record)
        assert same is True
        # seat 1 (context b) was sent only its own hand, never the others' cards in fields
        tables = [m for m in seen_by_b if m.get("type") == "table"]
        assert tables and all(m["seat"] in (None, 1) for m in tables)
        assert not any({"hands", "draw", "seed"} & set(m) for m in tables)
        # the record can be downloaded from the page
        downloaded = b.evaluate("fetch(document.getElementById('record-link').href).then((r) => r.json())")
        assert downloaded["decisions"] == record["decisions"]
        one.close()
        two.close()


def test_hot_seat_hides_each_hand_behind_the_hand_over_screen(browser, tmp_path):
    with served(tmp_path, ["human", "greedy", "human"], seed=4) as (web, url):
        page = browser.new_page()
        got = frames(page)
        page.goto(url)
        page.click("#hotseat", timeout=WAIT)
        handovers = 0
        for _ in range(80):
            status = until_mine_or_over(page)
            if status == "over":
                break
            if status == "handover":
                seat = web.table.human_to_decide()
                assert page.is_visible("#handover") and not page.is_visible("#hand")
                assert page.locator("#hand figure").count() == 0  # the last hand left the page, not only the view
                assert page.inner_text("#handover-title") == f"Pass the device to seat {seat}"
                # what the device holds behind the screen: no hand at all
                last = [m for m in got if m.get("type") == "table"][-1]
                assert last["handover"] == seat and "hand" not in last and last["seat"] is None
                page.click("#reveal")
                page.wait_for_function(f"() => document.body.dataset.status !== 'handover'", timeout=WAIT)
                handovers += 1
                continue
            shown = [m for m in got if m.get("type") == "table"][-1]
            assert shown["seat"] == web.table.human_to_decide()
            seq = page.evaluate("document.body.dataset.seq")
            page.click("#choices button >> nth=0")
            page.wait_for_function(f"() => document.body.dataset.seq !== '{seq}'", timeout=WAIT)
            if handovers >= 4:
                break
        assert handovers >= 2


def test_an_out_of_turn_or_illegal_move_is_refused_and_a_reload_rejoins(browser, tmp_path):
    with served(tmp_path, ["human", "human", "greedy"], seed=8) as (web, url):
        one, two = browser.new_context(), browser.new_context()
        a, b = one.new_page(), two.new_page()
        take_seat(a, url, 0)
        take_seat(b, url, 1)
        assert until_mine_or_over(a if web.table.human_to_decide() == 0 else b) == "play"
        mover, waiter = (a, b) if web.table.human_to_decide() == 0 else (b, a)
        # the waiting player sends a decision anyway: refused, with the reason shown
        waiter.evaluate("send({type: 'decide', seat: last.seat, token: tokens()[last.seat], seq: last.seq, "
                        "decision: 'discard C5'})")
        waiter.wait_for_selector("#problem:not([hidden])", timeout=WAIT)
        assert "it is not your decision" in waiter.inner_text("#problem")
        # the player to act plays a card they do not hold: refused, the game goes on
        seq = web.table.seq
        hand = set(web.table.state.view(web.table.human_to_decide()).hand)
        missing = next(c for c in web.table.game.codes if c not in hand and DECK.card(c).is_number)
        mover.evaluate(f"decide({{decision: 'play {missing}'}})")
        mover.wait_for_selector("#problem:not([hidden])", timeout=WAIT)
        assert f"you do not hold {missing}" in mover.inner_text("#problem")
        # a tampered token is refused
        mover.evaluate("send({type: 'decide', seat: last.seat, token: 'forged', seq: last.seq, decision: 'play X'})")
        mover.wait_for_function("() => document.getElementById('problem').textContent.includes(\"seat's token\")",
                                timeout=WAIT)
        assert web.table.seq == seq
        # a reload rejoins the same seat and still plays
        seat = web.table.human_to_decide()
        mover.reload()
        mover.wait_for_function(f"() => document.getElementById('who').textContent === 'you are seat {seat}'",
                                timeout=WAIT)
        assert until_mine_or_over(mover) == "play"
        mover.click("#choices button >> nth=0")
        mover.wait_for_function(f"() => document.body.dataset.seq !== '{seq}'", timeout=WAIT)
        assert web.table.seq > seq
        one.close()
        two.close()


def test_a_bot_waits_the_set_delay_before_it_moves(browser, tmp_path):
    import time

    with served(tmp_path, ["greedy", "human", "greedy"], seed=2, delay=0.6) as (web, url):
        applied: list[tuple[int, float]] = []  # (seat, when), as the server applies each decision
        apply = web.table._apply
        web.table._apply = lambda action, seat: (apply(action, seat), applied.append((seat, time.monotonic())))
        page = browser.new_page()
        take_seat(page, url, 1)
        assert until_mine_or_over(page) == "play" and web.table.decider() == 1  # seat 1 plays first
        page.click("#choices button >> nth=0")
        end = time.monotonic() + 30
        while not any(seat == 2 for seat, _ in applied) and time.monotonic() < end:
            time.sleep(0.02)
        (mine, at), (bot, later) = applied[:2]
        assert (mine, bot) == (1, 2) and web.table.seats[bot] == "greedy"
        assert later - at >= 0.59  # the bot waited, so the person saw the table before its move


def test_a_speed_late_discard_says_why_on_screen(browser, tmp_path):
    with served(tmp_path, ["human", "greedy"], seed=6, options={"speed_seconds": 1}) as (web, url):
        page = browser.new_page()
        take_seat(page, url, 0)
        page.wait_for_function("() => document.getElementById('question').textContent.startsWith('Too late')",
                               timeout=WAIT)
        assert page.inner_text("#question") == "Too late: SPEED gives 1 s to play, so you owe a discard. Which card goes?"
        assert page.locator("#choices button").first.inner_text().startswith("discard ")
        assert "you took too long (SPEED) and owe a discard" in page.inner_text("#log")
