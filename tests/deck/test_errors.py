"""One small broken manifest per kind of mistake: located one-line message, exit status, no traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from generator.cli import main

FIELD_LINE = "  - {kind: number, set: base, colour: cyan, values: -2..7, copies: 3}"


def run_validate(capsys, path) -> tuple[int, list[str]]:
    status = main(["validate", "--manifest", str(path)])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return status, err.splitlines()


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def variant(manifest_text: str, old: str, new: str) -> str:
    assert old in manifest_text, old
    return manifest_text.replace(old, new, 1)


# (id, old text, new text, expected message, needle on the expected line, expected column or None)
EDITS = [
    ("unknown colour", "colour: cyan, values: -2..7", "colour: cyna, values: -2..7",
     "unknown colour 'cyna' (did you mean 'cyan'?)", "colour: cyna", 39),
    ("wrong type", FIELD_LINE, FIELD_LINE.replace("copies: 3", "copies: three"),
     "'copies' must be a whole number, not 'three'", "copies: three", None),
    ("copies below one", FIELD_LINE, FIELD_LINE.replace("copies: 3", "copies: 0"),
     "'copies' must be at least 1, not 0", "copies: 0", None),
    ("reversed range", FIELD_LINE, FIELD_LINE.replace("-2..7", "7..-2"),
     "bad range '7..-2': it starts above where it ends (did you mean -2..7?)", "7..-2", None),
    ("non-numeric range", FIELD_LINE, FIELD_LINE.replace("-2..7", "a..b"),
     "bad range 'a..b': write two whole numbers like -2..7", "a..b", None),
    ("unknown set", FIELD_LINE, FIELD_LINE.replace("set: base", "set: bsae"),
     "unknown set 'bsae' (did you mean 'base'?)", "set: bsae", None),
    ("unknown kind", FIELD_LINE, FIELD_LINE.replace("kind: number", "kind: numbr"),
     "unknown kind 'numbr' (did you mean 'number'?)", "kind: numbr", None),
    ("unknown effect", "effect: draw_extra", "effect: draw_xtra",
     "unknown effect 'draw_xtra' (did you mean 'draw_extra'?)", "effect: draw_xtra", 13),
    ("unknown key", FIELD_LINE, FIELD_LINE.replace("copies: 3", "copys: 3"),
     "unknown key 'copys' (did you mean 'copies'?)", "copys: 3", None),
    ("unknown top-level key", "editions:\n", "editoins:\n",
     "unknown key 'editoins' (did you mean 'editions'?)", "editoins:", 1),
    ("missing key", "    code: REV\n", "",
     "a wild card needs 'code'", None, None),
    ("duplicate code", "    code: STEAL\n", "    code: REV\n",
     "duplicate card code 'REV'", None, None),
    ("missed expect", "expect: 93", "expect: 94",
     "edition 'only-chaos' has 93 playing cards, but expect says 94", "expect: 94", 13),
    ("edition selects nothing", "include: [{set: chaos}]", "include: [{set: base, kind: dual}]",
     "edition 'only-chaos' selects no playing cards", "kind: dual}]", None),
    ("target below one", "target: 16", "target: 0",
     "'target' must be at least 1, not 0", "target: 0", 11),
    ("hand size below one", "hand_size: 5", "hand_size: -1",
     "'hand_size' must be at least 1, not -1", "hand_size: -1", 14),
    ("unknown effect parameter", "params: {factor: 2}", "params: {factr: 2}",
     "effect 'multiply' has no parameter 'factr' (did you mean 'factor'?)", "factr", None),
    ("unknown placeholder", "text: Multiply the current count by {factor}.", "text: Multiply the current count by {fator}.",
     "unknown placeholder '{fator}' (did you mean 'factor'?)", "{fator}", None),
    ("unknown colour in dual", "colours: [cyan, green]", "colours: [cyan, gren]",
     "unknown colour 'gren' (did you mean 'green'?)", "gren", None),
    ("duplicate key", "  target: 16\n", "  target: 16\n  target: 17\n",
     "duplicate key 'target'", "target: 17", 3),
    ("YAML syntax error", "  hand_size: 5\n", "  hand_size: [5\n",
     "YAML syntax error", None, None),
    ("object-building tag", "  name: County Uppy\n", "  name: !!python/object/apply:os.system ['echo pwned']\n",
     "YAML tag '!!python/object/apply:os.system' is not allowed in a manifest", "!!python", 9),
    ("bad item in a list of values", FIELD_LINE, FIELD_LINE.replace("values: -2..7", "values: [-2..7, 3.5]"),
     "'values' must be a number, a range such as -2..7, or a list of them, not 3.5", "3.5", 61),
    ("kind filter of an edition", "include: [{set: chaos}]", "include: [{set: chaos, kind: wilds}]",
     "unknown kind 'wilds' (did you mean 'wild'?)", "kind: wilds", 34),
    ("tab indentation", "  target: 16\n", "\ttarget: 16\n",
     "(indent with spaces, not tabs)", "\ttarget", 1),
    ("empty section", "editions:\n", "editions: []\nunused:\n",
     "'editions' must not be empty", "editions: []", 11),
    ("section of the wrong type", "  players: {min: 2, max: 8}\n", "  players: many\n",
     "'players' must be a mapping of keys to values, not text", "players: many", 12),
    ("colour letter used twice", "name: green, code: G,", "name: green, code: C,",
     "code letter 'C' is already used by cyan", "name: green, code: C,", 25),
    ("dual with one colour", "colours: [cyan, green]", "colours: [cyan, cyan]",
     "a dual card has two different colours", "colours: [cyan, cyan]", None),
    ("number given an effect", FIELD_LINE, FIELD_LINE.replace("copies: 3}", "copies: 3, effect: skip}"),
     "a number card takes no 'effect'", "effect: skip", None),
    ("wild missing its parameter", "params: {factor: 2}", "params: {}",
     "effect 'multiply' needs the parameter 'factor'", "params: {}", None),
    ("bad print colour", '"#00A3D9"', '"cyan-ish"',
     "'print' must be a colour like '#00A3D9', not 'cyan-ish'", "cyan-ish", None),
    ("players min above max", "players: {min: 2, max: 8}", "players: {min: 9, max: 8}",
     "players: min (9) is larger than max (8)", "min: 9", None),
    ("top level not a mapping", None, "- just\n- a list\n",
     "the top level must be a mapping with the keys game, colours, sets, cards, editions", None, None),
    ("multiply by zero", "params: {factor: 2}", "params: {factor: 0}",
     "'factor' must be at least 2 (x1 would change nothing), not 0", "factor: 0", 22),
    ("parameter of the wrong type", "params: {factor: 2}", "params: {factor: two}",
     "'factor' must be a whole number, not 'two'", "factor: two", 22),
    ("set the count below zero", "params: {value: 15}", "params: {value: -1}",
     "'value' must be 0..999 (the count it sets), not -1", "value: -1", 21),
    ("too many copies", FIELD_LINE, FIELD_LINE.replace("copies: 3", "copies: 100000000"),
     "'copies' must be at most 1000, not 100000000", "copies: 100000000", None),
    ("a range too long to be cards", FIELD_LINE, FIELD_LINE.replace("-2..7", "-2..100000000"),
     "bad range '-2..100000000': it holds 100000003 values; a range holds at most 100", "-2..100000000", 53),
    ("a value too big to print", FIELD_LINE, FIELD_LINE.replace("values: -2..7", "values: [-2..7, 5000]"),
     "card value 5000 does not fit on a card: values are -999..999", "5000", None),
    ("a name too long for a card", "    name: Skip\n", "    name: " + "Skip" * 10 + "\n",
     "'name' is 40 characters long; at most 24 fit on a card", "SkipSkipSkip", 11),
    ("an unbalanced brace", "text: Skip the next", "text: Skip {factor the next",
     "bad placeholder in \"Skip {factor the next player's turn.\": expected '}' before end of string "
     "(write {{ and }} for literal braces)", "Skip {factor", 11),
    ("a stray closing brace", "text: Skip the next", "text: Skip } the next",
     "Single '}' encountered in format string", "Skip }", 11),
    ("a YAML boolean where text goes", "    code: REV\n", "    code: NO\n",
     "'code' must be text, not false (YAML reads a bare yes, no, on, off, true or false as true/false: "
     "put the text in quotes)", "code: NO", 11),
    ("a NUL character", "text: Skip the next", "text: Skip\x00 the next",
     "the character U+0000 is not allowed in a manifest; delete it", "Skip\x00", 15),
    ("a tab inside a value", "text: Skip the next", "text: Skip\tthe next",
     "(a tab inside a value: write spaces, or put the text in quotes)", "Skip\tthe", 15),
    ("nested too deep", "  target: 16\n", "  target: 16\n  deep: " + "[" * 100 + "]" * 100 + "\n",
     "nested more than 64 levels deep; a manifest needs no more than a few", "deep:", None),
    ("nested too deep to read", "  target: 16\n", "  target: 16\n  deep: " + "[" * 2000 + "]" * 2000 + "\n",
     "brackets or indentation nested too deeply to read", None, None),
    ("a YAML base-60 number", FIELD_LINE, FIELD_LINE.replace("-2..7", "1:30"),
     "1:30 reads as a base-60 number in YAML; write a range as 1..30, or put the text in quotes", "1:30", 53),
    # YAML 1.1 reads a leading zero as octal: `copies: 010` made 8 copies, without a word
    ("a YAML octal number", FIELD_LINE, FIELD_LINE.replace("copies: 3", "copies: 010"),
     "010 reads as an octal number (8) in YAML, because of its leading zero; write 10", "copies: 010", 68),
    ("a YAML octal number with underscores", FIELD_LINE, FIELD_LINE.replace("copies: 3", "copies: 0_"),
     "0_ reads as an octal number (0) in YAML, because of its leading zero; write 0", "copies: 0_", 68),
    ("an empty include entry", "include: [{set: chaos}]", "include: [{}]",
     "an include entry needs 'set', 'kind' or both", "include: [{}]", 15),
    ("a quote never closed", "    name: Skip\n", '    name: "Skip {factor}\n',
     "YAML syntax error: a quote opened here is never closed", '"Skip {factor}', 11),
]


@pytest.mark.parametrize("case", EDITS, ids=[c[0] for c in EDITS])
def test_each_mistake_is_located(tmp_path, capsys, manifest_text, case):
    _, old, new, message, needle, column = case
    text = new if old is None else variant(manifest_text, old, new)
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    status, lines = run_validate(capsys, path)
    assert status == 1
    hits = [line for line in lines if message in line]
    assert hits, lines
    prefix = hits[0].split(": ", 1)[0]
    file_, line, col = prefix.rsplit(":", 2)
    assert file_ == str(path)
    if needle is not None:
        assert int(line) == line_of(text, needle)
    if column is not None:
        assert int(col) == column
    assert int(line) >= 1 and int(col) >= 1


def test_one_message_per_mistake(tmp_path, capsys, manifest_text):
    path = tmp_path / "cards.yaml"
    path.write_text(variant(manifest_text, "include: [{set: chaos}]", "include: [{set: chaos, kind: wilds}]"))
    assert len(run_validate(capsys, path)[1]) == 1
    path.write_text(variant(manifest_text, FIELD_LINE, FIELD_LINE.replace("values: -2..7", "values: [-2..7, 3.5]")))
    assert len(run_validate(capsys, path)[1]) == 1


def test_all_mistakes_of_a_file_in_one_run(tmp_path, capsys, manifest_text):
    text = variant(manifest_text, "colour: cyan, values: -2..7", "colour: cyna, values: -2..7")
    text = variant(text, "effect: reverse", "effect: revers")
    text = variant(text, "interior: black", "interior: grey")
    text = variant(text, "hand_size: 5", "hand_size: five")
    path = tmp_path / "cards.yaml"
    path.write_text(text)
    status, lines = run_validate(capsys, path)
    assert status == 1
    assert len(lines) == 4, lines
    assert [int(x.split(":")[1]) for x in lines] == sorted(int(x.split(":")[1]) for x in lines)


def test_json_errors(tmp_path, capsys, manifest_text):
    path = tmp_path / "cards.yaml"
    path.write_text(variant(manifest_text, "colour: cyan, values: -2..7", "colour: cyna, values: -2..7"))
    assert main(["validate", "--json", "--manifest", str(path)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False
    (error,) = out["errors"]
    assert error == {"path": str(path), "line": line_of(path.read_text(), "colour: cyna"), "column": 39,
                     "message": "unknown colour 'cyna' (did you mean 'cyan'?)"}


@pytest.mark.parametrize("content,message", [
    (b"", "the manifest is empty"),
    (b"# only a comment\n\n", "the manifest is empty"),
    (b"game:\n  name: Caf\xe9\n", "not UTF-8 text"),
])
def test_empty_and_undecodable_files(tmp_path, capsys, content, message):
    path = tmp_path / "cards.yaml"
    path.write_bytes(content)
    status, lines = run_validate(capsys, path)
    assert status == 1
    assert len(lines) == 1 and message in lines[0] and lines[0].startswith(f"{path}:")


def test_not_utf8_points_at_the_byte(tmp_path, capsys):
    path = tmp_path / "cards.yaml"
    path.write_bytes(b"game:\n  name: Caf\xe9\n")
    _, lines = run_validate(capsys, path)
    assert lines[0].startswith(f"{path}:2:12: ")


def test_missing_file_and_directory_exit_2(tmp_path, capsys):
    assert run_validate(capsys, tmp_path / "nope.yaml") == (2, [f"{tmp_path / 'nope.yaml'}: no such file (run in the folder that holds it, or pass --manifest PATH)"])
    assert run_validate(capsys, tmp_path) == (2, [f"{tmp_path}: is a directory, not a manifest file"])


def test_billion_laughs_is_refused_quickly(tmp_path, capsys):
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]")
    path = tmp_path / "cards.yaml"
    path.write_text("\n".join(lines) + "\n")
    status, out = run_validate(capsys, path)
    assert status == 1
    # Refused while composing, at the alias that crosses the budget (line 5: 9**5 > 10,000),
    # not after expanding the whole document (a machine-independent stand-in for "quickly").
    assert any(":5:8: aliases and merge keys repeat more than 10,000 values" in line for line in out)


def test_python_tag_is_never_executed(tmp_path, capsys):
    marker = tmp_path / "pwned"
    path = tmp_path / "cards.yaml"
    path.write_text(f"game: !!python/object/apply:os.system ['touch {marker}']\n")
    status, lines = run_validate(capsys, path)
    assert status == 1 and not marker.exists()
    assert "is not allowed in a manifest" in lines[0]


def test_failed_validation_touches_no_output(tmp_path, capsys, manifest_text):
    out = tmp_path / "out"
    assert main(["build", "--out", str(out)]) == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    bad = tmp_path / "cards.yaml"
    bad.write_text(variant(manifest_text, "copies: 3}", "copies: three}"))
    assert main(["build", "--out", str(out), "--manifest", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "nothing was built" in err and "'copies' must be a whole number" in err
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_the_console_script_reports_without_traceback(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text("game: [\n")
    proc = subprocess.run([sys.executable, "-m", "generator", "validate", "--manifest", str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"{path}:") and "Traceback" not in proc.stderr


def test_an_empty_manifest_path_is_refused(capsys):
    assert main(["validate", "--manifest", ""]) == 2
    assert "--manifest: no file named" in capsys.readouterr().err
