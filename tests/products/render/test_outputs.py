"""Card images, the TTS deck, build.json, deterministic and cached rebuilds."""

from __future__ import annotations

import hashlib
import json
from collections import Counter

import pytest
from PIL import Image

from generator.cli import main
from generator.products.cards import file_names, safe_name
from tests.conftest import ROOT
from tests.products.render.conftest import run_build


def test_card_images_are_825_by_1125_at_300_dpi_srgb(built, deck):
    names = file_names(deck)
    for card in deck.cards:
        path = built / "cards" / names[card.code]
        with Image.open(path) as im:
            assert im.size == (825, 1125)
            assert round(im.info["dpi"][0]) == 300
        assert b"sRGB" in path.read_bytes()[:200]
    with Image.open(built / "cards" / "back.png") as im:
        assert im.size == (825, 1125)


def test_makeplayingcards_images(built, deck):
    with Image.open(built / "pod" / "mpc" / file_names(deck)["C5"]) as im:
        assert im.size == (822, 1122)


def test_file_names_are_safe_stable_and_indexed(built, deck):
    assert safe_name("+/-") == "plus_slash_minus"
    assert safe_name("=15") == "eq_15"
    assert safe_name("+1") == "plus_1"
    assert safe_name("GM-4") == "GM-4"
    names = file_names(deck)
    assert len({n.lower() for n in names.values()} | {"back.png"}) == len(names) + 1
    assert all(n.replace("_", "").replace("-", "").replace(".png", "").isalnum() for n in names.values())
    index = json.loads((built / "cards" / "index.json").read_text())
    assert {code: entry["file"] for code, entry in index["cards"].items()} == names
    assert index["back"] == "back.png"


def test_build_json_lists_every_file_with_its_hash(built):
    record = json.loads((built / "build.json").read_text())
    listed = {a["path"]: a for a in record["artifacts"]}
    on_disk = {p.relative_to(built).as_posix() for p in built.rglob("*")
               if p.is_file() and ".cache" not in p.parts and p.name != "build.json"}
    assert set(listed) == on_disk
    for path, art in listed.items():
        assert hashlib.sha256((built / path).read_bytes()).hexdigest() == art["sha256"]
        assert art["kind"] in {"pdf", "png", "html", "json", "tts"}
    assert listed["print/county-uppy-letter.pdf"]["cards"] == 212
    assert listed["print/county-uppy-letter.pdf"]["pages"] == 56  # 27 sheets of 8 and the test page, both sides
    assert listed["print/county-uppy-a4.pdf"]["pages"] == 52  # 25 sheets of 9 and the test page, both sides


def test_fonts_are_embedded(built):
    data = (built / "print" / "county-uppy-a4.pdf").read_bytes()
    assert b"/FontFile2" in data


