"""Careless and unlucky input to every command: a located one-line message, the right exit status, no traceback.

Complements tests/deck/test_errors.py (one broken manifest per mistake) and the command tests in
tests/engine/test_cli.py, tests/play/ and tests/report/ with the mistakes they do not try yet.
"""

from __future__ import annotations

import io
import os
import json
from pathlib import Path

import pytest

from generator.cli import COMMANDS, main
from tests.conftest import run, MANIFEST_ARG as MANIFEST

FIELD_LINE = "  - {kind: number, set: base, colour: cyan, values: -2..7, copies: 3}"
SKIP_TEXT = "text: Skip the next player's turn."


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def variant(manifest_text: str, old: str, new: str) -> str:
    assert old in manifest_text, old
    return manifest_text.replace(old, new, 1)


def write(tmp_path: Path, name: str, data) -> str:
    path = tmp_path / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


# --- the manifest ---------------------------------------------------------------------------------
# (id, old text, new text, expected message, needle on the expected line or None, expected column or None)
EDITS = [
    ("unknown shape", "shape: circle", "shape: circel",
     "unknown shape 'circel' (did you mean 'circle'?)", "shape: circel", 52),
    ("unknown interior", "interior: white", "interior: whte",
     "unknown interior 'whte' (did you mean 'white'?)", "interior: whte", 39),
    ("colour code of two letters", "code: C,", "code: CY,",
     "'code' must be one capital letter, not 'CY'", "code: CY,", 24),
    ("negative copies", FIELD_LINE, FIELD_LINE.replace("copies: 3", "copies: -3"),
     "'copies' must be at least 1, not -3", "copies: -3", 68),
    ("fractional copies", FIELD_LINE, FIELD_LINE.replace("copies: 3", "copies: 2.5"),
     "'copies' must be a whole number, not 2.5", "copies: 2.5", 68),
    ("empty list of values", FIELD_LINE, FIELD_LINE.replace("-2..7", "[]"),
     "'values' must not be empty", "values: []", 53),
    ("ranges overlapping in one entry", FIELD_LINE, FIELD_LINE.replace("-2..7", "[-2..7, 5..8]"),
     "duplicate card code 'C5' (first defined on line 48)", "5..8", 5),
    ("range running into another entry", FIELD_LINE, FIELD_LINE.replace("-2..7", "-2..8"),
     "duplicate card code 'C8' (first defined on line 48)", "colour: cyan, values: [-4..-3, 8..9]", 5),
    ("duplicate key in a flow mapping", FIELD_LINE, FIELD_LINE.replace("copies: 3", "copies: 3, copies: 4"),
     "duplicate key 'copies'", "copies: 4", 71),
    ("edition defined twice", "key: only-chaos", "key: the-og",
     "edition 'the-og' is defined twice", None, 10),
    ("edition key not a slug", "key: only-chaos", "key: only chaos",
     "'key' must be a lower-case slug like 'the-og', not 'only chaos'", "key: only chaos", 10),
    ("empty include", "include: [{set: chaos}]", "include: []",
     "'include' must not be empty", "include: []", 14),
    ("negative expect", "expect: 93", "expect: -1",
     "'expect' must be at least 0, not -1", "expect: -1", 13),
    ("unknown set in a list filter", "include: [{set: chaos}]", "include: [{set: [base, chao]}]",
     "unknown set 'chao' (did you mean 'chaos'?)", "chao]", 21),
    ("unknown key of an edition", "    expect: 93\n", "    expect: 93\n    expected: 93\n",
     "unknown key 'expected' (did you mean 'expect'?)", "expected: 93", 5),
    ("key with a trailing space", "  target: 16\n", "  'target ': 16\n",
     "unknown key 'target ' (did you mean 'target'?)", "'target '", 3),
    ("undefined alias", "set: chaos\n    code: SKIP", "set: *nope\n    code: SKIP",
     "the value of 'set' starts with '*', which YAML reads as an alias of the anchor 'nope', which is not defined "
     "(no '&nope' above): put the whole value in quotes: set: \"*nope\"", "*nope", 10),
    ("custom tag", "name: Skip", "name: !custom Skip",
     "YAML tag '!custom' is not allowed in a manifest", "!custom", 11),
    ("binary tag", "name: Skip", "name: !!binary aGVsbG8=",
     "YAML tag '!!binary' is not allowed in a manifest", "!!binary", 11),
    ("merge key with a typo", "  - kind: wild\n    set: chaos\n    code: SKIP\n", "  - <<: {kind: wild, set: chaso}\n    code: SKIP\n",
     "unknown set 'chaso' (did you mean 'chaos'?)", "<<:", 27),
    ("placeholder the card has no value for", SKIP_TEXT, "text: Skip {factor} turns.",
     "unknown placeholder '{factor}'; use one of {target}, {hand_size}", "Skip {factor}", 11),
    ("placeholder with an attribute", SKIP_TEXT, "text: 'Skip {target.real} turns.'",
     "unknown placeholder '{target.real}' (did you mean 'target'?)", "target.real", 11),
    ("number card with two colours", FIELD_LINE, FIELD_LINE.replace("colour: cyan", "colours: [cyan, green]"),
     "a number card takes no 'colours' (a number card has one 'colour'; two colours make a 'dual' card)", "colours: [cyan, green], values: -2..7", 31),
    ("parameter for an effect without any", "    effect: skip\n", "    effect: skip\n    params: {factor: 2}\n",
     "effect 'skip' has no parameter 'factor'; it takes no parameters", None, 14),
    ("wild with values", "    effect: skip\n", "    effect: skip\n    values: 3\n",
     "a wild card takes no 'values'", "values: 3", 5),
    ("reference with an effect", "{kind: reference, set: base, code: REF,", "{kind: reference, set: base, code: REF, effect: skip,",
     "a reference card takes no 'effect'", "code: REF, effect: skip", 45),
    ("one player", "players: {min: 2, max: 8}", "players: {min: 1, max: 8}",
     "County Uppy needs at least 2 players", "min: 1", 18),
    ("players without max", "players: {min: 2, max: 8}", "players: {min: 2}",
     "missing key 'max'", "players: {min: 2}", 12),
    ("card code with a space", "code: SKIP", "code: 'SK IP'",
     "card code 'SK IP' must be one word without spaces", "SK IP", 11),
    ("set defined twice", "{key: chaos, name: Chaos", "{key: base, name: Chaos",
     "set 'base' is defined twice", "name: Chaos, interior", 11),
    ("cards as a mapping", "cards:\n", "cards:\n  foo: bar\nxcards:\n",
     "'cards' must be a list, not a mapping", "foo: bar", 3),
    ("text as a list", SKIP_TEXT, "text: [Skip, turn]",
     "'text' must be text, not a list", "text: [Skip, turn]", 11),
    ("wild without a name", "    name: Skip\n", "",
     "a wild card needs 'name'", None, 5),
    ("a second document", None, "\n---\ngame: {}\n",
     "expected a single document in the stream", None, 1),
    ("top level is text", "", "hello\n",
     "the top level must be a mapping with the keys game, colours, sets, cards, editions, not text", "hello", 1),
]


