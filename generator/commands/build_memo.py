"""build's answer remembered: `county-uppy build` run again with nothing changed says what a
full build would say and leaves the output folder as it is, without loading the products' code.

After a build that succeeds, its answer is kept in the user's cache folder (user_cache.py, area
`build`): the lines a build into the same folder prints when nothing changed before it (products/
build.py: Built.again; the printable check's warnings, said again on standard error). It is keyed
as validate's answers are (file_states.py: the Python, the packages, every COUNTY_UPPY_ variable)
with the manifest's bytes, its path, every option of the build, the output folder's absolute path,
SOURCE_DATE_EPOCH and PATH (where Chromium and git are found). It records what the build read and
what it left:
- the state of every file of the package, of the templates, of every picture and font the manifest
  names, and of every place a press's ICC profile is looked for (or that nothing was there);
- the state of every file in the output folder and the folder's listing, so a file edited, added
  or removed there (by hand, by `watch`, by a build that failed half-way) is a change; the files
  of its .cache folder (the face cache's packs, checked by their content whenever a build reads
  them) by the listing alone;
- the date the print files carry (products/pipeline/provenance.py: SOURCE_DATE_EPOCH, else the
  manifest's last commit, else its modification time), and the Chromium a rulebook PDF is printed
  with (its path, size and time), both asked again.

It is given again only while all of that holds, and only in a process that has not loaded the
products' code (a new `county-uppy build`): a process that has (a test, a script that builds twice)
may hold code changed in memory, which no file shows. Anything unreadable, stale or different is
no answer: the build is made in full, and its answer kept in place of the old one.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

from generator import user_cache
from generator.commands import file_states
from generator.products.output.outputs import CACHE_DIR
from generator.products.render.press import shops

AREA = "build"
NEWEST = 16  #: answers kept
_FORMAT = "county-uppy-build/1"
#: Loaded by every build: a process that has it may have changed it (see above).
_PRODUCTS_CODE = "generator.products.build"
#: The product whose file is printed by Chromium.
_PRINTED = "rulebook-pdf"


class Question:
    """One `build` command line: what its remembered answer would be keyed by."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.manifest, self.out = args.manifest, Path(os.path.abspath(args.out))
        options = sorted(f"{k}={v!r}" for k, v in vars(args).items() if not k.startswith("_"))
        self.printed = not args.only or any(_PRINTED in item.split(",") for item in args.only)
        self.data = file_states.manifest_bytes(self.manifest)
        self.key = None if self.data is None else file_states.settings_key(
            _FORMAT, self.manifest, os.path.abspath(self.manifest), str(self.out), *options,
            "SOURCE_DATE_EPOCH=" + os.environ.get("SOURCE_DATE_EPOCH", ""), "PATH=" + os.environ.get("PATH", ""),
            hashlib.sha256(self.data).hexdigest())

    def recall(self) -> tuple[str, str] | None:
        """(what the build printed on standard output, on standard error) when its answer holds."""
        if self.key is None or _PRODUCTS_CODE in sys.modules:
            return None
        entry = file_states.kept_answer(AREA, self.key, _FORMAT)
        if entry is None:
            return None
        try:
            files = entry["files"]
            if _listing(self.out) != entry["listing"]:
                return None
            fresh: dict = {}
            if not all(file_states.holds(path, was, fresh) for path, was in files.items()):
                return None
            if entry["probes"] != _Probes(self.manifest, self.printed).answer():
                return None
            said = str(entry["stdout"]), str(entry["stderr"])
        except file_states.DAMAGED:
            return None
        if fresh:  # files written just before the answer was kept, hashed now: their times recorded
            files.update(fresh)
            user_cache.keep(AREA, f"{self.key}.json", json.dumps(entry).encode("utf-8"), NEWEST)
        return said

    def begin(self, named: tuple[str, ...]) -> Answer | None:
        """The answer of the build about to start (the states of what it reads taken now);
        `named`: the files the manifest names (commands/common.py: named_files)."""
        return None if self.key is None else Answer(self, named)


