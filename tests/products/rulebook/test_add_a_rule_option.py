"""Adding a rule option, as docs/architecture.md's "Where to change what" says: its values in
engine/options.py (CHOICES and Options), then its words in the rulebook's option table. A build
between the two steps is not an internal error: the rulebook lists the option and the build
says, in one line, which file lacks its words; once they are added, the rulebook says them.
"""

from __future__ import annotations

import dataclasses
import shutil

import pytest

import generator.engine.game  # noqa: F401 -- loaded before the fixture swaps Options: they keep the real one
import generator.engine.position  # noqa: F401
import generator.engine.simulate  # noqa: F401
import generator.products.rulebook.examples  # noqa: F401
from generator import resources
from generator.deck import rule_options
from generator.engine import options
from generator.products.rulebook import page as rulebook_page
from tests.conftest import MANIFEST, run

WORDS_FILE = "partials/clarifications.html.j2"


@pytest.fixture
def no_peeking(monkeypatch):
    """A new option, `no_peeking` (false by default), in the engine's two places."""
    new = dataclasses.make_dataclass("Options", [("no_peeking", bool, False)], bases=(options.Options,), frozen=True)
    monkeypatch.setattr(options, "Options", new)
    monkeypatch.setattr(options, "CHOICES", {**options.CHOICES, "no_peeking": (False, True)})
    monkeypatch.setattr(rule_options, "CHOICES", options.CHOICES)  # the table the checks read (deck/rule_options.py)
    monkeypatch.setattr(rule_options, "DEFAULTS", {**rule_options.DEFAULTS, "no_peeking": False})
    assert "no_peeking" in options.option_names() and options.Options.from_dict({"no_peeking": "true"}).no_peeking


def test_a_new_option_builds_and_names_the_file_that_lacks_its_words(no_peeking, tmp_path, capsys):
    out = tmp_path / "out"
    status, stdout, err = run(capsys, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "rulebook,deck")
    assert (status, err) == (0, "")
    assert (f"rulebook: rule option 'no_peeking' has no words in templates/{WORDS_FILE} (option_words); "
            "the rulebook lists it without saying what it changes") in stdout
    # by name in the designer notes, which are in the designer's rulebook (the players' leaves them out)
    assert "<code>no_<wbr>peeking</code>" in (out / "rulebook-designer.html").read_text(encoding="utf-8")
    assert "<code>no_<wbr>peeking</code>" not in (out / "rulebook.html").read_text(encoding="utf-8")
    assert '"no_peeking": false' in (out / "deck.json").read_text(encoding="utf-8")  # the defaults deck.json gives


def test_with_its_words_added_the_rulebook_says_them(no_peeking, tmp_path, monkeypatch, capsys):
    templates = tmp_path / "templates"
    shutil.copytree(resources.templates_dir(), templates)
    words = templates / WORDS_FILE
    text = words.read_text(encoding="utf-8")
    entry = '  "teams": "Play in teams (see Teams and SPEED).",\n'
    assert entry in text
    words.write_text(text.replace(entry, entry + '  "no_peeking": "Nobody looks at the draw pile.",\n'), encoding="utf-8")
    monkeypatch.setattr(rulebook_page, "templates_dir", lambda: templates)
    out = tmp_path / "out"
    status, stdout, err = run(capsys, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "rulebook")
    assert (status, err) == (0, "") and "no words" not in stdout
    assert "<li>Nobody looks at the draw pile.</li>" in (out / "rulebook.html").read_text(encoding="utf-8")
