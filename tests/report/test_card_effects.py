"""Each card's effect by restricted play: the restricted bot, the paired numbers, the verdicts,
planted changes found, the shipped deck not called out of line by luck, and the report's JSON,
page and suggested commands."""

import json
import shlex
from pathlib import Path

import pytest

from generator.cli import main
from generator.deck.manifest import load
from generator.engine import Game, make_bot
from generator.engine.actions import DISCARD, PLAY
from generator.report.restricted import WithoutCard
from generator.engine.simulate import game_seed, play_game
from generator.report import card_effects as ce
from generator.report import suggest
from tests.conftest import MANIFEST, MANIFEST_ARG


def planted(tmp_path: Path, old: str, new: str) -> Path:
    """The shipped manifest with one change, in a folder of its own (its art beside it)."""
    text = MANIFEST.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path = tmp_path / "cards.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def effects(deck, players: int, deals: int, only: tuple[str, ...], workers: int = 2) -> list[dict]:
    setup = ce.Setup(deck, {}, "the-og", players, ("greedy",) * players, 0, only)
    [tally] = ce.measure([ce.Target(setup, 1 / players, deals)], cap=None, workers=workers)
    return ce.rows(deck, "the-og", tally, 1 / players, only)


class Recorder:
    """A bot wrapper that notes each decision it was offered and what it chose."""

    def __init__(self, bot):
        self.bot, self.name, self.seen = bot, bot.name, []

    def choose(self, view, legal, rng):
        action = self.bot.choose(view, legal, rng)
        self.seen.append((list(legal), action))
        return action


@pytest.mark.parametrize("code", ["x2", "C3"])
def test_the_restricted_seat_plays_the_card_only_when_nothing_else_is_legal_and_discards_it_first(deck, code):
    game = Game(deck, "the-og", 3)
    offered = 0
    for i in range(40):
        seat0 = Recorder(WithoutCard(make_bot("greedy"), code))
        play_game(game, [seat0, make_bot("greedy"), make_bot("greedy")], game_seed(0, i))
        for legal, action in seat0.seen:
            codes = {a.code for a in legal}
            offered += code in codes
            if action.kind == PLAY and action.code == code:
                assert all(a.code == code for a in legal if a.kind == PLAY), (legal, action)
            if legal[0].kind == DISCARD and code in codes:
                assert action.code == code
    assert offered > 20  # the card did come up


def test_same_deals_give_the_same_effects_on_any_number_of_workers(deck):
    a = effects(deck, 3, 200, ("value 3",), workers=1)
    b = effects(deck, 3, 200, ("value 3",), workers=2)
    assert a == b
    assert [r["code"] for r in a] == ["C3", "G3", "M3", "CG3", "GM3", "MC3"]
    for r in a:
        assert r["group"] == "value 3" and r["games"] == 200 and r["verdict"] in ce.VERDICTS
        assert r["low"] <= r["effect"] <= r["high"]
        assert 0 < r["held"] <= 1


@pytest.mark.slow
def test_the_shipped_deck_does_not_call_its_dual_3s_out_of_line(deck):
    for players in (3, 4):
        rows = effects(deck, players, 800, ("value 3",))
        if players == 3:
            assert rows == effects(deck, players, 800, ("value 3",))  # the same seeds, twice
        for r in rows:
            if r["code"] in ("CG3", "GM3", "MC3"):
                assert r["verdict"] in ("in line", "not clear yet"), r


@pytest.mark.slow
def test_a_planted_stronger_wild_is_found_at_3_and_4_players(tmp_path):
    """+1 Card drawing nine cards: stronger than the other wilds."""
    deck = load(planted(tmp_path, "    effect: draw_extra\n", "    effect: draw_extra\n    params: {count: 9}\n"))
    for players in (3, 4):
        rows = {r["code"]: r for r in effects(deck, players, 800, ("wilds",))}
        assert rows["+1"]["verdict"] == "stronger than its group", rows["+1"]
        assert rows["+1"]["vs_group"]["low"] > 0
        assert all(r["verdict"] != "stronger than its group" for c, r in rows.items() if c not in ("+1", "TRADE"))


@pytest.mark.slow
def test_x2_made_x4_is_found_out_of_line_and_weaker_for_these_bots(tmp_path):
    """x2 multiplying by 4 busts from any count over 4: with greedy bots it is worth less than
    any other wild, and the report says so."""
    deck = load(planted(tmp_path, "params: {factor: 2}", "params: {factor: 4}"))
    rows = {r["code"]: r for r in effects(deck, 4, 800, ("wilds",))}
    assert rows["x2"]["verdict"] == "weaker than its group", rows["x2"]
    assert rows["x2"]["when_held"]["effect"] == min(r["when_held"]["effect"] for r in rows.values())


def test_report_writes_card_effects_and_the_page_shows_them(tmp_path, capsys):
    out = tmp_path / "out"
    status = main(["report", "--manifest", MANIFEST_ARG, "--edition", "keep-it-simple", "--players", "3",
                   "--games", "60", "--workers", "1", "--out", str(out)])
    assert status == 0
    data = json.loads((out / "balance.json").read_text())
    [cell] = data["cells"]["design"]
    rows = cell["card_effects"]
    codes = {r["code"] for r in rows}
    assert {f"{c}{v}" for c in "CGM" for v in range(-2, 8)} <= codes  # every number card
    assert {"C", "G", "M"} <= codes  # and each colour
    for r in rows:
        assert {"code", "name", "group", "effect", "low", "high", "games", "verdict"} <= set(r)
        assert r["verdict"] in ce.VERDICTS and r["games"] == 60
        assert r["group"] == ("colours" if len(r["code"]) == 1 else f"value {r['code'][1:]}")
    assert isinstance(data["suggestions"], list) and data["in_plain_words"]
    html = (out / "balance.html").read_text()
    assert "Which card to change" in html and "What this means for the design" in html
    assert 'name="fx-keep-it-simple-3-0"' in html and ">value -2</label>" in html
    assert "<script" not in html
    assert data["settings"]["card_effects"]["deals"] == {"keep-it-simple/3p/greedy": 60}


