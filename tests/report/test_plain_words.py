"""The report for designers: plain sentences, the worst player count in the headline, minutes,
waiting, luck versus skill, strongest and weakest cards, draws and the --against diff."""

import json
from pathlib import Path

import pytest

from generator.cli import main
from generator.commands import report as report_command
from generator.report import words

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = str(ROOT / "cards.yaml")


@pytest.mark.parametrize("rate, text", [
    (0.201, "1 game in 5"), (1 / 6, "1 game in 6"), (0.25, "1 game in 4"), (0.5, "1 game in 2"),
    (0.6, "3 games in 5"), (0.755, "3 games in 4"), (0.0, "no game"), (1.0, "every game"), (0.013, "1 game in 100"),
])
def test_rates_in_words(rate, text):
    assert words.in_words(rate) == text


def test_the_parser_default_seconds_per_turn_is_the_reports():
    assert report_command.SECONDS_PER_TURN == words.SECONDS_PER_TURN


def cell(players, label, rates, *, bots="greedy"):
    fair = 1 / players
    sides = [{"label": f"seat {k} (plays {['first', '2nd', '3rd', '4th', '5th', '6th', '7th', '8th'][k]})", "order": k + 1, "rate": r,
              "wins": round(1000 * r), "low": r - 0.02, "high": r + 0.02} for k, r in enumerate(rates)]
    return {"players": players, "fair": fair, "sides": sides, "teams": False, "bots": bots, "finished": 1000,
            "verdict": {"label": label, "games_needed": 2000}}


def test_large_game_counts_are_written_with_thousands_separators():
    """A cell whose seat sits right on the band's edge can need hundreds of millions of games: the
    designer reads "about 247,807,300", not "about 247807300"."""
    c = cell(3, "inconclusive", [0.2667, 0.3667, 0.3667])
    c["verdict"].update(games_needed=247_807_300, capped=20_000)
    sentence = words.seats(c)
    assert "about 247,807,300 would settle it" in sentence
    assert "its cap of 20,000 games per cell" in sentence


def test_the_headline_names_the_worst_player_count_in_plain_words():
    cells = [cell(2, "balanced", [0.5, 0.5]), cell(4, "balanced", [0.25] * 4),
             cell(6, "unbalanced", [0.16, 0.201, 0.16, 0.16, 0.16, 0.159])]
    answer, sentence = words.headline(cells)
    assert answer == "No: unbalanced for 6 players."
    assert sentence.startswith("The player who plays 2nd wins 1 game in 5 (20.1%); 1 in 6 would be fair")
    assert "Other player counts: balanced for 2 and 4." in sentence
    # among equal verdicts, the count whose seat strays furthest from fair
    cells = [cell(3, "small seat effect", [0.36, 0.32, 0.32]), cell(4, "small seat effect", [0.29, 0.24, 0.24, 0.23])]
    assert words.headline(cells)[0] == "Yes, nearly: a small seat effect at 4 players."
    assert words.headline([cell(n, "balanced", [1 / n] * n) for n in range(2, 9)])[0] == "Yes: balanced for 2 to 8 players."


def run_report(tmp_path, name, *extra):
    out = tmp_path / name
    status = main(["report", "--manifest", MANIFEST, "--workers", "1", "--no-card-effects", "--out", str(out), *extra])
    return status, json.loads((out / "balance.json").read_text()), (out / "balance.html").read_text()


def test_every_player_count_by_default_and_plain_sentences_for_each(tmp_path):
    status, data, html = run_report(tmp_path, "all", "--edition", "keep-it-simple", "--games", "60",
                                    "--seconds-per-turn", "10")
    assert status == 0
    assert data["player_counts"] == [2, 3, 4, 5, 6, 7, 8]
    assert data["settings"]["verdict_bots"] == "greedy" and data["settings"]["seconds_per_turn"] == 10
    for c in data["cells"]["design"]:
        plain = c["plain"]
        # minutes at the stated seconds a turn, from the median turns
        m = round(c["length"]["median"] * 10 / 60)
        assert any(f"about {m} minute" in line and "at 10 s a turn" in line for line in plain), plain
        # everyone but the winner goes out, and (3 players or more) waits for the end
        w = c["waiting"]
        assert w["games_with_someone_out"] == c["finished"]
        if c["players"] == 2:
            assert w["first_out_mean"] == 0 and "Nobody sits out: the game ends as soon as a player goes out." in plain
        else:
            assert w["first_out_mean"] > w["per_player_out_mean"] > 0
            assert any(line.startswith(f"The first player to go out waits {w['first_out_mean']:.0f} turns") for line in plain)
        # luck vs skill: the stronger bot among weaker ones, on the first deals of the cell
        lk = c["luck"]
        assert lk["games"] == 60 and lk["strong"] == "greedy" and lk["weak"] == "random"
        assert lk["rate"] > lk["fair"], "greedy beats random bots"
        assert any("A greedy player against random players wins" in line for line in plain)
        ext = c["card_extremes"]
        assert ext["strongest"]["lift"] >= ext["weakest"]["lift"]
        assert any(line.startswith("Strongest card: ") for line in plain)
        assert any(line.startswith("Weakest card: ") for line in plain)
    # the technical detail is folded away; the plain words are not
    assert html.count("<summary>Technical detail") == 7
    head, _, _ = html.partition("<h2>How to read this")
    first_cell = head.split('<div class="cell">')[1]
    assert "chi-square" not in first_cell.split("<details>")[0]
    assert "chi-square" in first_cell.split("<details>")[1]


def test_against_shows_what_changed_and_a_draw_row(tmp_path):
    other = tmp_path / "other.yaml"
    other.write_text((ROOT / "cards.yaml").read_text().replace("target: 16", "target: 14", 1))
    status, data, html = run_report(tmp_path, "vs", "--edition", "keep-it-simple", "--players", "3", "--games", "40",
                                    "--against", str(other), "--option", "all_out=draw")
    assert status == 0
    assert data["changes"] == ["game: target 16 -> 14"]
    assert "What the other manifest changes" in html and "game: target 16 -&gt; 14" in html
    rows = {r["what"]: r for r in data["comparison"][0]["rows"]}
    tweak = data["cells"]["tweak"][0]
    assert rows["draws (no winner)"]["b"] == pytest.approx(tweak["draws"] / tweak["finished"], abs=1e-4)
    assert rows["draws (no winner)"]["a"] == 0
    assert [r for r in rows if r.startswith("win rate, seat")] == [f"win rate, {s['label']}" for s in tweak["sides"]]


def test_simulate_defaults_to_greedy_and_credits_teams_to_their_bots(capsys):
    status = main(["simulate", "--manifest", MANIFEST, "--games", "60", "--players", "4", "--workers", "1", "--json"])
    assert status == 0
    assert json.loads(capsys.readouterr().out)["bots"] == ["greedy"] * 4
    status = main(["simulate", "--manifest", MANIFEST, "--games", "60", "--players", "4", "--workers", "1",
                   "--bots", "greedy,random", "--option", "teams=true", "--json"])
    s = json.loads(capsys.readouterr().out)
    # seats 0 and 2 (team 0) are greedy, seats 1 and 3 (team 1) random
    assert s["wins_by_bot"] == {"greedy": s["wins_by_team"][0], "random": s["wins_by_team"][1]}
    assert s["wins_by_team"][0] > s["wins_by_team"][1]
