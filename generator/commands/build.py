"""`county-uppy build`: write every product into the output folder, all or nothing; run again
with nothing changed, say what it said and leave the folder as it is (build_memo.py).

However a build fails, the output folder is left as it was, with a one-line message:
exit 2 when a file cannot be written or another build is writing into the folder, 1 when a
product fails, 130 on Ctrl-C (143 on SIGTERM, which stops a build the same way).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import sys
from pathlib import Path

from generator.commands.build_memo import Question
from generator.commands.common import folder_problem, load_printable_deck, named_files, report
from generator.deck.problems import InputError, cut, escape, one_line, suggest
from generator.engine.limits import MAX_WORKERS
from generator import products
from generator.products.pipeline.request import LAYOUTS, BuildRequest
from generator.products.render.press import shops
from generator.progress import is_terminal


#: Leave at once when done (cli.run): the build is committed and its workers and browser stopped when run() returns.
QUICK_EXIT = True

def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("build", help="write cards, print sheets, rulebook and deck.json into output/",
                       description="Build every product of the manifest into the output folder.")
    p.add_argument("--out", default="output", metavar="DIR", help="output folder (default: output)")
    add_build_options(p)
    return p


def add_build_options(p: argparse.ArgumentParser) -> None:
    """What a build makes and how (every option of `build` but --out); `watch` takes them too."""
    p.add_argument("--edition", action="append", default=[], metavar="KEY",
                   help="also build print files for this edition, this time only (repeatable; "
                        "cards.yaml's build: editions: are built every time)")
    p.add_argument("--paper", action="append", choices=("letter", "a4"), default=[],
                   help="paper size of the print sheets (default: cards.yaml's build: papers:, else both)")
    p.add_argument("--only", action="append", default=[], metavar="PRODUCT",
                   help=f"build only these products: {', '.join(products.names())} (repeatable)")
    p.add_argument("--jobs", type=int, default=0, metavar="N", help="worker processes (default: one per core)")
    p.add_argument("--pod", action="append", choices=shops.names(), default=[], metavar="SHOP",
                   help="print shops to make files for (repeatable; default: " + ", ".join(shops.defaults()) + "): "
                        + "; ".join(f"{s.name} {s.title} ({s.path})" for s in shops.SHOPS)
                        + " (docs/printing.md, 'Print shops')")
    p.add_argument("--tts-url", default="", metavar="URL",
                   help="where Tabletop Simulator will load output/tts/*.png from (default: their file:// address)")
    p.add_argument("--duplex", choices=("long", "short"), default="long",
                   help="print sheets: the paper edge your printer flips on for double-sided printing (default: long)")
    p.add_argument("--back-offset", default="0,0", metavar="X,Y",
                   help="print sheets: shift every back X mm right and Y mm up (as seen on the back) to correct "
                        "a printer's duplex drift; read X,Y off the test page (default: 0,0)")
    p.add_argument("--gutter", type=float, default=0.0, metavar="MM",
                   help="print sheets: MM of space between neighbouring cards, with crop marks in the gutters (default: 0, butted)")
    p.add_argument("--ink-saver", action="store_true",
                   help="print sheets: light backs and light chaos interiors, to save ink on a home printer")
    p.add_argument("--layout", action="append", choices=LAYOUTS, default=[],
                   help="print sheets: duplex (3x3 cards a side on A4, 2x4 on their side on Letter, with -fronts "
                        "and -backs files for one-sided printers) or gutterfold (one-sided, four cards a sheet "
                        "beside their backs, folded along the middle); repeatable (default: duplex)")


MAX_OFFSET_MM = 10.0
MAX_GUTTER_MM = 20.0


def parse_offset(text: str) -> tuple[float, float] | str:
    """'X,Y' in mm -> (x, y); or the message for a bad value."""
    parts = text.split(",")
    try:
        if len(parts) != 2:
            raise ValueError
        x, y = (float(p) for p in parts)
    except ValueError:
        return f"--back-offset needs two numbers in mm, X,Y (such as 0.5,-1), not '{text}'"
    if not all(abs(v) <= MAX_OFFSET_MM for v in (x, y)):  # also rejects nan
        return f"--back-offset is at most {MAX_OFFSET_MM:g} mm each way, not '{text}'"
    return (x + 0.0, y + 0.0)


def tts_url_problem(url: str) -> str | None:
    """What is wrong with a --tts-url, or None: Tabletop Simulator loads the sheets from a web
    address (http, https) or a file:// one; anything else gives a deck whose faces never load."""
    from urllib.parse import urlsplit  # lazy: only for a --tts-url given

    if not url:
        return None
    try:
        parts = urlsplit(url)
    except ValueError:  # an unbalanced [ in the host
        parts = None
    if (parts is None or parts.scheme not in ("http", "https", "file") or (parts.scheme != "file" and not parts.hostname)
            or any(ch.isspace() or not ch.isprintable() for ch in url)):
        return (f"--tts-url takes the address tts/ is put at on the web (http:// or https://, or file://), "
                f"such as https://example.org/county-uppy/, not '{escape(cut(url))}'")
    return None


