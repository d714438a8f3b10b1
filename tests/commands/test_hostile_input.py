"""Hostile input that used to end in a traceback, a silent wrong answer or a raw escape sequence on
the terminal: each case now ends in one located line and exit 1 or 2 (issue: survive hostile input).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import run
from tests.conftest import ROOT

LOCATED = re.compile(r"^[^\n]+:\d+:\d+: \S")
CARD_NAME = 'name: "+{count} Card{count:/s}"'


def write_manifest(tmp_path: Path, manifest_text: str, old: str, new: str) -> Path:
    assert old in manifest_text, old
    path = tmp_path / "cards.yaml"
    path.write_text(manifest_text.replace(old, new, 1), encoding="utf-8")
    return path


FIRST_COPIES = "values: -2..7, copies: 3}"

# (id, old text, new text, message expected on a located line, the text on that line)
MANIFEST_CASES = [
    ("5000-digit integer", FIRST_COPIES, "values: -2..7, copies: " + "1" * 5000 + "}",
     "a number of 5,000 digits; numbers in a manifest have at most 18 digits", "copies: 111"),
    ("hex integer past the limit", FIRST_COPIES, "values: -2..7, copies: !!int 0x" + "f" * 5000 + "}",
     "numbers in a manifest have at most 18 digits", "copies: !!int"),
    ("!!float on a range", FIRST_COPIES, "values: !!float 5..9, copies: 3}",
     "'5..9' cannot be read as !!float (a number); remove the '!!float' tag", "!!float 5..9"),
    ("!!int on a hex range", FIRST_COPIES, "values: !!int 0x10..9, copies: 3}",
     "'0x10..9' cannot be read as !!int (a whole number)", "!!int 0x10..9"),
    ("!!int on a word", FIRST_COPIES, "values: !!int sixteen, copies: 3}",
     "'sixteen' cannot be read as !!int", "!!int sixteen"),
    ("!!bool on a word", FIRST_COPIES, "values: -2..7, copies: !!bool maybe}",
     "'maybe' cannot be read as !!bool (true or false)", "!!bool maybe"),
    ("!!timestamp on a word", FIRST_COPIES, "values: -2..7, copies: !!timestamp soon}",
     "'soon' cannot be read as !!timestamp (a date)", "!!timestamp soon"),
    ("a range of 5000 digits", FIRST_COPIES, "values: 1.." + "9" * 5000 + ", copies: 3}",
     "card values are -999..999", "values: 1..999"),
    ("a mapping merging itself", "game:\n", "game: &g\n  <<: *g\n",
     "the alias *g refers to the value it stands in, which would repeat forever", "<<: *g"),
    ("a list holding itself", "game:\n", "loop: &a [1, *a]\ngame:\n",
     "the alias *a refers to the value it stands in", "loop: &a"),
    ("a lone surrogate in the game's name", "name: County Uppy", 'name: "County \\udc80 Uppy"',
     "'name' holds the character U+DC80 (a lone surrogate): cannot be written as UTF-8 text", "County \\udc80"),
    ("a newline in a card name", CARD_NAME, 'name: "+1\\nCard"',
     "'name' holds the character U+000A (LINE FEED): a line break: a name is one line", '"+1\\nCard"'),
    ("a carriage return in a card name", CARD_NAME, 'name: "+1\\rCard"',
     "U+000D (CARRIAGE RETURN): a line break", '"+1\\rCard"'),
    ("NEL in a card name", CARD_NAME, 'name: "+1\\NCard"', "U+0085 (NEXT LINE): a line break", '"+1\\NCard"'),
    ("U+2028 in a card name", CARD_NAME, 'name: "+1\\LCard"', "U+2028 (LINE SEPARATOR): a line break", '"+1\\LCard"'),
    ("U+2029 in a card name", CARD_NAME, 'name: "+1\\PCard"', "U+2029 (PARAGRAPH SEPARATOR)", '"+1\\PCard"'),
    ("an escape sequence in a card name", CARD_NAME, 'name: "\\e[2J\\e]0;PWNED\\a"',
     "U+001B (ESCAPE): it cannot be printed on a card", "PWNED"),
    ("a character the typeface cannot draw", CARD_NAME, 'name: "+1 札"',
     "card '+1': its name holds U+672D (CJK UNIFIED IDEOGRAPH-672D), which the typeface (DejaVu Sans) cannot draw",
     "+1 札"),
    # a width or precision in a placeholder's format: '{target:.999999999f}' took 330 s and 6.8 GB, then passed
    ("a placeholder 100,000 wide", "text: Skip the next player's turn.", "text: 'Skip {target:>100000}'",
     "the format '>100000' asks for 100,000 characters; a placeholder's width and precision are at most 200",
     "{target:>100000}"),
    ("a placeholder in a placeholder's format", "text: Skip the next player's turn.", "text: 'Skip {target:{target}}'",
     "bad placeholder in 'Skip {target:{target}}': the format of '{target}' holds another placeholder", "{target:{target}}"),
    ("a lone brace in an added text", "look:\n", "look:\n  wild:\n    add:\n      - {name: credit, text: 'Art {', x: 10mm, "
     "y: 10mm, width: 20mm, height: 5mm, size: 8pt}\n", "bad placeholder in 'Art {': Single '{' encountered", "text: 'Art {'"),
    ("an unknown icon in an added text", "look:\n", "look:\n  wild:\n    add:\n      - {name: credit, text: 'Art {cyna}', x: 10mm, "
     "y: 10mm, width: 20mm, height: 5mm, size: 8pt}\n", "unknown icon 'cyna' (did you mean 'cyan'?)", "text: 'Art {cyna}'"),
    # a NUL in a file's path made validate an internal error (ValueError: embedded null byte, from resolve())
    ("a NUL in an icon's path", "skip: art/icons/skip.svg", 'skip: "art/icons/sk\\0ip.svg"',
     "'skip' holds the character U+0000 (NUL)", "sk\\0ip.svg"),
    ("a NUL in a card picture's path", "    text: Skip the next player's turn.\n",
     "    text: Skip the next player's turn.\n    art: \"art/\\0.png\"\n", "'art' holds the character U+0000 (NUL)",
     'art: "art/\\0.png"'),
    # its print files' names (print/county-uppy-a4-KEY.pdf) went past 255 bytes: validate passed, build failed
    ("an edition key too long for a file name", "key: keep-it-simple", "key: " + "k" * 300,
     "'key' is 300 characters long; at most 40 are allowed", "key: kkk"),
    ("an edition description too long", "description: Play with all number cards and no wild cards.",
     "description: " + "x" * 600, "'description' is 600 characters long; at most 500 are allowed", "xxxxx"),
]


@pytest.mark.parametrize("case", MANIFEST_CASES, ids=[c[0] for c in MANIFEST_CASES])
def test_manifest_case_is_located(tmp_path, capsys, manifest_text, case):
    _, old, new, message, needle = case
    path = write_manifest(tmp_path, manifest_text, old, new)
    status, _, err = run(capsys, "validate", "--manifest", str(path))
    assert status == 1, err
    lines = err.splitlines()
    assert all(LOCATED.match(line) for line in lines), lines
    hit = next((line for line in lines if message in line), None)
    assert hit, lines
    line_no = int(re.match(r"^.*?cards\.yaml:(\d+):\d+: ", hit).group(1))
    assert needle in path.read_text(encoding="utf-8").splitlines()[line_no - 1]


def test_build_refuses_what_validate_refuses(tmp_path, capsys, manifest_text):
    """validate's verdict is build's: a name the typeface cannot draw stops the build before anything is drawn."""
    path = write_manifest(tmp_path, manifest_text, CARD_NAME, 'name: "+1 札"')
    status, _, err = run(capsys, "build", "--manifest", str(path), "--out", str(tmp_path / "out"), "--only", "deck")
    assert status == 1
    assert "cannot draw" in err and "nothing was built" in err
    assert not (tmp_path / "out" / "deck.json").exists()


def test_control_characters_are_shown_escaped_on_one_line(tmp_path, capsys, manifest_text):
    """A tab in a code and ESC in a name reach the terminal as \\t and \\x1b, never raw."""
    text = manifest_text.replace('code: "+1"', 'code: "a\\tb"', 1).replace(CARD_NAME, 'name: "\\e[2J"', 1)
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    status, _, err = run(capsys, "validate", "--manifest", str(path))
    assert status == 1
    assert "\x1b" not in err and "\t" not in err
    assert "card code 'a\\tb' must be one word without spaces" in err
    assert all(LOCATED.match(line) for line in err.splitlines())


def test_escape_shows_every_unprintable_character():
    from generator.deck.problems import Problem, escape

    assert escape("plain café ✓") == "plain café ✓"
    assert escape("\x1b[2J\x07") == "\\x1b[2J\\x07"
    assert escape("a\tb\nc\rd\u2028e\u2029f\x85g\udc80") == "a\\tb\\nc\\rd\\u2028e\\u2029f\\x85g\\udc80"
    assert str(Problem("x.yaml", 3, 4, "bad 'a\nb'")) == "x.yaml:3:4: bad 'a\\nb'"


def test_a_large_plain_manifest_is_refused_quickly_by_its_node_count(tmp_path, capsys, manifest_text):
    """No alias at all: the message names the size limit, not aliases, and comes before the file is composed."""
    entries = "".join(f"  - {{kind: number, set: base, colour: cyan, values: {i}, copies: 1}}\n"
                      for i in range(100, 3100))
    path = write_manifest(tmp_path, manifest_text, "cards:\n", "cards:\n" + entries)
    assert path.stat().st_size < 256 * 1024
    status, _, err = run(capsys, "validate", "--manifest", str(path))
    assert status == 1
    assert "the manifest holds more than 10,000 values" in err and "alias" not in err
    # refused where the 10,001st value stands (about 11 values an entry), not after reading all 3,000 entries
    line = int(re.match(r"^.*?cards\.yaml:(\d+):\d+: ", err).group(1))
    assert 900 < line < 1000


def test_a_file_over_the_size_limit_is_refused_at_once(tmp_path, capsys, manifest_text):
    path = tmp_path / "cards.yaml"
    path.write_text(manifest_text + "#" * (300 * 1024) + "\n", encoding="utf-8")
    status, _, err = run(capsys, "validate", "--manifest", str(path))
    assert status == 1
    assert f"{path}:1:1: is {path.stat().st_size:,} bytes; a manifest may be at most 262,144 bytes (256 KiB)" in err


def test_card_types_and_printed_cards_are_capped(tmp_path, capsys, manifest_text):
    """Ranges make card types cheaply in YAML: 2,700 types (each a face to draw) are refused, not built."""
    entries = "".join(f"  - {{kind: number, set: base, colour: {c}, values: {lo}..{lo + 99}, copies: 1}}\n"
                      for c in ("cyan", "green", "magenta") for lo in range(100, 1000, 100))
    path = write_manifest(tmp_path, manifest_text, "cards:\n", "cards:\n" + entries)
    status, _, err = run(capsys, "validate", "--manifest", str(path))
    assert status == 1
    assert "the manifest defines 2,798 card types; at most 400 are allowed" in err
    assert "the manifest prints 2,912 cards (copies counted); at most 2,000 are allowed" in err


# --- positions, records and bots ------------------------------------------------------

def write_json(tmp_path: Path, text: str) -> str:
    path = tmp_path / "input.json"
    path.write_text(text, encoding="utf-8")
    return str(path)


HANDS = '"hands": [["C5", "G7"], ["M2"], ["C1"]]'


@pytest.mark.parametrize("text, status, message", [
    ('{"players": 3,\n "seed": ' + "1" * 5000 + "}", 2, ":2:10: a number of 5,000 digits; whole numbers here have at most 40"),
    ('{"players": 3, "seed": NaN}', 2, ":1:24: NaN is not a number JSON allows"),
    ('{"players": 3, ' + HANDS.replace('["C1"]', '["C5", "C5", "C5"]') + "}", 2,
     'the position holds 4 copies of "C5" (hands, draw, discard and in_play together), but edition \'the-og\' has 3'),
    ('{"players": 3, "edition": "keep-it-simple", ' + HANDS.replace('"C1"', '"SKIP"') + "}", 2,
     "card \"SKIP\" in 'hands[2]' is not in edition 'keep-it-simple'"),
    ('{"players": 3, "edition": "keep-it-simple", "match": "CG5", ' + HANDS + "}", 2,
     "match \"CG5\" is not a card of edition 'keep-it-simple'"),
    ('{"players": 3, "count": 100, ' + HANDS + "}", 2, "'count' must be 0..15"),
    ('{"players": 3, "count": ' + str(2 ** 100) + ", " + HANDS + "}", 2, "'count' must be 0..15"),
    ('{"players": 3, "count": -1, ' + HANDS + "}", 2, "'count' must be 0..15"),
    # the second value was taken without a word (a position read as another one)
    ('{"players": 3, "count": 4,\n "count": 9, ' + HANDS + "}", 2, ":2:2: duplicate key 'count': a key is given once"),
], ids=["5000-digit seed", "NaN", "extra copies", "card outside the edition", "match outside the edition",
        "count 100", "count 2**100", "count -1", "a key twice"])
def test_positions_obey_the_deck(tmp_path, capsys, text, status, message):
    path = write_json(tmp_path, text)
    got, _, err = run(capsys, "scenario", path)
    assert got == status, err
    assert message in err and len(err.splitlines()) == 1


def test_a_huge_search_budget_in_a_record_is_refused(tmp_path, capsys):
    record = {"seed": 1, "players": 2, "bots": ["search:" + "9" * 5000, "random"], "decisions": []}
    got, _, err = run(capsys, "replay", write_json(tmp_path, json.dumps(record)))
    assert got == 2
    assert "the search bot's rollouts are a positive whole number up to 100,000" in err


@pytest.mark.parametrize("argv", [
    ["simulate", "--games", "1", "--players", "2", "--bots", "search:" + "9" * 5000 + ",random"],
    ["simulate", "--games", "1", "--players", "2", "--bots", "search:²,random"],
    ["report", "--games", "1", "--players", "2", "--bots", "search:" + "9" * 5000],
])
def test_a_huge_search_budget_on_the_command_line_is_refused(capsys, tmp_path, argv):
    got, _, err = run(capsys, *argv, "--out", str(tmp_path / "r")) if argv[0] == "report" else run(capsys, *argv)
    assert got == 2, err
    assert "search bot's rollouts are a positive whole number up to 100,000" in err
    assert len(err.splitlines()) == 1


def test_the_largest_manifest_the_limits_accept_validates(tmp_path, capsys):
    """benchmarks/largest_manifest.py measures docs/commands.md's memory bound on this manifest: it must pass."""
    import importlib.util

    from generator.deck.manifest import load
    from generator.deck.shape import MAX_CARD_TYPES, MAX_PRINTED

    spec = importlib.util.spec_from_file_location("largest", ROOT / "benchmarks" / "largest_manifest.py")
    largest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(largest)
    path = tmp_path / "cards.yaml"
    path.write_text(largest.largest_manifest(), encoding="utf-8")
    status, _, err = run(capsys, "validate", "--manifest", str(path))
    assert status == 0, err
    deck = load(path)
    assert len(deck.cards) == MAX_CARD_TYPES and deck.printed == MAX_PRINTED
    # one more copy of any card is refused
    path.write_text(largest.largest_manifest().replace("copies: 5}", "copies: 6}", 1), encoding="utf-8")
    status, _, err = run(capsys, "validate", "--manifest", str(path))
    assert status == 1 and "at most 2,000 are allowed" in err
