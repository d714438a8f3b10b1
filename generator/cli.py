"""Command-line front: `county-uppy COMMAND ...`. Thin: each command lives in generator/commands/."""

from __future__ import annotations

import argparse
import errno
import gc
import importlib
import os
import signal
import sys
from typing import NoReturn

from generator import __version__
from generator.commands.common import EchoGuard
from generator.workers import interrupted_status, stop_signals, stopped_by

#: Command modules under generator/commands/, in the order `--help` lists them.
COMMANDS = ("validate", "build", "watch", "diff", "schema", "scenario", "replay", "simulate", "report", "sweep", "play",
            "completion")


#: Commands that only read the deck (what they write goes to the current folder or a folder named):
#: with no --manifest and no cards.yaml here, they play the deck the package ships, as the OpenSpiel
#: and PettingZoo games do, so an install plays from any folder. The others make or check files of
#: a deck of one's own, and still ask for it.
PLAYS_THE_SHIPPED_DECK = frozenset({"simulate", "report", "sweep", "play"})


def _default_manifest() -> str:
    """cards.yaml in the current folder, else the shipped deck, said in one line on standard error."""
    from generator.resources import default_manifest  # lazy: only when no --manifest is given

    try:
        path = str(default_manifest())
    except FileNotFoundError:  # an install without its deck: the command says cards.yaml is missing
        return "cards.yaml"
    if path != "cards.yaml":
        print(f"county-uppy: no cards.yaml in this folder: playing the shipped deck ({path})", file=sys.stderr)
    return path


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with `only`, the top level and that one command (the others'
    modules are then not even imported: see `_command_of`)."""
    parser = argparse.ArgumentParser(
        prog="county-uppy",
        description="Turn cards.yaml into County Uppy's cards, print sheets, rulebook and rules engine.",
    )
    parser.add_argument("--version", action="version", version=f"county-uppy {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS if only is None else (only,):
        module = importlib.import_module(f"generator.commands.{name}")
        cmd = module.add_parser(sub)
        if name in PLAYS_THE_SHIPPED_DECK:
            cmd.add_argument("--manifest", default=None, metavar="PATH",
                             help="the card manifest (default: cards.yaml, else the deck the package ships)")
        else:
            cmd.add_argument("--manifest", default="cards.yaml", metavar="PATH", help="the card manifest (default: cards.yaml)")
        cmd.set_defaults(_run=module.run, _parser=parser)  # _parser: the whole command line, for `completion`
    return parser


def _command_of(argv: list[str] | None) -> str | None:
    """The command a command line runs, when that command's parser alone parses it as the whole
    command line would: its first word is the command (the top level's own options, --help and
    --version, stop before any command). Otherwise (help, a typo, no command at all, and
    `completion`, which prints the whole command line) every command's parser is built."""
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] in COMMANDS and args[0] != "completion":
        return args[0]
    return None


class OutputError(Exception):
    """Standard output could not be written (a full disk, a closed pipe): `error` is the OSError."""

    def __init__(self, error: OSError):
        super().__init__(str(error))
        self.error = error


class _CheckedOutput:
    """Standard output, with its write errors raised as OutputError.

    Commands print with print() and rich, and catch OSError for the files they write; a
    failure to write standard output itself is told apart this way and ends the command
    with one line on stderr.
    """

    def __init__(self, stream):
        self._stream = stream

    def write(self, text):
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise OutputError(exc) from None

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        try:
            self._stream.flush()
        except OSError as exc:
            raise OutputError(exc) from None

    def __getattr__(self, name):
        return getattr(self._stream, name)


def run() -> NoReturn:
    """The `county-uppy` program: main() on the process's arguments, then exit with its status. A
    command whose work is all done and on disk when it returns (its module sets QUICK_EXIT: build,
    validate) leaves at once once its output is flushed, without the interpreter's tidying up
    (about 0.1 s after a build); every other command exits as Python does. Such a command also
    runs without Python's cycle collector (see _main): what it leaves unreferenced in cycles is
    freed as its process ends, moments later."""
    status = main(new_process=True)
    if _quick_exit(_command_of(None)):
        for stream in (sys.stdout, sys.stderr):
            try:
                if stream is not None:
                    stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(status)
    sys.exit(status)


