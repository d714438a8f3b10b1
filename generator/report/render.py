"""Write the report: balance.json (the numbers) and balance.html (one self-contained page)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from generator.files import write_replacing
from generator.report.summarize import TOLERANCE
from generator.resources import templates_dir


def to_json(report: dict[str, Any]) -> str:
    data = {k: v for k, v in report.items() if not k.startswith("_")}
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def to_html(report: dict[str, Any], game_name: str) -> str:
    env = Environment(loader=FileSystemLoader(str(templates_dir())), autoescape=True, undefined=StrictUndefined,
                      keep_trailing_newline=True)
    template = env.get_template("balance.html.j2")
    n_tests = sum(len(e["rows"]) for e in report["comparison"] or [])
    groups = max((len({e["group"] for e in cell["effects"]}) for sec in report["_sections"] for cell in sec["cells"]),
                 default=0)
    return template.render(report=report, sections=report["_sections"], game_name=game_name,
                           tolerance=round(TOLERANCE * 100), n_tests=n_tests, effect_groups=groups, bar=bar)


#: The card table's bars run from -BAR_SPAN to +BAR_SPAN (a share of games).
BAR_SPAN = 0.2


def bar(x: float) -> float:
    """Where a card effect sits on its bar, in % of the bar's width (clamped to the bar)."""
    return round(50 + 50 * max(-1.0, min(1.0, x / BAR_SPAN)), 1)


#: The files the report writes into its folder.
FILES = ("balance.html", "balance.json")


def write(report: dict[str, Any], out_dir: str | Path, game_name: str) -> tuple[Path, Path]:
    """Write both files atomically; return their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    html_path, json_path = (out / name for name in FILES)
    write_text_atomic(json_path, to_json(report))
    write_text_atomic(html_path, to_html(report, game_name))
    return html_path, json_path


def write_text_atomic(path: Path, text: str) -> None:
    """Write `text` through an exclusive temporary file and a rename: a reader never sees half a
    page, and a link planted at the name or at a temporary name is replaced, not written through."""
    write_replacing(path, text.encode("utf-8"))
