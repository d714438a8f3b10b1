"""/state: what the page is told, read from a real build; the version that wakes the page."""

from __future__ import annotations

import json
import threading
import time

import pytest

from generator.deck.problems import Problem
from generator.preview.output import read_output
from generator.preview.rebuild import locate, value_at
from generator.preview.state import PreviewState
from tests.conftest import MANIFEST


def test_the_page_sees_every_card_face_of_the_build(built, deck):
    view = read_output(built)
    record = {a["path"]: a["sha256"] for a in json.loads((built / "build.json").read_text())["artifacts"]}
    assert view["built"] is True
    assert [c["code"] for c in view["cards"]] == [c.code for c in deck.cards]
    for card in view["cards"]:
        path, _, version = card["image"].removeprefix("/out/").partition("?v=")
        assert (built / path).is_file(), card["code"]
        assert record[path].startswith(version) and len(version) == 16, card["code"]
    x2 = next(c for c in view["cards"] if c["code"] == "x2")
    assert x2["text"] == deck.card("x2").text and x2["copies"] == deck.card("x2").copies


def test_the_page_can_filter_by_edition(built, deck):
    editions = {e["key"]: e for e in read_output(built)["editions"]}
    assert set(editions) == {e.key for e in deck.editions}
    for edition in deck.editions:
        shown = editions[edition.key]
        assert shown["count"] == deck.edition_count(edition.key) == sum(shown["cards"].values())
        assert shown["cards"] == {code: deck.card(code).copies for code in edition.codes}
        assert shown["name"] == edition.name


def test_the_page_sees_the_sheets_the_rulebook_and_the_changes(built):
    view = read_output(built)
    record = {a["path"]: a for a in json.loads((built / "build.json").read_text())["artifacts"]}
    pdfs = sorted(p for p in record if p.startswith("print/") and p.endswith(".pdf"))
    assert sorted(s["path"] for s in view["sheets"]) == pdfs and pdfs
    assert view["sheets"][0]["path"] == "print/county-uppy-letter.pdf"  # both sides: the one the page opens
    for sheet in view["sheets"]:
        assert sheet["pages"] == record[sheet["path"]]["pages"] > 0
        assert len(sheet["thumbs"]) == sheet["pages"]
        assert f"v={record[sheet['path']]['sha256'][:16]}" in sheet["thumbs"][0]
    assert view["rulebook"].startswith("/out/rulebook.html?v=")
    assert view["changes"]["summary"] == json.loads((built / "changes.json").read_text())["summary"]


def test_an_empty_folder_shows_nothing_built(tmp_path):
    view = read_output(tmp_path / "none")
    assert view["built"] is False
    assert (view["cards"], view["editions"], view["sheets"], view["rulebook"]) == ([], [], [], None)


def test_every_update_moves_the_version_and_wakes_a_waiting_reader():
    state = PreviewState("cards.yaml", "output", {"built": False})
    assert json.loads(state.as_json())["version"] == 0
    woke: list[int] = []
    reader = threading.Thread(target=lambda: woke.append(state.wait(0, timeout=10)))
    reader.start()
    time.sleep(0.1)
    assert state.update(status="building", message="building") == 1
    reader.join(5)
    assert woke == [1]
    doc = json.loads(state.as_json())
    assert (doc["version"], doc["status"], doc["message"]) == (1, "building", "building")
    assert state.wait(1, timeout=0.05) == 1  # nothing new: back after the timeout
    with pytest.raises(KeyError):
        state.update(colour="cyan")
    with pytest.raises(ValueError):
        state.update(status="fine")
    state.close()
    assert state.wait(1, timeout=10) == 1 and state.closed


def test_the_rest_of_a_rebuild_waits_for_an_open_page_to_show_the_changed_image():
    """handed_over: at once with no page listening; with one, until a page says it shows the
    image (or the timeout); an address shown before counts, another does not."""
    state = PreviewState("cards.yaml", "output", {"built": False})
    started = time.monotonic()
    assert state.handed_over("/out/cards/SKIP.png?v=1", timeout=10) is False
    assert time.monotonic() - started < 1  # no page: no wait
    state.listening(+1)
    started = time.monotonic()
    assert state.handed_over("/out/cards/SKIP.png?v=1", timeout=0.2) is False
    assert 0.2 <= time.monotonic() - started < 5
    sender = threading.Thread(target=lambda: (time.sleep(0.1), state.shown("/out/cards/SKIP.png?v=1")))
    sender.start()
    started = time.monotonic()
    assert state.handed_over("/out/cards/SKIP.png?v=1", timeout=10) is True
    assert time.monotonic() - started < 5
    sender.join(5)
    state.shown("/out/cards/C5.png?v=2")
    assert state.handed_over("/out/cards/SKIP.png?v=1", timeout=0) is True  # still among those shown
    assert state.handed_over("/out/cards/C5.png?v=3", timeout=0.05) is False
    state.listening(-1)
    assert state.handed_over("/out/cards/C5.png?v=3", timeout=10) is False


def test_a_problem_comes_with_its_line_and_bad_value(tmp_path):
    manifest = tmp_path / "cards.yaml"
    text = MANIFEST.read_text(encoding="utf-8").replace("colour: cyan, values: -2..7", "colour: cyna, values: -2..7", 1)
    manifest.write_text(text, encoding="utf-8")
    from generator.deck.manifest import load
    from generator.deck.problems import InputError

    with pytest.raises(InputError) as caught:
        load(manifest)
    (problem,) = caught.value.problems
    shown = locate(problem, manifest)
    line = text.splitlines()[problem.line - 1]
    assert shown["source"] == line and shown["value"] == "cyna"
    assert line[problem.column - 1:].startswith("cyna")
    assert shown["text"] == f"{manifest}:{problem.line}:{problem.column}: unknown colour 'cyna' (did you mean 'cyan'?)"


def test_a_manifest_swapped_for_a_fifo_after_its_check_is_no_line_not_a_hang(tmp_path):
    """locate() read the manifest again with read_text: a FIFO put in its place between the check and
    the page's update held the whole watch loop until something wrote to it."""
    import os
    import threading

    from generator.deck.problems import Problem

    manifest = tmp_path / "cards.yaml"
    os.mkfifo(manifest)
    shown = []
    reader = threading.Thread(target=lambda: shown.append(locate(Problem(str(manifest), 3, 5, "x"), manifest)),
                              daemon=True)
    reader.start()
    reader.join(timeout=10)
    assert shown and shown[0]["source"] == "" and shown[0]["value"] == ""


@pytest.mark.parametrize("line, at, value", [
    ("  - {kind: number, colour: cyna, values: -2..7}", "cyna", "cyna"),
    ("    colours: [cyan, grene]", "grene", "grene"),
    ("    text: 'Draw, then play'", "'", "'Draw, then play'"),
    ("    target: twelve  # the count", "twelve", "twelve"),
    ("    copies: 3", None, ""),
    ("", None, ""),
])
def test_the_bad_value_is_read_off_the_line(line, at, value):
    column = line.index(at) + 1 if at else len(line) + 5
    assert value_at(line, column) == value


def test_a_problem_in_another_file_has_no_source_line(tmp_path):
    shown = locate(Problem("elsewhere.yaml", 3, 1, "oops"), tmp_path / "cards.yaml")
    assert (shown["source"], shown["value"], shown["line"], shown["column"]) == ("", "", 3, 1)
