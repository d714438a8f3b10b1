"""A rule tweak, seen by the designer: =15 becoming =14 and the target becoming 17 show in the
build's summary and changes.json, in `diff` (paths and git revisions) and in `validate`."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from generator.deck.compare import compare, summary
from generator.deck.deck_json import deck_json
from generator.deck.manifest import load
from tests.conftest import MANIFEST, run

SET_14 = ("card =15 changed: name '=15' -> '=14', param value 15 -> 14, "
          "text 'Set the count to 15.' -> 'Set the count to 14.'")


def tweak(text: str, value: int = 14, target: int = 17) -> str:
    new = text.replace("params: {value: 15}", f"params: {{value: {value}}}").replace("target: 16", f"target: {target}")
    assert new.count(f"value: {value}}}") == 1 and new.count(f"target: {target}") == 1, "cards.yaml changed shape"
    return new


def without_cyan_7(text: str) -> str:
    new = text.replace("colour: cyan, values: -2..7,", "colour: cyan, values: -2..6,", 1)
    assert new != text
    return new


@pytest.fixture
def tweaked(tmp_path, manifest_text):
    path = tmp_path / "tweaked.yaml"
    path.write_text(tweak(manifest_text), encoding="utf-8")
    return path


# --- the comparison itself (deck/compare.py) ---------------------------------------------------

def test_compare_names_the_card_by_code_and_the_parameter(deck, tweaked):
    diff = compare(deck_json(deck), deck_json(load(tweaked)))
    assert diff["same"] is False
    assert diff["game"]["changed"] == {"target": {"before": 16, "after": 17}}
    (card,) = diff["cards"]["changed"]
    assert card["code"] == "=15"
    assert card["changes"]["params"] == {"before": {"value": 15}, "after": {"value": 14}}
    assert card["changes"]["name"] == {"before": "=15", "after": "=14"}
    assert diff["cards"]["added"] == diff["cards"]["removed"] == []
    assert all(c["before"] == c["after"] for c in diff["editions"]["counts"].values())  # no count moved
    assert summary(diff) == ["game: target 16 -> 17", SET_14]


def test_compare_a_removed_card_and_the_counts_by_kind(deck, tmp_path, manifest_text):
    path = tmp_path / "cards.yaml"
    path.write_text(without_cyan_7(manifest_text), encoding="utf-8")
    from generator.deck.problems import InputError

    with pytest.raises(InputError) as info:  # the editions' `expect` no longer holds: the deck is still built
        load(path)
    diff = compare(deck_json(deck), deck_json(info.value.deck))
    assert [c["code"] for c in diff["cards"]["removed"]] == ["C7"]
    assert diff["editions"]["counts"]["the-og"] == {
        "before": {"count": 201, "by_kind": {"numbers": 126, "duals": 42, "wilds": 18, "chaos wilds": 15}},
        "after": {"count": 198, "by_kind": {"numbers": 123, "duals": 42, "wilds": 18, "chaos wilds": 15}}}
    assert diff["editions"]["counts"]["only-chaos"]["before"] == diff["editions"]["counts"]["only-chaos"]["after"]
    lines = summary(diff)
    assert "card C7 removed: Cyan 7 (number, base, 3 copies)" in lines
    assert "edition the-og: 201 -> 198 playing cards (numbers 126 -> 123)" in lines
    assert "printed cards: 212 -> 209" in lines
    assert not any(line.startswith("edition only-chaos") for line in lines)


def test_compare_with_nothing_before_lists_nothing(deck):
    diff = compare(None, deck_json(deck))
    assert diff["same"] is None and diff["game"]["before"] is None and diff["game"]["after"]["target"] == 16
    assert diff["cards"] == {"added": [], "removed": [], "changed": []}
    assert compare(deck_json(deck), deck_json(deck))["same"] is True


# --- validate -------------------------------------------------------------------------------------

def test_validate_shows_the_tweaked_target_above_the_counts(tweaked, capsys):
    status, out, _ = run(capsys, "validate", "--manifest", str(tweaked))
    assert status == 0
    assert out.splitlines()[0] == "County Uppy: target 17, hand size 5, players 2-8"
    assert out.index("target 17") < out.index("playing cards per edition")
    status, out, _ = run(capsys, "validate", "--json", "--manifest", str(tweaked))
    assert json.loads(out)["game"]["target"] == 17


# --- diff -----------------------------------------------------------------------------------------

def test_diff_of_two_paths(tweaked, capsys):
    status, out, err = run(capsys, "diff", str(MANIFEST), str(tweaked))
    assert status == 1 and err == ""
    assert out.splitlines() == [f"--- {MANIFEST}", f"+++ {tweaked}", "game: target 16 -> 17", SET_14]
    status, out, _ = run(capsys, "diff", str(MANIFEST), str(tweaked), "--json")
    data = json.loads(out)
    assert status == 1 and data["old"] == str(MANIFEST) and data["same"] is False
    assert data["game"]["changed"]["target"] == {"before": 16, "after": 17}
    assert [c["code"] for c in data["cards"]["changed"]] == ["=15"]
    status, out, _ = run(capsys, "diff", str(MANIFEST), str(MANIFEST))
    assert status == 0 and out.splitlines()[-1] == "the deck is the same"


def test_diff_reports_a_mistake_located_and_exits_2(tmp_path, manifest_text, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(manifest_text.replace("colour: cyan, values: -2..7", "colour: cyna, values: -2..7", 1), encoding="utf-8")
    status, out, err = run(capsys, "diff", str(MANIFEST), str(bad))
    assert status == 2 and out == ""
    assert f"{bad}:48:39: unknown colour 'cyna' (did you mean 'cyan'?)" in err.splitlines()
    status, _, err = run(capsys, "diff", str(MANIFEST), str(tmp_path / "missing.yaml"))
    assert status == 2 and "missing.yaml: no such file" in err


def test_diff_shows_a_missed_expect_and_still_compares(tmp_path, manifest_text, capsys):
    path = tmp_path / "cards.yaml"
    path.write_text(without_cyan_7(manifest_text), encoding="utf-8")
    status, out, err = run(capsys, "diff", str(MANIFEST), str(path))
    assert status == 1
    assert f"{path}:168:13: edition 'the-og' has 198 playing cards, but expect says 201" in err.splitlines()
    assert "card C7 removed: Cyan 7 (number, base, 3 copies)" in out.splitlines()


@pytest.fixture
def repo(tmp_path, manifest_text, monkeypatch):
    """A git repository with the shipped cards.yaml committed, as the current folder."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    folder = tmp_path / "repo"
    folder.mkdir()
    (folder / "cards.yaml").write_text(manifest_text, encoding="utf-8")
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(tmp_path)}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    git = lambda *a: subprocess.run(["git", "-C", str(folder), *a], check=True, capture_output=True)  # noqa: E731
    git("init", "-q")
    git("add", "cards.yaml")
    git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "cards")
    monkeypatch.chdir(folder)
    return folder, git


