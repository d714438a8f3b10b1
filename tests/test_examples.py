"""Every `console` example in the README and docs/ runs, and prints what it shows.

A ```console block is a transcript: `$ county-uppy ...` lines are run (a `# comment` after the
command is left out), the lines under each are what it prints, standard output and standard
error together, compared the way doctest compares with ELLIPSIS:

- a line that is only `...` stands for any number of lines, none included;
- `...` inside a line stands for any text within that line.

Each block runs in a new folder holding a copy of the shipped `cards.yaml`. A block that needs
more says so in an HTML comment on the line before it, `<!-- example: WORD ... -->`, each WORD
a step of SETUPS below run in order (a built `output/`, a manifest edit, a git repository). Transcripts that cannot be replayed (an interactive session, a game in the terminal)
are ```text blocks, not ```console.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests import look_walkthrough
from tests.conftest import MANIFEST, ROOT

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^(?P<indent>[ \t]*)```console\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S)
MARKER = re.compile(r"^[ \t]*<!-- example: ([a-z0-9 -]+?) -->[ \t]*$")
ELLIPSIS = "..."
TIMEOUT = 600  #: seconds any one command may take (the report plays thousands of games)


@dataclass
class Example:
    doc: str  #: the document, relative to the repository
    line: int  #: the line of the opening fence
    setup: list[str]
    steps: list[tuple[str, str]] = field(default_factory=list)  #: (command, expected output)

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"


def examples_in(path: Path) -> list[Example]:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    found = []
    for m in FENCE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        before = lines[line - 2] if line >= 2 else ""
        marker = MARKER.match(before)
        ex = Example(path.relative_to(ROOT).as_posix(), line, marker.group(1).split() if marker else [])
        indent = m.group("indent")
        for raw in m.group("body").splitlines():
            row = raw[len(indent):] if raw.startswith(indent) else raw.lstrip()
            if row.startswith("$ "):
                ex.steps.append((row[2:], ""))
            else:
                assert ex.steps, f"{ex.id}: a console block starts with `$ COMMAND`"
                cmd, out = ex.steps[-1]
                ex.steps[-1] = (cmd, out + row + "\n")
        found.append(ex)
    return found


EXAMPLES = [ex for doc in DOCUMENTS for ex in examples_in(doc)]


def pattern(expected: str) -> re.Pattern:
    """The regular expression an expected output stands for (see the module's docstring)."""
    parts = []
    for line in expected.splitlines():
        if line.strip() == ELLIPSIS:
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append("[^\n]*".join(re.escape(piece) for piece in line.rstrip().split(ELLIPSIS)) + r"\n")
    return re.compile("".join(parts))


def matches(expected: str, actual: str) -> bool:
    actual = "".join(line.rstrip() + "\n" for line in actual.splitlines())
    return pattern(expected).fullmatch(actual) is not None


def test_the_comparison_reads_ellipses_as_doctest_does():
    assert matches("a\n...\nd\n", "a\nb\nc\nd\n") and matches("a\n...\nd\n", "a\nd\n")
    assert matches("count ... cards\n", "count 212 cards\n")
    assert not matches("count ... cards\n", "count 212\ncards\n")  # within a line only
    assert not matches("a\nd\n", "a\nb\nd\n") and not matches("a (b)\n", "a b\n")
    assert matches("x   \n", "x\n")  # trailing spaces do not count


# --- setups ---------------------------------------------------------------------------------
def _edit(folder: Path, old: str, new: str, count: int = 1) -> None:
    path = folder / "cards.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= count, f"the example's edit needs {old!r} in cards.yaml"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def _git(folder: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=Example", "-c", "user.email=example@example.org", "-c",
                    "commit.gpgsign=false", *args], cwd=folder, check=True, capture_output=True, timeout=60)


def _wild_block(code: str) -> str:
    """The manifest's lines for one wild card entry, from `  - kind: wild` to its `copies:`."""
    text = MANIFEST.read_text(encoding="utf-8")
    m = re.search(r"  - kind: wild\n(?:    .*\n)*?    code: " + re.escape(code) + r"\n(?:    .*\n)*?    copies: \d+\n", text)
    assert m, code
    return m.group(0)


CRASH = """\
import sys
from generator.products.pipeline import rendered
real = rendered.face
def face(card, deck, *args, **kwargs):  # a bug in drawing one face
    if card.code == "+1":
        raise ValueError("raqm_layout() failed")
    return real(card, deck, *args, **kwargs)
rendered.face = face
from generator.cli import main
sys.exit(main(sys.argv[1:]))
"""