@pytest.mark.parametrize("case", EDITS, ids=[c[0] for c in EDITS])
def test_more_mistakes_are_located(tmp_path, capsys, manifest_text, case):
    _, old, new, message, needle, column = case
    if old is None:
        text = manifest_text + new
    elif old == "":
        text = new
    else:
        text = variant(manifest_text, old, new)
    path = write(tmp_path, "cards.yaml", text)
    status, _, err = run(capsys, "validate", "--manifest", path)
    assert status == 1
    hits = [line for line in err.splitlines() if message in line]
    assert hits, err
    file_, line, col = hits[0].split(": ", 1)[0].rsplit(":", 2)
    assert file_ == path
    if needle is not None:
        assert int(line) == line_of(text, needle)
    if column is not None:
        assert int(col) == column


@pytest.mark.parametrize("content", [b"---\n", b"   \n\n  \n"], ids=["document marker only", "blank lines only"])
def test_manifest_with_nothing_in_it(tmp_path, capsys, content):
    path = write(tmp_path, "cards.yaml", content)
    status, _, err = run(capsys, "validate", "--manifest", path)
    assert status == 1 and err == f"{path}:1:1: the manifest is empty\n"


def test_utf16_manifest_is_not_utf8(tmp_path, capsys, manifest_text):
    path = write(tmp_path, "cards.yaml", manifest_text.encode("utf-16"))
    status, _, err = run(capsys, "validate", "--manifest", path)
    assert status == 1 and err == f"{path}:1:1: not UTF-8 text (byte 0xff); save the file as UTF-8\n"


