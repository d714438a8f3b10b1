"""Write a sweep: sweep.json (the numbers), sweep.html (heatmaps, the best cells) and a page per cell.

sweep.html is one self-contained page: for each pair of parameters (or, with one parameter,
the parameter against the player counts) a heatmap of fairness and one of game length, each
square linked to its cell's page under cells/. A cell whose deck differs from the manifest
gets its manifest written under manifests/, so its games replay with `county-uppy simulate`;
the pictures and fonts the manifest's look names are copied beside it there, at the same
relative paths, as a designer who copies cards.yaml copies its art/ folder.
"""

from __future__ import annotations

import itertools
import re
import tempfile
from pathlib import Path
from typing import Any, Sequence

import yaml
from jinja2 import Environment, FileSystemLoader, StrictUndefined

from generator.deck.look import named_files
from generator.deck.model import Deck
from generator.deck.problems import escape
from generator.deck.tweak import tweaked_source
from generator.deck.yaml_source import Source
from generator.engine.options import CHOICES
from generator.files import real_folder, write_replacing
from generator.report import charts
from generator.report.render import write_text_atomic
from generator.report.summarize import TOLERANCE
from generator.report.sweep.grid import SweepCell, Variant, show
from generator.report.sweep.run import CellCounts
from generator.report.sweep.summary import ranked
from generator.resources import templates_dir

FILES = ("sweep.html", "sweep.json")
#: How many cells the "best cells" table lists.
BEST = 12
#: How many missing cells an interrupted sweep's page names (sweep.json lists them all).
MISSING_SHOWN = 40
#: Marks beside each heatmap value, so a verdict is never told by colour alone.
MARKS = {"balanced": "✓", "small seat effect": "≈", "inconclusive": "?", "unbalanced": "✗", "no data": "–"}


class OutError(ValueError):
    pass


