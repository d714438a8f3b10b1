"""`county-uppy schema [--write]`: the JSON Schema of cards.yaml, for editors' autocomplete."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from generator.deck.problems import escape


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("schema", help="print (or write) the JSON Schema of cards.yaml",
                       description="Print the JSON Schema that cards.yaml's first line points editors at.")
    p.add_argument("--write", action="store_true", help="write it to cards.schema.json beside the manifest")
    return p


def run(args: argparse.Namespace) -> int:
    from generator.deck.schema import json_schema  # lazy: start-up (pydantic)
    from generator.products.output.outputs import write_atomic  # lazy: start-up

    text = json_schema()
    if args.write:
        target = Path(args.manifest).parent / "cards.schema.json"
        try:
            write_atomic(target, text.encode("utf-8"))
        except OSError as exc:
            print(escape(f"county-uppy schema: cannot write {target}: {exc.strerror or exc}"), file=sys.stderr)
            return 2
        print(escape(f"wrote {target}"))
    else:
        print(text, end="")
    return 0
