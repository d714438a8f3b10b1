"""`county-uppy build` is all or nothing: a build that fails leaves the output folder as it was."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from generator.commands.crash import CRASH_FILE
from generator.products import build as build_module
from generator.products import product as product_record
from generator.products.build import BuildRequest, ProductFailed, build
from generator.products.deck_json import build_deck_json
from generator.products.output.commit import JOURNAL_NAME
from generator.products.output.staging import STAGING_PREFIX
from tests.conftest import MANIFEST, run

SKIP_TEXT = "text: Skip the next player's turn."
PRODUCTS = "deck,cards"


def snapshot(folder: Path) -> dict[str, tuple[int, int, bytes | None]]:
    """Every file and folder under `folder`: its mode, modification time and bytes."""
    out = {}
    for path in sorted(folder.rglob("*")):
        st = path.lstat()
        data = path.read_bytes() if path.is_file() else None
        out[path.relative_to(folder).as_posix()] = (st.st_mode, st.st_mtime_ns, data)
    return out




def without_crash(snap: dict) -> dict:
    """A snapshot less the crash file an internal error writes into the output folder."""
    return {k: v for k, v in snap.items() if k != CRASH_FILE}


def no_staging_left(folder: Path) -> bool:
    return not any(p.name.startswith(STAGING_PREFIX) for p in folder.parent.rglob("*"))


@pytest.fixture(scope="module")
def edited(tmp_path_factory) -> Path:
    """cards.yaml with one card's text changed: its deck.json and its card image differ."""
    path = tmp_path_factory.mktemp("manifest") / "cards.yaml"
    text = MANIFEST.read_text(encoding="utf-8")
    assert SKIP_TEXT in text
    path.write_text(text.replace(SKIP_TEXT, "text: Skip the next player's turn, twice.", 1), encoding="utf-8")
    return path


@pytest.fixture
def out(build_copy) -> Path:
    """A copy of a finished build (its face cache included) to break a build in."""
    return build_copy(PRODUCTS)


def replace_product(monkeypatch, name: str, function) -> None:
    """Build product `name` with `function` instead of the one its record names."""
    real = build_module.builder
    monkeypatch.setattr(build_module, "builder", lambda record: function if record.name == name else real(record))


def fail_after_running(monkeypatch, name: str, error: BaseException) -> None:
    """Make product `name` do all its work, then raise `error`."""
    real = build_module.builder(product_record(name))

    def product(ctx):
        real(ctx)
        raise error
    replace_product(monkeypatch, name, product)


def test_a_failing_product_changes_nothing(out, edited, monkeypatch, capsys):
    before = snapshot(out)
    fail_after_running(monkeypatch, "cards", ValueError("font size 0.3 is too small\nfor the card name"))
    status, stdout, err = run(capsys, "build", "--manifest", str(edited), "--out", str(out), "--only", PRODUCTS)
    assert status == 3 and stdout == ""  # an unexpected exception is a bug: exit 3, the traceback in a file
    assert err == (f"county-uppy build: internal error in the cards product (ValueError: font size 0.3 is too small for "
                   f"the card name); this is a bug in county-uppy, not in your input; the details are in "
                   f"{out / CRASH_FILE}; nothing else in {out} was changed\n")
    assert "ValueError: font size 0.3" in (out / CRASH_FILE).read_text(encoding="utf-8")
    assert without_crash(snapshot(out)) == before  # deck.json was built before cards failed, and the face cache grew
    assert no_staging_left(out)


def test_an_unexpected_exception_in_the_last_product_changes_nothing(out, edited, monkeypatch, capsys):
    before = snapshot(out)
    replace_product(monkeypatch, "rulebook", lambda ctx: {}["missing"])
    status, _, err = run(capsys, "build", "--manifest", str(edited), "--out", str(out), "--only", PRODUCTS + ",rulebook")
    assert status == 3
    assert err.startswith("county-uppy build: internal error in the rulebook product (KeyError: 'missing'); ")
    assert err.endswith(f"; nothing else in {out} was changed\n")
    assert without_crash(snapshot(out)) == without_crash(before)
    assert no_staging_left(out)


def test_a_long_message_stays_on_one_short_line(out, monkeypatch, capsys):
    fail_after_running(monkeypatch, "deck", RuntimeError("x" * 5000))
    status, _, err = run(capsys, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "deck")
    assert status == 3 and err.count("\n") == 1 and len(err) < 500


