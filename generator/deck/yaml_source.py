"""Read a YAML file safely into plain data, remembering where every key and value stands.

PyYAML composes the node graph (which carries line and column marks) without building any
object, so tags such as `!!python/object` are refused here, never executed. Size is checked
while the file is composed, not after: the file's own nodes and the nodes its aliases and
merge keys repeat have separate budgets, so a large plain manifest and a "billion laughs"
document are each refused at once, with a message that names the limit they hit. An alias
that refers to the node it sits in (a loop) is refused where it stands.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.events import AliasEvent, ScalarEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.resolver import Resolver

try:
    from yaml._yaml import CParser
except ImportError:  # PyYAML built without libyaml: the pure-Python reader does it all
    CParser = None

from generator.deck.input_file import MAX_FILE_BYTES, TooLarge, read_limited
from generator.deck.model import Origin, Place
from generator.deck.problems import MAX_DIGITS, InputError, Problem, escape

#: Nodes (values, keys, lists and mappings) the file itself may hold (the shipped one has about 450).
MAX_NODES = 10_000
#: Nodes that aliases (`*name`) and merge keys (`<<: *name`) may add by repeating what they refer to.
MAX_EXPANDED = 10_000
MAX_DEPTH = 64

_SAFE_TAGS = {
    "tag:yaml.org,2002:" + t
    for t in ("str", "int", "float", "bool", "null", "map", "seq", "merge", "timestamp")
}

Loc = tuple  # a path into the document: ("cards", 3, "copies")


@dataclass
class Source:
    """Plain data from a YAML file plus the position of each value and each mapping key."""

    path: str
    data: Any
    values: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    keys: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    #: the folder the pictures and fonts it names are relative to, when not the folder of `path`
    #: (a manifest read from git: `path` names the commit, its files are in the working tree)
    folder: str | None = None

    def home(self) -> Path:
        """The manifest's folder: where the files it names are found (the current folder for a
        manifest with no path)."""
        if self.folder:
            return Path(self.folder)
        return Path(self.path).resolve().parent if self.path else Path.cwd()

    def at(self, loc: Loc, message: str, *, key: bool = False) -> Problem:
        """A problem at `loc` (the key itself when `key`), or at its nearest known parent."""
        table = self.keys if key else self.values
        probe = tuple(loc)
        while probe:
            if probe in table:
                line, col = table[probe]
                return Problem(self.path, line, col, message)
            if probe in self.values:
                line, col = self.values[probe]
                return Problem(self.path, line, col, message)
            probe = probe[:-1]
        line, col = self.values.get((), (1, 1))
        return Problem(self.path, line, col, message)

    def place(self, loc: Loc) -> Place:
        """Where the value at `loc` stands (or its nearest known parent)."""
        probe = tuple(loc)
        while probe and probe not in self.values:
            probe = probe[:-1]
        return Place(self.path, *self.values.get(probe, (1, 1)), self.folder)

    def origin(self, loc: Loc, at: Loc | None = None) -> Origin:
        """The entry at `loc`, placed at `at` (the entry itself by default), with the place of
        each of its keys' values."""
        data = self.data
        for part in loc:
            data = data.get(part) if isinstance(data, dict) else data[part] if isinstance(data, list) else None
        keys = [k for k in data if isinstance(k, str) and loc + (k,) in self.values] if isinstance(data, dict) else []
        return Origin(self.place(loc if at is None else at), tuple((k, self.place(loc + (k,))) for k in keys))


def read(path: str | Path) -> Source:
    """Read and compose `path`; raise InputError (status 2 if unreadable, 1 if malformed)."""
    name = str(path)
    p = Path(path)
    if not name:
        raise InputError([Problem("--manifest", 0, 0, "no file named (give the path of a cards.yaml)")], status=2)
    try:
        folder = p.is_dir()
    except OSError as exc:  # a name too long for the file system (ENAMETOOLONG), a folder it may not look into
        raise InputError([Problem(name, 0, 0, f"cannot be read: {exc.strerror or exc}")], status=2) from None
    if folder:
        raise InputError([Problem(name, 0, 0, "is a directory, not a manifest file")], status=2)
    missing = "no such file (run in the folder that holds it, or pass --manifest PATH)"
    try:
        raw = read_limited(name, MAX_FILE_BYTES, "a manifest", missing=missing)
    except TooLarge as exc:
        raise InputError(exc.problems, status=1) from None  # too big is a mistake in the manifest, as before
    return parse(raw, name)


