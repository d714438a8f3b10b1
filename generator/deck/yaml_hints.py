"""YAML syntax errors in the designer's words: what is wrong on the line, and what to write instead.

PyYAML words a syntax error in its parser's terms ("mapping values are not allowed here",
"expected <block end>, but found '?'"), naming tokens ('?' is a key, '<block mapping start>'
an indented key) that are nowhere in the file. `explain` reads the lines around the error and
says it as a designer would: a text holding ': ' must be put in quotes (with the line to
write); a key indented unlike the other keys of its entry, naming the entry and the
indentation that entry uses; a quote or bracket left open; a text that starts with a
character YAML reserves. Whatever it cannot place keeps PyYAML's words with the tokens put
into words, so no message names a character that is not in the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import yaml

#: PyYAML's names of tokens, in words (the fallback when no better explanation is found).
_TOKENS = {
    "'?'": "a key", "'<block mapping start>'": "a key", "'-'": "a list item ('- ')",
    "'<block sequence start>'": "a list item ('- ')", "'<scalar>'": "a value", "'<block end>'": "the end of the block",
    "<block end>": "the end of the indented block", "'<document start>'": "the start of a document",
    "'<document end>'": "the end of the document", "'<stream end>'": "the end of the file",
    "'<flow mapping start>'": "'{'", "'<flow sequence start>'": "'['", "'<anchor>'": "an anchor ('&')",
    "'<alias>'": "an alias ('*')", "'<tag>'": "a tag ('!')",
}
_KEY = re.compile(r"""("[^"]*"|'[^']*'|[A-Za-z0-9_][\w .-]*?)[ \t]*:(?=[ \t]|$)""")
_BLOCK_SCALAR = re.compile(r"[|>][-+0-9]*[ \t]*(#.*)?$")
#: What a value's first character makes YAML read it as.
_RESERVED = {"@": "a reserved character", "`": "a reserved character", "%": "a directive", "*": "an alias of an anchor",
             "&": "an anchor", "!": "a tag", "?": "a key", "-": "a list item", "|": "a block of text",
             ">": "a block of text", "[": "a list", "{": "a mapping", '"': "a quoted text", "'": "a quoted text",
             "#": "a comment"}


@dataclass
class _Line:
    number: int  #: 0-based
    text: str
    indent: int  #: spaces before the first character
    dash: int | None  #: the column of a leading '- ', if any
    key: str | None  #: the key this line starts, if any
    key_col: int  #: where the key (or the item's value) starts
    colon: int | None  #: the column of the key's ':'
    value_col: int | None  #: where the key's value starts on this line (None if it is empty)


def _line(number: int, text: str) -> _Line:
    body = text.rstrip()
    indent = len(body) - len(body.lstrip(" "))
    col, dash = indent, None
    while body[col:col + 2] == "- " or body[col:] == "-":
        dash = col if dash is None else dash
        col += 2
        while col < len(body) and body[col] == " ":
            col += 1
    m = _KEY.match(body, col)
    if not m or body[col] in "#":
        return _Line(number, text, indent, dash, None, col, None, None)
    colon = m.end() - 1
    rest = m.end()
    while rest < len(body) and body[rest] in " \t":
        rest += 1
    value_col = rest if rest < len(body) and body[rest] != "#" else None
    return _Line(number, text, indent, dash, m.group(1).strip("'\""), col, colon, value_col)


@dataclass
class _Level:
    """One open block above a line: a mapping whose keys stand at `col`, or a list whose items do."""

    kind: str  #: "keys" or "items"
    col: int
    start: int  #: 0-based line where its first key or item stands
    keys: list[str] = field(default_factory=list)
    parent: str | None = None  #: the key whose value it is
    in_item: bool = False  #: a mapping that is an item of a list (an entry)

    def describe(self) -> str:
        if self.kind == "items":
            return f"the entries of '{self.parent}'" if self.parent else "the list's entries"
        if self.col == 0 and self.parent is None:
            return "the top-level keys"
        if self.in_item:
            shown = ", ".join(self.keys[:4]) + (", ..." if len(self.keys) > 4 else "")
            owner = f"'{self.parent}' entry" if self.parent else "list entry"
            return f"the keys of the {owner} that starts on line {self.start + 1} ({shown})"
        return f"the keys of '{self.parent}'" if self.parent else "the keys above"


