"""Property-based fuzzing of cards.yaml: whatever the file holds, `validate` ends with exit 0, 1 or 2
and no traceback; every line of an exit-1 report is located (PATH:LINE:COL: ...); and whatever
validate accepts, build makes.

Mutations: structural (a value anywhere replaced by another type, a huge number, Unicode text;
keys dropped; entries duplicated), textual (YAML tags, anchors, aliases and merge keys, brackets,
quotes, tabs, control characters spliced in; lines dropped or repeated; truncation) and
encodings (UTF-16, Latin-1, stray bytes). Cases found are kept below as @example regressions.
"""

from __future__ import annotations

import io
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from generator.cli import main
from tests.fuzz.profiles import examples
from tests.conftest import ROOT

SHIPPED = (ROOT / "cards.yaml").read_text(encoding="utf-8")
SHIPPED_DATA = yaml.safe_load(SHIPPED)
LOCATED = re.compile(r"^.+:\d+:\d+: \S")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        status = main(list(argv))
    return status, out.getvalue(), err.getvalue()


def check_validate(path: Path) -> int:
    """Run validate on `path` and check the properties every outcome must have; return the status."""
    status, out, err = run("validate", "--manifest", str(path))
    assert "Traceback" not in out + err, err
    assert status in (0, 1, 2), (status, err)
    if status == 1:
        lines = err.splitlines()
        assert lines, "exit 1 with nothing said"
        for line in lines:
            assert LOCATED.match(line), f"not located: {line!r}"
            assert line.isprintable(), f"unescaped: {line!r}"
    elif status == 2:
        assert err.count("\n") >= 1 and all(line.isprintable() for line in err.splitlines())
    return status


# --- values ---------------------------------------------------------------------------

#: 19 to 4,000 digits (past 4,300 the dumper itself cannot write the number; the textual cases write 5,000)
huge_ints = st.builds(lambda n, sign: sign * (10 ** n - 1), st.integers(19, 4000), st.sampled_from([1, -1]))
scalars = st.one_of(
    st.integers(-2000, 2000), huge_ints, st.floats(allow_nan=True), st.booleans(), st.none(),
    st.text(max_size=30), st.text(st.characters(codec="utf-8"), max_size=30),
    st.sampled_from(["-2..7", "7..-2", "1:30", "0x10", "1e999", "..", "~", "yes", "2001-12-14", "{target}", "{",
                     "\u2028", "\x1b[2J", "a\tb", "\x85", "札", "🂡", "é", " "]),
)
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                      max_leaves=12)