@pytest.mark.parametrize("encode", [
    lambda t: b"\xef\xbb\xbf" + t.encode(),
    lambda t: t.replace("\n", "\r\n").encode(),
    lambda t: t.replace("\n", "\r").encode(),
], ids=["UTF-8 BOM", "Windows line endings", "old Mac line endings"])
def test_bom_and_line_endings_are_read(tmp_path, capsys, manifest_text, encode):
    path = write(tmp_path, "cards.yaml", encode(manifest_text))
    status, out, _ = run(capsys, "validate", "--json", "--manifest", path)
    assert status == 0 and json.loads(out)["printed"] == 212
    bad = variant(manifest_text, "effect: skip", "effect: skp")
    path = write(tmp_path, "bad.yaml", encode(bad))
    status, _, err = run(capsys, "validate", "--manifest", path)
    assert status == 1
    assert err.startswith(f"{path}:{line_of(bad, 'effect: skp')}:13: unknown effect 'skp' (did you mean 'skip'?)")


def test_anchors_aliases_and_merge_keys_are_fine(tmp_path, capsys, manifest_text):
    text = variant(manifest_text, "  - {kind: number, set: base, colour: green, values: -2..7, copies: 3}",
                   "  - &num {kind: number, set: base, colour: green, values: -2..7, copies: 3}")
    text = variant(text, "  - kind: wild\n    set: chaos\n    code: SKIP\n", "  - <<: {kind: wild, set: chaos}\n    code: SKIP\n")
    path = write(tmp_path, "cards.yaml", text)
    status, out, _ = run(capsys, "validate", "--json", "--manifest", path)
    assert status == 0 and json.loads(out)["editions"]["the-og"] == 201


def test_json_report_of_a_syntax_error_and_of_a_missing_file(tmp_path, capsys, manifest_text):
    text = variant(manifest_text, "include: [{set: chaos}]", "include: [{set: chaos}")
    path = write(tmp_path, "cards.yaml", text)
    status, out, _ = run(capsys, "validate", "--json", "--manifest", path)
    data = json.loads(out)
    assert status == 1 and data["ok"] is False
    (error,) = data["errors"]
    assert error["path"] == path and error["line"] >= 1 and error["message"].startswith("YAML syntax error")
    missing = str(tmp_path / "nope.yaml")
    status, out, _ = run(capsys, "validate", "--json", "--manifest", missing)
    data = json.loads(out)
    assert status == 2 and data["ok"] is False and data["printed"] is None
    assert data["errors"][0]["message"].startswith("no such file")


# --- the command line -----------------------------------------------------------------------------
def test_version_and_every_help(capsys):
    status, out, _ = run(capsys, "--version")
    assert status == 0 and out.startswith("county-uppy ")
    for name in COMMANDS:
        status, out, _ = run(capsys, name, "--help")
        assert status == 0 and f"usage: county-uppy {name}" in out


@pytest.mark.parametrize("argv", [
    ["validate", "extra"],
    ["build", "--paper", "legal"],
    ["build", "--pod", "xyz"],
    ["build", "--jobs", "many"],
    ["simulate", "--games", "10"],
    ["simulate", "--games", "ten", "--players", "4"],
    ["simulate", "--games", "10", "--players", "four"],
    ["simulate", "--games", "10", "--players", "4", "--seed", "abc"],
    ["replay"],
    ["scenario"],
    ["report", "--games", "abc"],
    ["play", "--speed", "abc"],
    ["validate", "--manifest"],
], ids=" ".join)
def test_argparse_usage_errors_exit_2(capsys, argv):
    status, _, err = run(capsys, *argv)
    assert status == 2 and "error:" in err


