"""The engine depends on generator.deck.model and the standard library only (docs/architecture.md)."""

from __future__ import annotations

import json
import subprocess
import sys


def test_engine_never_imports_rendering_libraries():
    code = (
        "import sys, json, importlib, pkgutil\n"
        "import generator.engine\n"
        "for m in pkgutil.iter_modules(generator.engine.__path__):\n"
        "    importlib.import_module('generator.engine.' + m.name)\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    modules = json.loads(out)
    assert "generator.engine.search" in modules and "generator.deck.effects" in modules
    for banned in ("reportlab", "PIL", "jinja2", "rich", "yaml", "pydantic", "generator.products.render.faces", "generator.products.render.pdf",
                   "generator.deck.manifest", "distributed", "dask", "generator.report"):  # the Dask client loads only for --scheduler
        assert not any(m == banned or m.startswith(banned + ".") for m in modules), f"the engine imports {banned}"
