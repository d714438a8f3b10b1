"""Scenario files and game records of the wrong shape: exit 2 (or 1), a message naming the key, plain words.

Each test covers one mistake people made in practice: non-string decisions, pending values out of
range, messages in programming-language words, files that are directories, not UTF-8 or start with
a byte-order mark, cards that are never played, and records whose bots or result are malformed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from generator.engine import Game, PositionError, apply_decisions, from_position, make_record, replay, to_position
from tests.conftest import run as run_command, MANIFEST_ARG as MANIFEST


POSITION = {"players": 3, "edition": "the-og", "seed": 7, "count": 12, "match": "C5", "turn": 0,
            "hands": [["C4", "G7", "SKIP"], ["M2"], ["x2"]], "draw": ["C1", "G2"], "in_play": ["C5"]}

#: Words of the programming language that must not reach a person reading a message.
PYTHON_WORDS = re.compile(r"\b(NoneType|None|True|False|str|dict|int|bool|float|Traceback|Error)\b|must be list\b")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """The command with the shipped manifest."""
    return run_command(capsys, *argv, "--manifest", MANIFEST)


def write(tmp_path: Path, data, name: str = "input.json") -> str:
    path = tmp_path / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def one_line(err: str, path: str, message: str) -> None:
    assert err.count("\n") == 1 and err.startswith(f"{path}") and message in err, err
    assert not PYTHON_WORDS.search(err), err


@pytest.fixture(scope="module")
def record(deck) -> dict:
    """A finished 3-player game's record, played by always taking the first legal decision."""
    state = Game(deck, "the-og", 3).new_initial_state(5)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    return make_record(state, ["greedy", "random", "greedy"])


def changed(record: dict, **changes) -> dict:
    data = json.loads(json.dumps(record))
    data.update(changes)
    return data


# --- 1. decisions that are not strings ------------------------------------------------------------
@pytest.mark.parametrize("decisions, message", [
    ([None], "decision 0 must be a string like 'play C5', not null"),
    ([1, 2], "decision 0 must be a string like 'play C5', not 1"),
    (["play C4", {"play": "G7"}], "decision 1 must be a string like 'play C5', not {\"play\": \"G7\"}"),
    ("play C4", "'decisions' must be a list of decision strings, not \"play C4\""),
])
def test_decisions_that_are_not_strings_exit_2(tmp_path, capsys, record, decisions, message):
    path = write(tmp_path, {**POSITION, "decisions": decisions})
    status, out, err = run(capsys, "scenario", path)
    assert status == 2 and out == ""
    one_line(err, path, message)
    path = write(tmp_path, changed(record, decisions=decisions), "record.json")
    status, out, err = run(capsys, "replay", path)
    assert status == 2 and out == ""
    one_line(err, path, message)


def test_decisions_are_checked_before_any_is_applied(deck):
    state = from_position(deck, POSITION)
    before = to_position(state)
    with pytest.raises(PositionError, match="decision 1 must be a string"):
        apply_decisions(state, ["play C4", None])
    assert to_position(state) == before


# --- 2. pending values out of range ---------------------------------------------------------------
@pytest.mark.parametrize("pending, message", [
    ({"skip": 1000000000}, "'pending.skip' must be 0..2 (players to pass over"),
    ({"skip": -3}, "'pending.skip' must be 0..2"),
    ({"play2": -1}, "'pending.play2' must be 0 or 1 (1 while a Play 2 turn is in progress, else 0), not -1"),
    ({"play2": 2}, "'pending.play2' must be 0 or 1"),
    ({"played": 3}, "'pending.played' must be 0..2 (cards played this turn"),
    ({"drawn": 1}, "'pending.drawn' must be true or false, not 1"),
    ({"play2_next": "no"}, "'pending.play2_next' must be true or false, not \"no\""),
    ({"skip": True}, "'pending.skip' must be a whole number, not true"),
    ({"owed": "1"}, "'pending.owed' must be a list of seats, not \"1\""),
    ({"owed": [3]}, "'pending.owed' must be a seat 0..2, not 3"),
])
def test_pending_values_out_of_range_exit_2(tmp_path, capsys, pending, message):
    path = write(tmp_path, {**POSITION, "pending": pending, "decisions": ["play C4"]})
    status, out, err = run(capsys, "scenario", path)
    assert status == 2 and out == ""
    one_line(err, path, message)


def test_pending_owed_by_a_seat_that_is_out_exit_2(tmp_path, capsys):
    position = {**POSITION, "hands": [["C4"], ["M2"], []], "out": [2], "pending": {"owed": [2]}}
    path = write(tmp_path, position)
    status, _, err = run(capsys, "scenario", path)
    assert status == 2
    one_line(err, path, "'pending.owed' lists seat 2, which is out")


def test_pending_values_in_range_still_load(deck):
    state = from_position(deck, {**POSITION, "pending": {"skip": 2, "play2": 1, "played": 1, "drawn": True}})
    pending = to_position(state)["pending"]
    assert (pending["skip"], pending["play2"], pending["played"], pending["drawn"]) == (2, 1, 1, True)


