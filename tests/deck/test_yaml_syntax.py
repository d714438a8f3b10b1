"""YAML syntax errors in the designer's words (deck/yaml_hints.py): what is wrong, where, and what to write.

Each case breaks the shipped manifest the way a designer might, runs `county-uppy validate`,
and checks the one located line it prints: its position and its words. No message may name
a parser token or a character that is not in the file.
"""

from __future__ import annotations

import re

import pytest

from generator.deck.problems import InputError
from generator.deck.yaml_source import parse
from tests.conftest import run

WILD = '  - kind: wild\n    set: base\n    code: "+1"\n    name: "+{count} Card{count:/s}"\n    effect: draw_extra\n'

# (id, old text, new text, the whole message, the text at the reported line and column)
CASES = [
    ("a text holding a colon", "text: Draw {count:word} extra card{count:/s}.", "text: Draw: two cards",
     "the value of 'text' holds a ':' followed by a space, which YAML reads as the start of another key: "
     'put the whole value in quotes: text: "Draw: two cards"', ": two cards"),
    ("a text ending in a colon", "text: Draw {count:word} extra card{count:/s}.", "text: Draw this:",
     "the value of 'text' holds a ':' at the end of the line, which YAML reads as the start of another key: "
     'put the whole value in quotes: text: "Draw this:"', ":"),
    ("a colon inside a quoted-looking text", "text: Draw {count:word} extra card{count:/s}.", 'text: Say "go": draw',
     "the value of 'text' holds a ':' followed by a space, which YAML reads as the start of another key: "
     "put the whole value in quotes: text: 'Say \"go\": draw'", ": draw"),
    ("a colon in a value between braces", "{key: base, name: Base, interior: white}",
     "{key: base, name: Base: one, interior: white}",
     "the value of 'name' holds ': ', which YAML reads as the start of another key: put the value in quotes: "
     'name: "Base: one"', ": one"),
    ("a key indented less than its entry's", WILD, WILD.replace("    effect:", "   effect:"),
     "'effect' is indented 3 spaces, but the keys of the 'cards' entry that starts on line {entry} (kind, set, code, "
     "name) are indented 4, and the top-level keys 0: indent it like the keys it belongs with", "effect: draw_extra"),
    ("a key indented more than its entry's", WILD, WILD.replace("    effect:", "      effect:"),
     "'effect' is indented 6 spaces, more than the keys of the 'cards' entry that starts on line {entry} (kind, set, "
     "code, name) (4), so YAML reads it as more of the value of 'name' on line {name}: indent it 4 spaces like them",
     "effect: draw_extra"),
    ("a game key indented by one", "  target: 16\n", " target: 16\n",
     "'target' is indented 1 space, but the keys of 'game' are indented 2, and the top-level keys 0: indent it like "
     "the keys it belongs with", "target: 16"),
    ("a list entry indented by one", "  - {kind: number, set: base, colour: green",
     "   - {kind: number, set: base, colour: green",
     "this list item is indented 3 spaces, more than the entries of 'cards' (2): indent it 2 spaces like them",
     "- {kind: number, set: base, colour: green"),
    ("a section indented after a list", "\nsets:\n", "\n  sets:\n",
     "'sets' is indented 2 spaces, more than the top-level keys (0): indent it 0 spaces like them", "sets:"),
    ("a first key indented", "\ngame:\n", "\n game:\n",
     "'colours' is indented 0 spaces, but the file's first key ('game', line {game}) is indented 1 space: start "
     "every top-level key at the beginning of its line", "colours:"),
    ("a line of a text block less indented", "      If the next card played", "   If the next card played",
     "this line is indented 3 spaces, but the text of 'text' (line {text}) must be indented more than its key "
     "(4 spaces)", "If the next card played"),
    ("a quote left open", 'code: "+1"', 'code: "+1',
     "the quote \" that opens the value of 'code' is not closed on its line: end the value with \"", '"+1'),
    ("text after a closing quote", "text: Draw {count:word} extra card{count:/s}.", 'text: "Draw" an extra card.',
     "the value of 'text' starts with \", so YAML reads it as a quoted text that ends before the rest of the line: "
     "put the whole value in quotes: text: '\"Draw\" an extra card.'", '"Draw" an'),
    ("text after a list", "text: Draw {count:word} extra card{count:/s}.", "text: [Draw] an extra card.",
     "the value of 'text' starts with [, so YAML reads it as a list that ends before the rest of the line: put the "
     'whole value in quotes: text: "[Draw] an extra card."', "[Draw]"),
    ("a text starting with @", "text: Draw {count:word} extra card{count:/s}.", "text: @you draws a card.",
     "the value of 'text' starts with '@', which YAML reads as a reserved character: put the whole value in quotes: "
     'text: "@you draws a card."', "@you"),
    ("a text starting with '& '", "text: Draw {count:word} extra card{count:/s}.", "text: & draw one more.",
     "the value of 'text' starts with '&', which YAML reads as an anchor: put the whole value in quotes: "
     'text: "& draw one more."', "& draw"),
    ("a text starting with '*'", "text: Draw {count:word} extra card{count:/s}.", "text: *Draw an extra card.",
     "the value of 'text' starts with '*', which YAML reads as an alias of the anchor 'Draw', which is not defined "
     '(no \'&Draw\' above): put the whole value in quotes: text: "*Draw an extra card."', "*Draw"),
    ("a name starting with a dash", 'name: "+{count} Card{count:/s}"', "name: - Card",
     "the value of 'name' starts with '-', which YAML reads as a list item: put the whole value in quotes: "
     'name: "- Card"', "- Card"),
]