def test_build_refuses_bad_out_and_jobs(tmp_path, capsys):
    afile = tmp_path / "afile"
    afile.write_text("not a folder")
    status, _, err = run(capsys, "build", "--manifest", MANIFEST, "--out", str(afile))
    assert status == 2 and err == f"county-uppy build: {afile} exists and is not a folder\n"
    status, _, err = run(capsys, "build", "--manifest", MANIFEST, "--out", str(afile / "sub"), "--only", "deck")
    assert status == 2 and err.startswith(f"county-uppy build: cannot write {afile / 'sub'}: ")
    assert afile.read_text() == "not a folder"
    status, _, err = run(capsys, "build", "--manifest", MANIFEST, "--out", str(tmp_path / "o"), "--jobs", "-1")
    assert status == 2 and "--jobs must be 0 (one per core) to 256, not -1" in err
    # --jobs 100000 was taken: a build forks one worker per face drawn, up to the deck's 212 (50 MiB each)
    status, _, err = run(capsys, "build", "--manifest", MANIFEST, "--out", str(tmp_path / "o"), "--jobs", "100000")
    assert status == 2 and "--jobs must be 0 (one per core) to 256, not 100000" in err
    status, _, err = run(capsys, "build", "--manifest", MANIFEST, "--out", str(tmp_path / "o"), "--edition", "")
    assert status == 2 and "unknown edition ''" in err
    assert not (tmp_path / "o").exists()


SIM = ["simulate", "--manifest", MANIFEST, "--games", "2", "--workers", "1"]


@pytest.mark.parametrize("argv, message", [
    (["--players", "1"], "players must be 2..8, not 1"),
    (["--players", "0"], "players must be 2..8, not 0"),
    (["--players", "-1"], "players must be 2..8, not -1"),
    (["--players", "4", "--games", "-1"], "--games must be 1..100000000, not -1"),
    (["--players", "4", "--games", "0"], "--games must be 1..100000000, not 0"),
    (["--players", "4", "--games", "100000001"], "--games must be 1..100000000, not 100000001"),
    (["--players", "4", "--workers", "0"], "--workers must be 1..256, not 0"),
    (["--players", "4", "--workers", "5000"], "--workers must be 1..256, not 5000"),
    (["--players", "4", "--bots", ",,,"], "--bots needs at least one bot name"),
    (["--players", "4", "--bots", "gredy"], "unknown bot 'gredy' (did you mean 'greedy'?)"),
    (["--players", "4", "--edition", ""], "unknown edition ''"),
    (["--players", "4", "--option", "=1"], "--option takes NAME=VALUE, not '=1'"),
    (["--players", "3", "--option", "teams=true"], "the Teams variant needs an even number of players, 4 or more, not 3"),
    (["--players", "4", "--option", "dealer=9"], "option dealer is seat 9, but there are only 4 seats"),
    (["--players", "4", "--option", "max_turns=0"], "option max_turns must be positive"),
    (["--players", "4", "--option", "speed_seconds=nan"], "option speed_seconds must be a positive number"),
    (["--players", "4", "--option", "play2_draws=1000"], "option play2_draws takes 1, 2, not 1000"),
])
def test_simulate_more_bad_values_exit_2(capsys, argv, message):
    status, out, err = run(capsys, *SIM, *argv)
    assert status == 2 and out == ""
    assert err.startswith("county-uppy simulate: ") and message in err and err.count("\n") == 1


def test_simulate_record_into_a_file_is_refused(tmp_path, capsys):
    afile = tmp_path / "afile"
    afile.write_text("x")
    status, out, err = run(capsys, *SIM, "--players", "2", "--record", str(afile))
    assert status == 2 and out == "" and err == f"county-uppy simulate: {afile} exists and is not a folder\n"
    assert afile.read_text() == "x"


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("records")
    assert main(["simulate", "--manifest", MANIFEST, "--games", "1", "--players", "3", "--seed", "3", "--workers", "1",
                 "--record", str(folder)]) == 0
    return json.loads((folder / "game-000000.json").read_text())


def changed(record: dict, **changes) -> dict:
    data = json.loads(json.dumps(record))
    data.update(changes)
    return data