def parse(raw: bytes, name: str, folder: str | None = None) -> Source:
    """Compose manifest bytes read elsewhere (`git show`); `name` is what problems call the file,
    `folder` where the files it names are (by default the folder of `name`)."""
    if len(raw) > MAX_FILE_BYTES:  # from git, or a file that grew since stat
        raise InputError([Problem(name, 1, 1, f"is more than {MAX_FILE_BYTES:,} bytes; a manifest may be at most "
                                  f"{MAX_FILE_BYTES:,} bytes ({MAX_FILE_BYTES // 1024} KiB)")])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError([Problem(name, line, col, f"not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the file as UTF-8")]) from None
    if not text.strip() or _only_comments(text):
        raise InputError([Problem(name, 1, 1, "the manifest is empty")])
    loader: yaml.SafeLoader | None = None
    try:
        loader, root = _compose(text)
    except _Refused as exc:
        raise InputError([Problem(name, exc.mark.line + 1, exc.mark.column + 1, exc.message)]) from None
    except yaml.MarkedYAMLError as exc:
        raise InputError([Problem(name, *_syntax_error(text, exc))]) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow, such as NUL
        line = text.count("\n", 0, exc.position) + 1
        col = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        raise InputError([Problem(name, line, col, f"the character U+{exc.character:04X} is not allowed in a manifest; "
                                  "delete it")]) from None
    except RecursionError:
        raise InputError([Problem(name, 1, 1, "brackets or indentation nested too deeply to read")]) from None
    except yaml.YAMLError as exc:
        raise InputError([Problem(name, 1, 1, f"YAML error: {exc}")]) from None
    if root is None:
        raise InputError([Problem(name, 1, 1, "the manifest is empty")])
    unused = [(anchor, mark) for anchor, mark in loader.scalar_anchors.items() if anchor not in loader.aliased]
    if unused:  # `text: &Draw two cards` reads as "two cards": the '&' word vanishes without a word
        raise InputError([Problem(name, mark.line + 1, mark.column + 1, f"a value starts with '&', which YAML reads as "
                                  f"an anchor named '{escape(anchor)}' that nothing refers to, and drops it from the "
                                  f"value: put the whole value in quotes") for anchor, mark in unused])
    source = Source(name, None, folder=folder)
    builder = _Builder(source, loader, text)
    try:
        source.data = builder.build(root, (), 0)
    except _TooBig:
        pass
    if builder.problems:
        raise InputError(builder.problems)
    return source


def _compose(text: str) -> tuple[Any, Node | None]:
    """The document's node graph, and the loader that made it (it constructs the scalars).

    libyaml reads the text when PyYAML has it (ten times faster than the pure-Python reader,
    which counts on every `validate`); the nodes are composed by PyYAML's own composer either
    way, under the same budgets, so the graph, its marks and the refusals are the same. A
    text libyaml stops at, or one holding a character the pure reader refuses, is read again by
    the pure reader, whose messages (and their positions) are the ones the manifest errors use.
    """
    if _FastLoader is not None and "\t" not in text and "\ufeff" not in text and not yaml.reader.Reader.NON_PRINTABLE.search(text):
        fast = _FastLoader(text)
        try:
            return fast, fast.get_single_node()
        except Exception:  # noqa: BLE001 -- whatever libyaml objects to, the pure reader says it in its own words
            pass
    loader = _BudgetLoader(text)
    return loader, loader.get_single_node()