def paths(data: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value in `data` (mapping keys and list indices)."""
    found = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            found += paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            found += paths(v, prefix + (i,))
    return found


ALL_PATHS = paths(SHIPPED_DATA)


def replace_at(data: Any, path: tuple, new: Any, how: str) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(data, dict):
        data = dict(data)
        if not rest and how == "drop":
            data.pop(head, None)
        else:
            data[head] = replace_at(data[head], rest, new, how)
    else:
        data = list(data)
        if not rest and how == "drop":
            del data[head]
        elif not rest and how == "repeat":
            data.insert(head, data[head])
        else:
            data[head] = replace_at(data[head], rest, new, how)
    return data


@st.composite
def structural(draw) -> str:
    data = SHIPPED_DATA
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(ALL_PATHS))
        how = draw(st.sampled_from(["replace", "replace", "drop", "repeat"]))
        try:
            data = replace_at(data, path, draw(values), how)
        except (KeyError, IndexError, TypeError):
            pass  # an earlier mutation removed the path
    return yaml.safe_dump(data, allow_unicode=draw(st.booleans()), sort_keys=False, width=10_000)


SNIPPETS = ["!!int ", "!!float ", "!!str ", "!!bool ", "!!null ", "!!timestamp ", "!!binary ", "!!python/object:os.system ",
            "!!set ", "!!omap ", "&a ", "*a", "*b", "<<: *a\n", "<<: *a", "&a [*a]", "{", "}", "[", "]", "\"", "'", ": ",
            "- ", "\t", "\n", "#", "---\n", "...\n", "? ", "|\n", ">\n", "%YAML 1.1\n", "\x00", "\x1b[2J", "\u2028",
            "\ud800", "\ufeff", "9" * 5000, "1..99999", "1:30", "{target}", "{{", "}}"]


@st.composite
def textual(draw) -> str:
    text = SHIPPED
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["insert", "insert", "delete", "line", "repeat", "truncate", "alias"]))
        at = draw(st.integers(0, len(text)))
        if op == "insert":
            text = text[:at] + draw(st.one_of(st.sampled_from(SNIPPETS), st.text(max_size=6))) + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)):]
        elif op in ("line", "repeat") and text:
            lines = text.splitlines(keepends=True)
            k = draw(st.integers(0, len(lines) - 1))
            lines[k:k + 1] = [] if op == "line" else [lines[k]] * draw(st.integers(2, 5))
            text = "".join(lines)
        elif op == "truncate":
            text = text[:at]
        elif op == "alias":  # anchor an entry and merge or alias it somewhere else
            text = text.replace("  - kind: wild\n", "  - &a\n    kind: wild\n", 1)
            lines = text.splitlines(keepends=True)
            k = draw(st.integers(0, len(lines)))
            lines.insert(k, draw(st.sampled_from(["  - *a\n", "    <<: *a\n", "  - {<<: *a, code: NEW}\n",
                                                  "x: &b [*a, *a, *a]\n"])))
            text = "".join(lines)
    return text


ENCODINGS = ["utf-8", "utf-8-sig", "utf-16", "latin-1", "cp1252", "stray"]


def encode(text: str, how: str) -> bytes:
    if how == "stray":
        raw = text.encode("utf-8", "surrogatepass")
        return raw[: len(raw) // 2] + b"\xff\xfe\x80" + raw[len(raw) // 2:]
    return text.encode(how, "surrogatepass" if how.startswith("utf") else "replace")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz-manifest")


@settings(max_examples=examples(60))
@given(text=structural())
@example(text=SHIPPED.replace("copies: 3}", "copies: " + "1" * 5000 + "}", 1))
@example(text=SHIPPED.replace("values: -2..7", "values: !!float 5..9", 1))
@example(text=SHIPPED.replace("values: -2..7", "values: !!int 0x10..9", 1))
@example(text=SHIPPED.replace("values: -2..7", "values: !!int sixteen", 1))
@example(text=SHIPPED.replace("game:\n", "game: &g\n  <<: *g\n", 1))
@example(text=SHIPPED.replace("name: County Uppy", 'name: "County \\udc80 Uppy"', 1))
def test_structural_mutations(workdir, text):
    path = workdir / "cards.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    check_validate(path)


@settings(max_examples=examples(60))
@given(text=textual(), encoding=st.sampled_from(ENCODINGS))
@example(text=SHIPPED.replace('name: "+{count} Card{count:/s}"', 'name: "\\e[2J\\e]0;PWNED\\a"', 1).replace('code: "+1"', 'code: "a\\tb"', 1),
         encoding="utf-8")
@example(text="x: &a [1, *a]\n" + SHIPPED, encoding="utf-8")
@example(text=SHIPPED + "a: &a [1,2,3,4,5,6,7,8,9]\n" + "".join(
    f"{c}: &{c} [{', '.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi")), encoding="utf-8")
def test_textual_mutations(workdir, text, encoding):
    path = workdir / "cards.yaml"
    path.write_bytes(encode(text, encoding))
    check_validate(path)


# --- what validate accepts, build makes -----------------------------------------------

WILD_NAMES = re.compile(r"^    name: (.*)$", re.M)
WILD_TEXTS = re.compile(r"^    text: (.*)$", re.M)
card_text = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=40)


@st.composite
def printed_text(draw) -> str:
    """The shipped manifest with card names, card texts and the game's name replaced by arbitrary Unicode."""
    text = SHIPPED
    for pattern, limit in ((WILD_NAMES, 24), (WILD_TEXTS, 200)):
        spots = list(pattern.finditer(text))
        for m in draw(st.lists(st.sampled_from(spots), max_size=2, unique_by=lambda m: m.start())):
            new = draw(card_text)[:limit]
            text = text.replace(m.group(0), m.group(0).split(":")[0] + ": " + yaml.safe_dump(new, width=10_000).split("\n...")[0].strip(), 1)
    if draw(st.booleans()):
        text = text.replace("name: County Uppy", "name: " + yaml.safe_dump(draw(card_text), width=10_000).split("\n...")[0].strip(), 1)
    return text


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    """One output folder for the module, so the face cache keeps the faces no case changed."""
    return tmp_path_factory.mktemp("fuzz-build") / "out"


def check_builds(path: Path, out: Path, only: str | None) -> None:
    argv = ["build", "--manifest", str(path), "--out", str(out), "--jobs", "1"]
    status, stdout, err = run(*argv, *(["--only", only] if only else []))
    assert "Traceback" not in stdout + err, err
    assert status == 0, f"validate accepted it, build said: {err}"


@settings(max_examples=examples(12))
@given(text=printed_text())
@example(text=SHIPPED.replace('name: "+{count} Card{count:/s}"', 'name: "+1 札"', 1))
@example(text=SHIPPED.replace('name: "+{count} Card{count:/s}"', 'name: "+1\\u2028Card"', 1))
@example(text=SHIPPED.replace('name: "+{count} Card{count:/s}"', 'name: "\\u00a0+1"', 1))
@example(text=SHIPPED.replace('name: "+{count} Card{count:/s}"', 'name: "\\u0301"', 1))
def test_whatever_validate_accepts_builds(workdir, out, text):
    path = workdir / "printed.yaml"
    path.write_text(text, encoding="utf-8")
    if check_validate(path) == 0:
        check_builds(path, out, "deck,cards")


@settings(max_examples=examples(2))
@given(text=printed_text())
def test_whatever_validate_accepts_builds_every_product(workdir, tmp_path_factory, text):
    path = workdir / "printed-full.yaml"
    path.write_text(text, encoding="utf-8")
    if check_validate(path) == 0:
        check_builds(path, tmp_path_factory.mktemp("fuzz-full") / "out", None)
