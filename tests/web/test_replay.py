"""The replay page: the self-contained file and the share link show the engine's positions.

Each step the page shows is checked against `county-uppy scenario` run on the record's deal
plus that many decisions, forward and back.
"""

from __future__ import annotations

import json

from generator.cli import main
from generator.deck.manifest import load
from generator.engine import Game, make_bot, make_record, play_game, to_position
from generator.web.replay import read_fragment, share_fragment, standalone_html, steps_of
from tests.conftest import MANIFEST
from tests.web.conftest import served

DECK = load(MANIFEST)


def a_record(seed: int = 21, players: int = 4, options=None, edition: str = "the-og") -> dict:
    game = Game(DECK, edition, players, options or {})
    state = play_game(game, [make_bot("greedy")] * players, seed)
    return make_record(state, ["greedy"] * players)


def scenario_hands(tmp_path, record: dict, k: int, capsys) -> list[list[str]]:
    """The hands `county-uppy scenario --json` gives for the record's deal and its first k decisions."""
    game = Game(DECK, record["edition"], record["players"], record["options"])
    position = to_position(game.new_initial_state(record["seed"]))
    position["decisions"] = record["decisions"][:k]
    path = tmp_path / f"step{k}.json"
    path.write_text(json.dumps(position))
    capsys.readouterr()
    assert main(["scenario", str(path), "--manifest", str(MANIFEST), "--json"]) == 0
    return json.loads(capsys.readouterr().out)["hands"]


def shown_hands(page) -> list[list[str]]:
    return page.eval_on_selector_all("#hands .hand", "els => els.map(e => e.dataset.codes ? e.dataset.codes.split(' ') : [])")


def test_the_share_fragment_carries_the_whole_record_in_about_500_characters():
    sizes = []
    for seed in range(1, 40):
        record = a_record(seed)
        back = read_fragment(share_fragment(record))
        assert back["decisions"] == record["decisions"] and back["seed"] == record["seed"]
        assert back["result"] == record["result"]
        sizes.append((len(record["decisions"]), len(share_fragment(record))))
    near_60 = [chars for n, chars in sizes if 50 <= n <= 70]
    assert near_60 and max(near_60) <= 560, sizes


def test_the_replay_file_steps_forward_and_back_to_the_positions_of_scenario(browser, tmp_path, capsys):
    # Keep it Simple has no wild that draws on the game's RNG, which a position does not carry:
    # so `scenario` from the deal reaches every step the replay shows
    record = a_record(edition="keep-it-simple")
    html = tmp_path / "replay.html"
    html.write_text(standalone_html(steps_of(DECK, record), "replay"), encoding="utf-8")
    assert "http" not in html.read_text().split("<body", 1)[1].split("<script id=\"steps\"", 1)[0]
    page = browser.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(html.as_uri())
    page.wait_for_selector("body[data-status=ready]", timeout=10_000)
    assert page.inner_text("#check") == "the replayed result matches the record's"
    assert page.inner_text("#about").endswith("players · Keep it Simple")  # the edition's name, not its key
    for _ in range(5):
        page.click("#forward")
    assert page.evaluate("document.body.dataset.step") == "5"
    assert shown_hands(page) == scenario_hands(tmp_path, record, 5, capsys)
    page.click("#back")
    page.click("#back")
    assert page.evaluate("document.body.dataset.step") == "3"
    assert shown_hands(page) == scenario_hands(tmp_path, record, 3, capsys)
    page.click("#last")
    last = len(record["decisions"])
    assert page.evaluate("document.body.dataset.step") == str(last)
    assert shown_hands(page) == scenario_hands(tmp_path, record, last, capsys)
    assert page.inner_text("#line") == steps_of(DECK, record)["steps"][-1]["line"]
    assert all(u.startswith("file:") for u in requests), requests  # no server, nothing fetched
    # the log's numbers stand inside its box, up to a 999-decision game (two digits were cut off at the left)
    room, widest = page.evaluate("""() => {
        const log = document.getElementById('log'), li = log.lastElementChild;
        const ctx = document.createElement('canvas').getContext('2d');
        ctx.font = getComputedStyle(li).font;
        return [parseFloat(getComputedStyle(log).paddingLeft), ctx.measureText('999. ').width];
    }""")
    assert widest <= room, (widest, room)


