"""Ctrl-C with worker processes, limits on --games and --speed, --out checked before playing,
standard input closed and standard output full: a message and an exit status, never a traceback."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.engine import Game
from generator.engine.simulate import MAX_GAMES, _Counts
from tests.processes import children
from tests.conftest import ROOT, run, MANIFEST_ARG as MANIFEST

COMMAND = [sys.executable, "-m", "generator"]

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc, process groups and /dev/full")


# --- Ctrl-C with worker processes ------------------------------------------------------------


def interrupt(argv: list[str], cwd: Path, *, group: bool, settle: float = 0.3) -> tuple[int, str, str, float]:
    """Start the command, wait until its workers run, send SIGINT (to it, or to its process group as
    Ctrl-C at a terminal does); return (status, stdout, stderr, seconds it took to stop)."""
    proc = subprocess.Popen([*COMMAND, *argv], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        deadline = time.monotonic() + 30
        while len(children(proc.pid)) < 2:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the workers never started"
            time.sleep(0.02)
        time.sleep(settle)
        sent = time.monotonic()
        if group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
        return proc.returncode, out, err, time.monotonic() - sent
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()


@linux_only
@pytest.mark.parametrize("group", [False, True], ids=["to-the-process", "to-the-group"])
def test_simulate_with_workers_stops_at_once_on_ctrl_c(tmp_path, group):
    argv = ["simulate", "--manifest", MANIFEST, "--games", str(MAX_GAMES), "--players", "4", "--workers", "2"]
    status, out, err, seconds = interrupt(argv, tmp_path, group=group)
    assert status == 130 and out == ""
    assert err == "county-uppy: interrupted\n"
    assert seconds < 5


@linux_only
@pytest.mark.parametrize("group", [False, True], ids=["to-the-process", "to-the-group"])
def test_report_with_workers_stops_at_once_and_writes_a_partial_report(tmp_path, group):
    argv = ["report", "--manifest", MANIFEST, "--games", str(MAX_GAMES), "--players", "2", "--edition", "the-og",
            "--workers", "2", "--out", "rep"]
    status, out, err, seconds = interrupt(argv, tmp_path, group=group, settle=0.6)
    assert status == 130 and "Traceback" not in err and seconds < 5
    assert "county-uppy report: interrupted; the report counts the " in err
    data = json.loads((tmp_path / "rep" / "balance.json").read_text())
    assert not data["complete"] and data["games_planned"] == MAX_GAMES
    assert data["games_played"] % 100 == 0 and f"({data['games_played']} games in " in out
    assert "Partial report" in (tmp_path / "rep" / "balance.html").read_text()


# --- limits on --games ------------------------------------------------------------------------
@pytest.mark.parametrize("games", ["0", "-3", str(MAX_GAMES + 1), "99999999999999999999"])
@pytest.mark.parametrize("command", ["simulate", "report"])
def test_games_out_of_range_are_refused(tmp_path, capsys, command, games):
    argv = [command, "--manifest", MANIFEST, "--games", games, "--workers", "1"]
    argv += ["--players", "2"] + (["--out", str(tmp_path / "rep")] if command == "report" else [])
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err == f"county-uppy {command}: --games must be 1..{MAX_GAMES}, not {games}\n"
    assert not (tmp_path / "rep").exists()


def test_report_jobs_are_made_as_they_are_needed(deck):
    """Asking for the most games costs nothing up front: the chunks come from a generator."""
    from generator.report.run import Variant, make_jobs, planned_games
    from generator.report.summarize import Cell

    cell = Cell("the-og", 2, "greedy")
    variants = [Variant("design", "cards.yaml", deck, {}), Variant("tweak", "t", deck, {"play2_draws": 2})]
    jobs = make_jobs(variants, [cell], {cell: MAX_GAMES})
    assert iter(jobs) is jobs
    first, second = next(jobs), next(jobs)
    assert (first.variant, first.chunk, first.start, first.stop) == (0, 0, 0, 100)
    assert (second.chunk, second.start, second.stop) == (1, 100, 200)
    assert planned_games(variants, [cell], {cell: MAX_GAMES}) == 2 * MAX_GAMES


def test_the_median_of_counted_turns_is_statistics_median(deck):
    game = Game(deck, "the-og", 3)
    rng = random.Random(5)
    for n in (1, 2, 3, 10, 11, 200):
        turns = [rng.randrange(5, 40) for _ in range(n)]
        counts = _Counts(game)
        counts.add([(i, 0, False, t, t) for i, t in enumerate(turns)], [0] * len(counts.totals))
        assert counts.median_turns() == statistics.median(turns)
    assert _Counts(game).median_turns() == 0


# --- folders checked before playing -------------------------------------------------------------
def test_report_out_must_be_a_writable_folder_before_any_game(tmp_path, capsys):
    afile = tmp_path / "afile"
    afile.write_text("x")
    base = ["report", "--manifest", MANIFEST, "--games", "5", "--players", "2", "--edition", "the-og", "--workers", "1"]
    status, out, err = run(capsys, *base, "--out", str(afile))
    assert status == 2 and out == "" and err == f"county-uppy report: {afile} exists and is not a folder\n"
    assert afile.read_text() == "x"
    status, out, err = run(capsys, *base, "--out", str(afile / "sub"))
    assert status == 2 and out == "" and err.startswith(f"county-uppy report: cannot write {afile / 'sub'}: ")
    (tmp_path / "rep" / "balance.json").mkdir(parents=True)
    status, out, err = run(capsys, *base, "--out", str(tmp_path / "rep"))
    assert status == 2 and out == "" and "balance.json is a folder" in err
    assert "playing" not in err


@linux_only
def test_report_out_under_proc_is_refused_before_any_game(capsys):
    status, out, err = run(capsys, "report", "--manifest", MANIFEST, "--games", "5", "--players", "2",
                           "--edition", "the-og", "--workers", "1", "--out", "/proc/county-uppy-report")
    assert status == 2 and out == "" and err.startswith("county-uppy report: cannot write /proc/county-uppy-report: ")
    assert err.count("\n") == 1


def test_report_write_error_after_the_games_is_a_message(tmp_path, capsys, monkeypatch):
    def full(*args, **kwargs):
        raise OSError(28, "No space left on device", str(tmp_path / "rep" / "balance.json.tmp"))

    monkeypatch.setattr("generator.report.render.write", full)
    status, _, err = run(capsys, "report", "--manifest", MANIFEST, "--games", "5", "--players", "2",
                         "--edition", "the-og", "--workers", "1", "--out", str(tmp_path / "rep"))
    assert status == 1 and "Traceback" not in err
    assert err.endswith(f"county-uppy report: cannot write the report to {tmp_path / 'rep' / 'balance.json.tmp'}: "
                        "No space left on device\n")


def test_simulate_record_path_that_is_a_file(tmp_path, capsys):
    afile = tmp_path / "cards.yaml"
    afile.write_text("x")
    argv = ["simulate", "--manifest", MANIFEST, "--games", "2", "--players", "2", "--workers", "1"]
    status, out, err = run(capsys, *argv, "--record", str(afile))
    assert status == 2 and out == "" and err == f"county-uppy simulate: {afile} exists and is not a folder\n"
    status, out, err = run(capsys, *argv, "--record", str(afile / "games"))
    assert status == 2 and out == "" and err.startswith(f"county-uppy simulate: cannot write {afile / 'games'}: ")


# --- play: --speed, closed standard input ----------------------------------------------------------
@pytest.mark.parametrize("speed, shown", [("inf", "inf"), ("1e12", "1e+12"), ("1e300", "1e+300"), ("nan", "nan"),
                                          ("-1", "-1"), ("0", "0"), ("0.5", "0.5"), ("3601", "3601")])
def test_play_speed_out_of_range(tmp_path, capsys, monkeypatch, speed, shown):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    record = tmp_path / "game.json"
    status, out, err = run(capsys, "play", "--manifest", MANIFEST, "--players", "2", "--seed", "1", "--speed", speed,
                           "--record", str(record))
    assert status == 2 and out == ""
    assert err == f"county-uppy play: --speed must be a number of seconds from 1 to 3600, not {shown}\n"
    assert not record.exists()


@pytest.mark.parametrize("value", ["inf", "nan", "0", "0.5", "1e300"])
def test_speed_seconds_option_has_the_same_range(tmp_path, capsys, monkeypatch, value):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    status, _, err = run(capsys, "play", "--manifest", MANIFEST, "--players", "2", "--option", f"speed_seconds={value}",
                         "--record", str(tmp_path / "game.json"))
    assert status == 2 and "option speed_seconds must be a positive number of seconds (1 to 3600)" in err
    status, _, err = run(capsys, "simulate", "--manifest", MANIFEST, "--games", "1", "--players", "2",
                         "--option", f"speed_seconds={value}")
    assert status == 2 and "option speed_seconds must be a positive number of seconds (1 to 3600)" in err


def test_play_speed_bounds_are_accepted(tmp_path, capsys, monkeypatch):
    for speed in ("1", "3600"):
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        record = tmp_path / f"game-{speed}.json"
        status, _, _ = run(capsys, "play", "--manifest", MANIFEST, "--players", "2", "--seed", "1", "--speed", speed,
                           "--record", str(record))
        assert status == 0 and json.loads(record.read_text())["options"]["speed_seconds"] == float(speed)


@pytest.mark.skipif(os.name != "posix", reason="closes file descriptor 0 of a child process")
def test_play_with_standard_input_closed_ends_as_at_end_of_input(tmp_path):
    closed, eof = tmp_path / "closed.json", tmp_path / "eof.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [*COMMAND, "play", "--manifest", MANIFEST, "--players", "2", "--seed", "1", "--record"]
    got = subprocess.run([*argv, str(closed)], stdin=subprocess.DEVNULL, preexec_fn=lambda: os.close(0),
                         capture_output=True, text=True, env=env, timeout=60)
    assert got.returncode == 0, got.stderr
    assert "Traceback" not in got.stderr and "End of input: the game stops here." in got.stdout
    at_eof = subprocess.run([*argv, str(eof)], stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env,
                            timeout=60)
    assert at_eof.returncode == 0
    assert json.loads(closed.read_text()) == json.loads(eof.read_text())
    assert got.stdout.replace(str(closed), "R") == at_eof.stdout.replace(str(eof), "R")


# --- standard output full or closed -------------------------------------------------------------------
@linux_only
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize("argv", [["validate"], ["validate", "--json"], ["schema"], ["--help"],
                                  ["simulate", "--games", "3", "--players", "2", "--workers", "1"]], ids=" ".join)
def test_full_standard_output_is_a_one_line_error(argv):
    if argv[0] != "--help":
        argv = [*argv, "--manifest", MANIFEST]
    with open("/dev/full", "w") as full:
        got = subprocess.run([*COMMAND, *argv], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert got.returncode == 1
    assert got.stderr == "county-uppy: cannot write to standard output: No space left on device\n"


@pytest.mark.skipif(os.name != "posix", reason="a closed pipe")
def test_closed_pipe_on_standard_output_is_quiet():
    proc = subprocess.Popen([*COMMAND, "schema", "--manifest", MANIFEST], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    proc.stdout.close()  # the reader is gone before anything is written
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and err == b""