# --- 3. plain words, JSON values ------------------------------------------------------------------
@pytest.mark.parametrize("changes, message", [
    ({"match": 5}, "'match' must be a card code or \"start\", not 5"),
    ({"pending": []}, "'pending' must be an object, not []"),
    ({"out": 3}, "'out' must be a list of seats, not 3"),
    ({"out": [None]}, "'out' must be a seat 0..2, not null"),
    ({"winner": True}, "'winner' must be a seat 0..2, not true"),
    ({"players": "3"}, "'players' must be a whole number, not \"3\""),
    ({"players": None}, "'players' must be a whole number, not null"),
    ({"edition": None}, "'edition' must be text, not null"),
    ({"seed": "7"}, "'seed' must be a whole number, not \"7\""),
    ({"stopped": "no"}, "'stopped' must be true or false, not \"no\""),
    ({"turns": -1}, "'turns' must be 0 or more, not -1"),
    ({"options": [1]}, "'options' must be an object of rule option names and values, not [1]"),
    ({"draw": [5]}, "'draw' must hold card codes like 'C5', not 5"),
    ({"discard": "C1"}, "'discard' must be a list of card codes, not \"C1\""),
])
def test_position_messages_use_plain_words(tmp_path, capsys, changes, message):
    path = write(tmp_path, {**POSITION, **changes})
    status, out, err = run(capsys, "scenario", path)
    assert status == 2 and out == ""
    one_line(err, path, message)


@pytest.mark.parametrize("data, message", [
    (None, "a scenario is a JSON object (a position plus \"decisions\"), not null"),
    ([1, 2], "a scenario is a JSON object (a position plus \"decisions\"), not a list"),
    ({"players": "3"}, "'players' must be a whole number, not \"3\""),
])
def test_scenario_top_level_in_plain_words(tmp_path, capsys, data, message):
    path = write(tmp_path, data)
    status, _, err = run(capsys, "scenario", path)
    assert status == 2
    one_line(err, path, message)


@pytest.mark.parametrize("make, message", [
    (lambda r: None, "a game record is a JSON object, not null"),
    (lambda r: "record", "a game record is a JSON object, not text"),
    (lambda r: changed(r, players="3"), "'players' must be a whole number, not \"3\""),
    (lambda r: changed(r, players=None), "'players' must be a whole number, not null"),
    (lambda r: changed(r, seed=True), "'seed' must be a whole number, not true"),
    (lambda r: changed(r, options="teams"), "'options' must be an object of rule option names and values, not \"teams\""),
])
def test_record_messages_use_plain_words(tmp_path, capsys, record, make, message):
    path = write(tmp_path, make(record))
    status, out, err = run(capsys, "replay", path)
    assert status == 2 and out == ""
    one_line(err, path, message)


def test_a_different_result_is_shown_as_json(tmp_path, capsys, record):
    data = changed(record, result={**record["result"], "finished": not record["result"]["finished"]})
    path = write(tmp_path, data)
    status, _, err = run(capsys, "replay", path)
    finished = json.dumps(record["result"]["finished"])
    assert status == 1
    one_line(err, path, f"the replayed result differs from the record's: finished is {finished}, the record says "
                        f"{json.dumps(not record['result']['finished'])}")


# --- 4. reading the file --------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["scenario", "replay"])
def test_a_directory_is_not_a_json_file(tmp_path, capsys, command):
    status, out, err = run(capsys, command, str(tmp_path))
    assert status == 2 and out == "" and err == f"{tmp_path}: is a directory, not a JSON file\n"


@pytest.mark.parametrize("command", ["scenario", "replay"])
def test_a_file_that_is_not_utf8_is_located(tmp_path, capsys, command):
    path = write(tmp_path, b'{"players": 3,\n  "edition": "the-\xe9og"}')
    status, out, err = run(capsys, command, path)
    assert status == 2 and out == ""
    assert err == f"{path}:2:19: not UTF-8 text (byte 0xe9); save the file as UTF-8\n"
    path = write(tmp_path, json.dumps(POSITION).encode("utf-16"), "utf16.json")
    status, _, err = run(capsys, command, path)
    assert status == 2 and err.startswith(f"{path}:1:1: not UTF-8 text (byte 0xff)")


def test_a_byte_order_mark_is_accepted(tmp_path, capsys, record):
    path = write(tmp_path, b"\xef\xbb\xbf" + json.dumps({**POSITION, "decisions": ["play C4"]}).encode())
    status, out, err = run(capsys, "scenario", path, "--json")
    assert status == 0 and err == "" and "C4" not in json.loads(out)["hands"][0]
    path = write(tmp_path, b"\xef\xbb\xbf" + json.dumps(record).encode(), "record.json")
    status, out, err = run(capsys, "replay", path, "--json")
    assert status == 0 and err == "" and json.loads(out)["matches"] is True
    path = write(tmp_path, b"\xef\xbb\xbf{\n  \"players\": 3,\n  oops\n}", "broken.json")
    status, _, err = run(capsys, "scenario", path)
    assert status == 2 and err.startswith(f"{path}:3:3: not valid JSON")


