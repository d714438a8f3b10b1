"""Seats at the web table survive people: a lost seat is taken back, given to a bot or freed,
and a seat that moves to another tab tells the old one at once. In real Chromium over 127.0.0.1.

The reconnect timeout is set short (TIMEOUT) so a test waits it out in about a second; every
other wait is bounded by WAIT.
"""

from __future__ import annotations

import time

from tests.web.conftest import served
from tests.web.test_browser import WAIT, take_seat, until_mine_or_over

TIMEOUT = 1.5  #: --reconnect-timeout for these tests, seconds


def presence(page, seat: int) -> str:
    return page.inner_text(f"#seats li[data-seat='{seat}'] .presence")


def wait_presence(page, seat: int, words: str) -> None:
    page.wait_for_function(
        f"() => (document.querySelector(\"#seats li[data-seat='{seat}'] .presence\") || {{}}).textContent"
        f"?.includes({words!r})", timeout=WAIT)


def test_a_seat_whose_storage_is_lost_is_taken_back_after_the_timeout(browser, tmp_path):
    with served(tmp_path, ["human", "human", "greedy"], seed=8, reconnect_timeout=TIMEOUT) as (web, url):
        lost, other = browser.new_context(), browser.new_context()
        a, b = lost.new_page(), other.new_page()
        take_seat(a, url, 0)
        take_seat(b, url, 1)
        wait_presence(b, 0, "connected")
        old_tokens = a.evaluate("localStorage.getItem(store)")
        lost.close()  # the phone is gone: its storage with it
        gone_at = time.monotonic()
        wait_presence(b, 0, "away")
        # a new device with the join link, and no storage: seat 0 is not yet for the taking
        fresh = browser.new_context()
        c = fresh.new_page()
        c.goto(url)
        c.wait_for_function("() => document.body.dataset.status === 'watch'", timeout=WAIT)
        if time.monotonic() - gone_at < TIMEOUT - 0.3:
            assert c.locator("#free button[data-seat='0']").count() == 0
        # after the timeout the lobby offers it, and every seat says anyone may take it
        c.wait_for_selector("#free button[data-seat='0']", timeout=WAIT)
        assert time.monotonic() - gone_at >= TIMEOUT
        assert c.inner_text("#free button[data-seat='0']").startswith("Take seat 0 (away 0:0")
        wait_presence(b, 0, "anyone may take this seat")
        c.click("#free button[data-seat='0']")
        c.wait_for_function("() => document.getElementById('who').textContent === 'you are seat 0'", timeout=WAIT)
        wait_presence(b, 0, "connected")
        assert any("seat 0 was away for" in line and "taken by another device" in line for line in web.table.public)
        # the new holder plays seat 0's decisions
        if web.table.human_to_decide() == 0:
            assert until_mine_or_over(c) == "play"
            seq = web.table.seq
            c.click("#choices button >> nth=0")
            c.wait_for_function(f"() => Number(document.body.dataset.seq) > {seq}", timeout=WAIT)
        # the lost device's old token holds nothing now, and a device that still had it is told why
        back = browser.new_context()
        d = back.new_page()
        d.goto(url)
        d.evaluate(f"localStorage.setItem(store, {old_tokens!r}); ws.close()")  # reconnects with the old token
        d.wait_for_selector("#notice:not([hidden])", timeout=WAIT)
        assert "taken by another device, or given away, while it was away" in d.inner_text("#notice")
        assert d.inner_text("#who") == "watching" and d.evaluate("localStorage.getItem(store)") == "{}"
        assert c.inner_text("#who") == "you are seat 0"
        for ctx in (other, fresh, back):
            ctx.close()