def test_no_card_effects_skips_them(tmp_path):
    out = tmp_path / "out"
    assert main(["report", "--manifest", MANIFEST_ARG, "--edition", "keep-it-simple", "--players", "2",
                 "--games", "20", "--workers", "1", "--no-card-effects", "--out", str(out)]) == 0
    data = json.loads((out / "balance.json").read_text())
    assert "card_effects" not in data["cells"]["design"][0] and data["suggestions"] == []


@pytest.mark.slow
def test_a_suggested_command_runs_as_printed(deck, tmp_path, monkeypatch, capsys):
    row = {"code": "STEAL", "name": "Steal a Card", "group": "wilds", "kind": "wild", "verdict": "stronger than its group",
           "vs_group": {"difference": 0.08}}
    cells = [{"edition": "the-og", "edition_name": "The OG", "players": n, "card_effects": [row]} for n in (3, 4)]
    [advice] = suggest.suggestions(deck, cells, MANIFEST_ARG, {})
    assert "STEAL (Steal a Card) is stronger than the other wilds at 3 and 4 players" in advice["text"]
    assert "fewer copies (1, 2, 3; 3 today)" in advice["text"]
    argv = shlex.split(advice["command"])
    assert argv[:2] == ["county-uppy", "sweep"] and "copies.STEAL=1,2,3" in argv and "3,4" in argv
    monkeypatch.chdir(tmp_path)
    assert main(argv[1:]) == 0
    data = json.loads((tmp_path / "output" / "sweep-steal-copies" / "sweep.json").read_text())
    assert sorted({(c["params"]["copies.STEAL"], c["players"]) for c in data["cells"]}) == \
        [(c, n) for c in (1, 2, 3) for n in (3, 4)]
    assert "Steal a Card" in suggest.paragraph(cells, [advice])


@pytest.mark.parametrize("width", [390, 1280])
def test_the_card_table_filters_by_group_and_fits_a_phone(tmp_path, width):
    from tests.browser import launched

    out = tmp_path / "out"
    assert main(["report", "--manifest", MANIFEST_ARG, "--edition", "its-wild-time", "--players", "3", "--games", "40",
                 "--workers", "1", "--out", str(out)]) == 0
    rows = json.loads((out / "balance.json").read_text())["cells"]["design"][0]["card_effects"]
    with launched() as browser:
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.goto((out / "balance.html").as_uri())
        visible = "() => [...document.querySelectorAll('.effects tr.row')].filter((r) => r.getClientRects().length)" \
                  ".map((r) => r.querySelector('code').textContent)"
        assert page.evaluate(visible) == [r["code"] for r in sorted(rows, key=lambda r: (ce.group_order(r["group"]), -r["effect"], r["code"]))]
        page.locator(".effects label", has_text="wilds").first.click()
        assert sorted(page.evaluate(visible)) == sorted(r["code"] for r in rows if r["group"] == "wilds")
        page.locator(".effects label", has_text="out of line or not clear").first.click()
        assert sorted(page.evaluate(visible)) == sorted(r["code"] for r in rows if r["verdict"] != "in line")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        first = page.locator(".effects tr.row td").first.bounding_box()
        assert first is not None and first["x"] >= 0 and first["x"] + first["width"] <= width
        assert page.locator("p.plainwords").is_visible()


def test_the_copy_button_copies_the_command_as_printed(tmp_path, monkeypatch):
    from tests.browser import launched

    command = "county-uppy sweep --edition the-og --players 3,4 --param copies.STEAL=1,2,3 --out output/sweep-steal-copies"
    monkeypatch.setattr(suggest, "suggestions", lambda *a, **k: [{"text": "STEAL is stronger.", "command": command}])
    out = tmp_path / "out"
    assert main(["report", "--manifest", MANIFEST_ARG, "--edition", "keep-it-simple", "--players", "2", "--games", "20",
                 "--workers", "1", "--out", str(out)]) == 0
    with launched() as browser:
        context = browser.new_context(viewport={"width": 390, "height": 900})
        context.grant_permissions(["clipboard-read", "clipboard-write"])
        page = context.new_page()
        page.goto((out / "balance.html").as_uri())
        button = page.locator("button.copy").first
        button.click()
        page.wait_for_function("() => document.querySelector('button.copy').textContent === 'copied'", timeout=5000)
        assert page.evaluate("() => navigator.clipboard.readText()") == command


def test_playing_on_from_where_the_card_was_first_offered_is_the_same_as_replaying_the_deal(deck, monkeypatch):
    setup = ce.Setup(deck, {}, "the-og", 3, ("greedy", "random", "greedy"), 4)
    job = ce.Job(0, 15, tuple(c.code for c in ce.measured(deck, "the-og")))
    _, resumed = ce.play_chunk(setup, job)
    monkeypatch.setattr(ce, "MEMORYLESS", ())
    _, replayed = ce.play_chunk(setup, job)
    assert resumed.restricted_games > 100 and resumed.diffs  # many games played again, some outcomes changed
    assert (resumed.held, resumed.diffs, resumed.restricted_games) == (replayed.held, replayed.diffs, replayed.restricted_games)
