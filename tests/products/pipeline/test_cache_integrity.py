"""The face cache checks itself: a pack damaged in any way gives the next build exactly a cold
build's files (sha256 for sha256), with one line of warning per damaged pack, and is sound
again afterwards.

To keep the time down, each build damages every pack at once, each pack in a different way,
and the ways rotate over the packs from one build to the next.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.products.pipeline import face_cache
from generator.products.pipeline.face_cache import CACHE_DIR, PACK
from tests.conftest import MANIFEST, run

ALL = "deck,print,pod,rulebook,tts,cards"
#: The packs a rebuild with nothing changed reads (pdf-form's entries are needed only when a
#: sheet is drawn again: a damaged pdf-form pack is found when it is read, not before).
AREAS = ("mpc", "pdf", "rulebook", "tgc", "tts-band")


def listed(out: Path) -> dict[str, str]:
    """path -> sha256 of every file build.json lists, read back from the files themselves (and
    checked against what build.json says). What differs from a cold build by its nature is left
    out: changes.json (a cold build has nothing to compare with) and, in the TTS file, the
    output folder's own address."""
    record = json.loads((out / "build.json").read_text())
    found = {a["path"]: hashlib.sha256((out / a["path"]).read_bytes()).hexdigest() for a in record["artifacts"]}
    assert all(a["sha256"] == found[a["path"]] for a in record["artifacts"]), "build.json lists a wrong sha256"
    found.pop("changes.json")
    for path in [p for p in found if p.startswith("tts/") and p.endswith(".json")]:
        text = (out / path).read_bytes().replace(str(out).encode(), b"OUT")
        found[path] = hashlib.sha256(text).hexdigest()
    return found


def entries(data: bytes) -> list[tuple[int, int, int]]:
    """(header start, payload start, payload end) of each entry of a sound pack."""
    at, out = len(face_cache._MAGIC), []
    while at < len(data):
        end = data.index(b"\n", at)
        length = int(data[at:end].split(b" ")[1])
        out.append((at, end + 1, end + 1 + length))
        at = end + 1 + length
    return out


def corrupt_middle(data: bytes) -> bytes:
    mid = len(data) // 2
    return data[:mid] + bytes(b ^ 0xFF for b in data[mid:mid + 8]) + data[mid + 8:]


def swap_two(data: bytes) -> bytes:
    """Two entries' bytes exchanged, each keeping its own length and checksum: under the other's key."""
    (h1, p1, e1), (h2, p2, e2) = entries(data)[:2]
    k1, rest1 = data[h1:p1].split(b" ", 1)
    k2, rest2 = data[h2:p2].split(b" ", 1)
    return data[:h1] + k2 + b" " + rest1 + data[p1:e1] + k1 + b" " + rest2 + data[p2:]


def bump_size(data: bytes) -> bytes:
    """The first entry's size field one larger: every entry after it is misread."""
    h, p, e = entries(data)[0]
    key, size, digest = data[h:p - 1].split(b" ")
    return data[:h] + b" ".join([key, str(int(size) + 1).encode(), digest]) + b"\n" + data[p:]


def zero_last(data: bytes) -> bytes:
    """A power cut after an unflushed append: the last entry's header is there, its bytes zeros."""
    h, p, e = entries(data)[-1]
    return data[:p] + bytes(e - p) + data[e:]