def _syntax_error(text: str, exc: yaml.MarkedYAMLError) -> tuple[int, int, str]:
    """Line, column and message of a YAML syntax error, in the designer's words where
    deck/yaml_hints.py can place it, else PyYAML's with its token names put into words."""
    from generator.deck.yaml_hints import eaten_in_flow, explain, fallback  # lazy: start-up (only a syntax error needs it)

    if exc.context == "while scanning a quoted scalar" and exc.context_mark:
        mark = exc.context_mark
        return mark.line + 1, mark.column + 1, "YAML syntax error: a quote opened here is never closed"
    mark = exc.problem_mark or exc.context_mark
    eaten = eaten_in_flow(text, mark.line) if mark else None
    if eaten is not None:  # `{print: #00A3D9}`: the comment ate the brace, the error shows a line later
        return eaten
    if "'\\t'" not in (exc.problem or ""):
        explained = explain(text, exc)
        if explained is not None:
            return explained
    mark = exc.problem_mark or exc.context_mark
    what = fallback(" ".join(x for x in (exc.context, exc.problem) if x) or "invalid YAML")
    if "expected the end of the indented block" in what or "expected ',' or ']'" in what or "expected ',' or '}'" in what:
        what += " (is a quote or bracket on an earlier line left open, or a line indented unlike its neighbours?)"
    if "'\\t'" in what and mark:
        what += " (indent with spaces, not tabs)" if _tab_indented(text, mark.line) else \
            " (a tab inside a value: write spaces, or put the text in quotes)"
    line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
    return line, col, f"YAML syntax error: {what}"


def _tab_indented(text: str, line: int) -> bool:
    """Does line `line` (0-based) of `text` start with a tab among its indentation?"""
    lines = text.splitlines()
    if line >= len(lines):
        return False
    row = lines[line]
    return "\t" in row[: len(row) - len(row.lstrip(" \t"))]


def _only_comments(text: str) -> bool:
    return all(not ln.strip() or ln.lstrip().startswith("#") or ln.strip() == "---" for ln in text.splitlines())


class _Refused(Exception):
    """The document is too large or loops; `mark` is where composing stopped."""

    def __init__(self, mark: yaml.Mark, message: str):
        super().__init__(message)
        self.mark = mark
        self.message = message


class _Budget:
    """A composer that counts as it goes: the file's own nodes against MAX_NODES, the nodes each
    alias repeats against MAX_EXPANDED, and refuses an alias to a node still open (`&a [*a]`, a
    mapping that merges itself), which would otherwise make a cycle. PyYAML sets a collection's
    end mark only once it is composed, which tells an open node from a finished one."""

    def _start_budget(self) -> None:
        self.own = 0
        self.expanded = 0
        #: id(anchored node) -> how many nodes it stands for, its aliases expanded
        self.sizes: dict[int, int] = {}
        #: anchors set on a plain value (`text: &Draw a card`), and the anchors aliases refer to
        self.scalar_anchors: dict[str, yaml.Mark] = {}
        self.aliased: set[str] = set()

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        event = self.peek_event()
        if isinstance(event, AliasEvent):
            self.aliased.add(event.anchor)
            target = self.anchors.get(event.anchor)
            if target is not None and target.end_mark is None:  # still being composed: it holds this alias
                raise _Refused(event.start_mark, f"the alias *{escape(str(event.anchor))} refers to the value it "
                                                 f"stands in, which would repeat forever; copy the keys instead")
            node = super().compose_node(parent, index)
            self.expanded += self.sizes.get(id(node), 1)
            if self.expanded > MAX_EXPANDED:
                raise _Refused(event.start_mark, f"aliases and merge keys repeat more than {MAX_EXPANDED:,} values; "
                                                 "refusing to follow them (write the values out, or use fewer aliases)")
            return node
        self.own += 1
        if self.own > MAX_NODES:
            raise _Refused(event.start_mark, f"the manifest holds more than {MAX_NODES:,} values; a manifest may hold at "
                                             f"most {MAX_NODES:,} (keys, values, lists and mappings)")
        before = self.own + self.expanded
        anchor = getattr(event, "anchor", None)
        if anchor is None:
            return super().compose_node(parent, index)
        if isinstance(event, ScalarEvent):
            self.scalar_anchors[anchor] = event.start_mark
        node = super().compose_node(parent, index)
        self.sizes[id(node)] = self.own + self.expanded - before + 1
        return node


class _BudgetLoader(_Budget, yaml.SafeLoader):
    """PyYAML's pure-Python safe loader, composing under the budgets."""

    def __init__(self, text: str):
        super().__init__(text)
        self._start_budget()


_BREAKS = "\r\n\x85\u2028\u2029"
_INDICATORS = {""} | {c for c in "+-"} | {d + c for d in "123456789" for c in ("", "+", "-")} | {
    c + d for d in "123456789" for c in "+-"}


