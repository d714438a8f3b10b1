"""Imports inside functions are kept only for a reason, and say it: `# lazy: why`.

A function-level import hides a dependency (and can hide an import circle) until the function
runs, so outside the engine (whose own test allows none) each one is there for an optional or
heavy dependency loaded late for start-up speed, and carries a `# lazy:` comment on its line or
on the comment line just above its group of imports.
"""

from __future__ import annotations

import ast

from tests.conftest import ROOT

PACKAGE = ROOT / "generator"
MARK = "# lazy:"


def function_imports(source: str) -> list[ast.stmt]:
    tree = ast.parse(source)
    found: dict[int, ast.stmt] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if isinstance(inner, (ast.Import, ast.ImportFrom)):
                    found[inner.lineno] = inner
    return [found[k] for k in sorted(found)]


def unexplained(source: str) -> list[int]:
    """Lines of function-level imports with no `# lazy:` reason, on the line or above the group."""
    lines = source.splitlines()
    imports = function_imports(source)
    import_lines = {line for node in imports for line in range(node.lineno, (node.end_lineno or node.lineno) + 1)}
    missing = []
    for node in imports:
        own = lines[node.lineno - 1:(node.end_lineno or node.lineno)]
        if any(MARK in line for line in own):
            continue
        above = node.lineno - 1  # 1-based line just above; walk up over the group's other imports and blank lines
        while above >= 1 and (above in import_lines or not lines[above - 1].strip()):
            above -= 1
        if above < 1 or not lines[above - 1].strip().startswith(MARK):
            missing.append(node.lineno)
    return missing


def test_the_check_reads_both_placements():
    source = (
        "def f():\n"
        "    # lazy: heavy\n"
        "    import a\n"
        "\n"
        "    from b import c\n"
        "    import d  # lazy: optional\n"
        "    x = 1\n"
        "    import e\n"
        "\n"
        "def g():\n"
        "    import h\n"
    )
    assert unexplained(source) == [8, 11]


def test_every_function_level_import_outside_the_engine_says_why():
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if rel.parts[:2] == ("generator", "engine"):
            continue  # the engine keeps no import inside a function (tests/engine)
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        missing += [f"{rel}:{n}: {lines[n - 1].strip()}" for n in unexplained(source)]
    assert not missing, "imports inside functions without a '# lazy: reason':\n" + "\n".join(missing)
