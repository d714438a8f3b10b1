"""build's remembered answer (generator/commands/build_memo.py): `county-uppy build` run again as a
new process with nothing changed says what a full build says and leaves the output folder alone,
without loading the products' code; anything changed (the manifest, a file it names, a file in the
output folder, an option, the program) means the full build, whose files equal a cold build's."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import MANIFEST, ROOT, run

#: A `county-uppy build` as a new process, which then writes down the heavy libraries it loaded.
#: MEMO_PACKAGE (a test's copy of a program folder) stands for the package's files.
DRIVER = """
import os, sys
from pathlib import Path
if os.environ.get("MEMO_PACKAGE"):
    from generator.commands import file_states
    file_states.PACKAGE = Path(os.environ["MEMO_PACKAGE"])
from generator.cli import main
code = main(sys.argv[1:])
sys.stdout.flush()
Path(os.environ["MEMO_LOADED"]).write_text(" ".join(m for m in ("PIL", "reportlab", "jinja2", "yaml", "generator.products.build") if m in sys.modules))
sys.exit(code)
"""
#: What every full build loads: the products' code (a cold one loads Pillow and reportlab too;
#: jinja2 is loaded by the rulebook's worker)
HEAVY = {"generator.products.build"}
#: The products a quick test builds (the card images, deck.json)
QUICK = ("--only", "deck", "--only", "cards")


def county(folder: Path, *args: str, env: dict | None = None) -> tuple[int, str, str, set[str]]:
    """`county-uppy build ARGS` run in `folder` as a new process, with the folder's own user cache:
    (status, stdout, stderr, the heavy libraries it loaded)."""
    loaded = folder / "loaded.txt"
    env = {**os.environ, "XDG_CACHE_HOME": str(folder / "cache"), "MEMO_LOADED": str(loaded),
           "PYTHONPATH": str(ROOT), **(env or {})}
    done = subprocess.run([sys.executable, "-c", DRIVER, "build", *args], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=300)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stdout, done.stderr, set(loaded.read_text().split())


def project(folder: Path) -> Path:
    """A designer's folder: the shipped manifest and the pictures it names."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(MANIFEST, folder / "cards.yaml")
    if not (folder / "art").exists():
        shutil.copytree(ROOT / "art", folder / "art")
    return folder


def snapshot(out: Path) -> dict[str, tuple[int, str]]:
    """Every file and folder in `out`: its modification time and, for a file, the sha256 of its bytes."""
    found = {}
    for path in sorted(out.rglob("*")):
        st = path.lstat()
        digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "folder"
        found[path.relative_to(out).as_posix()] = (st.st_mtime_ns, digest)
    return found


def products_of(out: Path) -> dict[str, str]:
    """What a build made, as a cold build must make it too: each file build.json lists (but the
    changes.json that says what changed since the previous build) by the sha256 of its bytes."""
    listed = json.loads((out / "build.json").read_text())["artifacts"]
    files = {a["path"]: hashlib.sha256((out / a["path"]).read_bytes()).hexdigest() for a in listed
             if a["path"] != "changes.json"}
    assert files == {a["path"]: a["sha256"] for a in listed if a["path"] != "changes.json"}
    return files


def forget(folder: Path) -> None:
    """Remove every remembered build answer of the folder's user cache."""
    for entry in (folder / "cache" / "county-uppy" / "build").glob("*.json"):
        entry.unlink()


