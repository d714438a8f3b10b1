"""The commit protocol: how a build's staged files become OUT's, all or nothing, even when the
process is killed half-way. Every step of it is here, in the order it runs.

A build's files are complete in its staging folder (OUT/.county-uppy-staging-*/out/) before
anything in OUT changes (outputs.Staging). To commit (`commit()`), the build:

1. lists the staged files that differ from OUT's (`changed`), `last` ones (build.json) at the
   end, and the files of OUT to remove;
2. flushes the staged files to disk (power loss included: `sync_tree`), with the face cache's
   packs that the build appended to, in one wait;
3. writes OUT/.county-uppy-commit.json, the journal: the staging folder, the files to move into
   OUT and the files to remove; written to a temporary file, flushed and renamed, so it is there
   whole or not at all (`write_journal`). From here on the new build is the one OUT holds;
4. moves the files into place (one rename each, the old file kept aside under a second name)
   and the files to remove aside into the staging folder;
5. flushes OUT's folders, then deletes the journal (`finish`).

Should a rename fail in this process (a full disk), step 4 is undone (`_undo`): each file
goes back into the staging folder before the old one comes back, so a roll-forward stays
possible at every moment, and the journal goes: OUT is as it was. Should undoing fail too,
PartlyWritten is raised and the journal stays.

A build killed during step 4 (SIGKILL, power loss, the OOM killer) leaves the journal. The next
build into OUT (`county-uppy build`, `watch`), holding OUT's lock, rolls it forward before it
does anything else (`roll_forward`): every file the journal names that is still in the staging
folder is moved into place, every file to remove is removed, and it says so on one line. Each
step can be repeated, so a roll-forward that is itself killed is finished by the next one.
Staging folders that no journal names are what killed builds left before their commit: they
are removed (`remove_stale`).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
import tempfile
import threading
from pathlib import Path, PurePosixPath

from generator.files import crosses_link, real_folder, remove_tree
from generator.products.output import earlier
from generator.products.output.earlier import inside, is_listing, need

JOURNAL_NAME = ".county-uppy-commit.json"

#: Name prefix of a build's private folder inside OUT; it is gone when the build ends.
STAGING_PREFIX = ".county-uppy-staging-"
#: The staging folder's subfolder where the files OUT no longer keeps wait until the commit is complete.
ASIDE = "old"


class JournalError(Exception):
    """OUT holds a commit journal this version cannot read; nothing was changed."""


#: At most this many new files are flushed one by one; more, and the whole file system is.
FEW_FILES = 64


class PartlyWritten(Exception):
    """Moving a build into OUT failed half-way and the files already moved could not all be put back.

    The commit journal stays in OUT, so the next build into OUT finishes the move first."""


def commit(out: Path, root: Path, last: tuple[str, ...] = (), remove: tuple[str, ...] = (),
           sync: tuple[Path, ...] = ()) -> list[str]:
    """Move the staged files (`root`/out, laid out as OUT) that differ from OUT's into OUT, `last`
    ones at the end, and remove the files in `remove`; return the relative paths moved. `sync`:
    other files to flush to disk before the commit point, with the staged ones (the face cache's
    packs, which build.json's files were made from).

    `root` is the staging folder: the files OUT no longer keeps are put aside in `root`/old until
    the commit is complete. All or nothing, as the module says. An unchanged file is not
    replaced, so its modification time keeps meaning something.
    """
    staged, old = root / "out", root / ASIDE
    rels = changed(staged, out, last)  # step 1
    gone = [r for r in remove if os.path.lexists(out / r) and r not in rels
            and not crosses_link(out, (out / r).parent)]  # never removed through a link
    if not rels and not gone:
        sync_files(sync)
        return rels
    for parent in sorted({PurePosixPath(r).parent.as_posix() for r in rels} - {"."}):
        if crosses_link(out, out / parent):
            real_folder(out, parent)  # a link on the way is replaced by a folder, never followed
    sync_tree(staged, sync)  # step 2: the new files are on disk before the journal says they are the build
    journal = write_journal(out, root, rels, gone)  # step 3: the commit point
    done: list[tuple[str, str, bool]] = []
    made: list[Path] = []
    times: dict[Path, tuple[int, int]] = {}  # folders' times before a rename changed them
    touched: set[Path] = {out}
    try:  # step 4
        for rel in gone:  # aside into the staging folder, to be put back should a rename fail
            target, aside = out / rel, old / rel
            _note_times(out, target, times)
            aside.parent.mkdir(parents=True, exist_ok=True)
            os.replace(target, aside)
            done.append(("remove", rel, True))
            touched.add(target.parent)
        for rel in rels:
            target = out / rel
            _note_times(out, target, times)
            made += make_dirs(target.parent)
            kept = os.path.lexists(target)
            if kept:  # keep the old file aside (a second name for it) until every rename is done
                backup = old / rel
                backup.parent.mkdir(parents=True, exist_ok=True)
                try:
                    os.link(target, backup, follow_symlinks=False)
                except OSError:
                    shutil.copy2(target, backup, follow_symlinks=False)
            os.replace(staged / rel, target)
            done.append(("move", rel, kept))
            touched.add(target.parent)
        sync_folders(sorted(touched))  # step 5
    except BaseException as err:
        _undo(out, root, done, made, times, err)
        finish(journal)  # OUT is as it was: there is nothing to roll forward
        raise
    finish(journal)
    remove_empty_folders(out, gone)
    return rels


def changed(staged: Path, out: Path, last: tuple[str, ...] = ()) -> list[str]:
    """Relative paths of the staged files that differ from OUT's, `last` ones at the end."""
    rels = [p.relative_to(staged).as_posix() for p in staged.rglob("*") if not p.is_dir()]
    rels.sort(key=lambda r: (r in last, r))
    return [r for r in rels if crosses_link(out, out / r) or not _same_file(staged / r, out / r)]


def _same_file(new: Path, old: Path) -> bool:
    try:
        st_new = new.lstat()
        if not old.is_file() or old.stat().st_size != st_new.st_size:
            return False
        return old.read_bytes() == new.read_bytes()
    except OSError:
        return False


def sync_tree(folder: Path, also: tuple[Path, ...] = ()) -> None:
    """Flush every file written under `folder` to disk, and the files `also`, together.

    The folder holds only new and changed files (outputs.Staging stages no unchanged one): an
    fsync each when they are few (a rebuild's); for a cold build's hundreds, on Linux, one
    syncfs() of the file system, much faster than an fsync per file (though it also waits for
    whatever else is being written).
    """
    files, folders = [], [folder]
    for path in folder.rglob("*"):
        st = path.lstat()
        if stat.S_ISDIR(st.st_mode):
            folders.append(path)
        elif stat.S_ISREG(st.st_mode):
            files.append(path)
    extra = [(path, os.O_RDONLY) for path in dict.fromkeys(also)]
    if len(files) > FEW_FILES and sys.platform.startswith("linux") and _syncfs(folder):
        _fsync_all(extra)  # (on the same file system, already flushed: then each costs next to nothing)
        return
    _fsync_all([(path, os.O_RDONLY) for path in sorted(files)] + _folder_jobs(folders) + extra)


def _syncfs(folder: Path) -> bool:
    from generator.workers import c_library  # lazy: ctypes, only Linux builds call it, once per commit

    try:
        libc = c_library()
        fd = os.open(folder, os.O_RDONLY)
    except (OSError, AttributeError):
        return False
    try:
        return libc.syncfs(fd) == 0
    except AttributeError:
        return False
    finally:
        os.close(fd)


def _fsync(path: Path, flags: int = os.O_RDONLY) -> None:
    try:
        fd = os.open(path, flags)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # a folder that cannot be flushed on this system
    finally:
        os.close(fd)


def sync_files(paths) -> None:
    """Flush files' bytes to disk, all at once (see _fsync_all)."""
    _fsync_all([(path, os.O_RDONLY) for path in dict.fromkeys(paths)])


def sync_folders(folders) -> None:
    """Flush folders' entries (the renames and removals made in them) to disk."""
    _fsync_all(_folder_jobs(folders))


def _folder_jobs(folders) -> list[tuple[Path, int]]:
    return [(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)) for folder in dict.fromkeys(folders)]