def check_out(out: str) -> None:
    """Before any game is played: --out must be a folder (made if missing) the sweep can write into."""
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise OutError(f"{out} exists and is not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".sweep-", suffix=".tmp"):
            pass
    except OSError as exc:
        raise OutError(f"cannot write {out}: {exc.strerror or exc}") from None
    for name in (*FILES, "cells", "manifests"):
        path = folder / name
        if name in FILES and path.is_dir() or name not in FILES and path.exists() and not path.is_dir():
            raise OutError(f"{path} is in the way of the sweep's {'file' if name in FILES else 'folder'}")


def cell_page(k: int) -> str:
    return f"cells/cell-{k:04d}.html"


def manifest_file(v: int) -> str:
    return f"manifests/variant-{v:04d}.yaml"


def write(data: dict[str, Any], cells: Sequence[SweepCell], variants: Sequence[Variant], counts: Sequence[CellCounts],
          src: Source, deck: Deck, out: str | Path, game_name: str, json_text: str) -> Path:
    """Write every file (each atomically); return the path of sweep.html.

    `data["cells"]`, `cells` and `counts` are the cells that finished: all of them, or, after
    Ctrl-C, those done by then (`data["missing"]` names the others and the page says so).
    """
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    real_folder(folder, "cells")  # a link planted at cells/ or manifests/ is replaced, never written through
    manifests = {v: manifest_file(v) for v, variant in enumerate(variants) if variant.tweaked}
    if manifests or (folder / "manifests").is_symlink():
        real_folder(folder, "manifests")
    for v, name in manifests.items():
        changes = {k: x for k, x in variants[v].params.items() if k not in CHOICES}
        text = yaml.safe_dump(tweaked_source(src, deck, changes).data, sort_keys=False, allow_unicode=True)
        comment = escape(f"{data['settings']['manifest']} with {_label(changes)}")  # one line, whatever the path holds
        write_text_atomic(folder / name, f"# {comment} (written by county-uppy sweep)\n{text}")
    if manifests:
        _copy_named_files(src, folder / "manifests")
    env = _env()
    page = env.get_template("sweep_cell.html.j2")
    for k, (summary, cell, n) in enumerate(zip(data["cells"], cells, counts)):
        turns = [t for t in sorted(n.turns) for _ in range(n.turns[t])]
        v = cell.variant
        manifest = (folder / manifests[v]).as_posix() if v in manifests else data["settings"]["manifest"]
        html = page.render(cell=summary, k=k, game_name=game_name, tolerance=round(TOLERANCE * 100),
                           label=_label(summary["params"]), manifest_link=("../" + manifests[v]) if v in manifests else None,
                           seat_chart=charts.seat_chart([{"sides": summary["seats"], "fair": summary["fair"]}]),
                           length_chart=charts.length_chart([turns]), simulate=simulate_command(summary, manifest),
                           replay=replay_command(summary, manifest), marks=MARKS,
                           names={c.code: variants[v].deck.words(c.name) for c in variants[v].deck.cards})
        write_text_atomic(folder / cell_page(k), html)
    _remove_stale(folder, {cell_page(k) for k in range(len(data["cells"]))} | set(manifests.values()))
    write_text_atomic(folder / "sweep.json", json_text + "\n")
    html_path = folder / "sweep.html"
    missing = [f"{_label(m['params'])} · {m['players']} players" for m in data["missing"][:MISSING_SHOWN]]
    write_text_atomic(html_path, env.get_template("sweep.html.j2").render(
        data=data, game_name=game_name, heatmaps=heatmaps(data), best=best_rows(data), tolerance=round(TOLERANCE * 100),
        marks=MARKS, missing=missing))
    return html_path


#: The names of the files a sweep writes per cell and per manifest variant (cell_page, manifest_file).
_OWN = re.compile(r"(cells/cell-\d{4}\.html|manifests/variant-\d{4}\.yaml)")


def _copy_named_files(src: Source, target: Path) -> None:
    """Copy every picture and font file the manifest's look names (deck/look.py: named_files) to
    the same path relative to `target`, where the variant manifests are, so they load as the
    manifest does. Each is written whole (files.write_replacing) into real folders (a link planted
    on the way is replaced, never written through); a file the manifest names but that is
    missing was reported when the manifest loaded, so there is none here."""
    home = src.home()
    for path in named_files(src.data, home):
        if not path.is_file():
            continue
        rel = path.relative_to(home)
        folder = real_folder(target, rel.parent.as_posix()) if rel.parent.parts else target
        write_replacing(folder / rel.name, path.read_bytes())


def _remove_stale(folder: Path, written: set[str]) -> None:
    """Remove the cell pages and manifests an earlier sweep into this folder wrote and this one
    did not (a smaller grid), so no page is left that sweep.html does not describe. Files of
    any other name are left alone."""
    for sub in ("cells", "manifests"):
        if (folder / sub).is_symlink() or not (folder / sub).is_dir():
            continue  # a link's folder is not the sweep's
        for path in (folder / sub).iterdir():
            rel = f"{sub}/{path.name}"
            if _OWN.fullmatch(rel) and rel not in written and path.is_file() and not path.is_symlink():
                path.unlink(missing_ok=True)


def _label(params: dict[str, Any]) -> str:
    return ", ".join(f"{k}={show(v)}" for k, v in params.items()) or "the manifest as it is"


def simulate_command(cell: dict[str, Any], manifest: str) -> str:
    """The simulate command that plays this cell's games again, with the same results."""
    options = "".join(f" --option {k}={show(v)}" for k, v in cell["options"].items())
    return (f"county-uppy simulate --manifest {manifest} --seed {cell['seed']} --games {cell['games']} "
            f"--edition {cell['edition']} --players {cell['players']} --bots {cell['bots']}{options}")


def replay_command(cell: dict[str, Any], manifest: str) -> str | None:
    """The simulate command that writes the records of the cell's unfinished games (DIR/game-NNNNNN.json)."""
    if not cell["unfinished_games"]:
        return None
    command = simulate_command(cell, manifest)
    return command.replace(f"--games {cell['games']}", f"--games {max(cell['unfinished_games']) + 1}") + " --record DIR"


def fairness_colour(off: float) -> str:
    """Green at a fair share, yellow at the tolerance's edge, red at twice as far and beyond."""
    t = max(0.0, min(1.0, off / (2 * TOLERANCE)))
    stops = [(0.0, (46, 158, 80)), (0.5, (240, 200, 60)), (1.0, (200, 40, 40))]
    return _mix(stops, t)


def length_colour(value: float, lo: float, hi: float) -> str:
    t = 0.0 if hi <= lo else (value - lo) / (hi - lo)
    return _mix([(0.0, (230, 240, 250)), (1.0, (40, 90, 170))], t)


def _mix(stops: list[tuple[float, tuple[int, int, int]]], t: float) -> str:
    for (a, ca), (b, cb) in zip(stops, stops[1:]):
        if t <= b:
            u = (t - a) / (b - a) if b > a else 0.0
            return "#" + "".join(f"{round(x + (y - x) * u):02x}" for x, y in zip(ca, cb))
    return "#" + "".join(f"{x:02x}" for x in stops[-1][1])


def heatmaps(data: dict[str, Any]) -> list[dict[str, Any]]:
    """One heatmap per pair of parameters and player count (one parameter: it against the player
    counts), each square the mean over the other parameters' values, linked to the best cell in it."""
    cells = data["cells"]
    names = list(data["settings"]["params"])
    values = data["settings"]["params"]
    players = data["settings"]["players"]
    order = {k: i for i, k in enumerate(ranked(cells))}
    maps = []
    if len(names) == 1:
        pairs = [(names[0], None)]
    else:
        pairs = list(itertools.combinations(names, 2))
    for a, b in pairs:
        for n in (players if b is not None else [None]):
            rows_of = values[b] if b is not None else players
            cols = values[a]
            grid = []
            for rv in rows_of:
                row = []
                for cv in cols:
                    members = [k for k, c in enumerate(cells) if c["params"][a] == cv and
                               (c["params"][b] == rv if b is not None else c["players"] == rv) and
                               (n is None or c["players"] == n)]
                    if not members:
                        row.append(None)
                        continue
                    best = min(members, key=order.__getitem__)
                    off = sum(cells[k]["worst_seat_off"] for k in members) / len(members)
                    median = sum(cells[k]["length"]["median"] for k in members) / len(members)
                    row.append({"off": off, "median": median, "best": best, "cells": len(members),
                                "label": cells[best]["verdict"]["label"], "link": cell_page(best)})
                grid.append({"value": rv, "squares": row})
            medians = [s["median"] for r in grid for s in r["squares"] if s]
            lo, hi = (min(medians), max(medians)) if medians else (0.0, 0.0)
            for r in grid:
                for s in r["squares"]:
                    if s:
                        s["fair_colour"] = fairness_colour(s["off"])
                        s["length_colour"] = length_colour(s["median"], lo, hi)
                        s["length_ink"] = "#fff" if hi > lo and (s["median"] - lo) / (hi - lo) > 0.55 else "#1d2430"
            maps.append({"x": a, "y": b or "players", "players": n, "columns": [show(v) for v in cols], "rows": grid,
                         "mean_over": [x for x in names if x not in (a, b)], "length_range": [lo, hi]})
    return maps


def best_rows(data: dict[str, Any]) -> dict[str, Any]:
    """The page's "Best cells": parameter values across the player counts, then each count's best cells."""
    cells = data["cells"]
    across = [{**v, "label": _label(v["params"]), "links": {n: cell_page(k) for n, k in v["cells"].items()}}
              for v in data["best"]["across"][:BEST]]
    by_players = [(n, [{"k": k, "link": cell_page(k), "cell": cells[k], "label": _label(cells[k]["params"])}
                       for k in ks[:BEST]]) for n, ks in data["best"]["by_players"].items()]
    return {"across": across, "by_players": by_players}


def _env() -> Environment:
    env = Environment(loader=FileSystemLoader(str(templates_dir())), autoescape=True, undefined=StrictUndefined,
                      keep_trailing_newline=True)
    env.filters["show"] = show
    return env

