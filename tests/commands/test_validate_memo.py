"""validate's remembered answers (generator/commands/validate_memo.py): given again only while the
manifest, every file it names and the program are what the answer was made from; else checked
in full, as a first run is."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from generator.commands import file_states, validate, validate_memo
from tests.conftest import MANIFEST, ROOT, run

ART = "    art: art/steal.png\n"


@pytest.fixture
def manifest(tmp_path) -> Path:
    """The shipped manifest with a picture on its first wild (a 900x1200 PNG beside it)."""
    text = MANIFEST.read_text(encoding="utf-8")
    at = text.index("  - kind: wild\n") + len("  - kind: wild\n")
    path = tmp_path / "cards.yaml"
    path.write_text(text[:at] + ART + text[at:], encoding="utf-8")
    (tmp_path / "art").mkdir(exist_ok=True)  # the shipped icon files may be there already (conftest.py)
    Image.new("RGB", (900, 1200), "teal").save(tmp_path / "art" / "steal.png")
    return path


@pytest.fixture
def checks(monkeypatch) -> list[str]:
    """The manifests validate checked in full (rather than answered from memory)."""
    seen: list[str] = []
    full = validate.check

    def counted(args):
        seen.append(args.manifest)
        return full(args)

    monkeypatch.setattr(validate, "check", counted)
    return seen


def test_the_same_manifest_is_answered_again_word_for_word(capsys, manifest, checks):
    first = run(capsys, "validate", "--manifest", str(manifest))
    second = run(capsys, "validate", "--manifest", str(manifest))
    assert first == second and first[0] == 0 and "total printed: 212" in first[1]
    assert checks == [str(manifest)]
    as_json = run(capsys, "validate", "--json", "--manifest", str(manifest))  # another option: its own answer
    assert as_json[1].lstrip().startswith("{") and len(checks) == 2


def test_an_edited_manifest_is_checked_again(capsys, manifest, checks):
    run(capsys, "validate", "--manifest", str(manifest))
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("colour: cyan", "colour: cyna", 1), encoding="utf-8")
    status, _, err = run(capsys, "validate", "--manifest", str(manifest))
    assert status == 1 and "unknown colour 'cyna' (did you mean 'cyan'?)" in err
    assert len(checks) == 2
    # a problem is remembered as it was said, and its status with it
    assert run(capsys, "validate", "--manifest", str(manifest))[0:3:2] == (1, err)
    assert len(checks) == 2


def test_a_picture_changed_or_removed_is_checked_again(capsys, manifest, checks):
    picture = manifest.parent / "art" / "steal.png"
    assert run(capsys, "validate", "--manifest", str(manifest))[2] == ""
    Image.new("RGB", (90, 120), "teal").save(picture)  # now too small for 300 dpi
    status, _, err = run(capsys, "validate", "--manifest", str(manifest))
    assert status == 0 and "warning:" in err and "dpi" in err
    assert len(checks) == 2
    picture.unlink()
    line = manifest.read_text(encoding="utf-8").splitlines().index(ART.rstrip("\n")) + 1
    status, _, err = run(capsys, "validate", "--manifest", str(manifest))
    assert status != 0 and f"cards.yaml:{line}:" in err and "steal.png" in err
    assert len(checks) == 3


def test_a_touched_file_with_the_same_bytes_is_still_answered(capsys, manifest, checks):
    run(capsys, "validate", "--manifest", str(manifest))
    later = manifest.stat().st_mtime_ns + 5_000_000_000
    for path in (manifest, manifest.parent / "art" / "steal.png"):
        os.utime(path, ns=(later, later))
    run(capsys, "validate", "--manifest", str(manifest))
    assert len(checks) == 1


def test_a_changed_or_new_file_of_the_program_is_checked_again(capsys, manifest, checks, tmp_path, monkeypatch):
    program = tmp_path / "program"
    (program / "deck").mkdir(parents=True)
    module = program / "deck" / "rules.py"
    module.write_text("TARGET = 16\n")
    monkeypatch.setattr(file_states, "PACKAGE", program)
    run(capsys, "validate", "--manifest", str(manifest))
    run(capsys, "validate", "--manifest", str(manifest))
    assert len(checks) == 1
    module.write_text("TARGET = 21\n")
    run(capsys, "validate", "--manifest", str(manifest))
    assert len(checks) == 2
    (program / "deck" / "more.py").write_text("")
    run(capsys, "validate", "--manifest", str(manifest))
    assert len(checks) == 3


def test_a_setting_of_the_program_is_part_of_the_question(capsys, manifest, checks, monkeypatch):
    run(capsys, "validate", "--manifest", str(manifest))
    monkeypatch.setenv("COUNTY_UPPY_CMYK_PROFILE", "/nowhere.icc")
    run(capsys, "validate", "--manifest", str(manifest))
    assert len(checks) == 2


def test_a_file_written_just_now_is_hashed_when_asked_about(tmp_path):
    fresh = tmp_path / "fresh.txt"
    fresh.write_text("a")
    size, mtime, digest = file_states.state(str(fresh))
    assert mtime is None and size == 1  # its clock may not have ticked yet: not trusted by time
    assert file_states.holds(str(fresh), [size, mtime, digest])
    fresh.write_text("b")
    assert not file_states.holds(str(fresh), [size, mtime, digest])


@pytest.mark.parametrize("damage", [b"", b"{", b"[]", b'{"format": "county-uppy-validate/1"}', b"\xff\xfe"])
def test_a_damaged_answer_is_no_answer(capsys, manifest, checks, damage):
    first = run(capsys, "validate", "--manifest", str(manifest))
    for entry in validate_memo.user_cache.folder("validate").glob("*.json"):
        entry.write_bytes(damage)
    assert run(capsys, "validate", "--manifest", str(manifest)) == first
    assert len(checks) == 2


def test_a_cache_folder_that_cannot_be_written_costs_nothing_but_time(capsys, manifest, checks, monkeypatch, tmp_path):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the folder would be")
    monkeypatch.setattr(validate_memo.user_cache, "folder", lambda area: blocked / area)
    first = run(capsys, "validate", "--manifest", str(manifest))
    assert run(capsys, "validate", "--manifest", str(manifest)) == first and first[0] == 0
    assert len(checks) == 2


def test_a_new_process_answers_without_loading_the_manifest_reader(tmp_path):
    """What the memory is for: a second `validate` as a new process loads no YAML and no deck."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    probe = ("import sys\nfrom generator.cli import main\n"
             "code = main(['validate', '--manifest', sys.argv[1]])\n"
             "print('LOADED', sorted(m for m in ('yaml', 'generator.deck.manifest', 'PIL') if m in sys.modules))\n"
             "sys.exit(code)")
    said = [subprocess.run([sys.executable, "-c", probe, str(MANIFEST)], capture_output=True, text=True, env=env,
                           cwd=ROOT, timeout=120) for _ in range(2)]
    assert [s.returncode for s in said] == [0, 0]
    assert said[0].stdout.splitlines()[:-1] == said[1].stdout.splitlines()[:-1]
    assert "'yaml'" in said[0].stdout.splitlines()[-1]
    assert said[1].stdout.splitlines()[-1] == "LOADED []"