def truncate(data: bytes) -> bytes:
    h, p, e = entries(data)[-1]
    return data[:(p + e) // 2]


def foreign(data: bytes) -> bytes:
    """An entry's bytes replaced by another project's, its length field fixed to match."""
    h, p, e = entries(data)[0]
    key, _, digest = data[h:p - 1].split(b" ")
    other = b"\x89PNG\r\n\x1a\n someone else's image" * 40
    return data[:h] + b" ".join([key, str(len(other)).encode(), digest]) + b"\n" + other + data[e:]


BYTE_DAMAGE = [corrupt_middle, swap_two, bump_size, zero_last, truncate, foreign]


def devnode(target: str):
    def plant(path: Path) -> None:
        path.unlink()
        path.symlink_to(target)
    plant.__name__ = f"link-to-{target}"
    return plant


def fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def two_gib(path: Path) -> None:
    with open(path, "r+b") as f:
        f.truncate(2 * 1024 ** 3)  # sparse: no disk, and never read


def garbage(path: Path) -> None:
    path.write_bytes(b"not a pack at all\n" * 100)


FILE_DAMAGE = [devnode("/dev/zero"), devnode("/dev/urandom"), fifo, two_gib, garbage, devnode("/etc/hostname")]


@pytest.fixture(scope="module")
def cold(tmp_path_factory):
    out = tmp_path_factory.mktemp("cold") / "out"
    from generator.cli import main

    assert main(["build", "--manifest", str(MANIFEST), "--out", str(out), "--only", ALL]) == 0
    return out


def damaged_build(cold: Path, tmp_path: Path, capsys, damage: dict[str, object]) -> Path:
    out = tmp_path / "out"
    shutil.copytree(cold, out, symlinks=True)
    for area, how in damage.items():
        path = out / CACHE_DIR / f"{area}{PACK}"
        if how in BYTE_DAMAGE:
            path.write_bytes(how(path.read_bytes()))
        else:
            how(path)
    status, stdout, err = run(capsys, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only", ALL)
    assert status == 0, err
    assert listed(out) == listed(cold), "the build after the damage differs from a cold build"
    for area in damage:
        pack = out / CACHE_DIR / f"{area}{PACK}"
        assert pack.is_file() and not pack.is_symlink(), f"{area}: the pack was not set aside and rebuilt"
        assert stdout.count(f"warning: {pack}:") == 1, f"{area}: not one line of warning\n{stdout}"
    return out


@pytest.mark.parametrize("turn", range(2))
def test_a_damaged_pack_gives_a_cold_builds_files_and_one_warning(cold, tmp_path, capsys, turn):
    kinds = BYTE_DAMAGE[turn:] + BYTE_DAMAGE[:turn]  # two turns: every kind on some pack, each pack two kinds
    out = damaged_build(cold, tmp_path, capsys, dict(zip(AREAS, kinds)))
    # the packs are sound again: a further build reads them all and warns of nothing
    status, stdout, _ = run(capsys, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only", ALL)
    assert status == 0 and "warning" not in stdout
    assert listed(out) == listed(cold)


def test_a_pack_that_is_not_a_regular_file_of_a_plausible_size_is_set_aside(cold, tmp_path, capsys):
    damaged_build(cold, tmp_path, capsys, dict(zip(AREAS, FILE_DAMAGE)))
    assert Path("/etc/hostname").exists()  # a link's target is left alone


def test_memory_follows_the_entries_read_and_dead_weight_is_reclaimed(cold, tmp_path):
    """A pack holding 300 MB of entries no build asks for: the build's peak memory stays far
    below that, and the pack is compacted to its live entries."""
    out = tmp_path / "out"
    shutil.copytree(cold, out, symlinks=True)
    pack = out / CACHE_DIR / f"mpc{PACK}"  # the area `--only pod` reads and prunes
    before = pack.stat().st_size
    with open(pack, "ab") as f:
        for i in range(3):
            blob = bytes([i]) * (100 * 1024 * 1024)
            key = f"{i:040d}"
            f.write(face_cache._header(key, blob) + blob)
    measure = ("import resource, subprocess, sys; done = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
               "sys.stderr.write(done.stderr); "
               "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    done = subprocess.run([sys.executable, "-c", measure, sys.executable, "-m", "generator", "build", "--manifest",
                           str(MANIFEST), "--out", str(out), "--only", "pod", "--jobs", "1"],
                          capture_output=True, text=True, timeout=300)
    status, peak_kib = map(int, done.stdout.split())
    assert status == 0, done.stderr
    assert peak_kib < 200 * 1024, f"a build over a 300 MB pack grew to {peak_kib // 1024} MiB"
    assert pack.stat().st_size <= before * 1.1, "the dead weight was not reclaimed"
    pod = {p: h for p, h in listed(cold).items() if p.startswith("pod/")}
    assert pod and {p: h for p, h in listed(out).items() if p.startswith("pod/")} == pod
