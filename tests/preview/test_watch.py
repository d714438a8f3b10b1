"""`county-uppy watch` as a user runs it: a subprocess, a manifest edited on disk, /state read back.

The browser's view of the same loop is test_watch_browser.py; here: a broken manifest at start,
another build holding the folder, SIGTERM, and bad options.
"""

from __future__ import annotations

import json
import shutil
import signal
import socket
import urllib.request
from pathlib import Path

import pytest

from generator.cli import main
from generator.products.output.folder_lock import FolderLock
from tests.conftest import MANIFEST, ROOT, without_look
from tests.preview.watching import Watch, edit

GOOD = "colour: cyan, values: -2..7"
TYPO = "colour: cyna, values: -2..7"


def test_a_broken_manifest_at_start_is_shown_served_and_rebuilt_once_fixed(tmp_path: Path):
    manifest, out = tmp_path / "cards.yaml", tmp_path / "out"
    manifest.write_text(MANIFEST.read_text(encoding="utf-8").replace(GOOD, TYPO), encoding="utf-8")
    line = next(n for n, text in enumerate(manifest.read_text().splitlines(), 1) if TYPO in text)
    with Watch(manifest, out) as watch:
        state = watch.wait_for(lambda s: s["status"] == "invalid", what="the manifest's mistake")
        (problem,) = state["problems"]
        assert (problem["line"], problem["value"]) == (line, "cyna")
        assert problem["message"] == "unknown colour 'cyna' (did you mean 'cyan'?)"
        assert state["output"]["built"] is False and state["output"]["cards"] == []
        with urllib.request.urlopen(watch.url, timeout=10) as r:
            assert r.status == 200 and b"preview" in r.read()
        assert not (out / "build.json").exists()

        edit(manifest, TYPO, GOOD)
        state = watch.wait_for(lambda s: s["status"] == "ok", what="the rebuild after the fix")
        assert state["problems"] == [] and state["builds"] == 1
        assert len(state["output"]["cards"]) == 98 and (out / "build.json").is_file()
        status = watch.stop(signal.SIGTERM)
    assert status == 143  # SIGTERM stops it as Ctrl-C does (128 + 15)
    errors = "\n".join(watch.stderr)
    assert "Traceback" not in errors
    assert f"{manifest}:{line}:{problem['column']}: unknown colour 'cyna'" in errors
    assert "stopped" in watch.stderr[-1]
    rebuilt = [text for text in watch.stdout if "rebuilt in" in text]
    assert len(rebuilt) == 1 and "nothing to compare with" in rebuilt[0]


def test_a_folder_another_build_holds_is_said_and_tried_again_after_the_next_change(tmp_path: Path):
    manifest, out = tmp_path / "cards.yaml", tmp_path / "out"
    shutil.copy(MANIFEST, manifest)
    with Watch(manifest, out) as watch:
        watch.wait_for(lambda s: s["status"] == "ok", seconds=60, what="the first build")
        good = (out / "build.json").read_bytes()
        lock = FolderLock(out)  # as a `county-uppy build` into the same folder holds it
        try:
            edit(manifest, "text: Draw {count:word} extra card{count:/s}.", "text: Draw two extra cards.")
            state = watch.wait_for(lambda s: s["status"] == "busy", what="the busy folder")
            assert "being written by another build" in state["message"]
            assert "trying again after the next change" in state["message"]
            assert (out / "build.json").read_bytes() == good
        finally:
            lock.release()
        edit(manifest, "text: Draw two extra cards.", "text: Draw three extra cards.")
        state = watch.wait_for(lambda s: s["status"] == "ok" and s["builds"] == 2, what="the retry")
        assert next(c for c in state["output"]["cards"] if c["code"] == "+1")["text"] == "Draw three extra cards."
        assert watch.stop() == 130
    assert any("being written by another build" in line for line in watch.stderr)
    assert not any("Traceback" in line for line in watch.stderr)
    (rebuilt,) = [line for line in watch.stdout if "rebuilt in" in line and "card +1" in line]
    assert "card +1 changed: text 'Draw one extra card.' -> 'Draw three extra cards.'" in rebuilt


def test_a_port_in_use_is_said(tmp_path, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["watch", "--port", str(port), "--out", str(tmp_path / "out"), "--manifest", str(MANIFEST)]) == 2
    err = capsys.readouterr().err
    assert f"port {port} on 127.0.0.1 is in use" in err and "--port N" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("argv, message", [
    (["--port", "70000"], "--port must be 0..65535"),
    (["--port", "-1"], "--port must be 0..65535"),
    (["--out", ""], "--out needs a folder name"),
    (["--manifest", "/nonexistent-folder/cards.yaml"], "is not a folder"),
    (["--gutter", "99"], "--gutter must be 0..20 mm"),
    (["--back-offset", "1"], "--back-offset needs two numbers"),
    (["--only", "cardz"], "unknown product 'cardz' (did you mean 'cards'?)"),
    (["--jobs", "-1"], "--jobs must be 0"),
])
def test_bad_options_are_refused(argv, message, capsys):
    assert main(["watch", *argv]) == 2
    assert message in capsys.readouterr().err


