"""The picture check's verdicts are kept in the user's cache folder by each file's content: a new
process checking an edited manifest whose pictures passed before reads none of them again (no
lxml), and a picture whose bytes changed is checked again, and refused when it must be."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

from tests.conftest import ROOT

EDIT = ("text: Skip the next player's turn.", "text: Skip the next player's turn, twice.")


def check(manifest, caches) -> tuple[int, str, bool]:
    """`county-uppy validate` of `manifest` in a new process: (status, stderr, whether it loaded lxml)."""
    code = ("import json, sys\nfrom generator.cli import main\nstatus = main(['validate', '--manifest', %r])\n"
            "sys.__stderr__.write('\\nLXML ' + json.dumps('lxml' in sys.modules) + ' STATUS ' + str(status))") % str(manifest)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "XDG_CACHE_HOME": str(caches)})
    err, _, tail = done.stderr.rpartition("\nLXML ")
    loaded, status = tail.split(" STATUS ")
    return int(status), err, json.loads(loaded)


def test_an_edited_manifest_s_pictures_are_not_read_again_until_their_bytes_change(tmp_path):
    shutil.copytree(ROOT / "art", tmp_path / "art")
    text = (ROOT / "cards.yaml").read_text(encoding="utf-8")
    manifest, caches = tmp_path / "cards.yaml", tmp_path / "caches"
    manifest.write_text(text, encoding="utf-8")
    assert check(manifest, caches)[::2] == (0, True)  # checked in full: the icons' XML read
    manifest.write_text(text.replace(*EDIT), encoding="utf-8")  # validate's own answer cannot be given
    assert check(manifest, caches)[::2] == (0, False)  # the icons' verdicts kept: no XML read

    icon = sorted((tmp_path / "art" / "icons").glob("*.svg"))[0]
    icon.write_text(icon.read_text(encoding="utf-8").replace("</svg>", "<text>A</text></svg>"), encoding="utf-8")
    status, err, loaded = check(manifest, caches)
    assert status == 1 and loaded
    assert f"{icon.name}: the SVG has text" in err