def test_diff_git_head_reviews_an_uncommitted_tweak(repo, capsys):
    folder, _ = repo
    (folder / "cards.yaml").write_text(tweak((folder / "cards.yaml").read_text()), encoding="utf-8")
    status, out, err = run(capsys, "diff", "git:HEAD", "cards.yaml")
    assert status == 1 and err == ""
    assert out.splitlines() == ["--- git:HEAD", "+++ cards.yaml", "game: target 16 -> 17", SET_14]
    status, out, _ = run(capsys, "diff", "git:HEAD:cards.yaml", str(folder / "cards.yaml"), "--json")
    assert status == 1 and json.loads(out)["game"]["changed"] == {"target": {"before": 16, "after": 17}}
    status, out, _ = run(capsys, "diff", f"git:HEAD:{folder / 'cards.yaml'}", "git:HEAD")  # an absolute PATH too
    assert status == 0


def test_diff_git_errors_are_named_and_exit_2(repo, capsys):
    folder, git = repo
    bad = (folder / "cards.yaml").read_text().replace("colour: cyan, values: -2..7", "colour: cyna, values: -2..7", 1)
    (folder / "cards.yaml").write_text(bad, encoding="utf-8")
    git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-am", "typo")
    status, out, err = run(capsys, "diff", "git:HEAD~1", "git:HEAD")
    assert status == 2 and out == ""
    assert "git:HEAD:cards.yaml:48:39: unknown colour 'cyna' (did you mean 'cyan'?)" in err.splitlines()
    status, _, err = run(capsys, "diff", "git:nosuchrev", "cards.yaml")
    assert status == 2 and err.startswith("git:nosuchrev:cards.yaml: no commit 'nosuchrev' in this repository\n")
    status, _, err = run(capsys, "diff", "git:HEAD:other.yaml", "cards.yaml")
    assert status == 2 and err.startswith("git:HEAD:other.yaml: other.yaml is not in the commit HEAD\n")
    status, _, err = run(capsys, "diff", "git:", "cards.yaml")
    assert status == 2 and "write git:REV or git:REV:PATH" in err


# --- build: the summary and changes.json ----------------------------------------------------------