def test_ctrl_c_during_a_rebuild_leaves_the_output_folder_whole(tmp_path: Path):
    import hashlib
    import json

    from generator.products.output.staging import STAGING_PREFIX

    manifest, out = tmp_path / "cards.yaml", tmp_path / "out"
    shutil.copy(MANIFEST, manifest)
    with Watch(manifest, out) as watch:
        watch.wait_for(lambda s: s["status"] == "ok", seconds=60, what="the first build")
        # all three colours in one save: nearly every face is redrawn, a rebuild long enough
        # (about a second) for the state to show it under way
        text = manifest.read_text(encoding="utf-8")
        for old, new in (("#00A3D9", "#00A0D0"), ("#2E9E3E", "#2E9A3A"), ("#D4147A", "#D01078")):
            assert text.count(f'print: "{old}"') == 1
            text = text.replace(f'print: "{old}"', f'print: "{new}"')
        manifest.write_text(text, encoding="utf-8")
        watch.wait_for(lambda s: s["status"] == "building", seconds=20, what="the rebuild to start")
        assert watch.stop() == 130
    assert not any("Traceback" in line for line in watch.stderr), watch.stderr
    record = json.loads((out / "build.json").read_text())
    for artifact in record["artifacts"]:  # the old build or the new one, whole either way
        assert hashlib.sha256((out / artifact["path"]).read_bytes()).hexdigest() == artifact["sha256"], artifact["path"]
    assert not [p.name for p in out.iterdir() if p.name.startswith(STAGING_PREFIX)]


def test_an_out_that_is_a_file_is_refused(tmp_path, capsys):
    afile = tmp_path / "afile"
    afile.write_text("not a folder")
    assert main(["watch", "--out", str(afile), "--manifest", str(MANIFEST), "--port", "0"]) == 2
    assert "exists and is not a folder" in capsys.readouterr().err
    assert afile.read_text() == "not a folder"


def test_what_is_watched_and_what_a_save_rebuilds_for(tmp_path):
    from generator.commands.watch import relevant, watched_folders

    templates = tmp_path / "templates"
    (templates / "partials" / "effects").mkdir(parents=True)
    (templates / "__pycache__").mkdir()
    manifest = str(tmp_path / "design" / "cards.yaml")
    folders = watched_folders(manifest, templates)
    assert folders == [str(tmp_path / "design"), str(templates), str(templates / "partials"),
                       str(templates / "partials" / "effects")]
    for path in (manifest, templates / "rulebook.html.j2", templates / "partials" / "effects" / "steal.j2"):
        assert relevant(str(path), manifest, folders[1:]), path
    for path in (tmp_path / "design" / "other.yaml", tmp_path / "design" / "output" / "build.json",
                 templates / ".rulebook.html.j2.swp", templates / "rulebook.html.j2~", templates / "4913",
                 templates / "__pycache__" / "x.pyc", tmp_path / "design" / ".cards.yaml.swp"):
        assert not relevant(str(path), manifest, folders[1:]), path