def test_a_share_link_opens_the_replay_on_a_running_table(browser, tmp_path, capsys):
    record = a_record(seed=33, players=3, edition="keep-it-simple")
    with served(tmp_path, ["human", "greedy", "greedy"]) as (web, url):
        page = browser.new_page()
        page.goto(url)  # the join link sets the table's cookie
        page.goto(url.split("?")[0] + "replay#" + share_fragment(record))
        page.wait_for_selector("body[data-status=ready]", timeout=10_000)
        page.click("#forward")
        page.click("#forward")
        assert shown_hands(page) == scenario_hands(tmp_path, record, 2, capsys)
        page.click("#back")
        assert shown_hands(page) == scenario_hands(tmp_path, record, 1, capsys)


def test_a_share_link_of_a_simulated_game_replays_its_own_deal(browser, tmp_path, capsys):
    # `simulate --record` deals from 63-bit seeds, past what a JavaScript number holds exactly
    # (2**53): read as a number on the page, the seed became another one and the page showed
    # another deal (or refused a decision the record's players made).
    from generator.engine.simulate import game_seed

    seed = game_seed(0, 0)
    assert seed > 2**53
    record = a_record(seed=seed, players=3, edition="keep-it-simple")
    with served(tmp_path, ["human", "greedy", "greedy"]) as (web, url):
        page = browser.new_page()
        page.goto(url)
        page.goto(url.split("?")[0] + "replay#" + share_fragment(record))
        page.wait_for_selector("body[data-status=ready]", timeout=10_000)
        assert page.text_content("#about").startswith(f"seed {seed} ·")
        assert page.text_content("#check") == "the replayed result matches the record's"
        page.click("#forward")
        assert shown_hands(page) == scenario_hands(tmp_path, record, 1, capsys)
    # the page written to a file names the same seed
    html = tmp_path / "replay.html"
    html.write_text(standalone_html(steps_of(DECK, record), "replay"))
    page = browser.new_page()
    page.goto(html.as_uri())
    page.wait_for_selector("body[data-status=ready]", timeout=10_000)
    assert page.text_content("#about").startswith(f"seed {seed} ·")


def test_replay_steps_through_a_record_in_the_terminal(tmp_path, capsys):
    record = a_record(seed=5, players=3)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    capsys.readouterr()
    assert main(["replay", str(path), "--manifest", str(MANIFEST), "--steps"]) == 0
    out = capsys.readouterr().out
    last = len(record["decisions"])
    steps = [line for line in out.splitlines() if line.startswith("step ")]
    assert len(steps) == last + 1
    assert steps[0] == f"step 0 of {last}: the deal"
    assert steps[1].startswith(f"step 1 of {last}: seat ")
    assert out.rstrip().endswith("the replayed result matches the record's")
    # a record whose result was changed says so, exit 1
    record["result"]["turns"] += 1
    path.write_text(json.dumps(record))
    assert main(["replay", str(path), "--manifest", str(MANIFEST)]) == 1
    assert "differs from the record's" in capsys.readouterr().err


def test_each_step_reads_in_the_players_words_and_the_last_says_who_won():
    """The page's log is what the web table tells someone watching (`seat 1 (greedy bot) played
    ● cyan 9; count 9`), not the engine's record lines (`seat 1: play C9; count 9 match C9`),
    for plain and Teams games; the last step says how the game ended."""
    import re

    from generator.play.describe import card_text

    for record in (a_record(21), a_record(5, 4, {"teams": True})):
        game = Game(DECK, record["edition"], record["players"], record["options"])
        token = re.compile(r"[^\s;:,()]+")
        engine_only = {code for code in game.codes if code not in token.findall(card_text(game, code).plain)}
        lines = [step["line"] for step in steps_of(DECK, record)["steps"][1:]]
        assert len(lines) == len(record["decisions"])
        for line in lines:
            assert not set(token.findall(line)) & engine_only, line
            assert not re.search(r"\b(match start|owed \d|next seat|winner:)", line), line
            assert re.match(r"seat \d (\(greedy bot\) (played|discarded|took) |\(greedy bot\) gave seat \d nothing|gave seat \d a card)", line), line
        winner = record["result"]["winner"]
        assert lines[-1].endswith(f"; {'Team' if record['options'].get('teams') else 'Seat'} {winner} wins."), lines[-1]