def test_a_failed_first_build_leaves_no_folder(tmp_path, tmp_path_factory, monkeypatch, capsys):
    from generator.commands import crash

    elsewhere = tmp_path_factory.mktemp("tmp")
    monkeypatch.setattr(crash.tempfile, "gettempdir", lambda: str(elsewhere))  # no folder to hold the crash file
    fail_after_running(monkeypatch, "deck", RuntimeError("boom"))
    target = tmp_path / "new" / "out"
    status, _, err = run(capsys, "build", "--manifest", str(MANIFEST), "--out", str(target), "--only", "deck")
    assert status == 3 and "internal error in the deck product (RuntimeError: boom)" in err
    assert (elsewhere / CRASH_FILE).exists()
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_changes_nothing(out, edited, monkeypatch, capsys):
    before = snapshot(out)
    fail_after_running(monkeypatch, "cards", KeyboardInterrupt())
    status, _, err = run(capsys, "build", "--manifest", str(edited), "--out", str(out), "--only", PRODUCTS)
    assert status == 130 and err == f"county-uppy build: interrupted; nothing in {out} was changed\n"
    assert snapshot(out) == before
    assert no_staging_left(out)


def test_a_write_error_names_the_output_file_and_changes_nothing(out, edited, monkeypatch, capsys):
    before = snapshot(out)

    def product(ctx):
        raise PermissionError(13, "Permission denied", str(ctx.target.files / "cards" / "C1.png"))  # a staged file: named as OUT's
    replace_product(monkeypatch, "cards", product)
    status, _, err = run(capsys, "build", "--manifest", str(edited), "--out", str(out), "--only", PRODUCTS)
    assert status == 2
    assert err == (f"county-uppy build: cannot write {out / 'cards' / 'C1.png'}: Permission denied; "
                   f"nothing in {out} was changed\n")
    assert snapshot(out) == before
    assert no_staging_left(out)


def test_a_rename_failing_half_way_is_undone(out, edited, monkeypatch, capsys):
    before = snapshot(out)
    real_replace = os.replace
    moved = []

    def replace(src, dst, **kw):
        dst_path = Path(dst)
        if dst_path.is_relative_to(out) and not any(p.startswith(STAGING_PREFIX) for p in dst_path.relative_to(out).parts):
            if dst_path.name == "build.json":  # moved last, after deck.json and cards/SKIP.png
                raise OSError(28, "No space left on device", str(src), None, str(dst))
            if dst_path.name != JOURNAL_NAME:
                moved.append(dst_path.relative_to(out).as_posix())
        return real_replace(src, dst, **kw)
    monkeypatch.setattr(os, "replace", replace)
    status, _, err = run(capsys, "build", "--manifest", str(edited), "--out", str(out), "--only", PRODUCTS)
    assert moved == ["cards/SKIP.png", "changes.json", "deck.json",  # moved in, then put back
                     "deck.json", "changes.json", "cards/SKIP.png"]
    assert err == f"county-uppy build: cannot write {out / 'build.json'}: No space left on device; nothing in {out} was changed\n"
    assert status == 2
    assert snapshot(out) == before  # the commit journal is gone too: there is nothing to finish
    assert no_staging_left(out)