class _Text:
    def __init__(self, text: str):
        self.raw = text.split("\n")
        self.lines = [_line(i, t) for i, t in enumerate(self.raw)]
        self.content = self._block_text()

    def _block_text(self) -> set[int]:
        """Lines that are the text of a block scalar (`text: >-` and the lines under it)."""
        inside: set[int] = set()
        header: _Line | None = None
        for ln in self.lines:
            blank = not ln.text.strip()
            if header is not None and (blank or ln.indent > header.indent):
                inside.add(ln.number)
                continue
            header = None
            if ln.key is not None and ln.value_col is not None and _BLOCK_SCALAR.match(ln.text.rstrip(), ln.value_col):
                header = ln
        return inside

    def structural(self, ln: _Line) -> bool:
        stripped = ln.text.strip()
        return bool(stripped) and not stripped.startswith("#") and ln.number not in self.content and (
            ln.key is not None or ln.dash is not None)

    def levels(self, below: int) -> list[_Level]:
        """The blocks open just before line `below`, innermost first."""
        levels: list[_Level] = []
        for ln in reversed(self.lines[:below]):
            if not self.structural(ln):
                continue
            inner = levels[-1] if levels else None
            if inner is None:
                self._open(levels, ln)
                continue
            if inner.kind == "keys" and ln.key is not None and ln.key_col == inner.col:
                inner.keys.insert(0, ln.key)
                inner.start = ln.number
                if ln.dash is not None:  # the entry's first key, after its '- '
                    inner.in_item = True
                    levels.append(_Level("items", ln.dash, ln.number))
                continue
            if inner.kind == "items" and ln.dash == inner.col:
                inner.start = ln.number
                continue
            if ln.indent < inner.col or (inner.kind == "items" and ln.indent == inner.col and ln.dash is None):
                if ln.key is not None and ln.value_col is None:
                    inner.parent = ln.key
                self._open(levels, ln)
        for inner, outer in zip(levels, levels[1:]):
            if inner.in_item and outer.kind == "items":  # an entry belongs to the list's key
                inner.parent = outer.parent
        return levels

    @staticmethod
    def _open(levels: list[_Level], ln: _Line) -> None:
        if ln.dash is not None and ln.key is None:
            levels.append(_Level("items", ln.dash, ln.number))
            return
        if ln.key is not None:
            level = _Level("keys", ln.key_col, ln.number, [ln.key], in_item=ln.dash is not None)
            levels.append(level)
            if ln.dash is not None:
                levels.append(_Level("items", ln.dash, ln.number))


def explain(text: str, exc: yaml.MarkedYAMLError) -> tuple[int, int, str] | None:
    """The error as (line, column, message), counted from 1, in the designer's words; None when
    nothing better than PyYAML's own words can be said (`fallback` then puts its tokens into words)."""
    mark = exc.problem_mark
    if mark is None:
        return None
    doc = _Text(text)
    if mark.line >= len(doc.lines):
        return None
    line = doc.lines[mark.line]
    problem, context = exc.problem or "", exc.context or ""
    if context in ("while scanning an anchor", "while scanning an alias") and exc.context_mark is not None:
        mark, problem = exc.context_mark, "cannot start any token"  # `text: & more`: the '&' begins the value
        line = doc.lines[mark.line]
    for explained in (_reserved_start(doc, line, mark, problem), _colon_in_value(doc, line, mark, problem, context),
                      _open_quote(doc, exc), _after_closing(doc, line, mark, problem),
                      _block_text_line(doc, line, problem), _indentation(doc, line, mark, problem, exc.context_mark)):
        if explained is not None:
            return explained
    return None


