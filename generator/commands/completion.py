"""`county-uppy completion bash|zsh|tcsh`: a shell completion script for every command and option.

The script is generated from the command line's own parser by shtab, so it cannot fall behind
the commands: add an option and the next `completion` knows it. Options that take a name
complete the names: products (`--only`), papers (`--paper`), bots (`--bots`, each name of a
comma-separated list: those the command takes, the engine's for simulate and play, the ladder's,
ISMCTS too, for report and sweep) and editions (`--edition`). Editions live in the manifest, so
the script asks for them as it completes: `county-uppy completion --names editions` prints the
edition keys of `--manifest` (the one on the line being completed, else cards.yaml), one a line.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from generator.deck.shape import PAPERS
from generator import products

SHELLS = ("bash", "zsh", "tcsh")
#: What `--names` lists.
NAME_KINDS = ("editions", "products", "papers", "bots", "ladder")
#: Options (by their dest) whose values are names of a kind, and whether they take a
#: comma-separated list of them (`--only deck,cards`, `--bots greedy,random`). An option's own
#: `names` attribute, where its command sets one, is the kind instead (report's and sweep's
#: `--bots` take the ladder's bots).
NAMED_OPTIONS = {"edition": ("editions", False), "only": ("products", True), "paper": ("papers", False),
                 "bots": ("bots", True)}
#: The kinds whose names are the same wherever one completes (not the manifest's editions).
FIXED_KINDS = ("products", "papers", "bots", "ladder")

EPILOG = """\
install (then open a new shell):
  bash: county-uppy completion bash > ~/.local/share/bash-completion/completions/county-uppy
  zsh:  county-uppy completion zsh > ~/.zfunc/_county-uppy   (with fpath+=~/.zfunc before compinit in ~/.zshrc)
  tcsh: county-uppy completion tcsh > ~/.county-uppy.completion.csh   (and source it from ~/.tcshrc)
"""


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("completion", help="print a shell completion script (bash, zsh or tcsh)",
                       description="Print the completion script of county-uppy for a shell: commands, options, "
                                   "their choices (editions, products, papers, bots, shells), and file names where "
                                   "a command takes a file.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("shell", choices=SHELLS, nargs="?", help="the shell to complete in")
    p.add_argument("--names", choices=NAME_KINDS, metavar="KIND",
                   help="print the names of one kind, one a line, instead of a script: editions (of --manifest), "
                        "products, papers, bots (simulate's and play's) or ladder (report's and sweep's, ISMCTS "
                        "too); the scripts call this to complete edition keys")
    return p


def run(args: argparse.Namespace) -> int:
    if args.names:
        for name in names(args.names, args.manifest):
            print(name)
        return 0
    if not args.shell:
        print("county-uppy completion: name a shell (bash, zsh or tcsh), or --names KIND", file=sys.stderr)
        return 2
    # lazy: shtab is only needed when a script is asked for
    import shtab

    parser: argparse.ArgumentParser = args._parser
    static = {kind: names(kind, args.manifest) for kind in FIXED_KINDS}
    for action in _actions(parser):
        if action.dest in NAMED_OPTIONS and action.option_strings:
            kind, listed = NAMED_OPTIONS[action.dest]
            kind = getattr(action, "names", kind)
            action.complete = _named(kind, listed, static.get(kind))  # type: ignore[attr-defined]
        elif action.metavar in FILE_METAVARS:
            action.complete = shtab.FILE  # type: ignore[attr-defined]
        elif action.metavar in DIR_METAVARS:
            action.complete = shtab.DIRECTORY  # type: ignore[attr-defined]
    print(shtab.complete(parser, shell=args.shell), end="")
    return 0


def names(kind: str, manifest: str = "cards.yaml") -> list[str]:
    """The names of one kind: what the completion scripts offer."""
    if kind == "products":
        return list(products.names())
    if kind == "papers":
        return list(PAPERS)
    if kind == "bots":  # what simulate and play take (make_bot)
        from generator.engine.bots import BOTS  # lazy: the engine, only for a script or --names bots

        return list(BOTS)
    if kind == "ladder":  # what report and sweep take (ladder_bot)
        from generator.ai.bots import LADDER  # lazy: as above

        return list(LADDER)
    return edition_keys(manifest)


def edition_keys(manifest: str | Path) -> list[str]:
    """The edition keys the manifest's `editions:` lists, as written: the file may be half
    edited (that is when one completes), so nothing else in it is checked; an unreadable or
    malformed file has none. Only keys a shell can take as one word are listed."""
    from generator.deck.problems import InputError  # lazy: YAML reading, only for --names editions
    from generator.deck.yaml_source import read  # lazy: as above

    try:
        data = read(manifest).data
    except InputError:
        return []
    editions = data.get("editions") if isinstance(data, dict) else None
    keys = [e.get("key") for e in editions if isinstance(e, dict)] if isinstance(editions, list) else []
    return [k for k in dict.fromkeys(keys) if isinstance(k, str) and k and k.isprintable()
            and not any(c.isspace() or c in "\"'`$\\;&|<>()*?[]{}!#" for c in k)]


def _named(kind: str, listed: bool, static: list[str] | None) -> dict:
    """shtab's completer for an option taking names of `kind`: a function per shell, defined
    in the script's preamble (fixed names, or edition keys asked for as one completes)."""
    fn = f"_county_uppy_{kind}"
    if static is not None:
        words = " ".join(static)
        bash = f'{fn}() {{ _county_uppy_words "$1" {int(listed)} {words}; }}'
        zsh = (f"{fn}() {{ _values -s , {kind} {words} }}" if listed else f"{fn}() {{ compadd -- {words} }}")
        tcsh = f"({words})"
    else:  # editions: from the manifest, when asked
        bash = (f'{fn}() {{\n  local manifest=cards.yaml i\n'
                '  for ((i = 1; i < COMP_CWORD; i++)); do\n'
                '    [[ "${COMP_WORDS[i]}" == --manifest ]] && manifest="${COMP_WORDS[i+1]}"\n'
                '  done\n'
                f'  _county_uppy_words "$1" {int(listed)} '
                '$(county-uppy completion --names editions --manifest "$manifest" 2>/dev/null)\n}')
        zsh = (f'{fn}() {{\n  local manifest=cards.yaml i\n'
               '  for ((i = 2; i < CURRENT; i++)); do\n'
               '    [[ "$words[i]" == --manifest ]] && manifest="$words[i+1]"\n'
               '  done\n'
               '  local -a keys\n'
               '  keys=(${(f)"$(county-uppy completion --names editions --manifest "$manifest" 2>/dev/null)"})\n'
               '  compadd -a keys\n}')
        tcsh = "`county-uppy completion --names editions`"
    return {"bash": fn, "zsh": fn, "tcsh": tcsh, "preamble": {"bash": BASH_WORDS + "\n" + bash, "zsh": zsh}}


#: bash: offer the words after the first two arguments that start with the word being completed
#: ($1); with $2 = 1 the word is a comma-separated list and its last item is completed.
BASH_WORDS = """\
_county_uppy_words() {
  local word="$1" listed="$2" head=""
  shift 2
  if [[ "$listed" == 1 && "$word" == *,* ]]; then
    head="${word%,*},"
    word="${word##*,}"
  fi
  compgen -P "$head" -W "$*" -- "$word"
}"""

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
