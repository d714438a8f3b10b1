"""The output folder mirrors the manifest: build.json lists every file in the products' folders,
files a build no longer makes are removed (and named), files the tool never made are left alone
(and named), `--only` keeps the other products listed, and cards.yaml's `build:` section says
which editions and papers every plain build makes."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from generator.products import folders
from generator.products.output.staging import STAGING_PREFIX
from tests.conftest import MANIFEST, run

PRODUCT_FOLDERS = folders()

SKIP_ENTRY = """  - kind: wild
    set: chaos
    code: SKIP
    name: Skip
    effect: skip
    text: Skip the next player's turn.
    copies: 3
"""
PRODUCTS = "deck,cards,pod"




def unlisted_and_wrong(out: Path) -> tuple[list[str], list[str]]:
    """Files in the products' folders (and top-level products) that build.json does not list, and
    listed files whose bytes do not match their sha256."""
    listed = {a["path"]: a["sha256"] for a in json.loads((out / "build.json").read_text())["artifacts"]}
    present = [p.relative_to(out).as_posix() for folder in PRODUCT_FOLDERS for p in (out / folder).rglob("*")
               if p.is_file()]
    present += [name for name in ("deck.json", "rulebook.html") if (out / name).exists()]
    wrong = [rel for rel, sha in listed.items()
             if not (out / rel).is_file() or hashlib.sha256((out / rel).read_bytes()).hexdigest() != sha]
    return sorted(set(present) - set(listed)), wrong


def variant(tmp_path: Path, name: str, edit) -> Path:
    path = tmp_path / name
    text = MANIFEST.read_text(encoding="utf-8")
    changed = edit(text)
    assert changed != text
    path.write_text(changed, encoding="utf-8")
    return path


def without_skip(text: str) -> str:
    assert SKIP_ENTRY in text
    return re.sub(r"\n    expect: \d+", "", text.replace(SKIP_ENTRY, ""))  # the editions' counts change


def skip_renamed(text: str) -> str:
    return text.replace("    code: SKIP\n", "    code: PASS\n")


@pytest.fixture
def out(build_copy) -> Path:
    """A copy of a finished build (its face cache included) to rebuild in."""
    return build_copy(PRODUCTS)


def test_a_removed_card_leaves_no_file_behind(out, tmp_path, capsys):
    assert (out / "cards" / "SKIP.png").exists() and (out / "pod" / "mpc" / "SKIP.png").exists()
    manifest = variant(tmp_path, "cards.yaml", without_skip)
    status, stdout, err = run(capsys, "build", "--manifest", str(manifest), "--out", str(out), "--only", PRODUCTS)
    assert status == 0 and err == ""
    assert "removed 2 files the manifest no longer makes: cards/SKIP.png, pod/mpc/SKIP.png\n" in stdout
    assert not (out / "cards" / "SKIP.png").exists() and not (out / "pod" / "mpc" / "SKIP.png").exists()
    assert unlisted_and_wrong(out) == ([], [])
    assert "SKIP" not in json.loads((out / "cards" / "index.json").read_text())["cards"]
    assert not any(p.name.startswith(STAGING_PREFIX) for p in out.iterdir())


def test_a_renamed_card_replaces_its_files(out, tmp_path, capsys):
    manifest = variant(tmp_path, "cards.yaml", skip_renamed)
    status, stdout, _ = run(capsys, "build", "--manifest", str(manifest), "--out", str(out), "--only", PRODUCTS)
    assert status == 0
    assert "removed 2 files the manifest no longer makes: cards/SKIP.png, pod/mpc/SKIP.png\n" in stdout
    assert (out / "cards" / "PASS.png").exists() and not (out / "cards" / "SKIP.png").exists()
    assert unlisted_and_wrong(out) == ([], [])


def test_files_the_tool_never_made_are_named_and_left_alone(out, capsys):
    (out / "cards" / "mine.png").write_bytes(b"my own card")
    (out / "notes.txt").write_text("not in a product folder: not the build's business")
    status, stdout, _ = run(capsys, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only", PRODUCTS)
    assert status == 0
    assert f"warning: 1 file in {out} was not made by county-uppy and is left alone: cards/mine.png\n" in stdout
    assert (out / "cards" / "mine.png").read_bytes() == b"my own card"
    assert (out / "notes.txt").exists()
    assert "no longer makes" not in stdout


def test_only_keeps_the_other_products_listed(out, tmp_path, capsys):
    before = json.loads((out / "build.json").read_text())["artifacts"]
    manifest = variant(tmp_path, "cards.yaml", without_skip)
    status, stdout, _ = run(capsys, "build", "--manifest", str(manifest), "--out", str(out), "--only", "deck")
    assert status == 0 and "no longer makes" not in stdout
    after = json.loads((out / "build.json").read_text())["artifacts"]
    assert [a["path"] for a in after] == [a["path"] for a in before]  # the cards' files stay, and stay listed
    assert {a.get("product") for a in after} == {"deck", "cards", "pod", None}  # None: changes.json
    assert (out / "cards" / "SKIP.png").exists()
    assert unlisted_and_wrong(out) == ([], [])
    # a card image changed by hand since: no longer listed, and said so
    (out / "cards" / "C5.png").write_bytes(b"edited")
    status, stdout, _ = run(capsys, "build", "--manifest", str(manifest), "--out", str(out), "--only", "deck")
    assert status == 0 and "cards/C5.png changed since it was built and is no longer listed in build.json" in stdout
    assert "cards/C5.png" not in {a["path"] for a in json.loads((out / "build.json").read_text())["artifacts"]}
    # the next cards build makes it again and lists it; the SKIP images go
    status, stdout, _ = run(capsys, "build", "--manifest", str(manifest), "--out", str(out), "--only", PRODUCTS)
    assert status == 0 and "removed 2 files the manifest no longer makes: cards/SKIP.png, pod/mpc/SKIP.png" in stdout
    assert unlisted_and_wrong(out) == ([], [])


def test_a_one_off_edition_is_removed_by_the_next_plain_build(tmp_path, capsys):
    out = tmp_path / "out"
    argv = ["build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "print", "--paper", "a4"]
    assert run(capsys, *argv, "--edition", "keep-it-simple")[0] == 0
    one_off = {"print/county-uppy-a4-keep-it-simple.pdf", "print/county-uppy-a4-keep-it-simple-fronts.pdf",
               "print/county-uppy-a4-keep-it-simple-backs.pdf"}
    assert one_off <= {p.relative_to(out).as_posix() for p in out.rglob("*.pdf")}
    status, stdout, _ = run(capsys, *argv)
    assert status == 0
    assert ("removed 3 files the manifest no longer makes: print/county-uppy-a4-keep-it-simple-backs.pdf, "
            "print/county-uppy-a4-keep-it-simple-fronts.pdf, print/county-uppy-a4-keep-it-simple.pdf\n") in stdout
    assert "list it under build: editions: in cards.yaml" in stdout
    assert {p.relative_to(out).as_posix() for p in out.rglob("*.pdf")} == {
        "print/county-uppy-a4.pdf", "print/county-uppy-a4-fronts.pdf", "print/county-uppy-a4-backs.pdf",
        "print/county-uppy-a4-card-count.pdf"}
    assert unlisted_and_wrong(out) == ([], [])


def test_the_manifest_names_editions_and_papers_every_build_makes(tmp_path, capsys):
    manifest = variant(tmp_path, "cards.yaml",
                       lambda text: text + "\nbuild:\n  editions: [keep-it-simple]\n  papers: [letter]\n")
    out = tmp_path / "out"
    status, _, _ = run(capsys, "build", "--manifest", str(manifest), "--out", str(out), "--only", "print")
    assert status == 0
    made = {p.name for p in (out / "print").iterdir()}
    assert made == {"county-uppy-letter.pdf", "county-uppy-letter-fronts.pdf", "county-uppy-letter-backs.pdf",
                    "county-uppy-letter-keep-it-simple.pdf", "county-uppy-letter-keep-it-simple-fronts.pdf",
                    "county-uppy-letter-keep-it-simple-backs.pdf", "county-uppy-letter-card-count.pdf"}
    # --edition adds to the manifest's editions for one build; the next plain build keeps keep-it-simple
    assert run(capsys, "build", "--manifest", str(manifest), "--out", str(out), "--only", "print",
               "--edition", "only-chaos")[0] == 0
    assert (out / "print" / "county-uppy-letter-only-chaos.pdf").exists()
    status, stdout, _ = run(capsys, "build", "--manifest", str(manifest), "--out", str(out), "--only", "print")
    assert status == 0 and "removed 3 files" in stdout
    assert {p.name for p in (out / "print").iterdir()} == made
    assert unlisted_and_wrong(out) == ([], [])


@pytest.mark.parametrize("section, message", [
    ("build: {editions: [keep-it-simpl]}", ":20: unknown edition 'keep-it-simpl' (did you mean 'keep-it-simple'?); "
                                           "choose from the-og, keep-it-simple, only-chaos, its-wild-time, math-is-fun"),
    ("build: {editions: [the-og, the-og]}", ":28: edition 'the-og' is listed twice"),
    ("build: {papers: [a5]}", ":18: unknown papers 'a5'; expected one of letter, a4"),
    ("build: {papers: []}", ":17: 'papers' must not be empty"),
    ("build: {edition: [the-og]}", ":9: unknown key 'edition' (did you mean 'editions'?)"),
])
def test_mistakes_in_the_build_section_are_located(tmp_path, capsys, section, message):
    manifest = variant(tmp_path, "cards.yaml", lambda text: text + section + "\n")
    line = len(MANIFEST.read_text(encoding="utf-8").splitlines()) + 1
    status, _, err = run(capsys, "validate", "--manifest", str(manifest))
    assert status == 1
    assert f"{manifest}:{line}{message}" in err


def test_a_rebuild_reuses_listed_sha256s_only_from_the_build_json_it_left(tmp_path, capsys):
    """A rebuild takes an unchanged file's sha256 from the previous build.json instead of hashing
    it again, but only from a build.json as that build left it: an edited one is not trusted."""
    from generator.products.output.listing import read_previous

    def digests() -> tuple[dict[str, str], int]:
        previous = read_previous(out, PRODUCT_FOLDERS)
        return previous.digests, previous.listed_at

    out = tmp_path / "out"
    assert run(capsys, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "deck,cards")[0] == 0
    listed, _ = digests()
    back = hashlib.sha256((out / "cards/back.png").read_bytes()).hexdigest()
    assert len(listed) > 90 and listed["cards/back.png"] == back
    record = json.loads((out / "build.json").read_text())
    for artifact in record["artifacts"]:
        if artifact["path"] == "cards/back.png":
            artifact["sha256"] = "0" * 64  # somebody's edit
    (out / "build.json").write_text(json.dumps(record, indent=2))
    assert digests() == ({}, 0)
    assert run(capsys, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "deck,cards")[0] == 0
    assert unlisted_and_wrong(out) == ([], [])
    assert len(digests()[0]) == len(listed)


def test_a_build_for_one_paper_says_the_option_removed_the_others_files(tmp_path, capsys):
    """--paper a4 after a build of both papers removes the Letter files, and says the option is
    why (not that the manifest no longer makes them)."""
    out = tmp_path / "out"
    assert run(capsys, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "print")[0] == 0
    status, stdout, _ = run(capsys, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "print",
                            "--paper", "a4")
    assert status == 0
    assert not list((out / "print").glob("county-uppy-letter*.pdf")) and list((out / "print").glob("county-uppy-a4*.pdf"))
    (line,) = [ln for ln in stdout.splitlines() if ln.startswith("removed")]
    assert line.startswith("removed 4 print files for letter paper, which this build was not asked for (--paper a4;")
    assert "no longer makes" not in stdout


def test_every_file_of_a_paper_left_out_is_said_to_go_for_that_reason(tmp_path):
    """The lines for files of a paper or a layout the build was not given: the print sheets and the
    card-count sheet of Letter go for --paper a4, the gutterfold sheets for --layout duplex, and
    any other file for the manifest's sake (the rulebook PDFs per paper of earlier versions too:
    the one rulebook.pdf serves both papers)."""
    from generator.products.output.mirror import Mirror, messages

    gone = Mirror(remove=["print/county-uppy-letter.pdf", "print/county-uppy-letter-card-count.pdf",
                          "rulebook-letter.pdf", "print/county-uppy-a4-gutterfold.pdf", "cards/SKIP.png"])
    lines = messages(gone, tmp_path, (), ("a4",), ("duplex",))
    assert lines[0].startswith("removed 2 print files for letter paper, which this build was not asked for "
                               "(--paper a4;") and lines[0].endswith(
        "print/county-uppy-letter.pdf, print/county-uppy-letter-card-count.pdf")
    assert lines[1] == ("removed 1 print file of the gutterfold layout, which this build was not asked for "
                        "(--layout duplex; every build makes only the layouts it is given): "
                        "print/county-uppy-a4-gutterfold.pdf")
    assert lines[2] == "removed 2 files the manifest no longer makes: rulebook-letter.pdf, cards/SKIP.png"
