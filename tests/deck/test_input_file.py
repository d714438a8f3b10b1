"""Every file a command reads is a regular file read with a size limit: a device, a FIFO or a
file larger than its limit is refused at once with one line and exit status 2 (1 for a manifest
that is too large, a mistake in it), never a hang, a MemoryError or a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from generator.cli import main
from generator.commands.common import MAX_JSON_BYTES
from generator.deck.input_file import read_limited
from generator.deck.problems import InputError
from generator.deck.yaml_source import MAX_FILE_BYTES

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = str(ROOT / "cards.yaml")
#: Each case must end well within this (a FIFO nobody writes would hang for ever).
TIMEOUT = 60


def run(*argv: str, cwd: Path | str = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", *argv], capture_output=True, text=True,
                          timeout=TIMEOUT, cwd=cwd, stdin=subprocess.DEVNULL)


@pytest.fixture()
def fifo(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return str(path)


def one_line(done: subprocess.CompletedProcess) -> str:
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr, done.stderr
    return done.stderr


@pytest.mark.parametrize("argv, what", [
    (["validate", "--manifest", "{special}"], "a manifest"),
    (["build", "--manifest", "{special}", "--out", "{tmp}/out"], "a manifest"),
    (["diff", "git:HEAD", "{special}"], "a manifest"),
    (["diff", "{special}", MANIFEST], "a manifest"),
    (["replay", "--manifest", MANIFEST, "{special}"], "a JSON record or position"),
    (["scenario", "--manifest", MANIFEST, "{special}"], "a JSON record or position"),
], ids=["validate", "build", "diff-new", "diff-old", "replay", "scenario"])
@pytest.mark.parametrize("special", ["/dev/zero", "/dev/urandom", "fifo"])
def test_a_device_or_fifo_is_refused_at_once(tmp_path, fifo, argv, what, special):
    path = fifo if special == "fifo" else special
    kind = "a FIFO (named pipe)" if special == "fifo" else "a character device"
    done = run(*(a.format(special=path, tmp=tmp_path) for a in argv))
    err = one_line(done)
    assert done.returncode == 2
    assert f"{path}: is {kind}, not a regular file; {what} must be a file" in err
    assert not (tmp_path / "out").exists()


def test_a_record_larger_than_its_limit_is_refused_unread(tmp_path):
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(600 * 1024 * 1024)  # 600 MB, sparse: costs no disk
    done = run("replay", "--manifest", MANIFEST, str(big))
    assert done.returncode == 2
    assert one_line(done) == (f"{big}:1:1: is 629,145,600 bytes; a JSON record or position may be at most "
                              f"{MAX_JSON_BYTES:,} bytes (8 MiB)\n")


def test_a_file_is_limited_while_it_is_read_not_only_by_its_size(tmp_path, monkeypatch):
    """A file that says it is small (a /proc file, one that grows) is cut off at the limit."""
    path = tmp_path / "growing.yaml"
    path.write_bytes(b"x" * 10)
    real_fstat = os.fstat

    class Small:
        def __init__(self, st):
            self._st = st

        def __getattr__(self, name):
            return 0 if name == "st_size" else getattr(self._st, name)

    monkeypatch.setattr(os, "fstat", lambda fd: Small(real_fstat(fd)))
    path.write_bytes(b"x" * 5000)
    with pytest.raises(InputError) as caught:
        read_limited(str(path), 4096, "a test file")
    assert str(caught.value) == f"{path}:1:1: is more than 4,096 bytes; a test file may be at most 4,096 bytes (4 KiB)"
    assert read_limited(str(path), 5000, "a test file") == b"x" * 5000


def test_a_fifo_with_a_writer_is_refused_too(fifo):
    """Not read even when something is writing to it: a FIFO has no size to check."""
    def writer():
        try:
            with open(fifo, "wb") as f:
                f.write(b"game: {}\n")
        except OSError:
            pass
    t = threading.Thread(target=writer, daemon=True)
    t.start()
    with pytest.raises(InputError) as caught:
        read_limited(fifo, 1024, "a manifest")
    assert "is a FIFO (named pipe), not a regular file" in str(caught.value)
    os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # let the writer go
    t.join(5)


def _git(cwd: Path, *argv: str) -> None:
    subprocess.run(["git", *argv], cwd=cwd, check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
                        "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"})


def test_diff_refuses_a_committed_manifest_over_the_limit_without_reading_it(tmp_path):
    """git:REV's blob is measured first (`git cat-file -s`) and read with a bound."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "cards.yaml").write_bytes(b"# " + b"x" * (100 * 1024 * 1024) + b"\n")
    _git(repo, "add", "cards.yaml")
    _git(repo, "commit", "-q", "-m", "big")
    (repo / "cards.yaml").write_text(Path(MANIFEST).read_text(encoding="utf-8"), encoding="utf-8")
    # The peak memory of the command and of git under it, measured by a parent of their own.
    measure = ("import resource, subprocess, sys; done = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
               "sys.stderr.write(done.stderr); "
               "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    done = subprocess.run([sys.executable, "-c", measure, sys.executable, "-m", "generator", "diff", "git:HEAD",
                           "cards.yaml"], capture_output=True, text=True, timeout=TIMEOUT, cwd=repo)
    status, peak_kib = map(int, done.stdout.split())
    assert status == 2
    assert (f"git:HEAD:cards.yaml:1:1: is 104,857,603 bytes; a manifest may be at most {MAX_FILE_BYTES:,} bytes "
            f"(256 KiB)") in one_line(done)
    assert peak_kib < 60 * 1024, f"diff grew to {peak_kib} KiB for a 100 MiB blob it refuses"


def test_an_edition_of_30_mb_in_a_record_is_refused_and_never_echoed_whole(tmp_path):
    record = {"seed": 1, "players": 4, "edition": "x" * (30 * 1024 * 1024), "decisions": []}
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(record))
    done = run("replay", "--manifest", MANIFEST, str(path))
    assert done.returncode == 2 and len(one_line(done)) < 300
    record["edition"] = "y" * 1_000_000  # under the size limit: read, refused, cut in the message
    path.write_text(json.dumps(record))
    done = run("replay", "--manifest", MANIFEST, str(path))
    err = one_line(done)
    assert done.returncode == 2 and len(err) < 400, err
    assert "unknown edition 'yyyy" in err and "(1,000,000 characters)" in err


def test_validate_still_reads_an_ordinary_manifest(capsys):
    assert main(["validate", "--manifest", MANIFEST]) == 0
