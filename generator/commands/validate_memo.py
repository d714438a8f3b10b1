"""validate's answers, remembered by everything they depend on, so that checking a manifest that
was checked before (a pre-commit hook, an editor on save, a script) answers at once. `build`
keeps the verdict of its own check the same way (commands/common.py: load_printable_deck), so a
rebuild of a manifest that passed does not check it again.

An answer (what validate printed, and its exit status) is kept in the user's cache folder
(user_cache.py, area `validate`) under a key made of:
- the manifest's bytes, its absolute path and the path as given (messages name it so);
- the command's options;
- the Python and the packages installed beside it (the names of every entry of sys.path's
  folders, which carry each distribution's version), and every COUNTY_UPPY_ variable.

The answer also records the files it was made from, each with its state (file_states.py: size,
modification time, sha256): every file of the package (code, fonts, profiles) and every picture
or font the manifest names (deck/look.py: named_files), or that it was absent. It is given again
only while each of them still holds those bytes; a new or removed file of the package is a change
too. Anything unreadable, torn or stale is no answer: validate then checks in full.
"""

from __future__ import annotations

import hashlib
import json
import os

from generator import user_cache
from generator.commands import file_states

AREA = "validate"
NEWEST = 64  #: answers kept
_FORMAT = "county-uppy-validate/1"


def key(manifest: str, options: tuple[str, ...]) -> tuple[str, bytes] | None:
    """(the key of validate's answer for `manifest` with `options`, the manifest's bytes), or None
    when the manifest cannot be read (validate then says why, and nothing is remembered)."""
    data = file_states.manifest_bytes(manifest)
    if data is None:
        return None
    return file_states.settings_key(_FORMAT, manifest, os.path.abspath(manifest), *options,
                                    hashlib.sha256(data).hexdigest()), data


def recall(k: str) -> tuple[str, str, int] | None:
    """(what validate printed on stdout, on stderr, its exit status) for key `k`, when every file
    the answer was made from still holds the same bytes; else None."""
    entry = file_states.kept_answer(AREA, k, _FORMAT)
    if entry is None:
        return None
    try:
        if not all(file_states.holds(path, was) for path, was in entry["files"].items()):
            return None
        return entry["stdout"], entry["stderr"], int(entry["status"])
    except file_states.DAMAGED:
        return None


class Answer:
    """One validate run being remembered: the state of every file it depends on is taken before
    the run (so a file changed while it runs is not taken for what it read), the answer after."""

    def __init__(self, k: str, manifest: str, data: bytes, named: tuple[str, ...]) -> None:
        """`named`: the files the manifest names (commands/common.py: named_files)."""
        self.key, self.manifest, self.data = k, manifest, data
        known = file_states.latest_files(AREA)
        self.files = {path: file_states.still(path, known.get(path)) for path in (*file_states.package_files(), *named)}

    def keep(self, stdout: str, stderr: str, status: int) -> None:
        """Keep what the run printed and its status, unless the manifest changed while it ran."""
        if file_states.manifest_bytes(self.manifest) != self.data:
            return
        entry = {"format": _FORMAT, "stdout": stdout, "stderr": stderr, "status": status, "files": self.files}
        user_cache.keep(AREA, f"{self.key}.json", json.dumps(entry).encode("utf-8"), NEWEST)