def _pyyaml_block_header(text: str, at: int) -> bool:
    """Would PyYAML read the block scalar header at text[at] (`|` or `>`)? It takes chomping and
    indentation in either order, then the line's end, or spaces and perhaps a comment; libyaml
    also takes `|-#` and `|0`, which PyYAML refuses."""
    i = at + 1
    while i < len(text) and text[i] in "+-0123456789":
        i += 1
    if text[at + 1:i] not in _INDICATORS:
        return False
    if i < len(text) and text[i] == " ":
        while i < len(text) and text[i] == " ":
            i += 1
        if i < len(text) and text[i] == "#":
            while i < len(text) and text[i] not in _BREAKS:
                i += 1
    return i == len(text) or text[i] in _BREAKS


if CParser is not None:
    class _FastLoader(_Budget, Composer, CParser, SafeConstructor, Resolver):
        """libyaml's parser (events) under PyYAML's composer, safe constructor and resolver: the
        composer is Python's, so the budgets apply to it as they do to _BudgetLoader."""

        def __init__(self, text: str):
            self.text = text
            CParser.__init__(self, text)
            Composer.__init__(self)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)
            self._start_budget()

        def compose_node(self, parent: Node | None, index: Any) -> Node:
            """Where libyaml's events differ from PyYAML's, hand the text to PyYAML: an explicit
            tag (libyaml resolves '!' otherwise) and an empty value (it marks it elsewhere). A
            plain scalar's style is None in PyYAML, '' in libyaml (the base-60 check reads it)."""
            event = self.peek_event()
            if getattr(event, "tag", None) is not None:
                raise _PureOnly
            if isinstance(event, ScalarEvent):
                if event.value == "" and event.style in ("", "|", ">"):
                    raise _PureOnly
                if event.style in ("|", ">") and not _pyyaml_block_header(self.text, event.start_mark.index):
                    raise _PureOnly  # PyYAML wants a space or a line break after `|-` (libyaml takes `|-#`)
                if event.style == "":
                    event.style = None
            return super().compose_node(parent, index)
else:
    _FastLoader = None  # type: ignore[assignment,misc]


class _PureOnly(Exception):
    """Something libyaml reads otherwise than PyYAML: the pure-Python reader reads the text."""


