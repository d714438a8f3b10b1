"""Hard faults, in real processes: SIGKILL in the middle of a build's commit, two builds into one
folder at once, SIGTERM and SIGKILL with worker processes running, a full disk and a read-only
output folder (as a user without root's power to ignore permissions).

`FAULT_TRIALS=N` sets how many timed kills to try (default 10).
"""

from __future__ import annotations

import hashlib
import json
import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from generator.engine.simulate import MAX_GAMES
from generator.products.output import commit
from generator.products.output.commit import JOURNAL_NAME, STAGING_PREFIX
from generator.products.output.folder_lock import LOCK_NAME, FolderLock
from generator.products import folders
from tests.processes import children
from tests.conftest import MANIFEST, ROOT

PRODUCT_FOLDERS = folders()

COMMAND = [sys.executable, "-m", "generator"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
PRODUCTS = "deck,cards"
TRIALS = int(os.environ.get("FAULT_TRIALS", "10"))

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc, flock and process groups")


# --- helpers ----------------------------------------------------------------------------------
def state(out: Path) -> list[tuple[str, str]]:
    """(path, sha256) of the products' files build.json lists, after checking that each file has exactly
    those bytes and that no file in the products' folders goes unlisted: the folder is one whole build."""
    listed = {a["path"]: a["sha256"] for a in json.loads((out / "build.json").read_text())["artifacts"]}
    for rel, sha in listed.items():
        assert hashlib.sha256((out / rel).read_bytes()).hexdigest() == sha, f"{rel} does not match build.json"
    present = {p.relative_to(out).as_posix() for folder in PRODUCT_FOLDERS for p in (out / folder).rglob("*")
               if p.is_file()}
    assert present <= set(listed), f"not listed in build.json: {sorted(present - set(listed))[:5]}"
    # changes.json says what the build changed against the folder's previous build, so the same
    # build says different things in different folders: checked above, left out of the comparison
    return sorted((rel, sha) for rel, sha in listed.items() if rel != "changes.json")


def staging_left(out: Path) -> list[str]:
    return [p.name for p in out.iterdir() if p.name.startswith(STAGING_PREFIX)] if out.is_dir() else []


def alive(pid: int) -> bool:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return text.rpartition(")")[2].split()[0] != "Z"


def all_gone(pids: list[int], within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while any(alive(p) for p in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def start(*argv: str, **kw) -> subprocess.Popen:
    """The command started as from a terminal: its stop signals at their defaults, even when these
    tests run under nohup or as a shell's background job (which ignore SIGHUP, SIGINT), whose choice
    the command keeps (workers.stop_signals)."""
    return subprocess.Popen([*COMMAND, *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env=ENV, cwd=kw.pop("cwd", ROOT),
                            preexec_fn=_stop_signals_at_their_defaults, **kw)


def _stop_signals_at_their_defaults() -> None:
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)


def wait_for_workers(proc: subprocess.Popen, n: int = 1, timeout: float = 60) -> list[int]:
    deadline = time.monotonic() + timeout
    while len(kids := children(proc.pid)) < n:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.02)
    return kids


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate()


def recolour(text: str) -> str:
    """Cyan printed darker: every cyan and cyan-dual face (and deck.json) changes."""
    assert '"#00A3D9"' in text
    return text.replace('"#00A3D9"', '"#0067A0"')


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    """Two finished builds: the shipped manifest (old) and a recoloured one (new), and the new manifest."""
    base = tmp_path_factory.mktemp("faults")
    new_manifest = base / "new.yaml"
    new_manifest.write_text(recolour(MANIFEST.read_text(encoding="utf-8")), encoding="utf-8")
    for name, manifest in (("old", MANIFEST), ("new", new_manifest)):
        got = subprocess.run([*COMMAND, "build", "--manifest", str(manifest), "--out", str(base / name), "--only",
                              PRODUCTS], capture_output=True, text=True, env=ENV, timeout=300)
        assert got.returncode == 0, got.stderr
    return base / "old", base / "new", new_manifest


def old_folder_with_both_caches(old: Path, new: Path, folder: Path) -> Path:
    """A copy of the old build whose face cache also holds the new faces: the new build only commits."""
    shutil.copytree(old, folder, symlinks=True)
    for f in (new / ".cache").rglob("*"):
        if f.is_file():
            target = folder / f.relative_to(new)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(f, target)
    return folder


def kill_at_first_change(argv: list[str], watch: Path, exists: bool) -> int:
    """Start the command; SIGKILL it the moment `watch` (a folder) changes or appears; return the exit status."""
    def mark():
        try:
            st = watch.stat()
            return st.st_mtime_ns, st.st_ino
        except FileNotFoundError:
            return None
    before = mark()
    assert (before is not None) == exists
    proc = start(*argv)
    try:
        while proc.poll() is None:
            if mark() != before:
                os.kill(proc.pid, signal.SIGKILL)
                break
        proc.wait(timeout=120)
        return proc.returncode
    finally:
        stop(proc)


# --- SIGKILL during the commit --------------------------------------------------------------------
def test_sigkill_during_the_commit_leaves_the_old_build_or_the_new_one(builds, tmp_path):
    old, new, new_manifest = builds
    old_state, new_state = state(old), state(new)
    assert old_state != new_state and len({p for p, _ in new_state} ^ {p for p, _ in old_state}) == 0
    changed = sum(a != b for a, b in zip(old_state, new_state))
    assert changed > 25  # a wide commit: cards/ and deck.json
    landed = 0
    for trial in range(TRIALS):
        out = old_folder_with_both_caches(old, new, tmp_path / f"trial-{trial}")
        status = kill_at_first_change(["build", "--manifest", str(new_manifest), "--out", str(out), "--only",
                                       PRODUCTS, "--jobs", "1"], out / "cards", exists=True)
        if status != -signal.SIGKILL:
            assert status == 0  # it finished before the kill landed
        if (out / JOURNAL_NAME).exists():
            landed += 1
            # what the next command does first, under the folder's lock: roll the commit forward
            lock = FolderLock(out)
            try:
                line = commit.roll_forward(out)
            finally:
                lock.release()
            assert line is not None and line.startswith(f"county-uppy: finished moving an interrupted build (process ")
            assert state(out) == new_state
        else:
            assert state(out) in (old_state, new_state)
        assert not (out / JOURNAL_NAME).exists()
        shutil.rmtree(out)
    print(f"{landed} of {TRIALS} kills landed inside the commit")
    assert landed >= 1, f"no kill of {TRIALS} landed inside the commit"


def test_the_next_build_rolls_a_killed_commit_forward_and_says_so(builds, tmp_path):
    old, new, new_manifest = builds
    for trial in range(TRIALS):
        out = old_folder_with_both_caches(old, new, tmp_path / f"trial-{trial}")
        kill_at_first_change(["build", "--manifest", str(new_manifest), "--out", str(out), "--only", PRODUCTS,
                              "--jobs", "1"], out / "cards", exists=True)
        if (out / JOURNAL_NAME).exists():
            break
        shutil.rmtree(out)
    else:
        pytest.fail(f"no kill of {TRIALS} landed inside the commit")
    assert staging_left(out)  # the killed build's files wait there
    got = subprocess.run([*COMMAND, "build", "--manifest", str(new_manifest), "--out", str(out), "--only", "deck"],
                         capture_output=True, text=True, env=ENV, timeout=120)
    assert got.returncode == 0 and "Traceback" not in got.stderr
    assert re.match(rf"county-uppy: finished moving an interrupted build \(process \d+\) into {re.escape(str(out))}: "
                    r"\d+ more files? moved into place, 0 removed\n$", got.stderr)
    assert state(out) == state(new)
    assert staging_left(out) == [] and not (out / JOURNAL_NAME).exists()


def test_sigkill_of_a_first_build_leaves_no_build_or_the_whole_build(builds, tmp_path):
    old, _, _ = builds
    for trial in range(1):
        out = tmp_path / f"first-{trial}" / "out"
        kill_at_first_change(["build", "--manifest", str(MANIFEST), "--out", str(out), "--only", PRODUCTS,
                              "--jobs", "1"], out / "cards", exists=False)
        if (out / JOURNAL_NAME).exists():
            lock = FolderLock(out)
            try:
                assert commit.roll_forward(out)
            finally:
                lock.release()
        if (out / "build.json").exists():
            assert state(out) == state(old)
        else:
            assert {p.name for p in out.iterdir() if not p.name.startswith(STAGING_PREFIX)} <= {LOCK_NAME}
            assert not any((out / folder).exists() for folder in PRODUCT_FOLDERS)


def test_a_killed_builds_staging_folder_is_removed_by_the_next_build(tmp_path):
    out = tmp_path / "out"
    proc = start("build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "cards", "--jobs", "2")
    try:
        # killed once it stages its files: its first child can be git, asked for the print files' date
        # for the build's remembered answer (commands/build_memo.py) before the staging folder is made
        deadline = time.monotonic() + 60
        while not staging_left(out):
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.01)
        kids = wait_for_workers(proc)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        assert all_gone(kids), "a render worker outlived its killed parent"
    finally:
        stop(proc)
    assert len(staging_left(out)) == 1
    got = subprocess.run([*COMMAND, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "deck"],
                         capture_output=True, text=True, env=ENV, timeout=120)
    assert got.returncode == 0 and got.stderr == ""
    assert staging_left(out) == []
    assert state(out) == [("deck.json", state(out)[0][1])]


# --- two builds into one folder -----------------------------------------------------------------------
def test_a_second_build_into_a_busy_folder_exits_2_naming_the_first(builds, tmp_path):
    old, new, new_manifest = builds
    out = tmp_path / "out"
    shutil.copytree(old, out, symlinks=True)  # no new faces cached: the first build renders for a while
    first = start("build", "--manifest", str(new_manifest), "--out", str(out), "--only", PRODUCTS, "--jobs", "1")
    try:
        deadline = time.monotonic() + 60
        while not (out / LOCK_NAME).exists() or (out / LOCK_NAME).read_text().strip() != str(first.pid):
            assert first.poll() is None and time.monotonic() < deadline, first.communicate()
            time.sleep(0.01)
        # Paused while the second asks, so a fast machine cannot finish it first: it keeps its lock.
        os.kill(first.pid, signal.SIGSTOP)
        try:
            second = subprocess.run([*COMMAND, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only",
                                     PRODUCTS], capture_output=True, text=True, env=ENV, timeout=120)
        finally:
            os.kill(first.pid, signal.SIGCONT)
        assert second.returncode == 2 and second.stdout == ""
        assert second.stderr == (f"county-uppy build: {out} is being written by another build "
                                 f"(process {first.pid}); nothing was changed\n")
        _, err = first.communicate(timeout=120)
        assert first.returncode == 0, err
    finally:
        stop(first)
    assert state(out) == state(new)
    assert staging_left(out) == [] and not (out / LOCK_NAME).exists()


def test_builds_started_together_never_mix(builds, tmp_path):
    old, new, new_manifest = builds
    for trial in range(3):
        out = old_folder_with_both_caches(old, new, tmp_path / f"together-{trial}")
        procs = [start("build", "--manifest", str(m), "--out", str(out), "--only", PRODUCTS, "--jobs", "1")
                 for m in (new_manifest, MANIFEST)]
        try:
            results = [(p.pid, *p.communicate(timeout=120), p.returncode) for p in procs]
        finally:
            for p in procs:
                stop(p)
        statuses = [r[3] for r in results]
        assert all(s in (0, 2) for s in statuses) and 0 in statuses, results
        for pid, _, err, status in results:
            if status == 2:
                other = next(r[0] for r in results if r[0] != pid)
                assert f"is being written by another build (process {other}); nothing was changed" in err
        assert state(out) in (state(old), state(new))
        assert staging_left(out) == []


# --- SIGTERM and SIGKILL with workers -----------------------------------------------------------------
SIMULATE = ["simulate", "--manifest", str(MANIFEST), "--games", str(MAX_GAMES), "--players", "4", "--workers", "2"]


def report_argv(folder: Path) -> list[str]:
    return ["report", "--manifest", str(MANIFEST), "--games", str(MAX_GAMES), "--players", "2", "--edition",
            "the-og", "--workers", "2", "--out", str(folder / "rep")]


@pytest.mark.parametrize("group, signum", [(False, signal.SIGTERM), (True, signal.SIGTERM), (True, signal.SIGHUP)],
                         ids=["to-the-process", "to-the-group", "sighup-to-the-group"])
@pytest.mark.parametrize("command", ["build", "simulate", "report"])
def test_sigterm_stops_like_ctrl_c_and_leaves_nothing_running(builds, tmp_path, command, group, signum):
    """SIGTERM, and SIGHUP (a closed terminal or SSH session) the same way: exit 128 + the
    signal, the clean-up of Ctrl-C, no worker left running."""
    old, new, new_manifest = builds
    out = tmp_path / "out"
    if command == "build":
        shutil.copytree(old, out, symlinks=True)
        # without its face cache every face is drawn again: the build is still at work when the
        # signal comes, however fast the machine (with it, it could end before the signal)
        shutil.rmtree(out / ".cache")
        argv = ["build", "--manifest", str(new_manifest), "--out", str(out), "--only", PRODUCTS, "--jobs", "2"]
    else:
        argv = SIMULATE if command == "simulate" else report_argv(tmp_path)
    proc = start(*argv)
    try:
        kids = wait_for_workers(proc, 2)
        time.sleep(0.3)
        if group:
            os.killpg(proc.pid, signum)
        else:
            proc.send_signal(signum)
        stdout, err = proc.communicate(timeout=30)
    finally:
        stop(proc)
    assert proc.returncode == 128 + signum and "Traceback" not in err
    assert all_gone(kids), f"a worker outlived {signal.Signals(signum).name}"
    if command == "build":
        # the signal lands while the products are made (nothing changes) or, on a fast machine, once
        # the files are already moving in (the move finishes first): one of the two, each whole
        if "the move was completed" in err:
            assert err == (f"county-uppy build: interrupted while the new files were moved into {out}; the move was "
                           f"completed, so {out} holds the new build\n")
            assert state(out) == state(new)
        else:
            assert err == f"county-uppy build: interrupted; nothing in {out} was changed\n"
            assert state(out) == state(old)
        assert staging_left(out) == [] and not (out / LOCK_NAME).exists()
    elif command == "simulate":
        assert err == "county-uppy: interrupted\n" and stdout == ""
    else:
        assert "county-uppy report: interrupted; the report counts the " in err
        assert not json.loads((tmp_path / "rep" / "balance.json").read_text())["complete"]


@pytest.mark.parametrize("command", ["build", "simulate", "report"])
def test_workers_die_with_a_sigkilled_parent(tmp_path, command):
    if command == "build":
        argv = ["build", "--manifest", str(MANIFEST), "--out", str(tmp_path / "out"), "--only", "cards", "--jobs", "2"]
    else:
        argv = SIMULATE if command == "simulate" else report_argv(tmp_path)
    proc = start(*argv)
    try:
        kids = wait_for_workers(proc, 2)
        os.kill(proc.pid, signal.SIGKILL)  # the parent alone: nothing forwards it to the workers
        proc.wait(timeout=30)
        assert all_gone(kids), "a worker outlived its SIGKILLed parent"
    finally:
        stop(proc)


def test_ctrl_c_during_start_up_is_never_lost(tmp_path):
    """SIGINT at moments spread over the start-up (imports, workers starting, first games): every
    run stops promptly, with 130 and one line once the command runs. (A SIGINT in the first
    milliseconds stops the interpreter in its own initialisation, before any of this project's
    code, and CPython reports that itself; one that lands inside pydantic_core's import makes that
    Rust module panic, exit 1: stopped, not lost, but not our message.)"""
    for trial in range(12):
        proc = start(*SIMULATE)
        try:
            time.sleep(0.1 * trial)
            kids = children(proc.pid)
            os.killpg(proc.pid, signal.SIGINT)
            _, err = proc.communicate(timeout=60)
        finally:
            stop(proc)
        # stopped inside CPython's own initialisation, or inside a compiled module's import (pydantic_core
        # panics when KeyboardInterrupt lands in its initialisation): stopped, with their own message
        in_init = proc.returncode == 1 and (err.startswith("Fatal Python error: init_") or "panicked at" in err)
        assert proc.returncode in (130, -signal.SIGINT) or in_init, (trial, proc.returncode, err)
        assert all_gone(kids, within=15), (trial, [(k, alive(k)) for k in kids])
        if proc.returncode == 130:
            assert err == "county-uppy: interrupted\n", (trial, err)


# --- full disk and read-only folder, as a user that permissions apply to ---------------------------------
def _user_kwargs() -> dict:
    """subprocess arguments that run a command as a user without root's powers."""
    if os.geteuid() != 0:
        return {}
    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("running as root and there is no user 'nobody' to drop to")
    return {"user": nobody.pw_uid, "group": nobody.pw_gid, "extra_groups": []}


@pytest.fixture
def shared_dir():
    """A folder other users can reach (pytest's tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="county-uppy-faults-"))
    folder.chmod(0o777)
    yield folder
    subprocess.run(["umount", str(folder / "disk")], capture_output=True)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def as_user():
    """How to run county-uppy as a user without root's powers: (command, environment, manifest).

    Under root the user gets its own copy of the project (the package, the templates and
    cards.yaml) in a folder anyone may read, as the checkout may sit where only root may enter
    (CI clones into a private temporary folder; a checkout in /root). The Python is this one,
    or, when it lives under a folder only root may enter (a pyenv in /root), the system's
    python3 with this environment's packages on its path."""
    kw = _user_kwargs()
    if not kw:
        yield COMMAND, ENV, MANIFEST
        return
    project = Path(tempfile.mkdtemp(prefix="county-uppy-project-"))
    try:
        for name in ("generator", "templates"):
            shutil.copytree(ROOT / name, project / name, ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copy2(MANIFEST, project / "cards.yaml")
        for p in [project, *project.rglob("*")]:
            p.chmod(0o755 if p.is_dir() else 0o644)
        command, env = _unprivileged_python(kw, project)
        yield command, env, project / "cards.yaml"
    finally:
        shutil.rmtree(project, ignore_errors=True)


def _unprivileged_python(kw: dict, project: Path) -> tuple[list[str], dict]:
    import site

    packages = os.pathsep.join([str(project), *site.getsitepackages()])
    tried = []
    for python, env in ((sys.executable, {**ENV, "PYTHONPATH": str(project)}),
                        ("/usr/bin/python3", {**ENV, "PYTHONPATH": packages})):
        try:
            probe = subprocess.run([python, "-m", "generator", "--version"], capture_output=True, text=True, env=env,
                                   cwd="/", timeout=60, **kw)
        except OSError as err:
            tried.append(f"{python}: {err.strerror}")
            continue
        if probe.returncode == 0:
            return [python, "-m", "generator"], env
        tried.append(f"{python}: {probe.stderr.strip()[-160:]}")
    pytest.skip(f"the project cannot run as an unprivileged user here ({'; '.join(tried)})")


def run_as_user(as_user, argv: list[str], preexec=None) -> subprocess.CompletedProcess:
    command, env, _ = as_user
    return subprocess.run([*command, *argv], capture_output=True, text=True, env=env, cwd="/", timeout=300,
                          preexec_fn=preexec, **_user_kwargs())


def _give_away(path: Path) -> None:
    kw = _user_kwargs()
    if kw:
        for p in [path, *path.rglob("*")]:
            os.lchown(p, kw["user"], kw["group"])


def _snapshot(folder: Path) -> dict[str, bytes | None]:
    return {p.relative_to(folder).as_posix(): (p.read_bytes() if p.is_file() else None) for p in folder.rglob("*")}


def test_a_read_only_output_folder_is_a_message_and_nothing_changes(shared_dir, as_user):
    out = shared_dir / "out"
    got = subprocess.run([*COMMAND, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "deck"],
                         capture_output=True, text=True, env=ENV, timeout=120)
    assert got.returncode == 0
    _give_away(out)
    for p in [out, *out.rglob("*")]:
        p.chmod(0o555 if p.is_dir() else 0o444)
    before = _snapshot(out)
    try:
        got = run_as_user(as_user, ["build", "--manifest", str(as_user[2]), "--out", str(out), "--only", "deck,cards"])
    finally:
        out.chmod(0o755)
    assert got.returncode == 2 and got.stdout == "" and "Traceback" not in got.stderr
    assert got.stderr == f"county-uppy build: cannot write {out}: Permission denied; nothing in {out} was changed\n"
    assert _snapshot(out) == before


@pytest.mark.parametrize("disk", ["tmpfs", "file-size-limit"])
def test_a_full_disk_is_a_message_and_nothing_changes(shared_dir, as_user, disk):
    """tmpfs: a 2 MB file system (the files asked for come to about 3 MB) (needs root to mount; the build itself runs unprivileged), so the
    build meets ENOSPC. file-size-limit: RLIMIT_FSIZE on the build process, so a write past 64 KB
    fails with EFBIG, where mounting is not allowed."""
    preexec = None
    if disk == "tmpfs":
        if os.geteuid() != 0:
            pytest.skip("mounting a small tmpfs needs root")
        root = shared_dir / "disk"
        root.mkdir()
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m,mode=0777", "tmpfs", str(root)],
                                 capture_output=True, text=True)
        if mounted.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
        expected = "No space left on device"
    else:
        import resource

        root = shared_dir
        expected = "File too large"

        def preexec():
            resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))
    out = root / "out"
    got = subprocess.run([*COMMAND, "build", "--manifest", str(MANIFEST), "--out", str(out), "--only", "deck"],
                         capture_output=True, text=True, env=ENV, timeout=120)
    assert got.returncode == 0
    _give_away(out)
    before = _snapshot(out)
    got = run_as_user(as_user, ["build", "--manifest", str(as_user[2]), "--out", str(out), "--only", "deck,cards,print",
                       "--jobs", "1"], preexec=preexec)
    assert got.returncode == 2 and got.stdout == "" and "Traceback" not in got.stderr, got.stderr
    assert re.fullmatch(rf"county-uppy build: cannot write {re.escape(str(out))}/\S+: {expected}; "
                        rf"nothing in {re.escape(str(out))} was changed\n", got.stderr), got.stderr
    assert _snapshot(out) == before and staging_left(out) == []