def test_the_table_gives_an_away_seat_to_a_bot_or_frees_it(browser, tmp_path):
    with served(tmp_path, ["human", "human", "human", "greedy"], seed=3, reconnect_timeout=TIMEOUT) as (web, url):
        assert web.table.decider() == 1  # the game waits for seat 1 (the dealer, seat 0, plays last)
        ctxs = [browser.new_context() for _ in range(3)]
        pages = [ctx.new_page() for ctx in ctxs]
        for seat, page in enumerate(pages):
            take_seat(page, url, seat)
        a = pages[0]
        ctxs[1].close()
        ctxs[2].close()
        wait_presence(a, 1, "away")
        # before the timeout the table may not give the seat away: refused with the reason
        a.evaluate("send({type: 'seat', seat: 1, to: 'bot'})")
        a.wait_for_selector("#problem:not([hidden])", timeout=WAIT)
        assert "can be given away after 1.5 s" in a.inner_text("#problem") or web.gone(1)
        a.wait_for_selector("#seats li[data-seat='1'] button.to-bot", timeout=WAIT)
        a.wait_for_selector("#seats li[data-seat='2'] button.to-free", timeout=WAIT)
        a.click("#seats li[data-seat='2'] button.to-free")
        wait_presence(a, 2, "free: no one has taken it")
        a.click("#seats li[data-seat='1'] button.to-bot")
        a.wait_for_function("() => document.querySelector(\"#seats li[data-seat='1'] .name\").textContent"
                            ".includes('greedy bot')", timeout=WAIT)
        assert web.table.seats == ["human", "greedy", "human", "greedy"]
        log = a.inner_text("#log")
        assert "seat 2 is free for anyone to take: it was away for" in log
        assert "seat 1 is played by a greedy bot now: it was away for" in log
        # the bot plays seat 1: the game no longer waits for it
        end = time.monotonic() + WAIT / 1000
        while web.table.decider() == 1 and time.monotonic() < end:
            time.sleep(0.05)
        assert web.table.seq > 0 and web.table.decider() != 1
        # a newcomer may take the freed seat, or seat 1 back from the bot
        late = browser.new_context()
        d = late.new_page()
        d.goto(url)
        d.wait_for_selector("#free button[data-seat='1']", timeout=WAIT)
        assert d.inner_text("#free button[data-seat='1']") == "Take seat 1 back from the bot"
        assert d.inner_text("#free button[data-seat='2']") == "Play seat 2"
        assert d.locator("#free button[data-seat='0']").count() == 0  # seat 0's person is here
        d.click("#free button[data-seat='1']")
        d.wait_for_function("() => document.getElementById('who').textContent === 'you are seat 1'", timeout=WAIT)
        assert web.table.seats[1] == "human"
        wait_presence(a, 1, "connected")
        late.close()
        ctxs[0].close()


def test_with_host_controls_only_the_host_link_gives_a_seat_away(browser, tmp_path):
    with served(tmp_path, ["human", "human", "human", "greedy"], seed=3, reconnect_timeout=0,
                host_controls=True) as (web, url):
        player, host, stranger = browser.new_context(), browser.new_context(), browser.new_context()
        b = player.new_page()
        take_seat(b, url, 1)
        wait_presence(b, 0, "free")
        assert b.locator("#seats li[data-seat='0'] button.to-bot").count() == 0  # a player is offered no control
        b.evaluate("send({type: 'seat', seat: 0, to: 'bot'})")
        b.wait_for_selector("#problem:not([hidden])", timeout=WAIT)
        assert "only the host's link gives a seat away (--host-controls)" in b.inner_text("#problem")
        s = stranger.new_page()
        s.goto(url + "&host=not-the-key")
        wait_presence(s, 2, "free")
        assert s.locator("#seats button.to-bot").count() == 0
        h = host.new_page()
        h.goto(url + "&host=" + web.host_key)
        h.click("#seats li[data-seat='0'] button.to-bot", timeout=WAIT)
        wait_presence(b, 0, "a bot plays this person's seat")
        assert web.table.seats[0] == "greedy" and h.locator("#seats li[data-seat='2'] button.to-bot").count() == 1
        for ctx in (player, host, stranger):
            ctx.close()


def test_a_second_tab_takes_the_seat_and_the_first_is_told_at_once(browser, tmp_path):
    with served(tmp_path, ["human", "greedy"], seed=4) as (web, url):
        ctx = browser.new_context()
        first = ctx.new_page()
        take_seat(first, url, 0)
        second = ctx.new_page()  # the same browser: the same seat token
        second.goto(url)
        second.wait_for_function("() => document.getElementById('who').textContent === 'you are seat 0'", timeout=WAIT)
        first.wait_for_selector("#notice:not([hidden])", timeout=WAIT)
        assert first.inner_text("#notice-text") == "Seat 0 is played in another tab or on another device now"
        first.wait_for_function("() => document.getElementById('who').textContent === 'watching'", timeout=WAIT)
        # the first tab's reconnect does not take the seat back by itself ...
        first.evaluate("ws.close()")
        first.wait_for_timeout(1500)  # the page reconnects after 0.5 s
        assert first.inner_text("#who") == "watching" and second.inner_text("#who") == "you are seat 0"
        assert [0] == [s for d in web.devices for s in d.seats]  # one device holds seat 0: the second tab
        # ... until its person says so; then the second tab is told
        first.click("#play-here")
        first.wait_for_function("() => document.getElementById('who').textContent === 'you are seat 0'", timeout=WAIT)
        second.wait_for_selector("#notice:not([hidden])", timeout=WAIT)
        assert "played in another tab or on another device" in second.inner_text("#notice-text")
        ctx.close()