@pytest.mark.parametrize("make, status, message", [
    (lambda r: "", 2, ":1:1: not valid JSON"),
    (lambda r: [1, 2], 2, "a game record is a JSON object, not a list"),
    (lambda r: None, 2, "a game record is a JSON object"),
    (lambda r: changed(r, decisions="play x2"), 2, "'decisions' must be a list of decision strings"),
    (lambda r: changed(r, seed=1.5), 2, "'seed' must be a whole number, not 1.5"),
    (lambda r: changed(r, players="three"), 2, "'players' must be a whole number, not \"three\""),
    (lambda r: changed(r, players=1), 2, "players must be 2..8, not 1"),
    (lambda r: changed(r, options=[1]), 2, "'options' must be an object of rule option names and values, not [1]"),
    (lambda r: changed(r, options={"foo": 1}), 2, "unknown option 'foo'"),
    (lambda r: changed(r, options={"max_turns": -1}), 2, "option max_turns must be positive"),
    (lambda r: changed(r, edition=5), 2, "'edition' must be text, not 5"),
    (lambda r: changed(r, result="won"), 2, "'result' must be an object"),
    (lambda r: changed(r, decisions=["play ZZZ", *r["decisions"][1:]]), 1, "decision 0 ('play ZZZ'): unknown card code 'ZZZ'"),
    (lambda r: changed(r, decisions=["fly away", *r["decisions"][1:]]), 1, "decision 0 ('fly away'): unknown decision 'fly'"),
    (lambda r: changed(r, decisions=[*r["decisions"], "play C5"]), 1, "('play C5'): the game is over"),
    (lambda r: changed(r, decisions=r["decisions"][:2]), 1, "differs from the record's"),
])
def test_replay_bad_records(tmp_path, capsys, record, make, status, message):
    data = make(record)
    path = write(tmp_path, "r.json", data if data != "" else "")
    got, _, err = run(capsys, "replay", "--manifest", MANIFEST, path)
    assert got == status, err
    assert err.startswith(path) and message in err


@pytest.mark.parametrize("argv, message", [
    (["--web", "--port", "-1"], "--port must be 0..65535, not -1"),
    (["--web", "--port", "70000"], "--port must be 0..65535, not 70000"),
    (["--html", ""], "--html needs the name of the file to write"),
])
def test_replay_bad_page_options_exit_2(tmp_path, capsys, record, argv, message):
    """--port out of range was an internal error (OverflowError from bind, exit 3); --html '' wrote nothing and said nothing."""
    path = write(tmp_path, "r.json", record)
    got, out, err = run(capsys, "replay", "--manifest", MANIFEST, path, *argv)
    assert got == 2 and out == ""
    assert err == f"county-uppy replay: {message}\n"


@pytest.mark.parametrize("make", [lambda p: p, lambda p: p / "missing.json"], ids=["directory", "missing"])
def test_replay_and_scenario_unreadable_file_exit_2(tmp_path, capsys, make):
    path = str(make(tmp_path))
    for command in ("replay", "scenario"):
        status, out, err = run(capsys, command, "--manifest", MANIFEST, path)
        assert status == 2 and out == "" and err.startswith(f"{path}: ") and err.count("\n") == 1


BASE = {"players": 3, "edition": "the-og", "seed": 7, "count": 12, "match": "C5", "turn": 0,
        "hands": [["C4", "G7", "STEAL"], ["M2"], ["x2"]], "draw": ["C1", "G2"], "in_play": ["C5"]}