#: A key whose value YAML read as a comment: `colour: #FF0000` (`#` after a space starts one).
_EATEN = re.compile(r"""(?:^|[{,\[]|- )[ \t]*("[^"]*"|'[^']*'|[A-Za-z0-9_][\w.-]*)[ \t]*:[ \t]+(#\S[^,}\]]*)""")
_EATEN_ITEM = re.compile(r"[\[,][ \t]*(#\S[^,}\]]*)")
_HEX = re.compile(r"#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})")


def eaten_value(key: str, comment: str) -> str:
    """What to say of `key: #...`, whose value YAML read as a comment (`comment`, from the '#')."""
    value = comment.strip().rstrip(",")
    quoted = f'{key}: "{value}"'
    if _HEX.fullmatch(value):
        return f"YAML reads '{value}' after '{key}:' as a comment, so '{key}' is empty: put the colour in quotes: {quoted}"
    return (f"YAML reads everything from '#' on as a comment, so '{key}' is empty: put the value in quotes: {quoted}")


def eaten_in_flow(text: str, line: int) -> tuple[int, int, str] | None:
    """A syntax error at 0-based `line` caused by a comment eating the rest of a `{...}` or `[...]`
    on that line or one just above (`print: #00A3D9}` leaves the brace open): the key's line and
    column and what to write, or None."""
    lines = text.splitlines()
    for n in range(min(line, len(lines) - 1), max(-1, line - 4), -1):
        row = re.sub(r'"[^"]*"|\'[^\']*\'', lambda m: " " * len(m.group()), lines[n])
        if "{" not in row and "[" not in row:
            continue
        for m in _EATEN.finditer(row):
            if "{" in row[:m.start(2)] or "[" in row[:m.start(2)]:
                key = lines[n][m.start(1):m.end(1)].strip("'\"")
                return n + 1, m.start(2) + 1, eaten_value(key, lines[n][m.start(2):m.end(2)])
        item = _EATEN_ITEM.search(row)
        if item:  # `colours: [#00A3D9, ...]`
            value = lines[n][item.start(1):item.end(1)].strip()
            return (n + 1, item.start(1) + 1, f"YAML reads '{value}' as a comment, and the rest of the line with it: "
                    f"put it in quotes: \"{value}\"")
    return None


def fallback(what: str) -> str:
    """PyYAML's message with its token names put into words."""
    for token, words in _TOKENS.items():
        for verb in ("found", "expected", "got"):
            what = what.replace(f"{verb} {token}", f"{verb} {words}")
    return what


def _where(line: _Line, col: int) -> tuple[int, int]:
    return line.number + 1, col + 1


def _quoted(value: str) -> str:
    """`value` as YAML text in quotes: double quotes unless it holds one (then single quotes)."""
    if '"' not in value and "\\" not in value:
        return f'"{value}"'
    if "'" not in value:
        return f"'{value}'"
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _value_text(line: _Line) -> str:
    """The value of `key: value` as written on its line, without a trailing comment."""
    value = line.text[line.value_col:].rstrip() if line.value_col is not None else ""
    return re.split(r"\s+#", value, maxsplit=1)[0]


def _colon_in_value(doc: _Text, line: _Line, mark: yaml.Mark, problem: str, context: str) -> tuple[int, int, str] | None:
    """`text: Draw: two cards`: a ': ' (or a ':' ending the line) inside a value."""
    if "flow mapping" in context and "got ':'" in problem:
        start = max(line.text.rfind(",", 0, mark.column), line.text.rfind("{", 0, mark.column)) + 1
        end = min([i for i in (line.text.find(",", mark.column), line.text.find("}", mark.column)) if i >= 0] or [len(line.text)])
        key, _, value = line.text[start:end].strip().partition(":")
        return (*_where(line, mark.column), f"YAML syntax error: the value of '{key.strip()}' holds ': ', which YAML "
                f"reads as the start of another key: put the value in quotes: {key.strip()}: {_quoted(value.strip())}")
    if problem != "mapping values are not allowed here":
        return None
    if line.key is not None and line.colon is not None and line.value_col is not None and mark.column > line.colon:
        value = _value_text(line)
        where = "at the end of the line" if mark.column >= len(line.text.rstrip()) - 1 else "followed by a space"
        return (*_where(line, mark.column), f"YAML syntax error: the value of '{line.key}' holds a ':' {where}, which "
                f"YAML reads as the start of another key: put the whole value in quotes: {line.key}: {_quoted(value)}")
    return None