def test_build_summary_and_changes_json_after_the_tweak(tmp_path, tweaked, capsys):
    out = tmp_path / "output"
    status, stdout, _ = run(capsys, "build", "--out", str(out), "--only", "deck", "--manifest", str(MANIFEST))
    assert status == 0
    assert "changes: nothing to compare with (no earlier build in this folder)" in stdout.splitlines()
    first = json.loads((out / "changes.json").read_text())
    assert first["previous"] == {"build": False, "deck": False} and first["same"] is None

    status, stdout, _ = run(capsys, "build", "--out", str(out), "--only", "deck", "--manifest", str(tweaked))
    assert status == 0
    lines = stdout.splitlines()
    start = lines.index("changes since the previous build:")
    assert lines[start + 1:start + 4] == ["  game: target 16 -> 17", f"  {SET_14}", "  files: redrawn deck.json"]
    changes = json.loads((out / "changes.json").read_text())
    assert changes["previous"] == {"build": True, "deck": True} and changes["same"] is False
    assert changes["game"]["changed"] == {"target": {"before": 16, "after": 17}}
    assert [(c["code"], c["changes"]["params"]) for c in changes["cards"]["changed"]] == [
        ("=15", {"before": {"value": 15}, "after": {"value": 14}})]
    assert changes["files"] == {"added": [], "removed": [], "redrawn": ["deck.json"]}
    assert changes["summary"] == [line for line in lines[start:start + 4]]
    # changes.json is one of the build's files, with its hash
    record = json.loads((out / "build.json").read_text())
    import hashlib
    listed = {a["path"]: a["sha256"] for a in record["artifacts"]}
    assert listed["changes.json"] == hashlib.sha256((out / "changes.json").read_bytes()).hexdigest()

    status, stdout, _ = run(capsys, "build", "--out", str(out), "--only", "deck", "--manifest", str(tweaked))
    assert "  the deck is the same" in stdout.splitlines() and "  files: none added, removed or redrawn" in stdout.splitlines()


def test_build_after_one_without_deck_json_compares_the_files(tmp_path, capsys):
    out = tmp_path / "output"
    out.mkdir()
    (out / "build.json").write_text(json.dumps({"artifacts": [
        {"path": "cards/OLD.png", "kind": "png", "cards": 1, "pages": 0, "sha256": "0" * 64}], "seconds": 1.0}))
    status, stdout, _ = run(capsys, "build", "--out", str(out), "--only", "deck", "--manifest", str(MANIFEST))
    assert status == 0
    assert "  the previous build wrote no deck.json: its cards cannot be compared" in stdout.splitlines()
    changes = json.loads((out / "changes.json").read_text())
    assert changes["previous"] == {"build": True, "deck": False}
    assert changes["files"] == {"added": ["deck.json"], "removed": ["cards/OLD.png"], "redrawn": []}
    assert changes["game"]["after"]["target"] == 16 and changes["game"]["before"] is None


def test_build_names_a_changed_rule_option_default(tmp_path, capsys):
    """deck.json carries the rule options' defaults (the rulebook prints them), so a build by an
    engine with another default says which one moved."""
    out = tmp_path / "output"
    assert run(capsys, "build", "--out", str(out), "--only", "deck", "--manifest", str(MANIFEST))[0] == 0
    previous = json.loads((out / "deck.json").read_text())
    assert previous["game"]["options"]["play2_draws"] == 1 and previous["game"]["options"]["all_out"] == "sixteen_wins"
    previous["game"]["options"]["play2_draws"] = 2  # as an older engine might have had it
    (out / "deck.json").write_text(json.dumps(previous))
    status, stdout, _ = run(capsys, "build", "--out", str(out), "--only", "deck", "--manifest", str(MANIFEST))
    assert status == 0 and "  game: option play2_draws 2 -> 1" in stdout.splitlines()
    changes = json.loads((out / "changes.json").read_text())
    assert list(changes["game"]["changed"]) == ["options"] and changes["cards"]["changed"] == []


def test_files_kept_by_a_partial_build_are_not_removed(tmp_path, deck):
    """An `--only` build lists the other products' files as they were: changes.json counts them
    neither removed nor redrawn."""
    from generator.products.deck_json import deck_document
    from generator.products.output.changes import write_changes
    from generator.products.output.listing import read_previous
    from generator.products.output.outputs import Artifact, Folder

    out = tmp_path / "output"
    out.mkdir()
    old = [Artifact("cards/C1.png", "png", 1, 0, "a" * 64), Artifact("cards/GONE.png", "png", 1, 0, "b" * 64),
           Artifact("rulebook.html", "html", 0, 0, "c" * 64)]
    (out / "build.json").write_text(json.dumps({"artifacts": [a.as_json() for a in old], "seconds": 0}))
    made = [Artifact("rulebook.html", "html", 0, 0, "d" * 64)]
    _, lines = write_changes(Folder(out), deck_document(deck), made, read_previous(out, ("cards",)), kept=[old[0]])
    changes = json.loads((out / "changes.json").read_text())
    assert changes["files"] == {"added": [], "removed": ["cards/GONE.png"], "redrawn": ["rulebook.html"]}
    assert "  files: removed cards/GONE.png; redrawn rulebook.html" in lines