class _Builder:
    def __init__(self, source: Source, loader: yaml.SafeLoader, text: str = ""):
        self.source = source
        self.problems: list[Problem] = []
        self.scalars = loader  # constructs plain scalars
        self.lines = text.splitlines()

    def _eaten(self, key_node: Node, value_node: Node) -> bool:
        """`colour: #FF0000`: a key whose value is empty because YAML read it as a comment (a '#'
        right after the key's ': ', its text starting at once) is a problem at the '#'."""
        if not (isinstance(value_node, ScalarNode) and value_node.tag == "tag:yaml.org,2002:null"
                and value_node.value == "" and value_node.style is None):
            return False
        row = key_node.end_mark.line
        rest = self.lines[row][key_node.end_mark.column:] if row < len(self.lines) else ""
        after = rest.lstrip(" \t")
        if not after.startswith(":"):
            return False
        comment = after[1:].lstrip(" \t")
        if not (comment.startswith("#") and len(comment) > 1 and not comment[1].isspace()) or after[1:2] not in " \t":
            return False
        from generator.deck.yaml_hints import eaten_value  # lazy: start-up (only such a mistake needs it)

        col = len(self.lines[row]) - len(comment)
        self.problems.append(Problem(self.source.path, row + 1, col + 1, eaten_value(str(key_node.value), comment)))
        return True

    def _problem(self, node: Node, message: str) -> None:
        self.problems.append(Problem(self.source.path, node.start_mark.line + 1, node.start_mark.column + 1, message))

    def build(self, node: Node, loc: Loc, depth: int) -> Any:
        if depth > MAX_DEPTH:
            self._problem(node, f"nested more than {MAX_DEPTH} levels deep; a manifest needs no more than a few")
            raise _TooBig
        self.source.values.setdefault(loc, (node.start_mark.line + 1, node.start_mark.column + 1))
        if node.tag not in _SAFE_TAGS:
            self._problem(node, f"YAML tag '{node.tag.replace('tag:yaml.org,2002:', '!!')}' is not allowed in a manifest")
            return None
        if isinstance(node, ScalarNode):
            if node.tag in _SEXAGESIMAL_TAGS and ":" in node.value and node.style is None:
                self._problem(node, f"{node.value} reads as a base-60 number in YAML; write a range as "
                                    f"{node.value.replace(':', '..')}, or put the text in quotes")
                return None
            if node.tag == _INT_TAG and node.style is None and _OCTAL.fullmatch(node.value):
                octal = int(node.value.replace("_", ""), 8)
                meant = ("-" if node.value.startswith("-") else "") + (node.value.lstrip("+-").lstrip("0_") or "0")
                self._problem(node, f"{node.value} reads as an octal number ({octal}) in YAML, because of its "
                                    f"leading zero; write {meant}")
                return None
            return self.scalar(node)
        if isinstance(node, SequenceNode):
            return [self.build(item, loc + (i,), depth + 1) for i, item in enumerate(node.value)]
        assert isinstance(node, MappingNode)
        result: dict[Any, Any] = {}
        for key_node, value_node in self._merged(node):
            if not isinstance(key_node, ScalarNode):
                self._problem(key_node, "a key must be a plain word")
                continue
            key = self.build(key_node, loc + ("<key>",), depth + 1)
            if key in result:
                self._problem(key_node, f"duplicate key '{key}'")
                continue
            self.source.keys[loc + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            if self._eaten(key_node, value_node):
                continue
            result[key] = self.build(value_node, loc + (key,), depth + 1)
        return result

    def scalar(self, node: ScalarNode) -> Any:
        """The value of a scalar, converted once and checked: a whole number is bounded by its digits
        before Python converts it, and a value its tag cannot read (`!!int sixteen`, `!!float 5..9`)
        is a located problem, not an exception."""
        tag = node.tag.replace("tag:yaml.org,2002:", "!!")
        if tag == "!!int":
            digits = sum(ch in string.hexdigits for ch in node.value)
            if digits > MAX_DIGITS:
                self._problem(node, f"a number of {digits:,} digits; numbers in a manifest have at most {MAX_DIGITS} digits")
                return None
        try:
            return self.scalars.construct_object(node)
        except Exception as exc:  # noqa: BLE001 -- PyYAML's scalar constructors raise what int(), float(), a dict lookup raise
            shown = node.value if len(node.value) <= 40 else node.value[:37] + "..."
            reason = getattr(exc, "problem", None) or type(exc).__name__
            if isinstance(exc, yaml.YAMLError):
                self._problem(node, f"bad value {shown!r}: {reason}")
            else:
                self._problem(node, f"{shown!r} cannot be read as {tag} ({_TAG_WORDS.get(tag, 'its tag')}); "
                                    f"remove the '{tag}' tag, or write a value of that kind")
            return None

    def _merged(self, node: MappingNode) -> list[tuple[Node, Node]]:
        """Expand `<<: *anchor` merge keys; explicit keys win over merged ones."""
        own = [(k, v) for k, v in node.value if k.tag != "tag:yaml.org,2002:merge"]
        merged: list[tuple[Node, Node]] = []
        own_keys = {k.value for k, _ in own if isinstance(k, ScalarNode)}
        for k, v in node.value:
            if k.tag != "tag:yaml.org,2002:merge":
                continue
            sources = v.value if isinstance(v, SequenceNode) else [v]
            for src in sources:
                if not isinstance(src, MappingNode):
                    self._problem(src, "'<<' must merge a mapping")
                    continue
                for mk, mv in self._merged(src):
                    if mk.value not in own_keys:
                        own_keys.add(mk.value)
                        merged.append((mk, mv))
        return merged + own


_TAG_WORDS = {"!!int": "a whole number", "!!float": "a number", "!!bool": "true or false", "!!null": "nothing",
              "!!timestamp": "a date", "!!str": "text"}

#: YAML 1.1 reads 1:30 as 90 (base 60); nobody writing a manifest means that.
_SEXAGESIMAL_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
_INT_TAG = "tag:yaml.org,2002:int"
#: A whole number YAML 1.1 reads as octal: a leading zero (`target: 010` is 8, not 10).
_OCTAL = re.compile(r"[-+]?0[0-7_]+")


class _TooBig(Exception):
    pass