def _fsync_all(jobs: list[tuple[Path, int]]) -> None:
    """fsync each (path, open flags), all at once, one thread each, and return when every one is
    done: the disk takes them together (a journaling file system commits them in one go), where
    one after the other each waits for its own flush (a rebuild's dozen files took 25-170 ms
    one by one, 6-64 ms together, on this project's machine)."""
    if len(jobs) <= 1:
        for path, flags in jobs:
            _fsync(path, flags)
        return
    threads = [threading.Thread(target=_fsync, args=job, daemon=True) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def write_journal(out: Path, staging: Path, moves: list[str], removes: list[str]) -> Path:
    """Write the journal into OUT, whole and on disk, and return its path (the commit point)."""
    path = out / JOURNAL_NAME
    data = json.dumps({"staging": staging.name, "move": moves, "remove": removes, "pid": os.getpid()},
                      indent=1).encode("utf-8")
    # created exclusively under an unpredictable name (O_CREAT|O_EXCL|O_NOFOLLOW): never through a planted link
    try:
        fd, name = tempfile.mkstemp(dir=out, prefix=JOURNAL_NAME + ".", suffix=".tmp")
    except OSError as err:
        raise OSError(err.errno, err.strerror or str(err), str(path)) from err
    tmp = Path(name)
    try:
        os.fchmod(fd, 0o644)
        try:
            os.write(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        if err.filename is None:  # os.write names no file: the message must say which one failed
            raise OSError(err.errno, err.strerror or str(err), str(path)) from err
        raise
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    sync_folders([out])
    return path


def _undo(out: Path, root: Path, done: list[tuple[str, str, bool]], made: list[Path],
          times: dict[Path, tuple[int, int]], err: BaseException) -> None:
    """Put OUT back as it was. Each step keeps the journal's roll-forward possible: a new file
    goes back into the staging folder before the old one comes back."""
    failed: list[str] = []
    for action, rel, kept in reversed(done):
        target = out / rel
        try:
            if action == "remove":
                os.replace(root / ASIDE / rel, target)
                continue
            os.replace(target, root / "out" / rel)
            if kept:
                os.replace(root / ASIDE / rel, target)
        except OSError:
            failed.append(str(target))
    remove_dirs(made)
    for folder, t in times.items():
        set_times(folder, t)
    if failed:
        raise PartlyWritten(f"{len(failed)} of the files it replaced could not be put back (one is {failed[0]}); "
                            f"the next build into {out} finishes the move") from err


def finish(path: Path) -> None:
    """Delete the journal once the commit is complete (and on disk)."""
    path.unlink(missing_ok=True)
    sync_folders([path.parent])


def remove_empty_folders(out: Path, removed: list[str]) -> None:
    """Remove the folders under OUT that removing these files left empty (never OUT itself)."""
    for rel in removed:
        folder = (out / rel).parent
        while folder != out and folder.is_relative_to(out):
            try:
                folder.rmdir()
            except OSError:
                break
            folder = folder.parent


# --- folders a commit creates, and their times ---------------------------------------------------

def make_dirs(folder: Path) -> list[Path]:
    """Create `folder` and its missing parents; return the folders created, outermost first."""
    missing: list[Path] = []
    p = folder
    while not os.path.lexists(p):
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    made: list[Path] = []
    try:
        for d in reversed(missing):
            try:
                os.mkdir(d)
            except FileExistsError:
                if not d.is_dir():
                    raise
                continue
            made.append(d)
    except BaseException:
        remove_dirs(made)
        raise
    return made


def remove_dirs(made: list[Path]) -> None:
    """Remove folders `make_dirs` created, innermost first, where they are still empty."""
    for d in reversed(made):
        try:
            os.rmdir(d)
        except OSError:
            pass


def times_of(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_atime_ns, st.st_mtime_ns


def set_times(path: Path, times: tuple[int, int]) -> None:
    try:
        os.utime(path, ns=times)
    except OSError:
        pass


def _note_times(out: Path, target: Path, times: dict[Path, tuple[int, int]]) -> None:
    for folder in (target.parent, *target.parent.parents):
        if folder not in times and (t := times_of(folder)) is not None:
            times[folder] = t
        if folder == out:
            break


# --- after a killed build -------------------------------------------------------------------------


def _checked(data: object, out: Path) -> tuple[str, list[str], list[str]]:
    """The journal's staging folder, moves and removes, each checked; earlier.Unusable if not as
    a build writes it (a path outside OUT, a staging folder that is a link, too many entries)."""
    need(isinstance(data, dict), "it is not a JSON object")
    assert isinstance(data, dict)
    staging, moves, removes = data.get("staging"), data.get("move"), data.get("remove")
    need(isinstance(staging, str) and staging.startswith(STAGING_PREFIX) and inside(staging) and "/" not in staging,
         "it names no staging folder")
    for name, rels in (("move", moves), ("remove", removes)):
        need(is_listing(rels) and all(inside(r) for r in rels), f"its '{name}' is not a list of paths inside the folder")
    need(not (out / staging).is_symlink(), "its staging folder is a symlink")
    return staging, moves, removes  # type: ignore[return-value]


def _listed(out: Path, root: Path, moves: list[str], removes: list[str]) -> None:
    """Check a journal against the build's own listing: each file to move is one the interrupted
    build's build.json lists (or build.json itself), each file to remove one that the build before
    it listed and it no longer does; earlier.Unusable naming the first other one. So a journal
    naming a file of the designer's in OUT (notes.txt, games/g.json) moves and removes nothing.

    The interrupted build's listing is its staged build.json (moved last), or OUT's once that
    was moved; the one before is then in the staging folder's `old`, else still OUT's."""
    from generator.products.output.listing import BUILD_JSON  # lazy: only a roll-forward reads listings
    from generator.products.output.outputs import KINDS  # lazy: as the listing above

    def paths(where: Path) -> set[str]:
        record = earlier.read_json(where)
        return set() if record is None else {e["path"] for e in earlier.listing(record, BUILD_JSON, KINDS)}

    staged = root / "out" / BUILD_JSON
    if os.path.lexists(staged):
        new, old = paths(staged), paths(out / BUILD_JSON)
    else:
        new, old = paths(out / BUILD_JSON), paths(root / ASIDE / BUILD_JSON)
    need(bool(new), "the build it names lists no files")
    for rel in moves:
        need(rel in new or rel == BUILD_JSON, f"it would move {rel!r}, which the build's build.json does not list")
    for rel in removes:
        need(rel in old and rel not in new, f"it would remove {rel!r}, which no earlier build.json lists as the "
             "build's own")


def roll_forward(out: Path) -> str | None:
    """Finish a commit that was cut short, if OUT holds a journal; return the line to tell the user.

    Call with OUT's lock held, before anything else touches OUT. The journal is read as
    untrusted (earlier.py) and checked against the build's own listing (_listed): one that is not
    as a build writes it, or names a file no build.json lists, is removed with a line of warning,
    and the build then builds everything anew. Nothing is moved or removed through a
    link: a linked folder on a target's way is replaced by a real one, a source reached through
    a link is left, and a file to remove behind a link stays.
    """
    path = out / JOURNAL_NAME
    try:
        data = earlier.read_json(path)
        if data is None:
            return None
        staging, moves, removes = _checked(data, out)
        _listed(out, out / staging, moves, removes)
    except earlier.Unusable as why:
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        return (f"warning: {path} is not as a build writes it ({why}); it was removed and everything is "
                "built anew")
    root = out / staging
    folders = {out}
    moved = removed = 0
    for rel in removes:
        target = out / rel
        if not crosses_link(out, target.parent) and os.path.lexists(target) and not target.is_dir():
            target.unlink()
            removed += 1
            folders.add(target.parent)
    for rel in moves:
        source, target = root / "out" / rel, out / rel
        if not crosses_link(root, source) and os.path.lexists(source):
            parent = PurePosixPath(rel).parent
            if str(parent) != ".":
                real_folder(out, str(parent))  # a link planted on the way is replaced, not followed
            os.replace(source, target)
            moved += 1
            folders.add(target.parent)
    sync_folders(sorted(folders))
    finish(path)
    remove_tree(root)
    pid = data.get("pid")
    by = f" (process {pid})" if isinstance(pid, int) else ""
    return (f"county-uppy: finished moving an interrupted build{by} into {out}: "
            f"{moved} more file{'s' * (moved != 1)} moved into place, {removed} removed")


def remove_stale(out: Path, keep: Path | None = None) -> list[Path]:
    """Remove staging folders (and a journal's temporary file) that killed builds left in OUT.

    Call with OUT's lock held and after roll_forward(): no other build is running, and no
    journal names them.
    """
    gone = []
    try:
        entries = list(os.scandir(out))
    except OSError:
        return gone
    for entry in entries:
        path = Path(entry.path)
        if entry.name.startswith(STAGING_PREFIX) and path != keep:
            if entry.is_symlink():  # not a folder a build made: the link goes, never what it leads to
                path.unlink(missing_ok=True)
            else:
                remove_tree(path)
            gone.append(path)
        elif entry.name.startswith(JOURNAL_NAME + ".") and entry.name.endswith(".tmp"):
            path.unlink(missing_ok=True)
            gone.append(path)
    return gone