def test_a_rebuild_with_nothing_changed_says_what_a_full_build_says_and_touches_nothing(tmp_path):
    folder = project(tmp_path / "deck")
    status, _, _, loaded = county(folder)
    assert status == 0 and {*HEAVY, "PIL", "reportlab"} <= loaded
    before = snapshot(folder / "output")
    again = county(folder)
    assert again[0] == 0 and again[3] == set(), again  # no reportlab, Pillow, jinja2, not even YAML or the products' code
    assert snapshot(folder / "output") == before  # every byte, every time, nothing added or removed
    assert again[1].endswith("changes since the previous build:\n  the deck is the same\n"
                             "  files: none added, removed or redrawn\n"
                             "built 219 files into output/ (listed in output/build.json)\n"), again[1]
    assert "tts/county-uppy.json loads its card sheets from file://" in again[1]
    forget(folder)  # the full path, with nothing changed: the same words on both streams
    full = county(folder)
    assert HEAVY <= full[3]
    assert full[:3] == again[:3]
    assert products_of(folder / "output") == {p: d for p, (_, d) in before.items() if p in products_of(folder / "output")}


def test_the_check_s_warnings_are_said_again(tmp_path):
    """A picture that will print soft is a warning of every build, remembered or not."""
    from PIL import Image

    folder = project(tmp_path / "deck")
    text = (folder / "cards.yaml").read_text(encoding="utf-8")
    at = text.index("  - kind: wild\n") + len("  - kind: wild\n")
    (folder / "cards.yaml").write_text(text[:at] + "    art: art/steal.png\n" + text[at:], encoding="utf-8")
    Image.new("RGB", (90, 120), "teal").save(folder / "art" / "steal.png")
    first = county(folder, *QUICK)
    again = county(folder, *QUICK)
    forget(folder)
    full = county(folder, *QUICK)
    assert again[3] == set() and HEAVY <= full[3]
    assert "warning:" in again[2] and "dpi" in again[2]
    assert again[:3] == full[:3] and first[2] == again[2]


def _edit_manifest(folder: Path) -> None:
    path = folder / "cards.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("text: Skip the next player's turn.",
                                                             "text: Skip the next turn.", 1), encoding="utf-8")


def _edit_icon(folder: Path) -> None:
    path = folder / "art" / "icons" / "reverse.svg"
    path.write_text(path.read_text(encoding="utf-8").replace("M1616 544.48", "M1516 544.48", 1), encoding="utf-8")


def _delete_output(folder: Path) -> None:
    next((folder / "output" / "cards").glob("*.png")).unlink()


def _edit_output(folder: Path) -> None:
    card = sorted((folder / "output" / "cards").glob("*.png"))[3]
    card.write_bytes(card.read_bytes()[:-1] + b"\0")


def _add_output(folder: Path) -> None:
    (folder / "output" / "cards" / "extra.png").write_bytes(b"not a card")


def _touch_output(folder: Path) -> None:
    """The same bytes, another time: the answer still holds (only the bytes count)."""
    card = sorted((folder / "output" / "cards").glob("*.png"))[5]
    later = card.stat().st_mtime_ns + 5_000_000_000
    os.utime(card, ns=(later, later))


def _remove_cache_pack(folder: Path) -> None:
    """A pack of the output's face cache gone: the listing differs (a pack's bytes are not recorded:
    a build checks them by their content when it reads them, and an answer reads none)."""
    next((folder / "output" / ".cache").glob("*.pack")).unlink()


CHANGES = {"the manifest edited": (_edit_manifest, (), {}), "a picture it names edited": (_edit_icon, (), {}),
           "a pack of the output's cache removed": (_remove_cache_pack, (), {}),
           "an output file deleted": (_delete_output, (), {}), "an output file edited": (_edit_output, (), {}),
           "a file added to the output": (_add_output, (), {}), "another option": (None, ("--jobs", "1"), {}),
           "SOURCE_DATE_EPOCH set": (None, (), {"SOURCE_DATE_EPOCH": "1700000000"}),
           "an output file touched": (_touch_output, (), {})}