@pytest.mark.parametrize("changes, status, message", [
    ({"turn": 5}, 2, "'turn' must be a seat 0..2, not 5"),
    ({"turn": -1}, 2, "'turn' must be a seat 0..2, not -1"),
    ({"winner": 9}, 2, "'winner' must be a seat 0..2, not 9"),
    ({"out": [7]}, 2, "'out' must be a seat 0..2, not 7"),
    ({"direction": 0}, 2, "'direction' must be 1 or -1, not 0"),
    ({"count": 12.5}, 2, "'count' must be a whole number, not 12.5"),
    ({"hands": "C4 G7"}, 2, "'hands' must be a list of lists of card codes, one per seat"),
    ({"draw": ["ZZ"]}, 2, "unknown card code 'ZZ' in 'draw'"),
    ({"match": "C55"}, 2, "unknown match 'C55' (did you mean 'C5'?)"),
    ({"hands": [["c4"], ["M2"], ["x2"]]}, 2, "unknown card code 'c4' in 'hands[0]' (did you mean 'C4'?)"),
    ({"pending": {"foo": 1}}, 2, "unknown pending key 'foo'"),
    ({"pending": {"owed": [9]}}, 2, "'pending.owed' must be a seat 0..2, not 9"),
    ({"players": 4}, 2, "'players' is 4 but 'hands' has 3 hands"),
    ({"colour": "blue"}, 2, "unknown key 'colour'"),
    ({"decisions": ["play C44"]}, 1, "decision 0 ('play C44'): unknown card code 'C44' (did you mean 'C4'?)"),
    ({"decisions": [""]}, 1, "decision 0 (''): empty decision"),
    ({"decisions": ["play STEAL"]}, 1, "STEAL needs a seat: 'play STEAL SEAT'"),
    ({"decisions": ["play STEAL 0"]}, 1, "STEAL must name another player, not seat 0 itself"),
    ({"decisions": ["play STEAL -1"]}, 1, "seat -1 is negative"),
    ({"decisions": ["play STEAL 7"]}, 1, "there is no seat 7 in a 3-player game"),
    ({"decisions": ["play C4 1"]}, 1, "C4 names no seat; play it as 'play C4'"),
    ({"decisions": ["discard C4"]}, 1, "nobody owes a discard; seat 0 is to play"),
    ({"decisions": ["give 1 M2"]}, 1, "'give' is only for the Teams variant"),
    ({"winner": 1, "decisions": ["play C4"]}, 1, "decision 0 ('play C4'): the game is over"),
])
def test_scenario_bad_positions_and_decisions(tmp_path, capsys, changes, status, message):
    path = write(tmp_path, "s.json", {**BASE, **changes})
    got, out, err = run(capsys, "scenario", "--manifest", MANIFEST, path)
    assert got == status, err
    assert out == "" and err.startswith(f"{path}: ") and message in err and err.count("\n") == 1


def play(monkeypatch, tmp_path, lines: str, *args: str) -> tuple[int, Path]:
    record = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    status = main(["play", "--manifest", MANIFEST, "--record", str(record), *args])
    return status, record


@pytest.mark.parametrize("args, message", [
    (["--players", "1"], "players must be 2..8, not 1"),
    (["--players", "9"], "players must be 2..8, not 9"),
    (["--players", "2", "--seat", "-1"], "--seat must be 0..1, not -1"),
    (["--speed", "0"], "--speed must be a number of seconds from 1 to 3600, not 0"),
    (["--speed", "nan"], "--speed must be a number of seconds from 1 to 3600, not nan"),
    (["--option", "foo=1"], "unknown option 'foo'"),
    (["--option", "max_turns"], "--option takes NAME=VALUE, not 'max_turns'"),
])
def test_play_more_bad_options(monkeypatch, tmp_path, capsys, args, message):
    status, record = play(monkeypatch, tmp_path, "", *args)
    err = capsys.readouterr().err
    assert status == 2 and err.startswith("county-uppy play: ") and message in err and "Traceback" not in err
    assert not record.exists()


def test_play_garbage_answers_are_asked_again(monkeypatch, tmp_path, capsys):
    # '²' (str.isdigit, but not int()) and 5,000 digits (past int()'s 4,300) were internal errors
    script = "garbage\n\x00\nplay ZZZ\n99999999999999999999\n-1\n1.5\nplay C4 9\n²\n" + "9" * 5000 + "\nq\n"
    status, record = play(monkeypatch, tmp_path, script, "--players", "2", "--seed", "4")
    out = capsys.readouterr().out
    assert status == 0 and "You left the game." in out
    for answer in ("garbage", "play ZZZ", "99999999999999999999", "-1", "1.5", "play C4 9", "²"):
        assert f"'{answer}' is not one of the choices" in out
    assert "9999999999' is not one of the choices" in out  # the 5,000 digits, cut
    assert main(["replay", "--manifest", MANIFEST, str(record)]) == 0