def located(capsys, tmp_path, text: str) -> tuple[int, int, str]:
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    status, _, err = run(capsys, "validate", "--manifest", str(path))
    assert status == 1
    (line,) = err.splitlines()
    m = re.match(rf"^{re.escape(str(path))}:(\d+):(\d+): YAML syntax error: (.*)$", line)
    assert m, line
    return int(m.group(1)), int(m.group(2)), m.group(3)


def number_of(text: str, needle: str) -> int:
    return next((i for i, ln in enumerate(text.splitlines(), 1) if needle in ln), 0)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_syntax_error_says_what_to_write(capsys, tmp_path, manifest_text, case):
    _, old, new, message, at = case
    assert old in manifest_text, old
    text = manifest_text.replace(old, new, 1)
    line, column, said = located(capsys, tmp_path, text)
    lines = text.splitlines()
    entry = number_of(text, '    code: "+1"') - 2
    assert said == message.format(entry=entry, name=entry + 3, game=number_of(text, "game:"),
                                  text=number_of(text, "text: >-"))
    assert lines[line - 1][column - 1:].startswith(at), (lines[line - 1], column)


def test_a_section_indented_into_the_one_above_says_so(capsys, tmp_path, manifest_text):
    text = manifest_text.replace("\ncolours:\n", "\n  colours:\n", 1)
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    status, _, err = run(capsys, "validate", "--manifest", str(path))
    assert status == 1
    hit = next(ln for ln in err.splitlines() if "unknown key 'colours'" in ln)
    assert hit.endswith("('colours' is a section of the manifest: start it at the beginning of its line, not indented "
                        "under 'game')")
    assert hit.startswith(f"{path}:{number_of(text, '  colours:')}:3: ")


def test_a_text_that_yaml_reads_as_a_comment_says_so(capsys, tmp_path, manifest_text):
    text = manifest_text.replace('name: "+{count} Card{count:/s}"', "name: #1 Card", 1)
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    status, _, err = run(capsys, "validate", "--manifest", str(path))
    assert status == 1
    assert err.splitlines() == [f"{path}:{number_of(text, 'name: #1 Card')}:11: YAML reads everything from '#' on as "
                                "a comment, so 'name' is empty: put the value in quotes: name: \"#1 Card\""]


LOOK = "look:\n  icons:\n"
#: (id, old text, new text, the text at the reported column, the message): a colour YAML read as a comment
EATEN = [
    ("a look colour", LOOK, "look:\n  wild:\n    glyph:\n      colour: #FF0000\n  icons:\n", "#FF0000",
     "YAML reads '#FF0000' after 'colour:' as a comment, so 'colour' is empty: put the colour in quotes: "
     'colour: "#FF0000"'),
    ("a look colour between braces", LOOK, "look:\n  wild:\n    glyph: {colour: #FF0000}\n  icons:\n", "#FF0000}",
     "YAML reads '#FF0000' after 'colour:' as a comment, so 'colour' is empty: put the colour in quotes: "
     'colour: "#FF0000"'),
    ("a look colour between braces, more keys after it", LOOK,
     "look:\n  wild:\n    glyph: {colour: #FF0000, size: 15mm}\n  icons:\n", "#FF0000,",
     "YAML reads '#FF0000' after 'colour:' as a comment, so 'colour' is empty: put the colour in quotes: "
     'colour: "#FF0000"'),
    ("a print colour between braces", 'print: "#00A3D9"', "print: #00A3D9", "#00A3D9,",
     "YAML reads '#00A3D9' after 'print:' as a comment, so 'print' is empty: put the colour in quotes: "
     'print: "#00A3D9"'),
    ("a print colour on its own line", '  - {name: cyan, code: C, print: "#00A3D9", shape: circle}',
     "  - name: cyan\n    code: C\n    print: #00A3D9\n    shape: circle", "#00A3D9",
     "YAML reads '#00A3D9' after 'print:' as a comment, so 'print' is empty: put the colour in quotes: "
     'print: "#00A3D9"'),
    ("a short colour", LOOK, "look:\n  wild:\n    name:\n      colour: #FFF\n  icons:\n", "#FFF",
     "YAML reads '#FFF' after 'colour:' as a comment, so 'colour' is empty: put the colour in quotes: "
     'colour: "#FFF"'),
]