@pytest.mark.parametrize("change", list(CHANGES))
def test_a_change_means_the_full_build_and_its_files_equal_a_cold_build_s(tmp_path, change):
    edit, options, env = CHANGES[change]
    folder = project(tmp_path / "deck")
    assert county(folder, *QUICK)[0] == 0
    assert county(folder, *QUICK)[3] == set()  # remembered
    if edit is not None:
        edit(folder)
    status, out, err, loaded = county(folder, *QUICK, *options, env=env)
    assert status == 0, err
    if change == "an output file touched":
        assert loaded == set()
        return
    assert HEAVY <= loaded, (change, out)
    cold = project(tmp_path / "cold")
    shutil.copy(folder / "cards.yaml", cold / "cards.yaml")
    shutil.rmtree(cold / "art")
    shutil.copytree(folder / "art", cold / "art")
    for name in ("cards.yaml", *(str(p.relative_to(folder)) for p in (folder / "art").rglob("*") if p.is_file())):
        os.utime(cold / name, ns=(os.stat(folder / name).st_atime_ns, os.stat(folder / name).st_mtime_ns))
    assert county(cold, *QUICK, *options, env=env)[0] == 0
    assert products_of(folder / "output") == products_of(cold / "output")
    if change == "a file added to the output":
        assert "warning: 1 file in output was not made by county-uppy and is left alone: cards/extra.png" in out
    # and the full build remembered its own answer: the next is answered, as a full build answers
    hit = county(folder, *QUICK, *options, env=env)
    assert hit[3] == set()
    forget(folder)
    full = county(folder, *QUICK, *options, env=env)
    assert HEAVY <= full[3] and full[:3] == hit[:3]


def test_a_changed_or_new_file_of_the_program_means_the_full_build(tmp_path):
    program = tmp_path / "program"
    (program / "deck").mkdir(parents=True)
    module = program / "deck" / "rules.py"
    module.write_text("TARGET = 16\n")
    folder = project(tmp_path / "deck")
    env = {"MEMO_PACKAGE": str(program)}
    assert county(folder, *QUICK, env=env)[0] == 0
    assert county(folder, *QUICK, env=env)[3] == set()
    module.write_text("TARGET = 21\n")
    assert HEAVY <= county(folder, *QUICK, env=env)[3]
    assert county(folder, *QUICK, env=env)[3] == set()
    (program / "deck" / "more.py").write_text("")
    assert HEAVY <= county(folder, *QUICK, env=env)[3]


def test_a_process_that_has_built_builds_in_full(capsys, tmp_path, monkeypatch):
    """A script (or a test) that builds twice may change the program in memory between: the
    second build is made, not remembered, and fails as the changed program does."""
    from generator.products import build

    out = tmp_path / "out"
    assert run(capsys, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "deck")[0] == 0
    monkeypatch.setattr(build, "deck_document", lambda deck: (_ for _ in ()).throw(RuntimeError("broken")))
    status, _, err = run(capsys, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "deck")
    assert status == 3 and "broken" in err


@pytest.mark.parametrize("damage", ["not json", "a list", "short states", "strings for lists"])
def test_a_damaged_answer_is_no_answer(tmp_path, damage):
    folder = project(tmp_path / "deck")
    first = county(folder, *QUICK)
    for entry in (folder / "cache" / "county-uppy" / "build").glob("*.json"):
        answer = json.loads(entry.read_text())
        if damage == "not json":
            entry.write_bytes(b"\xff{")
        elif damage == "a list":
            entry.write_text("[]")
        elif damage == "short states":
            entry.write_text(json.dumps({**answer, "files": {path: [1] for path in answer["files"]}}))
        else:
            entry.write_text(json.dumps({**answer, "listing": "cards/", "probes": [], "files": {p: "x" for p in answer["files"]}}))
    status, out, err, loaded = county(folder, *QUICK)
    assert status == 0 and HEAVY <= loaded, err
    assert out.endswith("  the deck is the same\n  files: none added, removed or redrawn\n"
                        "built 102 files into output/ (listed in output/build.json)\n")
    assert first[0] == 0 and county(folder, *QUICK)[:3] == (status, out, err)  # remembered anew