def test_a_record_without_bots_names_its_seats_plainly():
    record = {**a_record(21), "bots": []}
    lines = [step["line"] for step in steps_of(DECK, record)["steps"][1:]]
    assert lines[0].startswith("seat 1 played ") and "bot" not in " ".join(lines)


def test_stepping_at_a_terminal_takes_a_digit_int_cannot_read_as_a_next(tmp_path, capsys, monkeypatch):
    """'²' is a digit to str.isdigit but not to int(): stepping at a terminal ended as an internal error.
    Each step there also began with a literal '\\n' (the line break went through escape())."""
    import io
    import sys

    record = a_record(seed=5, players=3)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    # a typo, an arrow key, a negative step: said, and the replay stays where it is (each was taken
    # as Enter, which on the last step ended the replay)
    answers = io.StringIO("²\n\x1b[A\n-3\n\n" + "9" * 5000 + "\nbanana\nq\n")
    answers.isatty = lambda: True
    monkeypatch.setattr(sys, "stdin", answers)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(["replay", str(path), "--manifest", str(MANIFEST), "--steps"]) == 0
    out = capsys.readouterr().out
    assert "\\n" not in out and "\x1b" not in out
    steps = [line for line in out.splitlines() if line.startswith("step ")]
    last = len(record["decisions"])
    assert steps == ["step 0 of %d: the deal" % last, steps[1], steps[2]] and steps[1].startswith(f"step 1 of {last}: ")
    assert steps[2].startswith(f"step {last} of {last}: ")
    said = [line for line in out.splitlines() if "is not a step" in line]
    assert [line.split("'")[1] for line in said] == ["²", "\\x1b[A", "-3", "banana"]
    assert said[0].endswith(f"type a step from 0 to {last}, or q to stop")
    assert steps[2].startswith(f"step {last} of {last}: ")


def test_a_finished_games_share_link_opens_for_anyone_and_shows_that_game_only(browser, tmp_path, capsys):
    with served(tmp_path, ["human", "greedy"], seed=7) as (web, url):
        player = browser.new_context()
        page = player.new_page()
        page.goto(url)
        page.click("#free button[data-seat='0']", timeout=10_000)
        for _ in range(200):  # seat 0 plays its first choice to the end
            page.wait_for_function("() => ['play', 'over'].includes(document.body.dataset.status)", timeout=30_000)
            if page.evaluate("document.body.dataset.status") == "over":
                break
            seq = page.evaluate("document.body.dataset.seq")
            page.click("#choices button >> nth=0")
            page.wait_for_function(f"() => document.body.dataset.seq !== '{seq}'", timeout=30_000)
        page.wait_for_selector("#over:not([hidden])", timeout=30_000)
        link = page.input_value("#share-url")
        base = url.split("?")[0]
        assert link.startswith(base + "shared/") and len(link) > len(base + "shared/") + 16
        assert page.get_attribute("#replay-link", "href") == link[len(base) - 1:]
        # someone with no token, no cookie: the link opens that game's replay
        stranger = browser.new_context()
        other = stranger.new_page()
        other.goto(link)
        other.wait_for_selector("body[data-status=ready]", timeout=10_000)
        assert other.text_content("#check") == "the replayed result matches the record's"
        assert other.title() == f"County Uppy, game 1 at the table (seed {web.table.seed})"
        assert other.is_hidden("#share-box")  # no link on to the table's own /replay (it needs the token)
        assert stranger.cookies() == []  # the link gives no table cookie
        other.click("#last")
        final = web.table.state
        assert shown_hands(other) == [final.view(s).hand for s in range(2)]
        # ... and nothing else: the table, its cards, its records, another key
        status = other.evaluate("""async (paths) => Promise.all(paths.map(
            (p) => fetch(p).then((r) => r.status)))""", ["/", "/deck.json", "/record/1.json", "/static/table.js",
                                                        "/shared/" + "x" * 22, "/replay"])
        assert status == [403, 403, 403, 403, 404, 403]
        player.close()
        stranger.close()