def test_json_nested_too_deeply(tmp_path, capsys):
    path = write(tmp_path, b"[" * 100000 + b"]" * 100000)
    status, out, err = run(capsys, "replay", path)
    assert status == 2 and out == "" and err == f"{path}: not readable JSON: lists or objects nested too deeply\n"


# --- 5. cards that are never played ---------------------------------------------------------------
@pytest.mark.parametrize("changes, status, message", [
    ({"hands": [["REF"], ["M2"], ["x2"]]}, 2, "'REF' in 'hands[0]' is a quick-reference card, not a playing card"),
    ({"draw": ["BLANK"]}, 2, "'BLANK' in 'draw' is a blank card, not a playing card"),
    ({"match": "REF"}, 2, "match 'REF' is a quick-reference card, not a playing card"),
    ({"decisions": ["play REF"]}, 1, "decision 0 ('play REF'): 'REF' is a quick-reference card, not a playing card"),
    ({"decisions": ["play C4", "discard BLANK"]}, 1, "decision 1 ('discard BLANK'): 'BLANK' is a blank card, not a playing card"),
])
def test_cards_that_are_never_played(tmp_path, capsys, changes, status, message):
    path = write(tmp_path, {**POSITION, **changes})
    got, out, err = run(capsys, "scenario", path)
    assert got == status and out == ""
    one_line(err, path, message)
    assert "did you mean" not in err


# --- 6. the record's bots and result --------------------------------------------------------------
@pytest.mark.parametrize("make, message", [
    (lambda r: changed(r, bots="random"), "'bots' must be a list of bot names, one per seat, not \"random\""),
    (lambda r: changed(r, bots=["foo", "greedy", "greedy"]),
     "unknown bot 'foo' for seat 0 in 'bots'; bots are random, greedy, search, search:N, human"),
    (lambda r: changed(r, bots=["greedy", "gredy", "greedy"]), "unknown bot 'gredy' for seat 1 in 'bots' (did you mean 'greedy'?)"),
    (lambda r: changed(r, bots=["greedy", None, "greedy"]), "'bots' must hold bot names like 'greedy', not null (seat 1)"),
    (lambda r: changed(r, bots=["greedy", "greedy"]), "'bots' names 2 bots but the game has 3 players (one name per seat)"),
    (lambda r: changed(r, bots=["search:0", "greedy", "greedy"]), "the search bot's rollouts are a positive whole number"),
    (lambda r: changed(r, result=None), "'result' must be an object like {\"winner\": 1"),
    (lambda r: changed(r, result="won"), "'result' must be an object like"),
    (lambda r: changed(r, result={"winer": 1}), "unknown key 'winer' in 'result' (did you mean 'winner'?)"),
    (lambda r: changed(r, result={"winner": 3}), "'result.winner' must be a seat 0..2 or null (no winner), not 3"),
    (lambda r: changed(r, result={"finished": "yes"}), "'result.finished' must be true or false, not \"yes\""),
    (lambda r: changed(r, result={"turns": -1}), "'result.turns' must be a whole number, 0 or more, not -1"),
    (lambda r: changed(r, result={"out": [0, 9]}), "'result.out' must be a list of seats 0..2, not [0, 9]"),
])
def test_record_bots_and_result_are_checked(tmp_path, capsys, record, make, message):
    path = write(tmp_path, make(record))
    status, out, err = run(capsys, "replay", path)
    assert status == 2 and out == ""
    one_line(err, path, message)


@pytest.mark.parametrize("bots", [["human", "greedy", "search:40"], []], ids=["play and search:N", "not recorded"])
def test_record_bots_that_are_fine(tmp_path, capsys, record, bots):
    path = write(tmp_path, changed(record, bots=bots))
    status, _, err = run(capsys, "replay", path)
    assert status == 0 and err == ""


def test_record_without_result_replays_with_nothing_to_check(tmp_path, capsys, deck, record):
    data = changed(record)
    del data["result"]
    path = write(tmp_path, data)
    status, out, err = run(capsys, "replay", path, "--json")
    assert status == 0 and json.loads(out)["matches"] is None and json.loads(out)["result"] == record["result"]
    assert err == f"{path}: the record has no 'result' to check; its decisions replayed without error\n"
    state, same = replay(deck, data)
    assert same is None and state.is_terminal()
    data["decisions"] = [*data["decisions"], "play C5"]
    status, _, err = run(capsys, "replay", write(tmp_path, data, "more.json"))
    assert status == 1 and "the game is over" in err


@pytest.mark.parametrize("data, message", [
    ({"teams": None}, "option teams takes false, true, not null"),
    ({"max_turns": None}, "option max_turns takes a whole number, not null"),
    ([1], "options must be a mapping of option names to values, not a list"),
])
def test_option_messages_show_json_values(data, message):
    from generator.engine.errors import OptionError
    from generator.engine.options import Options

    with pytest.raises(OptionError) as info:
        Options.from_dict(data)
    assert str(info.value) == message