def test_an_edited_manifest_hashes_only_the_files_that_changed(capsys, manifest, checks, monkeypatch):
    hashed: list[str] = []
    state = file_states.state
    monkeypatch.setattr(file_states, "state", lambda path: (hashed.append(path), state(path))[1])
    run(capsys, "validate", "--manifest", str(manifest))
    assert any(p.endswith(os.path.join("generator", "cli.py")) for p in hashed)  # the first answer reads them all
    hashed.clear()
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("hand_size: 5", "hand_size: 6", 1), encoding="utf-8")
    assert "hand size 6" in run(capsys, "validate", "--manifest", str(manifest))[1]
    assert len(checks) == 2
    # the program's files are as the last answer recorded them: only what may have changed is read
    # (the picture, written within the last two seconds, is hashed whenever it is asked about)
    assert not [p for p in hashed if p.startswith(str(file_states.PACKAGE))], hashed


def test_build_checks_a_manifest_once_and_says_its_warnings_every_time(capsys, manifest, tmp_path, monkeypatch):
    from generator.commands import common

    Image.new("RGB", (90, 120), "teal").save(manifest.parent / "art" / "steal.png")  # prints soft: a warning
    checked: list[object] = []
    full = common._check_printable
    monkeypatch.setattr(common, "_check_printable", lambda deck: (checked.append(deck), full(deck))[1])
    out = tmp_path / "out"
    said = [run(capsys, "build", "--manifest", str(manifest), "--out", str(out), "--only", "deck") for _ in range(2)]
    assert [s[0] for s in said] == [0, 0] and len(checked) == 1
    assert "warning:" in said[0][2] and "dpi" in said[0][2]
    assert [ln for ln in said[1][2].splitlines() if ln.startswith("warning:")] == \
        [ln for ln in said[0][2].splitlines() if ln.startswith("warning:")]
    # a manifest that fails the check is checked again every time, and fails the same way
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("text: Skip the next player's turn.", "text: Skip the next player's turn \u672d.", 1),
                        encoding="utf-8")
    failed = [run(capsys, "build", "--manifest", str(manifest), "--out", str(out), "--only", "deck") for _ in range(2)]
    assert [f[0] for f in failed] == [1, 1] and failed[0][2] == failed[1][2] and "cannot draw" in failed[0][2]
    assert len(checked) == 3


@pytest.mark.parametrize("named", ["art", "font"])
def test_a_fifo_the_manifest_names_is_refused_without_waiting_for_a_writer(manifest, tmp_path, named):
    """The answer's file states once opened every file the manifest names with a blocking open(): a
    FIFO named as a picture or a font hung `validate` until something wrote to it."""
    fifo = tmp_path / "art" / "pipe"
    os.mkfifo(fifo)
    text = manifest.read_text(encoding="utf-8")
    if named == "art":
        text = text.replace(ART, "    art: art/pipe\n")
    else:
        text = text.replace("look:\n", "look:\n  fonts: {regular: art/pipe}\n", 1)
    manifest.write_text(text, encoding="utf-8")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    said = subprocess.run([sys.executable, "-m", "generator", "validate", "--manifest", str(manifest)],
                          capture_output=True, text=True, env=env, timeout=60)
    assert said.returncode == 1, said.stderr
    assert "FIFO (named pipe)" in said.stderr and "Traceback" not in said.stderr
    assert file_states.state(str(fifo)) is None