def _open_quote(doc: _Text, exc: yaml.MarkedYAMLError) -> tuple[int, int, str] | None:
    """A value whose quote or bracket opens on a line and never closes on it, above the error."""
    problem = exc.problem or ""
    if not any(p in problem for p in ("expected <block end>", "could not find expected ':'", "expected ',' or")):
        return None
    first = exc.context_mark.line if exc.context_mark is not None else 0
    for ln in doc.lines[first:exc.problem_mark.line]:
        if ln.value_col is None or ln.number in doc.content:
            continue
        value = _value_text(ln)
        opener = value[:1]
        closer = {'"': '"', "'": "'", "[": "]", "{": "}"}.get(opener)
        if closer is None:
            continue
        if opener == closer:
            closed = value.count(opener) - (value.count("\\" + opener) if opener == '"' else 0) >= 2
        else:
            closed = value.count(closer) >= value.count(opener)
        if not closed:
            what = "quote" if opener in "\"'" else "bracket"
            return (*_where(ln, ln.value_col), f"YAML syntax error: the {what} {opener} that opens the value of '{ln.key}' "
                    f"is not closed on its line: end the value with {closer}")
    return None


def _after_closing(doc: _Text, line: _Line, mark: yaml.Mark, problem: str) -> tuple[int, int, str] | None:
    """`text: "Draw" two cards`: more text after a quoted value (or a list or mapping) closed on the line."""
    if "found '<scalar>'" not in problem or line.key is None or line.value_col is None or mark.column <= line.value_col:
        return None
    value = _value_text(line)
    opener = value[:1]
    if opener not in "\"'[{" or not opener:
        return None
    meaning = "a quoted text" if opener in "\"'" else _RESERVED[opener]
    return (*_where(line, line.value_col), f"YAML syntax error: the value of '{line.key}' starts with {opener}, so YAML "
            f"reads it as {meaning} that ends before the rest of the line: put the whole value in quotes: "
            f"{line.key}: {_quoted(value)}")


def _reserved_start(doc: _Text, line: _Line, mark: yaml.Mark, problem: str) -> tuple[int, int, str] | None:
    """`text: @Draw` or `name: - Card`: a value that starts with a character YAML reserves."""
    reserved = ("cannot start any token" in problem or problem.startswith("found undefined alias")
                or problem in ("mapping keys are not allowed here", "sequence entries are not allowed here"))
    if not reserved or line.key is None or line.value_col != mark.column:
        return None
    first = line.text[mark.column]
    if first == "\t":
        return None
    value = _value_text(line)
    meaning = _RESERVED.get(first, "something other than text")
    if problem.startswith("found undefined alias"):
        name = problem.split("'", 1)[1].rsplit("'", 1)[0] if "'" in problem else ""
        meaning = f"an alias of the anchor '{name}', which is not defined (no '&{name}' above)"
    return (*_where(line, mark.column), f"YAML syntax error: the value of '{line.key}' starts with '{first}', which YAML "
            f"reads as {meaning}: put the whole value in quotes: {line.key}: {_quoted(value)}")