def test_tts_deck_lists_every_card_with_its_copies(built, deck):
    obj = json.loads((built / "tts" / "county-uppy.json").read_text())
    piles = {p["Nickname"]: p for p in obj["ObjectStates"]}
    # one deck per edition, ready to deal, and the quick reference and the blanks beside them
    assert list(piles) == [e.name for e in deck.editions] + ["Quick reference", "Blank cards"]
    assert len({p["Transform"]["posX"] for p in piles.values()}) == len(piles)  # side by side, not stacked
    by_code = {c.code: c for c in deck.cards}
    for e in deck.editions:
        cards = piles[e.name]["ContainedObjects"]
        assert len(cards) == len(piles[e.name]["DeckIDs"]) == sum(by_code[code].copies for code in e.codes)
        assert Counter(c["GMNotes"] for c in cards) == {code: by_code[code].copies for code in e.codes}
        assert all(by_code[c["GMNotes"]].kind not in ("reference", "blank") for c in cards)
    for name, kind in (("Quick reference", "reference"), ("Blank cards", "blank")):
        assert Counter(c["GMNotes"] for c in piles[name]["ContainedObjects"]) == {
            c.code: c.copies for c in deck.cards if c.kind == kind}
    for c in piles["The OG"]["ContainedObjects"]:
        assert c["Nickname"] == by_code[c["GMNotes"]].name and c["Description"] == by_code[c["GMNotes"]].text
    deck_obj = piles["The OG"]
    cards = [c for p in piles.values() for c in p["ContainedObjects"]]
    for number, custom in deck_obj["CustomDeck"].items():
        assert custom["NumWidth"] <= 10 and custom["NumHeight"] <= 7
        with Image.open(built / "tts" / custom["FaceURL"].rsplit("/", 1)[1]) as im:
            assert im.width <= 4096
            assert im.size == (custom["NumWidth"] * 409, custom["NumHeight"] * 573)
    hidden = {c["CardID"] % 100 for c in cards}
    for number, custom in deck_obj["CustomDeck"].items():
        assert custom["NumWidth"] * custom["NumHeight"] - 1 not in {
            c["CardID"] % 100 for c in cards if c["CardID"] // 100 == int(number)}
    assert hidden


def test_rebuild_is_byte_identical_and_cached(built, deck, tmp_path):
    out = tmp_path / "again"
    made = run_build(deck, out, editions=("keep-it-simple",), jobs=1, layouts=("duplex", "gutterfold"))
    first = json.loads((built / "build.json").read_text())["artifacts"]
    second = json.loads((out / "build.json").read_text())["artifacts"]
    assert first == second  # a fresh, single-process build in another folder gives the same bytes
    assert len(made.redrawn["tgc"]) == 99
    again = run_build(deck, out, editions=("keep-it-simple",), jobs=1, layouts=("duplex", "gutterfold"))
    assert again.redrawn == {"tgc": [], "mpc": [], "tts": []}  # everything came from the cache
    rebuilt = json.loads((out / "build.json").read_text())["artifacts"]
    assert [a for a in rebuilt if a["path"] != "changes.json"] == [a for a in first if a["path"] != "changes.json"]
    assert json.loads((out / "changes.json").read_text())["same"] is True  # and it says nothing changed


def test_editing_one_card_renders_one_face(built, deck, tmp_path):
    import dataclasses

    out = tmp_path / "edit"
    run_build(deck, out, only=("cards",), jobs=1)
    cards = tuple(dataclasses.replace(c, text="Roll the count back to 0.") if c.code == "SKIP" else c
                  for c in deck.cards)
    edited = dataclasses.replace(deck, cards=cards)  # its look (the icon files) kept
    built = run_build(edited, out, only=("cards",), jobs=1)
    assert built.redrawn["tgc"] == ["SKIP"]


def test_worker_processes_and_one_process_build_the_same_bytes(built, deck, tmp_path):
    # `built` ran its jobs on the worker pool (one process per core); this build runs them in this process
    out = tmp_path / "serial"
    run_build(deck, out, only=("cards", "print", "tts"), editions=("keep-it-simple",), jobs=1)
    serial = {a["path"]: a["sha256"] for a in json.loads((out / "build.json").read_text())["artifacts"]}
    pooled = {a["path"]: a["sha256"] for a in json.loads((built / "build.json").read_text())["artifacts"]}
    assert len(serial) > 100 and serial.keys() <= pooled.keys()
    assert {p: h for p, h in serial.items() if pooled[p] != h} == {}


def test_renaming_a_set_redraws_the_quick_reference_that_names_it(built, deck, tmp_path):
    """The wilds face of the quick reference heads each set's wilds with the set's name: a rename
    redraws it, and the rebuild equals a build from scratch."""
    import dataclasses

    out, fresh = tmp_path / "renamed", tmp_path / "fresh"
    run_build(deck, out, only=("cards",), jobs=1)
    sets = tuple(dataclasses.replace(s, name="Mayhem") if s.key == "chaos" else s for s in deck.sets)
    renamed = dataclasses.replace(deck, sets=sets)  # its look (the icon files) kept
    built = run_build(renamed, out, only=("cards",), jobs=1)
    refs = [c.code for c in deck.cards if c.kind == "reference"]
    assert refs[1] in built.redrawn["tgc"]  # the second reference card: the wilds face
    run_build(renamed, fresh, only=("cards",), jobs=1)
    listed = [{a["path"]: a["sha256"] for a in json.loads((o / "build.json").read_text())["artifacts"]
               if a["path"] != "changes.json"} for o in (out, fresh)]
    assert listed[0] == listed[1]


@pytest.mark.parametrize("url", ["notaurl", "javascript:alert(1)", "https://", "ftp://example.org/tts",
                                 "https://example.org/my tts/", "https://exa\x1bmple.org/", "http://[::1/x"])
def test_a_tts_url_tabletop_simulator_cannot_load_from_is_refused_before_anything_is_built(tmp_path, capsys, url):
    # the deck was built with the sheets' addresses pointing nowhere, and the build said nothing
    out = tmp_path / "o"
    assert main(["build", "--manifest", str(ROOT / "cards.yaml"), "--out", str(out), "--only", "tts",
                 "--tts-url", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith("county-uppy build: --tts-url takes the address tts/ is put at on the web") and "\x1b" not in err
    assert len(err.strip().splitlines()) == 1 and not out.exists()
