"""The import graph of generator/: no circle, layers only import down, no hidden imports in the engine.

Imports are read from the source with ast, wherever they stand: at the top, inside functions
(they hide circles: a circle through a function-level import only bites when that function
runs) and under `if TYPE_CHECKING:` (they never run, but a type checker and every static
import-graph tool follow them, so a circle through one is a circle all the same: a module that
state.py imports names the State by its Protocol, engine/state_protocol.py).
`from generator.x import name` counts as an import of generator.x.name when that is a module,
else of generator.x; a package's __init__ is the package's module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from tests.conftest import ROOT

PACKAGE = ROOT / "generator"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _type_checking_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def imports_of(name: str) -> list[tuple[str, int, bool]]:
    """(imported generator module, line, inside a function) for every import of module `name`."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    in_function: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if isinstance(inner, (ast.Import, ast.ImportFrom)):
                    in_function.add(inner.lineno)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        else:
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                targets.append(full if full in MODULES else base)
        for target in targets:
            while target and target not in MODULES and "." in target:
                target = target.rpartition(".")[0]
            if target in MODULES and target != name:
                found.append((target, node.lineno, node.lineno in in_function))
    return found


GRAPH = {name: sorted({t for t, _, _ in imports_of(name)}) for name in MODULES}


def find_cycle(graph: dict[str, list[str]]) -> list[str] | None:
    """One import circle of `graph` as a list of modules (first == last), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in graph.get(node, []):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_circle():
    assert find_cycle({"a": ["b"], "b": ["c"], "c": ["a"], "d": []}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": ["b"], "b": [], "c": ["a", "b"]}) is None


def test_the_graph_sees_function_level_imports():
    # commands import their engine lazily; the graph must still see it
    assert "generator.engine" in GRAPH["generator.commands.simulate"]


def test_the_graph_sees_type_checking_imports():
    seen = 0
    for name, path in MODULES.items():
        lines = _type_checking_lines(ast.parse(path.read_text(encoding="utf-8")))
        imported = {line for target, line, _ in imports_of(name)}
        wanted = {node.lineno for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                  if isinstance(node, ast.ImportFrom) and node.lineno in lines and (node.module or "").startswith("generator")}
        assert wanted <= imported, f"{name}: TYPE_CHECKING imports on lines {sorted(wanted - imported)} left out"
        seen += len(wanted)
    assert seen, "no TYPE_CHECKING import of the project left to check the graph with"


def test_generator_has_no_import_circle():
    cycle = find_cycle(GRAPH)
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


#: The ground floor: generator/'s own modules (workers, backends, resources, progress...) but the CLI's.
GROUND = tuple(sorted(name for name, path in MODULES.items() if name.count(".") == 1 and path.name != "__init__.py"
                      and name not in ("generator.cli", "generator.__main__")))
#: What each layer may import of the project (docs/architecture.md): the ground floor only itself,
#: deck/ nothing, engine/ deck/ and the ground floor, products/ those and (for the rulebook's
#: examples and options) engine/, preview/ products/ and deck/; nothing imports commands/ or cli.
LAYER_RULES = {
    "generator.deck": ("generator.deck",),
    "generator.engine": ("generator.deck", "generator.engine", *GROUND),
    "generator.products": ("generator.deck", "generator.products", "generator.engine", *GROUND),
    # products/'s rooms: the rendering core knows neither the output transaction nor the pipeline
    # nor any product; the output transaction knows no rendering; the pipeline both, no product
    "generator.products.render": ("generator.deck", "generator.products.render", *GROUND),
    "generator.products.output": ("generator.deck", "generator.products.output", *GROUND),
    "generator.products.pipeline": ("generator.deck", "generator.products.render", "generator.products.output",
                                    "generator.products.pipeline", *GROUND),
    # watch's preview: shows what products/ built; the watch command (commands/) drives it
    "generator.preview": ("generator.deck", "generator.products", "generator.preview", *GROUND),
    # the web table: the engine's games, told in the terminal game's words (play/); no rendering code
    "generator.web": ("generator.deck", "generator.engine", "generator.play", "generator.web", *GROUND),
    # learning libraries' adapters: the engine's rules, and the terminal game's screen as a render
    "generator.ai": ("generator.deck", "generator.engine", "generator.play", "generator.ai", *GROUND),
    # the balance report and the sweep: the engine's games, played by any bot on the ladder (ai/bots.py)
    "generator.report": ("generator.deck", "generator.engine", "generator.ai", "generator.report", *GROUND),
    **{name: GROUND for name in GROUND},
}


#: generator/__init__.py holds the version and nothing else: every layer may read it.
ROOT_PACKAGE = "generator"


def test_the_root_package_holds_only_the_version():
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    assert not [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef))]


@pytest.mark.parametrize("layer", sorted(LAYER_RULES))
def test_layers_import_only_downwards(layer):
    allowed = LAYER_RULES[layer]
    wrong = [f"{name} imports {target}" for name in MODULES if name == layer or name.startswith(layer + ".")
             for target in GRAPH[name] if target != ROOT_PACKAGE and not any(target == a or target.startswith(a + ".")
                                                                             for a in allowed)]
    assert not wrong, "\n".join(wrong)


def test_nothing_imports_the_commands_or_the_cli():
    wrong = [f"{name} imports {target}" for name, targets in GRAPH.items()
             if not name.startswith(("generator.commands", "generator.cli", "generator.__main__"))
             for target in targets if target.startswith(("generator.commands", "generator.cli"))]
    assert not wrong, "\n".join(wrong)


def test_the_engine_imports_at_the_top():
    """Imports inside functions hide circles; the engine keeps none (an optional or heavy dependency
    would be the exception, with its reason on the line: `# lazy: why`, as outside the engine)."""
    hidden = []
    for name, path in MODULES.items():
        if not name.startswith("generator.engine"):
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        tree = ast.parse("\n".join(lines))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for inner in ast.walk(node):
                    if isinstance(inner, (ast.Import, ast.ImportFrom)) and "# lazy:" not in lines[inner.lineno - 1]:
                        hidden.append(f"{path.relative_to(ROOT)}:{inner.lineno}: {lines[inner.lineno - 1].strip()}")
    assert not hidden, "imports inside functions in the engine:\n" + "\n".join(hidden)
