"""What to try next: for each card whose effect is settled and out of line with its group, a sentence
and the `county-uppy sweep` command that tests a change (its copies, or a wild's parameter); and one
paragraph in plain words on what the card effects mean for the design.

Every value a suggested command sweeps is checked as the sweep checks it (report/sweep/grid.py:
the changed manifest must pass `validate`), so the command runs as printed.
"""

from __future__ import annotations

import re
import shlex
from typing import Any, Sequence

from generator.deck.model import Deck
from generator.report.words import players_list

STRONGER, WEAKER = "stronger than its group", "weaker than its group"
#: How many values on each side of today's a suggested sweep tries.
SPREAD = 2


def _group_words(group: str) -> str:
    if group == "wilds":
        return "the other wilds"
    if group == "colours":
        return "the other colours"
    return f"the other {group.removeprefix('value ')}s"


def _out_of_line(cells: Sequence[dict[str, Any]]) -> dict[tuple[str, str, str], dict[int, dict[str, Any]]]:
    """(edition, code, verdict) -> {players: row}, for every settled out-of-line row, in report order."""
    found: dict[tuple[str, str, str], dict[int, dict[str, Any]]] = {}
    for cell in cells:
        for row in cell.get("card_effects", ()):
            if row["verdict"] in (STRONGER, WEAKER):
                found.setdefault((cell["edition"], row["code"], row["verdict"]), {})[cell["players"]] = row
    return found


def _valid(deck: Deck, src, name: str, values: Sequence[int]) -> list[int]:
    """The values of parameter `name` the sweep accepts (each checked as `validate` would)."""
    from generator.report.sweep import grid  # lazy: the sweep's checks load only when a card is out of line

    ok = []
    for v in values:
        try:
            axis = grid.parse_axis(f"{name}={v}", deck)
            grid.variants([axis], src, deck)
        except Exception:  # noqa: BLE001 - any refusal: the value is not offered
            continue
        ok.append(v)
    return ok


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def suggestions(deck: Deck, cells: Sequence[dict[str, Any]], manifest: str, settings: dict[str, Any]) -> list[dict[str, str]]:
    """`suggestions`: [{text, command}] for every card out of line with its group."""
    from generator.deck.yaml_source import read  # lazy: only when a card is out of line

    found = _out_of_line(cells)
    if not found:
        return []
    src = read(manifest)
    out = []
    for (edition, code, verdict), by in found.items():
        counts = sorted(by)
        first = by[counts[0]]
        if first["kind"] == "colour":
            continue  # a colour is not one card: its cards' rows say which to change
        card = deck.card(code)
        stronger = verdict == STRONGER
        worth = [100 * row["vs_group"]["difference"] for row in by.values()]
        lo, hi = min(abs(w) for w in worth), max(abs(w) for w in worth)
        size = f"{lo:.0f}" if round(lo) == round(hi) else f"{lo:.0f} to {hi:.0f}"
        what = (f"{code} ({first['name']}) is {'stronger' if stronger else 'weaker'} than {_group_words(first['group'])} "
                f"at {players_list(counts)} players: a player holding it wins about {size} points "
                f"{'more' if stronger else 'less'} often than holding one of them.")
        base = "county-uppy sweep" + (f" --manifest {shlex.quote(manifest)}" if manifest != "cards.yaml" else "")
        base += f" --edition {shlex.quote(edition)} --players {','.join(map(str, counts))}"
        slug = _slug(code) or _slug(card.effect.name if card.effect else first["name"]) or "card"
        tries: list[tuple[str, str, list[int], int]] = []
        c = card.copies
        tries.append(("copies", f"copies.{code}", list(range(max(1, c - SPREAD), c + 1)) if stronger
                      else list(range(c, c + SPREAD + 1)), c))
        for pname, pvalue in (card.effect.params if card.effect else ()):
            tries.append((pname, f"params.{code}.{pname}", list(range(pvalue - SPREAD, pvalue + 1)) if stronger
                          else list(range(pvalue, pvalue + SPREAD + 1)), pvalue))
        for label, name, values, now in tries:
            values = _valid(deck, src, name, values)
            if len(values) < 2:
                continue  # nothing to compare today's value with (one copy cannot become fewer)
            change = (("fewer" if stronger else "more") + " copies" if label == "copies" else
                      f"a {'smaller' if values[0] < now else 'larger'} {label}")
            text = f"{what} Try {change} ({', '.join(map(str, values))}; {now} today) and compare the sweep's verdicts."
            param = shlex.quote(f"{name}={','.join(map(str, values))}")
            out_dir = shlex.quote(f"output/sweep-{slug}-{_slug(label)}")
            out.append({"text": text, "command": f"{base} --param {param} --out {out_dir}",
                        "code": code, "edition": edition, "players": counts})
    return out


def paragraph(cells: Sequence[dict[str, Any]], advice: Sequence[dict[str, Any]]) -> str | None:
    """What the card effects mean for the design, in plain words (None if none were measured)."""
    measured = [c for c in cells if "card_effects" in c]
    if not measured:
        return None
    counts = sorted({c["players"] for c in measured})
    found = _out_of_line(measured)
    unclear = {row["code"] for c in measured for row in c["card_effects"] if row["verdict"] == "not clear yet"}
    codes = {row["code"] for c in measured for row in c["card_effects"]}
    editions = list(dict.fromkeys(c["edition_name"] for c in measured))
    where = f" in {', '.join(editions)}" if len(editions) > 1 else ""
    lines = []
    if not found:
        lines.append(f"No card stands out{where}: at {players_list(counts)} players every card settled so far is in line "
                     f"with the cards like it, so these games do not call for changing any card's copies.")
    else:
        named = []
        for (edition, code, verdict), by in found.items():
            row = next(iter(by.values()))
            named.append(f"{row['name']} ({code}) is {verdict.replace(' than its group', '')} than "
                         f"{_group_words(row['group'])} at {players_list(sorted(by))} players")
        lines.append(f"{len({k[1] for k in found})} of the {len(codes)} cards and colours measured{where} stand out: "
                     + "; ".join(named) + ".")
        lines.append("Each is worth trying to change: the sweeps under 'What to try next' test fewer or more copies "
                     "(or another value on the card) and say whether the game stays fair." if advice else
                     "None of them can be changed by copies or a parameter alone, so look at the card's rule.")
    if unclear:
        lines.append(f"{len(unclear)} {'is' if len(unclear) == 1 else 'are'} not clear yet: more games would tell "
                     f"(the card table says how many).")
    lines.append("The rest are in line with the cards like them: a change there is not what these games ask for.")
    return " ".join(lines)
