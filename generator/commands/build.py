"""`county-uppy build`: write every product into the output folder."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from generator.build import PRODUCTS, BuildContext, build
from generator.problems import InputError
from generator.commands.common import load_deck, report


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
        deck = load_deck(args.manifest)
    except InputError as err:
        print("county-uppy: nothing was built", file=sys.stderr)
        return report(err)
    editions = {e.key for e in deck.editions}
    for key in args.edition:
        if key not in editions:
            from generator.problems import suggest
            print(f"county-uppy build: unknown edition '{key}'{suggest(key, editions)}; choose from {', '.join(sorted(editions))}", file=sys.stderr)
            return 2
    only = tuple(dict.fromkeys(x for item in args.only for x in item.split(",") if x))
    for name in only:
        if name not in PRODUCTS:
            from generator.problems import suggest
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
                       args.jobs, progress=sys.stderr.isatty(), pod=tuple(dict.fromkeys(args.pod)) or ("tgc", "mpc", "dtc"),
                       tts_url=args.tts_url)
    try:
        artifacts = build(ctx, only)
    except OSError as err:
        where = f" {err.filename}" if err.filename else ""
        print(f"county-uppy build: cannot write{where}: {err.strerror or err}; files built before are kept",
              file=sys.stderr)
        return 2
    for line in ctx.notes:
        print(line)
    print(f"built {len(artifacts)} files into {out}/ (listed in {out}/build.json)")
    return 0