class Answer:
    """One build being remembered: what it reads is recorded before it starts (so a file changed
    while it runs is not taken for what it read), what it left once it is done."""

    def __init__(self, question: Question, named: tuple[str, ...]) -> None:
        self.question = question
        self.known = file_states.latest_files(AREA)
        self.files = {path: file_states.still(path, self.known.get(path))
                      for path in (*file_states.package_files(), *_templates(), *named, *_profile_places())}
        self.probes = _Probes(question.manifest, question.printed)

    def drop(self) -> None:
        """Keep nothing: the build failed."""
        self.probes.abort()

    def keep(self, stdout: str, stderr: str, made: dict[str, str]) -> None:
        """Keep what a build into the same folder prints when nothing changed (`stdout`, `stderr`),
        with the state of everything in the output folder; `made`: the sha256 of each file the
        build made, by its path in the folder. Nothing is kept when the manifest changed while the
        build ran, or the folder holds anything but the files made (another build's, a link)."""
        q = self.question
        probes = self.probes.answer()
        if file_states.manifest_bytes(q.manifest) != q.data:
            return
        listing = _listing(q.out)
        if listing is None:
            return
        # the files it made are checked by their bytes at the next question (hashed once then),
        # unless an earlier answer has their time; the output's caches (OUT/.cache: the face cache's
        # packs, stamps) are in the listing only: a build checks a pack's entries by their content
        # when it reads them, and a remembered answer reads none (about 10 MB, 40 ms of an edit)
        left = {str(q.out / rel): file_states.still(str(q.out / rel), self.known.get(str(q.out / rel)), made.get(rel))
                for rel in listing if not rel.endswith("/") and not rel.startswith(CACHE_DIR + "/")}
        if any((left.get(str(q.out / rel)) or [None] * 3)[2] != sha for rel, sha in made.items()):
            return
        entry = {"format": _FORMAT, "stdout": stdout, "stderr": stderr, "files": {**self.files, **left},
                 "listing": listing, "probes": probes}
        user_cache.keep(AREA, f"{q.key}.json", json.dumps(entry).encode("utf-8"), NEWEST)


def _listing(out: Path) -> list[str] | None:
    """Everything in the output folder, by its path there (a folder's ending in /), in a fixed
    order; None when there is anything but files and folders (a link, a FIFO) or it cannot be
    read. Walked without recursion: a designer's folder there may be thousands deep."""
    found = []
    folders = [""]
    try:
        while folders:
            rel = folders.pop()
            with os.scandir(out / rel if rel else out) as entries:
                for entry in entries:
                    name = f"{rel}{entry.name}"
                    if entry.is_dir(follow_symlinks=False):
                        found.append(name + "/")
                        folders.append(name + "/")
                    elif entry.is_file(follow_symlinks=False):
                        found.append(name)
                    else:
                        return None
    except OSError:
        return None
    return sorted(found)


def _templates() -> list[str]:
    """The files of the templates folder the rulebook is made from."""
    from generator.resources import templates_dir  # lazy: only for a build being remembered

    try:
        return file_states.files_under(templates_dir())
    except FileNotFoundError:
        return []


def _profile_places() -> list[str]:
    """Every place a press's ICC profile is looked for (render/press/cmyk.py: press_profile)."""
    places: list[str] = []
    for s in shops.SHOPS:
        if s.condition is not None:
            named = os.environ.get(s.condition.env, "").strip()
            places += [named] if named else s.condition.places
    return list(dict.fromkeys(places))


class _Probes:
    """What the build's files depend on that no file's bytes show, asked at once: the date the
    print files carry and the Chromium that prints the rulebook; `answer()` waits for them."""

    def __init__(self, manifest: str, printed: bool) -> None:
        from generator.products.pipeline.provenance import Stamping  # lazy: only when a build is remembered

        self._date = Stamping(Path(manifest))
        self._chromium = _chromium() if printed else None

    def answer(self) -> dict:
        return {"date": self._date.source_date(), "chromium": self._chromium}

    def abort(self) -> None:
        """Stop asking (a build that failed: nothing is kept)."""
        self._date.abort()


def _chromium() -> str:
    """The Chromium a rulebook PDF is printed with (its file's path, size and time), or why there is none."""
    from generator.products.rulebook.chromium import find_chromium, identity  # lazy: as Stamping

    binary, why = find_chromium()
    if binary is None:
        return why
    try:
        return identity(binary)
    except OSError as err:
        return str(err)