@pytest.mark.parametrize("case", EATEN, ids=[c[0] for c in EATEN])
def test_a_colour_yaml_reads_as_a_comment_is_an_error_at_its_line(capsys, tmp_path, manifest_text, case):
    """`colour: #FF0000` is a comment to YAML: under `look:` it passed validate and the build changed
    nothing; between braces it was parser words at the next line. Now: one error, at the '#'."""
    _, old, new, at, message = case
    assert old in manifest_text, old
    text = manifest_text.replace(old, new, 1)
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    status, _, err = run(capsys, "validate", "--manifest", str(path))
    assert status == 1
    (line,) = err.splitlines()
    m = re.match(rf"^{re.escape(str(path))}:(\d+):(\d+): (.*)$", line)
    assert m, line
    row, col = int(m.group(1)), int(m.group(2))
    assert m.group(3) == message
    assert text.splitlines()[row - 1][col - 1:].startswith(at), (text.splitlines()[row - 1], col)


def test_a_comment_after_a_key_that_holds_a_block_is_still_a_comment(capsys, tmp_path, manifest_text):
    """Only a comment standing where the value would be, its text right after '#', is taken for an
    eaten value: `glyph:   # the big sign` above an indented block is the designer's note."""
    text = manifest_text.replace(LOOK, "look:\n  wild:   # wild faces\n    glyph:  #note\n      size: 15mm\n"
                                       "  icons:\n", 1)
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    status, _, err = run(capsys, "validate", "--manifest", str(path))
    assert status == 0, err


def test_no_message_names_a_token_or_a_character_not_in_the_file(manifest_text):
    """Every line of the shipped manifest indented one space less, one more and two more: each
    error names only characters of the file (PyYAML's "found '?'" named a key token) and no
    parser token, and nearly all of them are about indentation, in words."""
    lines = manifest_text.split("\n")
    seen = worded = 0
    for i, row in enumerate(lines):
        if not row.strip() or row.lstrip().startswith("#"):
            continue
        for shift in (-1, 1, 2):
            if shift < 0 and not row.startswith(" "):
                continue
            text = "\n".join(lines[:i] + [row[1:] if shift < 0 else " " * shift + row] + lines[i + 1:])
            try:
                parse(text.encode("utf-8"), "cards.yaml")
                continue
            except InputError as err:
                message = err.problems[0].message
            if not message.startswith("YAML syntax error"):
                continue
            seen += 1
            assert "<" not in message and "found '" not in message, message
            for quoted in re.findall(r"'(.)'", message):
                assert quoted in text, (i, shift, message)
            worded += "indented" in message
    assert seen > 300 and worded >= seen * 0.95, (seen, worded)


def test_a_word_yaml_would_drop_as_an_anchor_is_refused(capsys, tmp_path, manifest_text):
    """`text: &Draw an extra card.` is valid YAML that reads as "an extra card.": refused, not printed short."""
    text = manifest_text.replace("text: Draw {count:word} extra card{count:/s}.", "text: &Draw an extra card.", 1)
    path = tmp_path / "cards.yaml"
    path.write_text(text, encoding="utf-8")
    status, _, err = run(capsys, "validate", "--manifest", str(path))
    assert status == 1
    assert err == (f"{path}:{number_of(text, '&Draw')}:11: a value starts with '&', which YAML reads as an anchor named "
                   "'Draw' that nothing refers to, and drops it from the value: put the whole value in quotes\n")
    used = manifest_text.replace('name: "+{count} Card{count:/s}"', "name: &plus +1 Card", 1).replace("code: \"+/-\"", "code: *plus", 1)
    path.write_text(used, encoding="utf-8")
    status, _, err = run(capsys, "validate", "--manifest", str(path))
    assert "anchor named" not in err  # an anchor an alias refers to is YAML doing its job
