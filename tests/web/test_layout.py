"""While a person chooses, the count, the card to match, what waits (a +/-, a Play 2), SPEED's
clock and every choice are on screen together: on a 390 x 844 phone and a 1280 x 800 laptop.

Positions are measured in real Chromium (getBoundingClientRect against the viewport) with card
images of the build's size (240 x 336 px), not text chips, so the page is as tall as a real one.
"""

from __future__ import annotations

import pytest

from generator.engine import Game
from tests.web.conftest import fake_card_images, served
from tests.web.test_browser import DECK, WAIT, take_seat, until_mine_or_over

PHONE, LAPTOP = (390, 844), (1280, 800)

#: Seat 0's second card of a Play 2, a +/- waiting, SPEED: everything the board can show at once,
#: and seven cards in hand with a Steal (three choices, one per seat) among them.
CROWDED = {"players": 4, "count": 7, "match": "C4", "in_play": ["G3", "C4"], "turn": 0,
           "pending": {"invert": True, "play2": 1, "played": 1, "drawn": True},
           "hands": [["C5", "G2", "M7", "C9", "GM3", "STEAL", "x2"], ["M2", "M3", "C1"], ["C2", "G4"], ["G5", "G6", "M1"]],
           "draw": ["G7", "G8", "M8"], "options": {"speed_seconds": 30}}

MEASURE = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const all = (sel) => [...document.querySelectorAll(sel)].map((el) => [el.textContent, box(el)]);
  return {view: [innerWidth, innerHeight], board: box(document.getElementById('board')),
          shown: [['count', box(document.getElementById('count'))],
                  ['card to match', box(document.querySelector('#match > *'))],
                  ...all('#clock:not([hidden])'), ...all('#waiting li')],
          choices: [['question', box(document.getElementById('question'))], ...all('#choices button')]};
}"""


def off_screen(page, *, with_choices: bool = True) -> list[str]:
    """What of the board (and the choices) is not wholly inside the viewport, or lies under the board."""
    m = page.evaluate(MEASURE)
    width, height = m["view"]
    wrong = []
    for name, (left, top, right, bottom) in m["shown"] + (m["choices"] if with_choices else []):
        if right - left <= 0 or bottom - top <= 0:
            wrong.append(f"{name}: not shown")
        elif left < 0 or top < 0 or right > width or bottom > height:
            wrong.append(f"{name}: at {left:.0f},{top:.0f}-{right:.0f},{bottom:.0f}, outside {width}x{height}")
    for name, (_, top, _, bottom) in m["choices"] if with_choices else []:
        if top < m["board"][3] - 1:
            wrong.append(f"{name}: under the board (its top {top:.0f}, the board's bottom {m['board'][3]:.0f})")
    return wrong


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone-390x844", "laptop-1280x800"])
def test_the_board_and_every_choice_are_on_screen_together(browser, tmp_path, size):
    out = fake_card_images(tmp_path / "out", Game(DECK, "the-og", 4).codes)
    with served(tmp_path, ["human", "human", "greedy", "greedy"], start=CROWDED, out=out,
                options={"speed_seconds": 30}) as (web, url):
        ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
        page = ctx.new_page()
        take_seat(page, url, 0)
        assert until_mine_or_over(page) == "play"
        page.wait_for_function("() => document.querySelectorAll('#match img').length === 1"
                               " && [...document.images].every((i) => i.complete)", timeout=WAIT)
        page.wait_for_timeout(200)  # the scroll that brings a new question's choices under the board
        waiting = page.inner_text("#waiting")
        assert "+/- waiting: the next number card counts the other way" in waiting
        assert "Play 2: seat 0 plays two cards this turn (second card)" in waiting
        assert page.inner_text("#clock").startswith("SPEED: ")
        assert page.locator("#choices button").count() == 9  # 5 numbers, a Steal from each of 3 seats, x2
        assert off_screen(page) == []
        # scrolled down to the log, the board stays at the top of the screen
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.wait_for_timeout(100)
        assert off_screen(page, with_choices=False) == []
        # "how to play" names the variant in force
        page.evaluate("window.scrollTo(0, 0)")
        page.click("#how summary")
        assert "SPEED: you have 30 s for each play" in page.inner_text("#how-variants")
        ctx.close()


@pytest.mark.slow  # a game clicked through at both sizes, measured at each decision: 15-30 s
@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone-390x844", "laptop-1280x800"])
def test_through_a_whole_game_each_decision_shows_the_board_and_its_choices(browser, tmp_path, size):
    out = fake_card_images(tmp_path / "out", Game(DECK, "the-og", 4).codes)
    with served(tmp_path, ["human", "greedy", "greedy", "greedy"], seed=21, out=out,
                options={"speed_seconds": 600}) as (web, url):
        ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
        page = ctx.new_page()
        take_seat(page, url, 0)
        decisions = clocks = 0
        while decisions < 25 and until_mine_or_over(page) == "play":
            seq = page.evaluate("document.body.dataset.seq")
            page.wait_for_timeout(150)  # the scroll to the new question
            assert off_screen(page) == [], f"decision {decisions}"
            if page.inner_text("#question").startswith("Your turn"):  # a play: SPEED's clock runs, on screen
                assert page.is_visible("#clock")
                clocks += 1
            page.click("#choices button >> nth=0")
            page.wait_for_function(f"() => document.body.dataset.seq !== '{seq}'", timeout=WAIT)
            decisions += 1
        assert decisions >= 3 and clocks >= 2
        ctx.close()
