"""`county-uppy completion bash|zsh|tcsh`: a shell completion script for every command and option.

The script is generated from the command line's own parser by shtab, so it cannot fall behind
the commands: add an option and the next `completion` knows it.
"""

from __future__ import annotations

import argparse

SHELLS = ("bash", "zsh", "tcsh")

EPILOG = """\
install (then open a new shell):
  bash: county-uppy completion bash > ~/.local/share/bash-completion/completions/county-uppy
  zsh:  county-uppy completion zsh > ~/.zfunc/_county-uppy   (with fpath+=~/.zfunc before compinit in ~/.zshrc)
  tcsh: county-uppy completion tcsh > ~/.county-uppy.completion.csh   (and source it from ~/.tcshrc)
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("completion", help="print a shell completion script (bash, zsh or tcsh)",
                       description="Print the completion script of county-uppy for a shell: commands, options, "
                                   "their choices, and file names where a command takes a file.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("shell", choices=SHELLS, help="the shell to complete in")
    return p


def run(args: argparse.Namespace) -> int:
    # lazy: shtab is only needed when a script is asked for
    import shtab

    parser: argparse.ArgumentParser = args._parser
    for action in _actions(parser):
        if action.metavar in FILE_METAVARS:
            action.complete = shtab.FILE  # type: ignore[attr-defined]
        elif action.metavar in DIR_METAVARS:
            action.complete = shtab.DIRECTORY  # type: ignore[attr-defined]
    print(shtab.complete(parser, shell=args.shell), end="")
    return 0


#: Arguments whose metavar names a file or a folder complete file or folder names.
FILE_METAVARS = ("PATH", "FILE", "OLD", "NEW")
DIR_METAVARS = ("DIR",)


def _actions(parser: argparse.ArgumentParser):
    """Every argument of the parser and of its commands."""
    for action in parser._actions:
        yield action
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):  # aliases share a parser
                yield from _actions(sub)
