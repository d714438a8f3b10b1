"""Command-line front: `county-uppy COMMAND ...`. Thin: each command lives in generator/commands/."""

from __future__ import annotations

import argparse
import importlib
import sys

from generator import __version__

#: Command modules under generator/commands/, in the order `--help` lists them.
COMMANDS = ("validate", "build", "schema", "scenario", "replay", "simulate", "report", "play")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="county-uppy",
        description="Turn cards.yaml into County Uppy's cards, print sheets, rulebook and rules engine.",
    )
    parser.add_argument("--version", action="version", version=f"county-uppy {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        module = importlib.import_module(f"generator.commands.{name}")
        cmd = module.add_parser(sub)
        cmd.add_argument("--manifest", default="cards.yaml", metavar="PATH", help="the card manifest (default: cards.yaml)")
        cmd.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help (0) or bad usage (2)
        return int(exc.code or 0)
    try:
        return int(args._run(args))
    except KeyboardInterrupt:
        print("county-uppy: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