def _block_text_line(doc: _Text, line: _Line, problem: str) -> tuple[int, int, str] | None:
    """A line of a `text: >-` block indented less than the block's first line (or than its key)."""
    if "found '<scalar>'" not in problem or line.key is not None or line.dash is not None:
        return None
    header = next((ln for ln in reversed(doc.lines[:line.number]) if doc.structural(ln)), None)
    if header is None or header.key is None or header.value_col is None:
        return None
    if not _BLOCK_SCALAR.match(header.text.rstrip(), header.value_col):
        return None
    where = _where(line, line.indent)
    if line.indent <= header.indent:
        return (*where, f"YAML syntax error: this line is indented {_spaces(line.indent)}, but the text of "
                f"'{header.key}' (line {header.number + 1}) must be indented more than its key ({_spaces(header.indent)})")
    first = next((ln for ln in doc.lines[header.number + 1:] if ln.text.strip()), line)
    return (*where, f"YAML syntax error: this line is indented {_spaces(line.indent)}, less than the first line of the "
            f"text of '{header.key}' (line {first.number + 1}, {_spaces(first.indent)}): indent every line of the text "
            "at least as much as its first line")


def _spaces(n: int) -> str:
    return "1 space" if n == 1 else f"{n} spaces"


def _indentation(doc: _Text, line: _Line, mark: yaml.Mark, problem: str,
                 context_mark: yaml.Mark | None) -> tuple[int, int, str] | None:
    """A key or a list item indented unlike the other keys (or items) of the entry it follows."""
    indented = ("expected <block end>" in problem or "expected '<document start>'" in problem
                or problem == "mapping values are not allowed here"
                or "could not find expected ':'" in problem)
    if not indented:
        return None
    if "could not find expected ':'" in problem:  # a line of text where a key should be
        line = doc.lines[context_mark.line if context_mark is not None else mark.line]
        if line.key is not None:
            return None
        levels = doc.levels(line.number)
        owner = next((ln for ln in reversed(doc.lines[:line.number]) if doc.structural(ln)), None)
        if owner is None or owner.key is None:
            return None
        return (*_where(line, line.indent), f"YAML syntax error: this line is neither a key nor part of a value: if it "
                f"continues the value of '{owner.key}' on line {owner.number + 1}, indent it more than that key "
                f"({_spaces(owner.key_col)}); if it is a key, write it as 'key: value'")
    kind = "items" if line.dash is not None else "keys"
    col = line.indent if line.dash is not None else line.key_col
    if line.key is None and line.dash is None:
        return None
    what = f"'{line.key}'" if line.dash is None else "this list item"
    levels = [lv for lv in doc.levels(line.number) if lv.kind == kind]
    if not levels or any(lv.col == col for lv in levels):
        return None
    deeper = [lv for lv in levels if lv.col > col]
    shallower = [lv for lv in levels if lv.col < col]
    if not deeper:
        inner = max(shallower, key=lambda lv: lv.col)
        above = next((ln for ln in reversed(doc.lines[:line.number]) if doc.structural(ln)), line)
        reads = (f", so YAML reads it as more of the value of '{above.key}' on line {above.number + 1}"
                 if above is not line and above.key is not None and above.value_col is not None and line.dash is None else "")
        return (*_where(line, col), f"YAML syntax error: {what} is indented {_spaces(col)}, more than "
                f"{inner.describe()} ({inner.col}){reads}: indent it {_spaces(inner.col)} like them")
    near = min(deeper, key=lambda lv: lv.col)
    if near.parent is None and not near.in_item and near is levels[-1]:  # the file's first key is indented
        return (*_where(line, col), f"YAML syntax error: {what} is indented {_spaces(col)}, but the file's first key "
                f"('{near.keys[0]}', line {near.start + 1}) is indented {_spaces(near.col)}: start every top-level key "
                "at the beginning of its line")
    message = f"YAML syntax error: {what} is indented {_spaces(col)}, but {near.describe()} are indented {near.col}"
    if shallower:
        far = max(shallower, key=lambda lv: lv.col)
        message += f", and {far.describe()} {far.col}"
        return (*_where(line, col), message + ": indent it like the keys it belongs with")
    return (*_where(line, col), message + f": indent it {_spaces(near.col)} like them")
