"""libyaml reads the manifest when PyYAML has it (deck/yaml_source.py): the result must be the pure
reader's, value for value and position for position, or the pure reader must read it instead.

Where the two differ (libyaml takes a tab in a plain value, `|-#`, a byte-order mark inside the
text, and marks empty values and resolves the `!` tag otherwise), the text goes to the pure
reader; these cases, and random texts and mutated manifests, are compared both ways.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from generator.deck import yaml_source
from generator.deck.problems import InputError
from tests.fuzz.profiles import examples
from tests.fuzz.test_fuzz_manifest import SHIPPED, structural, textual

pytestmark = pytest.mark.skipif(yaml_source._FastLoader is None, reason="PyYAML was built without libyaml")


def outcome(text: str, fast: bool, monkeypatch: pytest.MonkeyPatch) -> tuple:
    """What parse() makes of `text`: the data and every position, or the problems, as text."""
    with monkeypatch.context() as m:
        if not fast:
            m.setattr(yaml_source, "_FastLoader", None)
        try:
            source = yaml_source.parse(text.encode("utf-8", "surrogatepass"), "cards.yaml")
        except InputError as err:
            return ("problems", [str(p) for p in err.problems])
    return ("read", repr(source.data), source.values, source.keys)


def test_the_shipped_manifest_is_read_by_libyaml_to_the_same_result(monkeypatch):
    loader, _ = yaml_source._compose(SHIPPED)
    assert isinstance(loader, yaml_source._FastLoader)
    assert outcome(SHIPPED, True, monkeypatch) == outcome(SHIPPED, False, monkeypatch)


#: Texts libyaml reads otherwise than PyYAML (each was found by the tests below).
DIFFERENT = ["a: b\tc\n", "a: \ufeffb\n", "!", "a: !\n", "? a\n", "a: {b: , c}\n", "a: |#\n  x\n", "a: >-#c\n  x\n",
             "a: |0\n  x\n", "a: |12\n  x\n", "a: 1:30\n", ">#>"]


@pytest.mark.parametrize("text", DIFFERENT)
def test_where_libyaml_differs_the_pure_reader_reads(text, monkeypatch):
    assert outcome(text, True, monkeypatch) == outcome(text, False, monkeypatch)


TOKENS = st.sampled_from(
    list("ab1 :-?[]{},#&*!|>'\"%@`.~\\") + ["- ", ": ", "? ", "<<", "&a ", "*a", "é", "札", "🂡", "\\n", "\\x41", "\\u2028",
                                           "|", "|-", "|+", ">", ">-", ">2", "|2-", " #", "---", "...", "%YAML 1.1",
                                           "%TAG !e! tag:e.com,2000:", "!e!x ", "!!str ", "0x1F", "1_000", "1:30", "yes",
                                           "~", "2001-12-14", "\x85", "\u2028", "\u2029", "\r", "\t", "\ufeff"])
LINES = st.tuples(st.integers(0, 6), st.lists(TOKENS, max_size=8)).map(lambda t: " " * t[0] + "".join(t[1]))


@settings(max_examples=examples(400))
@given(text=st.lists(LINES, max_size=12).map("\n".join))
@example(text="a:\n  - x:\n  - y: \n")
@example(text="a: |-\n  x\n  y\nb: >\n  z\n")
def test_random_yaml_reads_the_same_both_ways(text, monkeypatch):
    assert outcome(text, True, monkeypatch) == outcome(text, False, monkeypatch)


@settings(max_examples=examples(150))
@given(text=st.one_of(textual(), structural()))
def test_mutated_manifests_read_the_same_both_ways(text, monkeypatch):
    assert outcome(text, True, monkeypatch) == outcome(text, False, monkeypatch)