@pytest.mark.parametrize("argv, message", [
    (["--out", ""], "--out needs a folder name"),
    (["--only", ""], "--only needs a product name; choose from deck, rulebook, rulebook-pdf, print, pod, tts, cards"),
    (["--only", ","], "--only needs a product name"),
    (["--only", "deck", "--only", ""], "--only needs a product name"),
])
def test_empty_out_and_only_are_refused(tmp_path, monkeypatch, capsys, argv, message):
    monkeypatch.chdir(tmp_path)
    status, stdout, err = run(capsys, "build", "--manifest", str(MANIFEST), *argv)
    assert status == 2 and stdout == ""
    assert err.startswith("county-uppy build: ") and message in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_a_build_after_a_failed_one_succeeds_and_uses_the_cache(out, edited, monkeypatch, capsys):
    from generator.deck.manifest import load

    fail_after_running(monkeypatch, "cards", RuntimeError("boom"))
    assert run(capsys, "build", "--manifest", str(edited), "--out", str(out), "--only", PRODUCTS)[0] == 3
    monkeypatch.undo()
    before = snapshot(out)
    built = build(load(edited), BuildRequest(edited, out, only=("deck", "cards"), jobs=1))
    artifacts = built.artifacts
    assert built.redrawn["tgc"] == ["SKIP"]  # the other faces came from the cache the failed build left alone
    after = snapshot(out)
    changed = {p for p in after if p in before and after[p] != before[p] and after[p][2] is not None
               and not p.startswith(".cache")}
    assert changed == {"build.json", "changes.json", "deck.json", "cards/SKIP.png"}  # the rest is not even touched
    record = json.loads((out / "build.json").read_text())
    assert [a["path"] for a in record["artifacts"]] == [a.path for a in artifacts]
    for art in record["artifacts"]:
        path = out / art["path"]
        assert hashlib.sha256(path.read_bytes()).hexdigest() == art["sha256"]
        assert path.stat().st_mode & 0o777 == 0o644
    assert no_staging_left(out)
    # the same inputs in a fresh folder give the same bytes
    fresh = out.parent / "fresh"
    assert run(capsys, "build", "--manifest", str(edited), "--out", str(fresh), "--only", PRODUCTS)[0] == 0
    products = lambda rec: [a for a in rec["artifacts"] if a["path"] != "changes.json"]  # noqa: E731 (it says what changed since)
    assert products(json.loads((fresh / "build.json").read_text())) == products(record)


def test_build_raises_product_failed_and_changes_nothing(out, deck, monkeypatch):
    fail_after_running(monkeypatch, "deck", RuntimeError("boom"))
    before = snapshot(out)
    with pytest.raises(ProductFailed) as info:
        build(deck, BuildRequest(MANIFEST, out, only=("deck",)))
    assert info.value.product == "deck" and isinstance(info.value.error, RuntimeError)
    assert snapshot(out) == before


def test_files_the_build_does_not_make_are_left_alone(out, capsys):
    (out / "notes.txt").write_text("mine")
    (out / "cards" / "extra.png").write_bytes(b"not a card")
    assert run(capsys, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "deck")[0] == 0
    assert (out / "notes.txt").read_text() == "mine"
    assert (out / "cards" / "extra.png").read_bytes() == b"not a card"


def test_products_write_into_staging_but_name_the_output_folder(tmp_path, deck, monkeypatch):
    seen = {}

    def product(ctx):
        seen.update(out=ctx.out, dest=ctx.target.dest, files=ctx.target.files)
        return build_deck_json(ctx)
    replace_product(monkeypatch, "deck", product)
    out = tmp_path / "out"
    build(deck, BuildRequest(MANIFEST, out, only=("deck",)))
    assert seen["out"] == seen["dest"] == out  # what a product puts in a file (the TTS file:// address) names the real folder
    assert seen["files"].parent.name.startswith(STAGING_PREFIX) and seen["files"].parent.parent == out
    assert not seen["files"].exists()
    assert sorted(p.name for p in out.iterdir()) == ["build.json", "changes.json", "deck.json"]


def test_ctrl_c_during_the_commit_waits_for_it_then_stops(out, edited, monkeypatch, capsys):
    """A stop that comes while the files move into place is not lost and does not tear the folder:
    the move completes, then the build stops with 130 and says the folder holds the new build."""
    import signal

    from generator.products.output import commit

    real = commit.write_journal

    def write_then_interrupt(*args, **kwargs):
        path = real(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C just after the commit point
        return path
    monkeypatch.setattr(commit, "write_journal", write_then_interrupt)
    status, stdout, err = run(capsys, "build", "--manifest", str(edited), "--out", str(out), "--only", PRODUCTS)
    assert status == 130 and stdout == ""
    assert err == (f"county-uppy build: interrupted while the new files were moved into {out}; the move was "
                   f"completed, so {out} holds the new build\n")
    record = json.loads((out / "build.json").read_text())
    for art in record["artifacts"]:
        assert hashlib.sha256((out / art["path"]).read_bytes()).hexdigest() == art["sha256"]
    assert b"twice" in (out / "deck.json").read_bytes()
    assert no_staging_left(out) and not (out / JOURNAL_NAME).exists()