def build_request(args: argparse.Namespace, progress: bool = False) -> BuildRequest | str:
    """The build the options of `build` (and `watch`, which takes them all) ask for; or what is
    wrong with them, in one line. What needs the manifest to check (an edition it does not have,
    a paper the sheets do not fit) is the request's `problem_for(deck)`."""
    names = products.names()
    if any(not item.strip(", ") for item in args.only):
        return f"--only needs a product name; choose from {', '.join(names)}"
    only = tuple(dict.fromkeys(x for item in args.only for x in item.split(",") if x))
    for name in only:
        if name not in names:
            return f"unknown product '{name}'{suggest(name, names)}; choose from {', '.join(names)}"
    from generator.products.pipeline.provenance import epoch_problem  # lazy: as the request

    problem = epoch_problem()
    if problem:
        return problem
    if not 0 <= args.jobs <= MAX_WORKERS:  # each worker is a process of about 50 MiB
        return f"--jobs must be 0 (one per core) to {MAX_WORKERS}, not {args.jobs}"
    offset = parse_offset(args.back_offset)
    if isinstance(offset, str):
        return offset
    problem = tts_url_problem(args.tts_url)
    if problem:
        return problem
    if not 0 <= args.gutter <= MAX_GUTTER_MM:  # also rejects nan
        return f"--gutter must be 0..{MAX_GUTTER_MM:g} mm, not {args.gutter:g}"
    # an option whose dest is a field's name is carried as it is (tts_url, gutter, duplex, ink_saver,
    # jobs, and any option added the same way); the rest are read here
    given = {f.name: getattr(args, f.name) for f in dataclasses.fields(BuildRequest) if hasattr(args, f.name)}
    given.update(manifest=Path(args.manifest), out=Path(args.out), only=only, editions=tuple(dict.fromkeys(args.edition)),
                 papers=tuple(dict.fromkeys(args.paper)), pod=tuple(dict.fromkeys(args.pod)) or shops.defaults(),
                 back_offset=offset, layouts=tuple(dict.fromkeys(args.layout)) or LAYOUTS[:1], progress=progress)
    return BuildRequest(**given)


class _Copied:
    """A stream whose text is also copied into `copy`."""

    def __init__(self, stream, copy: io.StringIO) -> None:
        self._stream, self._copy = stream, copy

    def write(self, text: str) -> int:
        self._copy.write(text)
        return self._stream.write(text)

    def __getattr__(self, name):
        return getattr(self._stream, name)


def run(args: argparse.Namespace) -> int:
    question = Question(args)
    said = question.recall()
    if said is not None:  # nothing changed since the same build: what it said, the folder left as it is
        sys.stderr.write(said[1])
        sys.stdout.write(said[0])
        return 0
    # lazy: start-up (reportlab, Pillow, jinja2)
    from generator.products.build import InterruptedAfterCommit, build
    from generator.products.failure import classify

    checked = io.StringIO()  # the check's warnings, said again by every build
    named = named_files(Path(args.manifest))  # what the check's verdict and the build's answer depend on
    try:
        with contextlib.redirect_stderr(_Copied(sys.stderr, checked)):
            deck = load_printable_deck(args.manifest, named=named)
    except InputError as err:
        print("county-uppy: nothing was built", file=sys.stderr)
        return report(err)
    if args.out == "":
        print("county-uppy build: --out needs a folder name (use --out . for the current folder)", file=sys.stderr)
        return 2
    out = Path(args.out)
    problem = folder_problem(out)
    if problem:
        print(escape(f"county-uppy build: {problem}"), file=sys.stderr)
        return 2
    request = build_request(args, progress=is_terminal())
    problem = request if isinstance(request, str) else request.problem_for(deck)
    if problem is not None:
        print(escape(f"county-uppy build: {problem}"), file=sys.stderr)
        return 2
    unchanged = f"nothing in {out} was changed"
    answer = question.begin(named)
    built = None
    try:
        built = build(deck, request, tell=lambda line: print(escape(line), file=sys.stderr, flush=True))
    except InterruptedAfterCommit:
        print(f"county-uppy build: interrupted while the new files were moved into {out}; the move was completed, "
              f"so {out} holds the new build", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print(f"county-uppy build: interrupted; {unchanged}", file=sys.stderr)
        return 130
    except Exception as err:  # noqa: BLE001 -- every failure is told as classify() sorts it
        failure = classify(err, out)
        if failure.kind == "internal":
            from generator.commands import crash  # lazy: start-up (traceback, tempfile), only for a bug

            return crash.report(failure.error, out, None, prefix="county-uppy build", what=failure.what,
                                context=failure.context, after=f"nothing else in {out} was changed")
        for problem in failure.problems:
            print(problem, file=sys.stderr)
        tail = f"; {unchanged}" if failure.unchanged else ""
        print(escape(f"county-uppy build: {failure.message}{tail}"), file=sys.stderr)
        return failure.status
    finally:
        if answer is not None and built is None:
            answer.drop()
    done = escape(f"built {len(built.artifacts)} files into {out}/ (listed in {out}/build.json)")
    for line in built.notes:  # what changed since the last build: names and texts from both decks
        print(escape(line))
    print(done)
    if answer is not None and built.again is None:
        answer.drop()
    elif answer is not None:  # what the same build says when nothing changed
        answer.keep("".join(escape(line) + "\n" for line in built.again) + done + "\n", checked.getvalue(),
                    {a.path: a.sha256 for a in built.artifacts})
    return 0