def test_a_save_the_watcher_missed_still_shows_in_the_signature(tmp_path):
    """A save made while the first build runs (before the watcher starts) is caught by the idle
    check: the watched files' times and sizes differ from those the build started with."""
    import os

    from generator.commands.watch import _signature

    manifest = tmp_path / "cards.yaml"
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "rulebook.html.j2").write_text("x", encoding="utf-8")
    manifest.write_text("game: {}\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not watched", encoding="utf-8")
    before = _signature(manifest, templates)
    assert [os.path.basename(p) for p, *_ in before] == ["cards.yaml", "rulebook.html.j2"]
    assert _signature(manifest, templates) == before
    (tmp_path / "notes.txt").write_text("still not watched", encoding="utf-8")
    assert _signature(manifest, templates) == before
    stat = manifest.stat()
    manifest.write_text("game: {}\n", encoding="utf-8")  # saved again unchanged: a new time only
    os.utime(manifest, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    assert _signature(manifest, templates) != before
    after_manifest = _signature(manifest, templates)
    (templates / "rulebook.html.j2").write_text("xy", encoding="utf-8")
    assert _signature(manifest, templates) != after_manifest


def test_every_rebuild_is_built_with_builds_options(tmp_path: Path):
    """`watch` takes `build`'s options for every rebuild; an option the edited manifest no longer
    fits (an edition it dropped) is a failed rebuild that names it, and the last build stays."""
    import json

    manifest, out = tmp_path / "cards.yaml", tmp_path / "out"
    shutil.copy(MANIFEST, manifest)
    with Watch(manifest, out, "--only", "deck,print", "--paper", "a4", "--edition", "only-chaos",
               "--gutter", "2", "--ink-saver") as watch:
        watch.wait_for(lambda s: s["status"] == "ok", seconds=60, what="the first build")
        listed = sorted(a["path"] for a in json.loads((out / "build.json").read_text())["artifacts"])
        assert "deck.json" in listed and not any(p.startswith(("cards/", "tts/", "pod/")) for p in listed)
        prints = [p for p in listed if p.startswith("print/")]
        assert prints and all("-a4" in p for p in prints) and "print/county-uppy-a4-only-chaos.pdf" in prints
        edit(manifest, "  - key: only-chaos\n", "  - key: just-chaos\n")
        state = watch.wait_for(lambda s: s["status"] == "failed", what="the rebuild without the edition")
        assert "unknown edition 'only-chaos'" in state["message"] and "just-chaos" in state["message"]
        assert watch.stop() == 130
    assert sorted(a["path"] for a in json.loads((out / "build.json").read_text())["artifacts"]) == listed


def test_a_watch_of_some_products_still_shows_the_faces(tmp_path: Path):
    """`watch --only cards` (the docs' faster loop names --only cards --only print) shows the card
    faces: the page lists them from deck.json, which every rebuild makes with the products asked for.
    Before, the page said "0 faces" over a folder of 100 card images."""
    import json

    manifest, out = tmp_path / "cards.yaml", tmp_path / "out"
    shutil.copy(MANIFEST, manifest)
    with Watch(manifest, out, "--only", "cards") as watch:
        state = watch.wait_for(lambda s: s["status"] == "ok", seconds=60, what="the first build")
        faces = state["output"]["cards"]
        assert len(faces) == 98 and all(face["image"] for face in faces)
        assert {e["key"] for e in state["output"]["editions"]} >= {"the-og", "only-chaos"}
        assert watch.stop() == 130
    listed = sorted(a["path"] for a in json.loads((out / "build.json").read_text())["artifacts"])
    assert "deck.json" in listed and not any(p.startswith(("print/", "tts/", "pod/")) for p in listed)


def test_the_files_the_look_names_are_watched_even_before_they_exist(tmp_path):
    from generator.commands.common import named_files
    from generator.commands.watch import relevant, watched_folders

    shipped = named_files(MANIFEST)  # the wild glyphs' icon files beside cards.yaml
    assert shipped == tuple(str(p) for p in sorted((ROOT / "art" / "icons").glob("*.svg"))) and len(shipped) == 11
    manifest = tmp_path / "cards.yaml"
    text = without_look(MANIFEST.read_text(encoding="utf-8")).replace("    code: STEAL\n", "    code: STEAL\n    art: art/steal.png\n", 1)
    manifest.write_text(text + "\nlook:\n  fonts: {regular: fonts/Body.ttf}\n  back:\n    art: {file: ../outside.png}\n",
                        encoding="utf-8")
    files = named_files(manifest)
    assert files == (str(tmp_path / "art" / "steal.png"), str(tmp_path / "fonts" / "Body.ttf"))  # not the one outside
    templates = tmp_path / "templates"
    templates.mkdir()
    assert watched_folders(str(manifest), templates, files) == [str(tmp_path), str(templates)]  # art/ not made yet
    assert relevant(str(tmp_path / "art"), str(manifest), [str(templates)], files)  # making art/ is a change
    (tmp_path / "art").mkdir()
    assert watched_folders(str(manifest), templates, files) == [str(tmp_path), str(templates), str(tmp_path / "art")]
    assert relevant(str(tmp_path / "art" / "steal.png"), str(manifest), [str(templates)], files)
    assert not relevant(str(tmp_path / "art" / "other.png"), str(manifest), [str(templates)], files)


def test_a_save_of_a_picture_rebuilds_the_faces_that_show_it(tmp_path: Path):
    from PIL import Image

    manifest, out = tmp_path / "cards.yaml", tmp_path / "out"
    shutil.copytree(ROOT / "art", tmp_path / "art")  # the shipped icon files, which SKIP's face draws
    Image.new("RGB", (900, 700), (200, 90, 40)).save(tmp_path / "art" / "steal.png")
    manifest.write_text(MANIFEST.read_text(encoding="utf-8").replace(
        "    code: STEAL\n", "    code: STEAL\n    art: art/steal.png\n", 1), encoding="utf-8")
    with Watch(manifest, out, "--only", "cards") as watch:
        watch.wait_for(lambda s: s["status"] == "ok", seconds=90, what="the first build")
        before = {n: (out / "cards" / n).read_bytes() for n in ("STEAL.png", "SKIP.png")}
        Image.new("RGB", (900, 700), (40, 90, 200)).save(tmp_path / "art" / "steal.png")
        state = watch.wait_for(lambda s: s["status"] == "ok" and s["builds"] == 2, seconds=90,
                               what="the rebuild after the picture's save")
        # the face cache keys a face by the bytes of the files it draws: one face drawn again
        assert state["last"]["line"].endswith("files: redrawn cards/STEAL.png"), state["last"]
    assert (out / "cards" / "STEAL.png").read_bytes() != before["STEAL.png"]
    assert (out / "cards" / "SKIP.png").read_bytes() == before["SKIP.png"]


def test_the_page_lists_the_products_still_being_made_and_takes_each_off_when_made(tmp_path: Path):
    """After a rebuild's card images are in, /state lists every other product of the request, in
    build order, and takes each off as soon as its files are made; the last state lists none."""
    from generator.commands.watch import _rebuild
    from generator.preview.output import read_output
    from generator.preview.state import PreviewState
    from generator.products import PRODUCTS
    from generator.products.build import BuildRequest

    manifest, out = tmp_path / "cards.yaml", tmp_path / "out"
    shutil.copy(MANIFEST, manifest)
    request = BuildRequest(manifest, out, papers=("letter",))
    state = PreviewState(str(manifest), str(out), read_output(out))
    _rebuild(request, state)  # the first build: all at once, nothing listed
    assert (state.get("status"), state.get("pending"), state.get("on_the_way")) == ("ok", False, [])
    seen: list[tuple[bool, list[str], str]] = []
    first: list[dict] = []
    update = state.update

    def recording(**fields):
        version = update(**fields)
        seen.append((state.get("pending"), [p["product"] for p in state.get("on_the_way")], state.get("status")))
        first.extend([] if first else json.loads(state.as_json())["on_the_way"])
        return version

    state.update = recording  # type: ignore[method-assign]
    edit(manifest, "text: Skip the next player's turn.", "text: Skip the next player's turn, twice.")
    _rebuild(request, state)
    rest = [p.name for p in PRODUCTS if p.name not in ("deck", "cards")]
    lists = [names for pending, names, _ in seen if pending]
    assert lists[0] == rest  # the card images are in: everything else is on its way
    assert first == [{"product": p.name, "what": p.summary} for p in PRODUCTS if p.name in rest]  # what the page shows
    distinct = [names for n, names in enumerate(lists) if n == 0 or names != lists[n - 1]]
    assert [len(names) for names in distinct] == list(range(len(rest), -1, -1))  # one taken off at a time
    assert all(names == [p for p in previous if p in names] for previous, names in zip(distinct, distinct[1:]))
    assert seen[-1] == (False, [], "ok")
    assert json.loads(state.as_json())["on_the_way"] == []
    # what each stage of the rebuild took, as bench_watch.py reports it (no page open: none sent)
    stages = state.get("last")["stages"]
    assert 0 < stages["read"] < stages["cards_in"] < stages["whole"] and stages["page_shows_image"] is None


def test_a_save_the_last_rebuild_read_makes_no_second_rebuild(tmp_path: Path, monkeypatch):
    """The watch rebuilds when the files differ from those its last rebuild started from: the
    events of a save that rebuild already read make no second rebuild (it cost a whole rebuild,
    and the next save waited for it), and two saves of the same size within one tick of the file
    system's clock are told apart by their content."""
    import os
    from types import SimpleNamespace

    from generator.commands import watch

    manifest, templates = tmp_path / "cards.yaml", tmp_path / "templates"
    templates.mkdir()
    (templates / "rulebook.html.j2").write_text("x", encoding="utf-8")
    manifest.write_text("game: {name: A}\n", encoding="utf-8")
    rebuilt: list[str] = []
    monkeypatch.setattr(watch, "_rebuild", lambda request, state, signature=None, current=None:
                        rebuilt.append(manifest.read_text()))
    monkeypatch.setattr(watch, "named_files", lambda path: ())

    def batches(*_args):
        manifest.write_text("game: {name: B}\n", encoding="utf-8")
        yield set()  # the watcher's idle check comes just as a save does: the rebuild reads it...
        yield {(2, str(manifest))}  # ...and then that save's own events come
        st = manifest.stat()
        manifest.write_text("game: {name: C}\n", encoding="utf-8")  # the same size, the same time
        os.utime(manifest, ns=(st.st_atime_ns, st.st_mtime_ns))
        yield {(2, str(manifest))}
        yield set()  # idle: nothing new

    monkeypatch.setattr(watch, "_changes", batches)
    watch.follow(SimpleNamespace(manifest=manifest), None, templates)  # ends with the batches
    assert rebuilt == ["game: {name: A}\n", "game: {name: B}\n", "game: {name: C}\n"]
