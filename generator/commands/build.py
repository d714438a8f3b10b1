"""`county-uppy build`: write every product into the output folder, all or nothing.

However a build fails, the output folder is left as it was, with a one-line message:
exit 2 when a file cannot be written, 1 when a product fails, 130 on Ctrl-C.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from generator.commands.common import load_printable_deck, report
from generator.deck.problems import InputError
from generator.products.build import PRODUCTS, BuildContext, ProductFailed, build
from generator.products.outputs import PartlyWritten
from generator.progress import is_terminal


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("build", help="write cards, print sheets, rulebook and deck.json into output/",
                       description="Build every product of the manifest into the output folder.")
    p.add_argument("--out", default="output", metavar="DIR", help="output folder (default: output)")
    p.add_argument("--edition", action="append", default=[], metavar="KEY", help="also build print files for this edition (repeatable)")
    p.add_argument("--paper", action="append", choices=("letter", "a4"), default=[], help="paper size of the print sheets (default: both)")
    p.add_argument("--only", action="append", default=[], metavar="PRODUCT", help=f"build only these products: {', '.join(PRODUCTS)} (repeatable)")
    p.add_argument("--jobs", type=int, default=0, metavar="N", help="worker processes (default: one per core)")
    p.add_argument("--pod", action="append", choices=("tgc", "mpc", "dtc"), default=[],
                   help="print-on-demand profiles (repeatable; default all): tgc The Game Crafter 825x1125 "
                        "(output/cards), mpc MakePlayingCards 822x1122 (output/pod/mpc), dtc DriveThruCards-style "
                        "PDF, one card per page (output/pod)")
    p.add_argument("--tts-url", default="", metavar="URL",
                   help="where Tabletop Simulator will load output/tts/*.png from (default: their file:// address)")
    return p


def run(args: argparse.Namespace) -> int:
    try:
        deck = load_printable_deck(args.manifest)
    except InputError as err:
        print("county-uppy: nothing was built", file=sys.stderr)
        return report(err)
    editions = {e.key for e in deck.editions}
    for key in args.edition:
        if key not in editions:
            from generator.deck.problems import suggest
            print(f"county-uppy build: unknown edition '{key}'{suggest(key, editions)}; choose from {', '.join(sorted(editions))}", file=sys.stderr)
            return 2
    if args.out == "":
        print("county-uppy build: --out needs a folder name (use --out . for the current folder)", file=sys.stderr)
        return 2
    if any(not item.strip(", ") for item in args.only):
        print(f"county-uppy build: --only needs a product name; choose from {', '.join(PRODUCTS)}", file=sys.stderr)
        return 2
    only = tuple(dict.fromkeys(x for item in args.only for x in item.split(",") if x))
    for name in only:
        if name not in PRODUCTS:
            from generator.deck.problems import suggest
            print(f"county-uppy build: unknown product '{name}'{suggest(name, PRODUCTS)}; choose from {', '.join(PRODUCTS)}", file=sys.stderr)
            return 2
    if args.jobs < 0:
        print("county-uppy build: --jobs must be 0 (one per core) or more", file=sys.stderr)
        return 2
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        print(f"county-uppy build: {out} exists and is not a folder", file=sys.stderr)
        return 2
    ctx = BuildContext(deck, out, Path(args.manifest), tuple(args.edition), tuple(args.paper) or ("letter", "a4"),
                       args.jobs, progress=is_terminal(), pod=tuple(dict.fromkeys(args.pod)) or ("tgc", "mpc", "dtc"),
                       tts_url=args.tts_url)
    unchanged = f"nothing in {out} was changed"
    try:
        artifacts = build(ctx, only)
    except KeyboardInterrupt:
        print(f"county-uppy build: interrupted; {unchanged}", file=sys.stderr)
        return 130
    except PartlyWritten as err:
        print(f"county-uppy build: moving the new files into {out} failed half-way and {_one_line(err)}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"county-uppy build: {_cannot_write(err)}; {unchanged}", file=sys.stderr)
        return 2
    except ProductFailed as err:
        cause = err.error
        if isinstance(cause, OSError) and _inside(cause.filename, out):
            print(f"county-uppy build: {_cannot_write(cause)}; {unchanged}", file=sys.stderr)
            return 2
        if isinstance(cause, InputError):
            for problem in cause.problems:
                print(problem, file=sys.stderr)
            print(f"county-uppy build: {err.product} failed; {unchanged}", file=sys.stderr)
            return cause.status
        print(f"county-uppy build: {err.product} failed: {type(cause).__name__}: {_one_line(cause)}; {unchanged}",
              file=sys.stderr)
        return 1
    for line in ctx.notes:
        print(line)
    print(f"built {len(artifacts)} files into {out}/ (listed in {out}/build.json)")
    return 0


def _one_line(err: BaseException, limit: int = 300) -> str:
    """An exception's message on one line, shortened to `limit` characters."""
    text = " ".join(str(err).split()) or "(no message)"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _cannot_write(err: OSError) -> str:
    name = err.filename2 if err.filename2 is not None else err.filename
    where = f" {os.fsdecode(name)}" if name is not None else ""
    return f"cannot write{where}: {err.strerror or _one_line(err)}"


def _inside(name: object, folder: Path) -> bool:
    if name is None:
        return True  # a failed write that names no file
    try:
        return Path(os.path.abspath(os.fsdecode(name))).is_relative_to(os.path.abspath(folder))
    except (TypeError, ValueError):
        return False
