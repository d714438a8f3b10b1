"""`report` and `sweep` take any bot on the ladder (random, greedy, search:N, ISMCTS through the
OpenSpiel adapter), say which one the verdict rests on, and without the `ai` extra refuse
ISMCTS with a message naming the extra (exit 2, no traceback)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from generator.cli import main
from tests.ai.extra import need
from tests.conftest import MANIFEST_ARG as MANIFEST, ROOT

REPORT = ["report", "--manifest", MANIFEST, "--games", "6", "--players", "2", "--edition", "keep-it-simple"]
SWEEP = ["sweep", "--manifest", MANIFEST, "--no-progress", "--param", "play2_draws=1,2", "--players", "2",
         "--games", "6", "--edition", "keep-it-simple"]


@pytest.fixture
def no_ai_extra(monkeypatch):
    """This process as if the ai extra were not installed: open_spiel and pyspiel cannot be imported."""
    for name in list(sys.modules):
        if name.split(".")[0] in ("open_spiel", "pyspiel") or name in ("generator.ai.ismcts", "generator.ai.openspiel"):
            monkeypatch.delitem(sys.modules, name)
    for name in ("open_spiel", "pyspiel"):
        monkeypatch.setitem(sys.modules, name, None)  # import raises ModuleNotFoundError


@pytest.mark.parametrize("argv", [REPORT, SWEEP], ids=["report", "sweep"])
def test_without_the_extra_ismcts_is_refused_naming_the_extra(no_ai_extra, argv, tmp_path, capsys):
    out = ["--out", str(tmp_path / "out")]
    assert main([*argv, *out, "--bots", "ismcts:5"]) == 2
    err = capsys.readouterr().err
    assert "ismcts:5" in err and "ai extra" in err and "pip install" in err and "[ai]" in err
    assert "Traceback" not in err
    assert not (tmp_path / "out" / "balance.json").exists() and not (tmp_path / "out" / "sweep.json").exists()
    # the engine's bots still play without it
    assert main([*argv, *out, "--bots", "search:8,greedy"]) == 0


def test_an_unknown_bot_names_the_ladder(capsys, tmp_path):
    assert main([*REPORT, "--out", str(tmp_path), "--bots", "ismct:5"]) == 2
    err = capsys.readouterr().err
    assert "unknown bot 'ismct:5'" in err and "did you mean 'ismcts'" in err and "ismcts" in err
    assert main([*SWEEP, "--bots", "ismcts:0"]) == 2
    assert "ISMCTS's simulations are a positive whole number" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [REPORT, SWEEP], ids=["report", "sweep"])
def test_ismcts_with_one_simulation_is_refused_with_a_message(argv, tmp_path, capsys):
    """One simulation only opens ISMCTS's tree: OpenSpiel then has no move to pick and asserted
    (an internal error, exit 3, after the games had begun). It is refused before any game."""
    need("pyspiel")
    assert main([*argv, "--out", str(tmp_path / "out"), "--bots", "ismcts:1,greedy"]) == 2
    err = capsys.readouterr().err
    assert "'ismcts:1': ISMCTS needs at least 2 simulations a decision" in err and "ismcts:2" in err
    assert "internal error" not in err and "Traceback" not in err
    assert not (tmp_path / "out" / "balance.json").exists() and not (tmp_path / "out" / "sweep.json").exists()


def test_the_readme_s_first_command_needs_no_extra(tmp_path):
    """`county-uppy build` (and a report) in a Python where open_spiel and pyspiel cannot be imported."""
    code = ("import sys; sys.modules['open_spiel'] = sys.modules['pyspiel'] = None\n"
            "from generator.cli import main\n"
            f"sys.exit(main(['build', '--manifest', {MANIFEST!r}, '--out', {str(tmp_path / 'build')!r}]) or "
            f"main([*{REPORT!r}, '--out', {str(tmp_path / 'report')!r}]))")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert (tmp_path / "build" / "deck.json").exists() and (tmp_path / "report" / "balance.json").exists()


def test_report_plays_ismcts_and_says_the_verdict_rests_on_it(tmp_path, capsys):
    need("pyspiel")
    argv = [*REPORT, "--bots", "ismcts:4,greedy"]
    assert main([*argv, "--out", str(tmp_path / "a"), "--workers", "1"]) == 0
    printed = capsys.readouterr().out
    assert "verdicts rest on the bot mix ismcts:4,greedy" in printed
    assert "OpenSpiel's information-set MCTS, 4 simulations a decision" in printed
    data = json.loads((tmp_path / "a" / "balance.json").read_text())
    assert data["settings"]["verdict_bots"] == "ismcts:4,greedy" and data["games_played"] == 6
    assert "information-set MCTS" in data["settings"]["verdict_rests_on"]
    html = (tmp_path / "a" / "balance.html").read_text()
    assert "The verdicts rest on\n  <strong>the bot mix ismcts:4,greedy" in html
    # seeded: the same games on two workers, byte for byte; and not greedy's games
    assert main([*argv, "--out", str(tmp_path / "b"), "--workers", "2"]) == 0
    assert (tmp_path / "b" / "balance.json").read_bytes() == (tmp_path / "a" / "balance.json").read_bytes()
    assert main([*REPORT, "--bots", "greedy", "--out", str(tmp_path / "g"), "--workers", "1"]) == 0
    greedy = json.loads((tmp_path / "g" / "balance.json").read_text())
    assert greedy["cells"]["design"][0]["length"] != data["cells"]["design"][0]["length"] or \
        greedy["cells"]["design"][0]["sides"] != data["cells"]["design"][0]["sides"]


def test_sweep_plays_ismcts_and_says_the_verdict_rests_on_it(tmp_path, capsys):
    need("pyspiel")
    assert main([*SWEEP, "--bots", "ismcts:3", "--out", str(tmp_path / "s"), "--workers", "1"]) == 0
    printed = capsys.readouterr().out
    assert "the verdicts rest on ismcts:3 bots in every seat (ismcts:3: OpenSpiel's information-set MCTS" in printed
    data = json.loads((tmp_path / "s" / "sweep.json").read_text())
    assert data["settings"]["verdict_bots"] == "ismcts:3"
    assert all(c["bots"] == "ismcts:3" for c in data["cells"])
    assert "The verdicts rest on <strong>ismcts:3 bots in every seat" in (tmp_path / "s" / "sweep.html").read_text()


def test_the_ismcts_bot_replays_its_seeded_games():
    need("pyspiel")
    from generator.ai.bots import ladder_bot
    from generator.deck.manifest import load
    from generator.engine import Game, play_game

    game = Game(load(MANIFEST), "the-og", 3)
    one = play_game(game, [ladder_bot("ismcts:6"), ladder_bot("greedy"), ladder_bot("random")], 12)
    two = play_game(game, [ladder_bot("ismcts:6"), ladder_bot("greedy"), ladder_bot("random")], 12)
    assert one.history == two.history and one.is_terminal()
    assert len(one.history) > 10


def test_ismcts_kept_from_a_card_chooses_among_what_is_left(deck):
    """Restricted play (report/restricted.py) hands ISMCTS fewer choices than the world's: it picks the
    likeliest of those in its searched policy, where it stopped on an AssertionError (report exit 3)."""
    need("pyspiel")
    import random

    from generator.ai.ismcts import IsmctsBot
    from generator.engine import Game
    from generator.report.restricted import WithoutCard

    game = Game(deck, "keep-it-simple", 2)
    bot = IsmctsBot(8)
    kept = 0
    for seed in range(12):
        state = game.new_initial_state(seed)
        legal = state.legal_actions()
        plays = [a for a in legal if a.kind == "play"]
        if len(plays) < 2:
            continue
        banned = plays[0].code
        choice = WithoutCard(bot, banned).choose(state.view(state.current_player()), legal, random.Random(seed))
        assert choice in legal and choice.code != banned
        kept += 1
    assert kept >= 5
