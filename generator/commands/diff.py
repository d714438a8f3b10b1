"""`county-uppy diff OLD NEW [--json]`: what a manifest change does to the deck.

OLD and NEW are manifest paths, or `git:REV` / `git:REV:PATH` for a manifest as committed at
REV (`git:HEAD` reads --manifest as committed), so `county-uppy diff git:HEAD cards.yaml`
reviews a tweak before it is committed. Exit status as diff(1): 0 the decks are the same,
1 they differ, 2 trouble (an unreadable or invalid manifest, a git error).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from generator.deck.problems import InputError, Problem, escape, escape_json

GIT_PREFIX = "git:"
#: How long `git cat-file` may take before the command gives up (seconds).
GIT_TIMEOUT = 30


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("diff", help="compare the decks of two manifests (paths or git:REV[:PATH])",
                       description="Compare the decks two manifests make: cards added, removed and changed by code, "
                                   "per-edition counts and game parameters. OLD and NEW are paths, or git:REV "
                                   "(the --manifest file as committed at REV) or git:REV:PATH. "
                                   "Exit 0 same, 1 different, 2 trouble.")
    p.add_argument("old", metavar="OLD", help="the manifest before: a path, git:REV or git:REV:PATH")
    p.add_argument("new", metavar="NEW", help="the manifest after: a path, git:REV or git:REV:PATH")
    p.add_argument("--json", action="store_true", help="print the comparison as JSON (the shape of changes.json)")
    return p


def run(args: argparse.Namespace) -> int:
    # lazy: loaded when this command runs, not whenever cli builds every command's parser
    from generator.deck.compare import compare, summary
    from generator.products.deck_json import deck_document

    docs = []
    for spec in (args.old, args.new):
        try:
            deck, warnings = _load(spec, args.manifest)
        except InputError as err:
            for problem in err.problems:
                print(problem, file=sys.stderr)
            print(escape(f"county-uppy diff: nothing compared ({spec} could not be read as a manifest)"), file=sys.stderr)
            return 2
        for problem in warnings:  # a missed `expect` is what a diff is there to show, not a reason to stop
            print(problem, file=sys.stderr)
        docs.append(deck_document(deck))  # deck.json's shape, as a build compares it
    diff = compare(docs[0], docs[1])
    # Paths, names and texts come from the command line and the manifests: nothing reaches the
    # terminal raw (the JSON's strings keep their exact values, escaped the JSON way).
    if args.json:
        print(escape_json(json.dumps({"old": args.old, "new": args.new, **diff}, indent=2, ensure_ascii=False)))
    else:
        print(f"--- {escape(args.old)}\n+++ {escape(args.new)}")
        for line in summary(diff):
            print(escape(line))
    return 0 if diff["same"] else 1


def _load(spec: str, manifest: str):
    """The deck of one side, and the problems that did not stop it being built (missed `expect`)."""
    from generator.deck.manifest import load, load_bytes  # lazy: YAML and pydantic, only when the command runs

    try:
        if spec.startswith(GIT_PREFIX):
            raw, name, folder = _git_show(spec, manifest)
            return load_bytes(raw, name, folder), []
        return load(spec), []
    except InputError as err:
        if err.deck is not None:
            return err.deck, err.problems
        raise


def _git_show(spec: str, manifest: str) -> tuple[bytes, str, str]:
    """The bytes of the manifest `spec` names as committed, the name problems give it, and the
    folder of PATH on disk, where the pictures and fonts it names are read (as they are now).

    `git:REV` is --manifest at REV; `git:REV:PATH` is PATH at REV. PATH is relative to the
    current folder (or absolute), as it would be for a file on disk.
    """
    rev, _, path = spec[len(GIT_PREFIX):].partition(":")
    path = path or manifest
    name = f"{GIT_PREFIX}{rev}:{path}"
    if not rev or rev.startswith("-") or not path:
        message = "write git:REV or git:REV:PATH, e.g. git:HEAD or git:HEAD~1:cards.yaml"
        raise InputError([Problem(spec, 0, 0, message)], status=2)
    folder, file = os.path.split(path)
    folder = folder or "."
    if not os.path.isdir(folder):
        raise InputError([Problem(name, 0, 0, f"no folder {folder} here to find its git repository from")], status=2)
    from generator.deck.yaml_source import MAX_FILE_BYTES  # lazy: as load above

    obj = f"{rev}:./{file}"
    size = _git(["git", "-C", folder, "cat-file", "-s", obj], name, rev, path, 64)
    try:
        n = int(size.decode("ascii").strip())
    except ValueError:
        raise InputError([Problem(name, 0, 0, "git did not say how large the file is")], status=2) from None
    if n > MAX_FILE_BYTES:
        message = f"is {n:,} bytes; a manifest may be at most {MAX_FILE_BYTES:,} bytes ({MAX_FILE_BYTES // 1024} KiB)"
        raise InputError([Problem(name, 1, 1, message)], status=1)
    return _git(["git", "-C", folder, "cat-file", "blob", obj], name, rev, path, MAX_FILE_BYTES), name, os.path.abspath(folder)


def _git(command: list[str], name: str, rev: str, path: str, limit: int) -> bytes:
    """What git prints, read with a bound: at most `limit` bytes of it, else InputError (status 2)."""
    import subprocess  # lazy: start-up (every command's parser is built; only git: specs run git)
    import tempfile  # lazy: as subprocess

    try:
        with tempfile.TemporaryFile() as err:  # git's complaints, kept off the pipe we read
            with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err, stdin=subprocess.DEVNULL) as proc:
                try:
                    out = _read_bounded(proc, limit, name)
                    proc.wait(timeout=GIT_TIMEOUT)
                except BaseException:
                    proc.kill()
                    raise
            err.seek(0)
            stderr = err.read(64 * 1024)
    except FileNotFoundError:
        raise InputError([Problem(name, 0, 0, "git is not installed (or not on PATH)")], status=2) from None
    except subprocess.TimeoutExpired:
        raise InputError([Problem(name, 0, 0, f"git did not answer within {GIT_TIMEOUT} s")], status=2) from None
    if proc.returncode != 0:
        raise InputError([Problem(name, 0, 0, _git_error(stderr, rev, path))], status=2)
    return out


def _read_bounded(proc, limit: int, name: str) -> bytes:
    """Read git's output until it ends, within GIT_TIMEOUT seconds and `limit` bytes."""
    import selectors  # lazy: as subprocess
    import time  # lazy: as subprocess

    deadline = time.monotonic() + GIT_TIMEOUT
    chunks, held = [], 0
    fd = proc.stdout.fileno()
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not sel.select(left):
                raise InputError([Problem(name, 0, 0, f"git did not answer within {GIT_TIMEOUT} s")], status=2)
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            held += len(chunk)
            if held > limit:
                message = f"is more than {limit:,} bytes as committed; a manifest may be at most {limit:,} bytes"
                raise InputError([Problem(name, 1, 1, message)], status=1)


def _git_error(stderr: bytes, rev: str, path: str) -> str:
    text = stderr.decode("utf-8", "replace").strip()
    first = next((ln for ln in text.splitlines() if ln.strip()), "git failed")
    first = first.removeprefix("fatal: ").rstrip(".")
    if "not a git repository" in first:
        return f"{Path(path).parent or '.'} is not inside a git repository"
    if "does not exist in" in first or "exists on disk, but not in" in first:
        return f"{path} is not in the commit {rev}"
    if "invalid object name" in first or "Not a valid object name" in first or "bad revision" in first:
        return f"no commit {rev!r} in this repository"
    return first
