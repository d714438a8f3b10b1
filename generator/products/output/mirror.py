"""The output folder mirrors the manifest: after a build, build.json lists every file in the
products' folders, and nothing an earlier build made lingers once the manifest no longer makes it.

Measured against the previous build.json in OUT:
- a file an earlier build listed that this build's products no longer make (a removed or renamed
  card, an edition no longer asked for) is removed, in the build's all-or-nothing commit;
- with `--only`, the products not built keep their files, and their entries are carried into the
  new build.json (checked against their sha256 first: a file changed since is no longer listed);
- a file in a product's folder that no build listed was not made by the tool: it is left alone
  and named in a warning. Files outside the products' folders (a report, game records, notes)
  are not the build's business.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from generator.files import crosses_link, walk_files
from generator.products.output.outputs import Artifact

#: How many file names a message lists before it says "and N more".
SHOWN = 8


@dataclass
class Mirror:
    carried: list[Artifact] = field(default_factory=list)  #: files of products not built this time, still listed
    remove: list[str] = field(default_factory=list)  #: files an earlier build made that this one does not
    foreign: list[str] = field(default_factory=list)  #: files in the products' folders no build made
    dropped: list[str] = field(default_factory=list)  #: carried files changed or gone since they were built


def plan(out: Path, made: list[Artifact], built: set[str], previous: tuple[Artifact, ...], partial: bool,
         folders: tuple[str, ...]) -> Mirror:
    """What to carry, remove and warn about, given the files this build made, the products it
    built (`partial`: not every product, `--only`) and the files the previous build.json lists
    (listing.Previous.artifacts)."""
    mirror = Mirror()
    made_paths = {a.path for a in made}
    for old in previous:
        if old.path in made_paths:
            continue
        path = out / old.path
        if (old.product not in built) if old.product else partial:
            if _matches(path, old.sha256):
                mirror.carried.append(old)
                made_paths.add(old.path)
            elif os.path.lexists(path):
                mirror.dropped.append(old.path)
        elif _made_here(out, old, folders):
            mirror.remove.append(old.path)
    listed = made_paths | set(mirror.remove) | set(mirror.dropped)
    for folder in folders:  # the products' own folders (a designer's folder there may be of any depth)
        for path in walk_files(out / folder):
            rel = path.relative_to(out).as_posix()
            if not path.name.startswith(".") and rel not in listed:
                mirror.foreign.append(rel)
    mirror.remove.sort()
    return mirror


def _made_here(out: Path, old: Artifact, folders: tuple[str, ...]) -> bool:
    """May the build remove this file an earlier build listed? Only a file the tool made: in a
    product's own folder, reached through no link, a regular file, and with the sha256 listed
    for it. Anything else (a file edited since, a link, a file outside the products' folders
    such as a game record) is not the build's to remove."""
    path = out / old.path
    first = old.path.split("/", 1)[0]
    return (first in folders and "/" in old.path and not crosses_link(out, path) and path.is_file()
            and _matches(path, old.sha256))


def _matches(path: Path, sha256: str) -> bool:
    try:
        return path.is_file() and hashlib.sha256(path.read_bytes()).hexdigest() == sha256
    except OSError:
        return False


def listing(paths: list[str]) -> str:
    shown = ", ".join(paths[:SHOWN])
    return shown + (f" and {len(paths) - SHOWN} more" if len(paths) > SHOWN else "")


#: The files made for one paper: the print sheets and card-count sheets.
_PAPER_FILE = re.compile(r"^print/county-uppy-([a-z0-9]+)[-.]")


def _paper(path: str) -> str:
    """The paper a file is made for ("" for a file of no paper)."""
    found = _PAPER_FILE.match(path)
    return found.group(1) if found else ""


def _layout(path: str) -> str:
    """The print-and-play layout a print file is of (its name's tail says)."""
    return "gutterfold" if path.endswith("-gutterfold.pdf") else "duplex"


def messages(mirror: Mirror, out: Path, editions: tuple[str, ...], papers: tuple[str, ...] = (),
             layouts: tuple[str, ...] = ()) -> list[str]:
    """The lines a build prints about what it removed, kept and left alone. `papers` and
    `layouts`: those this build made print sheets for, so files of another paper or layout are
    said to go for that reason."""
    lines = []
    other_paper = [r for r in mirror.remove if papers and _paper(r) and _paper(r) not in papers]
    if other_paper:
        gone = sorted({_paper(r) for r in other_paper})
        n = len(other_paper)
        lines.append(f"removed {n} print file{'s' * (n != 1)} for {' and '.join(gone)} paper, which this build was not "
                     f"asked for (--paper {' --paper '.join(papers)}; every build makes only the papers it is given: "
                     f"list them under build: papers: in cards.yaml to keep them): {listing(other_paper)}")
    other_layout = [r for r in mirror.remove if layouts and r.startswith("print/county-uppy-") and r not in other_paper
                    and not r.endswith("-card-count.pdf") and _layout(r) not in layouts]
    if other_layout:
        gone = sorted({_layout(r) for r in other_layout})
        n = len(other_layout)
        lines.append(f"removed {n} print file{'s' * (n != 1)} of the {' and '.join(gone)} layout, which this build was "
                     f"not asked for (--layout {' --layout '.join(layouts)}; every build makes only the layouts it is "
                     f"given): {listing(other_layout)}")
    rest = [r for r in mirror.remove if r not in other_paper and r not in other_layout]
    if rest:
        n = len(rest)
        lines.append(f"removed {n} file{'s' * (n != 1)} the manifest no longer makes: {listing(rest)}")
        one_off = [r for r in rest if r.startswith("print/") and any(r.endswith(f"-{e}.pdf")
                   or r.endswith(f"-{e}-fronts.pdf") or r.endswith(f"-{e}-backs.pdf") for e in editions)]
        if one_off:
            lines.append("  (print files of an edition asked for with --edition only once; to build an edition "
                         "every time, list it under build: editions: in cards.yaml)")
    if mirror.dropped:
        lines.append(f"warning: {listing(mirror.dropped)} changed since {'they were' if len(mirror.dropped) > 1 else 'it was'} "
                     f"built and {'are' if len(mirror.dropped) > 1 else 'is'} no longer listed in build.json; "
                     f"build {'their products' if len(mirror.dropped) > 1 else 'its product'} again to replace "
                     f"{'them' if len(mirror.dropped) > 1 else 'it'}")
    if mirror.foreign:
        n = len(mirror.foreign)
        lines.append(f"warning: {n} file{'s' * (n != 1)} in {out} {'were' if n != 1 else 'was'} not made by "
                     f"county-uppy and {'are' if n != 1 else 'is'} left alone: {listing(mirror.foreign)}")
    return lines