def _quick_exit(command: str | None) -> bool:
    """Whether `command`'s module, once imported, says its process ends as it returns (QUICK_EXIT)."""
    module = sys.modules.get(f"generator.commands.{command}") if command else None
    return bool(getattr(module, "QUICK_EXIT", False))


def main(argv: list[str] | None = None, new_process: bool = False) -> int:
    """Run one command; SIGTERM and SIGHUP stop it as Ctrl-C does (exit 143 and 129 instead of 130).
    `new_process`: the process is the command's own and ends with it (run())."""
    with stop_signals():
        status = _main(argv, new_process)
        if status == 130:
            status = interrupted_status()
        return status


def _main(argv: list[str] | None, new_process: bool = False) -> int:
    stdout, stderr = sys.stdout, sys.stderr
    if stdout is not None:
        sys.stdout = _CheckedOutput(stdout)
    guard = EchoGuard(stderr, sys.argv[1:] if argv is None else argv)
    if stderr is not None and guard.needed:  # an argument too long or with a control character in it
        sys.stderr = guard
    try:
        try:
            parser = build_parser(_command_of(argv))
            if new_process and _quick_exit(_command_of(argv)):
                # a build's process ends with its build: the cycle collector's passes over its
                # objects (0.04-0.06 s of a build's CPU, one full pass over every module's objects
                # among them) would free nothing that the exit does not; the peak memory measured
                # the same without them (benchmarks/bench_build.py, the shipped and the largest manifest)
                gc.disable()
            try:
                args = parser.parse_args(argv)
            except SystemExit as exc:  # argparse: --help (0) or bad usage (2)
                status = int(exc.code or 0)
            else:
                try:
                    if getattr(args, "manifest", "") is None:
                        args.manifest = _default_manifest()
                    status = int(args._run(args))
                except (OutputError, BrokenPipeError):
                    raise
                except Exception as exc:  # noqa: BLE001 -- a bug: one line, the traceback in a file, exit 3
                    if _caused_by_interrupt(exc):
                        raise KeyboardInterrupt from exc
                    if isinstance(exc, OSError) and _hung_up():
                        status = 130  # the terminal closed: what failed was writing to it (main() makes it 129)
                    else:
                        from generator.commands import crash  # lazy: start-up (traceback, tempfile), only for a bug

                        status = crash.report(exc, getattr(args, "out", None), argv)
            sys.stdout.flush()
            return status
        finally:
            sys.stdout, sys.stderr = stdout, stderr
    except KeyboardInterrupt:
        _tell("county-uppy: interrupted")
        return 130
    except OutputError as exc:
        _silence(stdout)
        if _hung_up():
            return 130  # the terminal closed under a command still writing to it
        if exc.error.errno == errno.EPIPE:  # the reader stopped reading (`| head -1`): not an error
            return 0
        _tell(f"county-uppy: cannot write to standard output: {exc.error.strerror or exc.error}")
        return 1
    except BrokenPipeError:  # stderr's reader is gone
        return 0


def _caused_by_interrupt(exc: BaseException) -> bool:
    """Whether Ctrl-C (or SIGTERM, SIGHUP) is what raised `exc`: Python wraps a KeyboardInterrupt
    that lands inside some of its own machinery (a class's `__set_name__` while a module is
    imported: RuntimeError) in another exception."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def _hung_up() -> bool:
    """Did SIGHUP (a closed terminal) stop this command?"""
    return getattr(signal, "SIGHUP", None) is not None and stopped_by() == signal.SIGHUP


def _tell(message: str) -> None:
    try:
        print(message, file=sys.stderr)
    except (OSError, ValueError, AttributeError):
        pass


def _silence(stream) -> None:
    """After standard output failed: point it at the null device, so that the text still in its
    buffer does not fail again (and print a warning) when Python exits."""
    if stream is None or stream is not sys.__stdout__:
        return  # not the process's own stdout (a test's capture): nothing is flushed at exit
    try:
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass
