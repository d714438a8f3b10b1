"""`diff`, `sweep` and the build's change summary print paths, names, texts and values that come
from the command line and from manifests: none reaches the terminal raw. Text output shows
control characters escaped (`\\x1b`); JSON output keeps every value exact, escaped the JSON way."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import MANIFEST
from tests.conftest import run

#: Clears the screen, retitles the window, a C1 CSI (ESC [ to many terminals) and a C1 NEXT LINE.
HOSTILE = "\x1b[2J\x1b]0;PWNED\x07\x9b31m\x85"
SHOWN = "\\x1b[2J\\x1b]0;PWNED\\x07\\x9b31m\\x85"
#: What must never be printed raw: C0 controls but newline, DEL, C1 controls, line separators.
UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]")
DESCRIPTION = "description: Play with all cards."


def assert_safe(text: str) -> None:
    found = UNSAFE.search(text)
    assert found is None, f"raw {found.group()!r} in the output: {text[max(0, found.start() - 60):found.end() + 60]!r}"


@pytest.fixture
def hostile(tmp_path, manifest_text) -> Path:
    """A valid manifest whose file name holds HOSTILE and whose first edition's description (a
    field that may hold line breaks) holds a carriage return: it overwrites the line when raw."""
    assert DESCRIPTION in manifest_text
    path = tmp_path / f"cards{HOSTILE}.yaml"
    path.write_text(manifest_text.replace(DESCRIPTION, 'description: "Play with\\rall cards."', 1), encoding="utf-8")
    return path


def test_diff_text_shows_paths_and_texts_escaped(capsys, hostile):
    status, out, err = run(capsys, "diff", str(MANIFEST), str(hostile))
    assert status == 1, err
    assert_safe(out + err)
    lines = out.splitlines()
    assert lines[1] == f"+++ {hostile.parent}/cards{SHOWN}.yaml"
    assert "edition the-og changed: description 'Play with all cards.' -> 'Play with\\rall cards.'" in lines


def test_diff_json_keeps_every_value_exact(capsys, hostile):
    status, out, err = run(capsys, "diff", "--json", str(MANIFEST), str(hostile))
    assert status == 1, err
    assert_safe(out + err)
    data = json.loads(out)
    assert data["new"] == str(hostile)
    [edition] = data["editions"]["changed"]
    assert edition["changes"]["description"]["after"] == "Play with\rall cards."


def test_diff_of_a_manifest_with_an_escape_sequence_in_a_card_name(capsys, tmp_path, manifest_text):
    bad = tmp_path / f"bad{HOSTILE}.yaml"
    bad.write_text(manifest_text.replace('name: "+{count} Card{count:/s}"', 'name: "+1\\e[2J\\x9b"', 1), encoding="utf-8")
    for argv in (["diff", str(MANIFEST), str(bad)], ["diff", "--json", str(MANIFEST), str(bad)]):
        status, out, err = run(capsys, *argv)
        assert status == 2
        assert_safe(out + err)
        lines = err.splitlines()
        assert re.fullmatch(rf".*bad{re.escape(SHOWN)}\.yaml:\d+:\d+: 'name' holds the character U\+001B \(ESCAPE\).*",
                            lines[0])
        assert lines[-1] == f"county-uppy diff: nothing compared ({tmp_path}/bad{SHOWN}.yaml could not be read as a manifest)"


def test_diff_bytes_on_a_real_terminal_stream_hold_no_escape_or_c1(hostile):
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    for flag in ([], ["--json"]):
        done = subprocess.run([sys.executable, "-m", "generator", "diff", *flag, str(MANIFEST), str(hostile)],
                              capture_output=True, timeout=120, env=env, check=False)
        assert done.returncode == 1, done.stderr
        raw = done.stdout + done.stderr
        assert b"\x1b" not in raw and b"\r" not in raw
        assert not re.search(rb"\xc2[\x80-\x9f]", raw), "a C1 control, UTF-8 encoded"


SWEEP = ["sweep", "--no-progress", "--workers", "1", "--games", "4", "--players", "2"]


def test_sweep_text_and_json_and_files_escape_the_manifest_path(capsys, tmp_path, hostile):
    out_dir = tmp_path / f"out{HOSTILE}"
    status, out, err = run(capsys, *SWEEP, "--manifest", str(hostile), "--param", "target=15,16", "--out", str(out_dir))
    assert status == 0, err
    assert_safe(out + err)
    assert f"wrote {tmp_path}/out{SHOWN}/sweep.html and {tmp_path}/out{SHOWN}/sweep.json" in out.splitlines()
    assert len([line for line in out.splitlines() if line.startswith(("15 ", "16 "))]) == 2

    status, out, err = run(capsys, *SWEEP, "--manifest", str(hostile), "--param", "target=15,16", "--json")
    assert status == 0, err
    assert_safe(out + err)
    data = json.loads(out)
    assert data["settings"]["manifest"] == str(hostile)
    # sweep.json is the same text: its values exact, nothing raw in it either
    saved = (out_dir / "sweep.json").read_text(encoding="utf-8")
    assert_safe(saved.replace("\n", ""))
    assert json.loads(saved)["settings"]["manifest"] == str(hostile)
    # a variant's manifest starts with one comment line naming where it came from
    variant = next((out_dir / "manifests").iterdir()).read_text(encoding="utf-8")
    assert variant.splitlines()[0].startswith(f"# {hostile.parent}/cards{SHOWN}.yaml with target=")


@pytest.mark.parametrize("argv", [
    ["--param", f"t{HOSTILE}=1"],
    ["--param", f"target=1{HOSTILE}"],
    ["--param", f"all_out={HOSTILE}"],
    ["--param", "target=16", "--edition", f"the{HOSTILE}"],
    ["--param", "target=16", "--bots", f"gr{HOSTILE}"],
    ["--param", "target=16", "--scheduler", f"tcp://x{HOSTILE}:1"],
    ["--param", "target=16", "--manifest", f"m{HOSTILE}.yaml"],
], ids=["param name", "param value", "option value", "edition", "bots", "scheduler", "manifest"])
def test_sweep_refusals_show_what_was_typed_escaped_on_one_line(capsys, argv):
    status, out, err = run(capsys, *SWEEP, "--manifest", str(MANIFEST), *argv)
    assert status == 2
    assert_safe(out + err)
    assert len(err.splitlines()) == 1 and SHOWN.removesuffix("\\x85") in err  # (a bot name is stripped: NEL is a space)


def test_build_change_summary_escapes_a_hostile_previous_deck_json(capsys, tmp_path):
    """The previous build's deck.json is read back to say what changed; whatever it holds is escaped."""
    out = tmp_path / "output"
    status, _, err = run(capsys, "build", "--only", "deck", "--out", str(out), "--manifest", str(MANIFEST))
    assert status == 0, err
    deck_json = out / "deck.json"
    doc = json.loads(deck_json.read_text(encoding="utf-8"))
    doc["cards"][0]["name"] = f"old{HOSTILE}"
    doc["cards"].append({**doc["cards"][1], "code": f"X{HOSTILE}", "name": f"gone{HOSTILE}"})
    deck_json.write_text(json.dumps(doc), encoding="utf-8")
    status, stdout, err = run(capsys, "build", "--only", "deck", "--out", str(out), "--manifest", str(MANIFEST))
    assert status == 0, err
    assert_safe(stdout + err)
    lines = stdout.splitlines()
    assert any(line.startswith(f"  card X{SHOWN} removed: gone{SHOWN} (") for line in lines), lines
    assert any(f"name 'old{SHOWN}' -> " in line for line in lines), lines


def test_escape_json_changes_no_value_and_leaves_printable_text_alone():
    from generator.deck.problems import escape_json

    value = {"a": f"é{HOSTILE}\x7f\u2028\u202e\udc80\U000e0001 ok", "b": [1, "line\nbreak"], "c": "plain ✓"}
    text = escape_json(json.dumps(value, indent=1, ensure_ascii=False))
    assert json.loads(text) == value
    assert_safe(text.replace("\n", ""))
    assert "é" in text and "plain ✓" in text and "\\u009b" in text and "\\udb40\\udc01" in text
    text.encode("utf-8")  # no lone surrogate left to fail on the way out
