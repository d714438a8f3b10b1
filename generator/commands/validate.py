"""`county-uppy validate [--json]`: check the manifest and show every edition's card counts."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from generator.commands import validate_memo
from generator.commands.common import load_printable_deck, named_files, report
from generator.deck.problems import InputError, escape

if TYPE_CHECKING:
    from generator.deck.model import Deck


#: Leave at once when done (cli.run): nothing runs on when run() returns.
QUICK_EXIT = True

def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("validate", help="check cards.yaml and print the card counts of every edition",
                       description="Check the manifest; print playing cards per edition and printed cards per set.")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    return p


KIND_LABELS = {"number": "numbers", "dual": "duals", "wild": "wilds", "reference": "quick reference", "blank": "blank"}


#: The commands that play a deck with the rules engine, and so refuse an edition holding a wild
#: the players resolve by its text (`rule: table`).
ENGINE_COMMANDS = ("simulate", "report", "sweep", "play", "play --web", "the OpenSpiel and PettingZoo adapters")


def summary(deck: Deck) -> dict:
    out = {
        "ok": True,
        "printed": deck.printed,
        "sets": deck.set_totals(),
        "editions": {e.key: deck.edition_count(e.key) for e in deck.editions},
        "errors": [],
        "game": game(deck),
    }
    tables = table_rules(deck)
    if tables:  # only a deck with such a wild has the key
        out["table_rules"] = tables
    return out


def table_rules(deck: Deck) -> list[dict]:
    """The wilds the players resolve by their text (`rule: table`): where each stands, and the
    editions the engine cannot play because they hold it."""
    out = []
    for c in deck.cards:
        if c.effect is not None and not c.effect.playable:
            editions = [e.key for e in deck.editions if any(x.code == c.code for x in deck.edition_cards(e.key))]
            out.append({"code": c.code, "at": str(c.effect.origin.at) if c.effect.origin else "", "editions": editions})
    return out


def table_rule_lines(deck: Deck) -> list[str]:
    """What validate says of each `rule: table` wild: it prints, and which commands cannot play it."""
    lines = []
    for t in table_rules(deck):
        where = f"{t['at']}: " if t["at"] else ""
        editions = ", ".join(t["editions"]) or "no edition"
        lines.append(f"{where}note: wild '{escape(t['code'])}' has 'rule: table': it prints on every product, and "
                     f"the players resolve it by its text; {', '.join(ENGINE_COMMANDS)} cannot play an edition "
                     f"holding it ({editions})")
    return lines


def game(deck: Deck) -> dict:
    """The game the manifest sets up, with the rule options' defaults (the engine's, docs/rules.md)."""
    from generator.engine.options import Options  # lazy: the engine, only when validate runs

    p = deck.params
    return {
        "name": p.name,
        "target": p.target,
        "hand_size": p.hand_size,
        "players": {"min": p.min_players, "max": p.max_players},
        "sets": [{"key": s.key, "name": s.name, "interior": s.interior} for s in deck.sets],
        "options": Options.for_deck(deck).to_dict(changed_only=False),
    }


def header(deck: Deck) -> str:
    """The game in three lines above the counts, so a tweaked parameter (or a typo in one) shows."""
    g = game(deck)
    players = g["players"]
    sets = ", ".join(f"{escape(s['name'])} ({s['interior']} interior)" for s in g["sets"])
    options = ", ".join(f"{k}={json.dumps(v)}" for k, v in g["options"].items())
    return "\n".join([
        f"{escape(g['name'])}: target {g['target']}, hand size {g['hand_size']}, players {players['min']}-{players['max']}",
        f"sets: {sets}",
        f"rule options (defaults): {options}",
        "",
    ])


def table(deck: Deck) -> str:
    from generator.deck.model import BREAKDOWN_GROUPS  # lazy: start-up (loaded with the deck by then anyway)

    groups = list(BREAKDOWN_GROUPS)
    head = ["edition", *groups, "total", "expect"]
    rows = []
    for e in deck.editions:
        b = deck.edition_breakdown(e.key)
        count = deck.edition_count(e.key)
        expect = "-" if e.expect is None else ("ok" if e.expect == count else f"{e.expect}!")
        rows.append([f"{escape(e.name)} ({e.key})", *(str(b[g]) for g in groups), str(count), expect])
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    fmt = lambda r: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))  # noqa: E731
    lines = [header(deck), "playing cards per edition", fmt(head), fmt(["-" * w for w in widths]), *map(fmt, rows), ""]
    lines.append("printed cards per set")
    for s in deck.sets:
        parts = deck.set_breakdown(s.key)
        detail = ", ".join(f"{n} {KIND_LABELS[k]}" for k, n in parts.items())
        lines.append(f"  {escape(s.name)} ({s.interior} interior): {deck.set_totals()[s.key]}  ({detail})")
    lines.append(f"  total printed: {deck.printed}")
    notes = table_rule_lines(deck)
    return "\n".join(lines + ([""] + notes if notes else []))


def run(args: argparse.Namespace) -> int:
    """Validate's answer: remembered when the manifest, the files it names and this program are
    as they were when it was made (validate_memo.py), else checked now and remembered."""
    options = ("--json",) if args.json else ()
    keyed = validate_memo.key(args.manifest, options)
    if keyed is None:
        return check(args)
    kept = validate_memo.recall(keyed[0])
    if kept is not None:
        stdout, stderr, status = kept
        sys.stdout.write(stdout)
        sys.stderr.write(stderr)
        return status
    answer = validate_memo.Answer(keyed[0], args.manifest, keyed[1], named_files(Path(args.manifest)))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = check(args)
    sys.stdout.write(out.getvalue())
    sys.stderr.write(err.getvalue())
    answer.keep(out.getvalue(), err.getvalue(), status)
    return status


def check(args: argparse.Namespace) -> int:
    """Check the manifest in full and print the counts (or the problems); the exit status."""
    try:
        deck = load_printable_deck(args.manifest)
    except InputError as err:
        deck = err.deck  # set when only an edition's `expect` was missed: show the counts too
        if args.json:
            result = summary(deck) if deck else {"printed": None, "sets": {}, "editions": {}, "game": None}
            result.update(ok=False, errors=[p.as_json() for p in err.problems])
            print(json.dumps(result, indent=2))
        elif deck:
            print(table(deck))
        return report(err)
    print(json.dumps(summary(deck), indent=2) if args.json else table(deck))
    return 0