REPORT = ["report", "--manifest", MANIFEST, "--workers", "1", "--edition", "the-og"]


@pytest.mark.parametrize("argv, message", [
    (["--games", "0"], "--games must be 1..100000000, not 0"),
    (["--games", "5", "--workers", "0"], "--workers must be 1..256, not 0"),
    (["--games", "5", "--workers", "999"], "--workers must be 1..256, not 999"),
    (["--games", "5", "--players", "four"], "--players takes whole numbers separated by commas, not 'four'"),
    (["--games", "5", "--players", ","], "--players must be between 2 and 8, not ','"),
    (["--games", "5", "--players", "9"], "--players must be between 2 and 8, not '9'"),
    (["--games", "5", "--players", "2", "--option", "teams=true"], "the Teams variant needs an even number of players"),
    (["--games", "5", "--players", "2", "--option", "foo=1"], "unknown option 'foo'"),
])
def test_report_more_bad_values(tmp_path, capsys, argv, message):
    out_dir = tmp_path / "rep"
    status, _, err = run(capsys, *REPORT, "--out", str(out_dir), *argv)
    assert status == 2 and err.startswith("county-uppy report: ") and message in err
    assert not out_dir.exists()


def test_report_against_a_bad_manifest(tmp_path, capsys, manifest_text):
    out_dir = tmp_path / "rep"
    missing = str(tmp_path / "missing.yaml")
    status, _, err = run(capsys, *REPORT, "--out", str(out_dir), "--games", "5", "--against", missing)
    assert status == 2 and err.startswith(f"{missing}: no such file")
    status, _, err = run(capsys, *REPORT, "--out", str(out_dir), "--games", "5", "--against", str(tmp_path))
    assert status == 2 and err == f"{tmp_path}: is a directory, not a manifest file\n"
    bad = write(tmp_path, "bad.yaml", variant(manifest_text, "copies: 3}", "copies: three}"))
    status, _, err = run(capsys, *REPORT, "--out", str(out_dir), "--games", "5", "--against", bad)
    assert status == 1 and err.startswith(f"{bad}:48:") and "'copies' must be a whole number, not 'three'" in err
    assert not out_dir.exists()


def test_schema_write_where_it_cannot_is_a_message(tmp_path, capsys):
    """schema --write beside a manifest path whose folder is a file was an internal error (exit 3)."""
    afile = tmp_path / "afile"
    afile.write_text("not a folder")
    status, out, err = run(capsys, "schema", "--write", "--manifest", str(afile / "cards.yaml"))
    assert status == 2 and out == ""
    assert err.startswith(f"county-uppy schema: cannot write {afile / 'cards.schema.json'}: ") and err.count("\n") == 1


@pytest.mark.parametrize("value", ["²", "-5", "1e9", "99999999999999999999", "253402300800"])
def test_a_malformed_source_date_epoch_stops_the_build(tmp_path, capsys, monkeypatch, value):
    """'²' and '99999999999999999999' were internal errors (ValueError, OverflowError) and the year
    10000 failed the print product; '-5' and '1e9' were passed over for the manifest's own date.
    The convention asks a build to stop on a malformed value."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    status, _, err = run(capsys, "build", "--manifest", MANIFEST, "--out", str(tmp_path / "o"), "--only", "print")
    assert status == 2 and not (tmp_path / "o").exists()
    assert err == (f"county-uppy build: SOURCE_DATE_EPOCH must be a whole number of seconds since 1970, "
                   f"0 to 253402300799 (the year 9999), not '{value}'\n")



def test_report_plays_an_edition_or_bots_named_twice_once(tmp_path, capsys):
    """--edition the-og --edition the-og (or the same --bots twice) played every cell twice over and
    listed it twice on the page."""
    out = tmp_path / "r"
    status, _, err = run(capsys, *REPORT, "--edition", "the-og", "--games", "2", "--players", "2",
                         "--bots", "greedy", "--bots", " greedy", "--out", str(out))
    assert status == 0 and "playing 2 games (1 cells x 2 games)" in err
    settings = json.loads((out / "balance.json").read_text())["settings"]
    assert settings["editions"] == ["the-og"] and settings["bots"] == ["greedy"]