SETUPS = {
    # output/ holds a build of the shipped manifest (one build per session, copied)
    "built": lambda folder, built: shutil.copytree(built, folder / "output", symlinks=True),
    # two mistakes in one run: a colour and an effect misspelt
    "typos": lambda folder, built: (
        _edit(folder, "  - {kind: number, set: base, colour: cyan, values: -2..7, copies: 3}",
              "  - {kind: number, set: base, colour: cyna, values: -2..7, copies: 3}"),
        _edit(folder, "    effect: skip\n", "    effect: skp\n")),
    # a text holding ': ' (a YAML syntax error)
    "colon-in-text": lambda folder, built: _edit(folder, "    text: Draw {count:word} extra card{count:/s}.\n", "    text: Draw: two cards\n"),
    # one more +1 card: the editions that hold it no longer have their expected counts
    "one-more-plus-one": lambda folder, built: _edit(
        folder, _wild_block('"+1"'), _wild_block('"+1"').replace("copies: 3", "copies: 4")),
    # the Skip card's code renamed, and a file of the designer's own among the card images
    "renamed-skip": lambda folder, built: (
        _edit(folder, "    code: SKIP\n", "    code: SKP\n"),
        (folder / "output" / "cards" / "my-card.png").write_bytes(b"not made by county-uppy")),
    # the README's rule tweak ("Changing a rule and rebuilding"): play to 21 with a x3 wild
    "tweak": lambda folder, built: (
        _edit(folder, "  target: 16\n", "  target: 21\n"),
        _edit(folder, "    params: {factor: 2}\n", "    params: {factor: 3}\n")),
    # a git repository with the manifest as shipped committed
    "git": lambda folder, built: (_git(folder, "init", "-q"), _git(folder, "add", "cards.yaml"),
                                  _git(folder, "commit", "-q", "-m", "as shipped")),
    # the manifest's changes committed
    "commit": lambda folder, built: _git(folder, "commit", "-q", "-a", "-m", "a tweak"),
    # a bug in county-uppy: drawing the +1 card's face fails (the command is run through CRASH)
    "crash": lambda folder, built: None,
    # the README's "Changing how the cards look": its look: section, pictures, fonts, an inline icon
    "look": lambda folder, built: look_walkthrough.apply(folder),
}


@pytest.fixture(scope="session")
def built_output(tmp_path_factory) -> Path:
    """One build of the shipped manifest for every example that needs one (each gets a copy)."""
    folder = tmp_path_factory.mktemp("examples-build")
    shutil.copy2(MANIFEST, folder / "cards.yaml")  # its time too: the PDFs are dated by it (no git here)
    done = subprocess.run([sys.executable, "-m", "generator", "build"], cwd=folder, capture_output=True,
                          text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stdout + done.stderr
    return folder / "output"


def _environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "FORCE_COLOR")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


@pytest.mark.parametrize("example", [pytest.param(ex, id=ex.id) for ex in EXAMPLES])
def test_console_example(example: Example, tmp_path: Path, request):
    unknown = [word for word in example.setup if word not in SETUPS]
    assert not unknown, f"{example.id}: no such example setup {unknown}; the setups are {sorted(SETUPS)}"
    assert example.steps, f"{example.id}: a console block with no `$ county-uppy` command"
    folder = tmp_path / "example"
    folder.mkdir()
    shutil.copy2(MANIFEST, folder / "cards.yaml")  # its time too: the PDFs are dated by it (no git here)
    built = request.getfixturevalue("built_output") if "built" in example.setup else None
    for word in example.setup:
        SETUPS[word](folder, built)
    for command, expected in example.steps:
        argv = shlex.split(command, comments=True)
        assert argv[0] == "county-uppy", f"{example.id}: only county-uppy commands run: {command}"
        run = [sys.executable, "-c", CRASH] if "crash" in example.setup else [sys.executable, "-m", "generator"]
        done = subprocess.run([*run, *argv[1:]], cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, encoding="utf-8", env=_environment(), timeout=TIMEOUT)
        assert "Traceback" not in done.stdout, f"{example.id}: $ {command}\n{done.stdout}"
        assert matches(expected, done.stdout), (
            f"{example.id}: $ {command}\n--- the document shows:\n{expected}--- it prints:\n{done.stdout}")


def test_the_documents_hold_examples_of_every_kind():
    """The scan finds the examples: the README's, an indented one, marked ones, ellipses."""
    ids = {ex.doc for ex in EXAMPLES}
    assert {"README.md", "docs/commands.md"} <= ids
    assert any(ex.steps and ex.setup for ex in EXAMPLES)
    assert any("..." in out for ex in EXAMPLES for _, out in ex.steps)
    indented = [ex for ex in EXAMPLES if "sweep" in ex.steps[0][0]]
    assert indented, "the sweep example sits in a list item, indented"
