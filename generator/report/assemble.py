"""Put a run's tallies together into the report's data: cells, verdicts, headline, comparison."""

from __future__ import annotations

from typing import Any, Sequence

from generator.engine.options import Options
from generator.report import card_effects, charts, suggest, words
from generator.report.compare import compare
from generator.report.records import section as records_section
from generator.report.run import Outcome, Variant
from generator.report.summarize import (CAUSE_LABELS, LUCK_BOTS, LUCK_GAMES, MIN_CARD_PLAYS, TOLERANCE, Cell,
                                        add_verdicts, pct, summarize)

FORMAT = "county-uppy-balance/2"


def assemble(variants: Sequence[Variant], cells: Sequence[Cell], outcome: Outcome, settings: dict[str, Any],
             changes: list[str] | None = None, effects: dict[Cell, Any] | None = None, records: Any = None) -> dict[str, Any]:
    """The whole report as JSON-ready data (charts included, for the page).

    `changes`: what differs between the two manifests of an --against run (deck/compare.py's
    summary lines), shown above the comparison. `effects`: the design's card effects per cell
    (report/card_effects.py's EffectTally), written into those cells as `card_effects`. `records`:
    the game records read (report/records.py), set beside the design's cells as `records`."""
    spt = float(settings.get("seconds_per_turn", words.SECONDS_PER_TURN))
    per_variant: list[list[dict[str, Any]]] = []
    for v, variant in enumerate(variants):
        played = Options.for_deck(variant.deck, variant.options)  # the deck's own options, --option over them
        dealer, teams = played.dealer, played.teams
        summaries = []
        for cell in cells:
            tally = outcome.tallies.get((v, cell))
            if tally is None or tally.games == 0:
                continue
            summary = summarize(variant.deck, cell, tally, dealer=dealer, teams=teams)
            if v == 0 and effects and cell in effects:
                summary["card_effects"] = card_effects.rows(variant.deck, cell.edition, effects[cell], summary["fair"])
            if summary["unfinished_games"]:
                summary["replay_unfinished"] = replay_command(settings, variant, cell, summary["unfinished_games"])
            summaries.append(summary)
        add_verdicts(summaries)
        cap = settings.get("max_games")
        for summary in summaries:
            if cap and summary["verdict"]["label"] == "inconclusive" and summary["games"] >= cap:
                summary["verdict"]["text"] += f" The run stopped at its cap of {cap:,} games per cell (--max-games raises it)."
                summary["verdict"]["capped"] = cap
            summary["plain"] = words.cell_sentences(summary, spt)
        per_variant.append(summaries)
    comparison = compare(per_variant[0], per_variant[1]) if len(variants) == 2 else None
    names = [v.name for v in variants]
    sections = details(per_variant, names)
    advice = suggest.suggestions(variants[0].deck, per_variant[0], variants[0].manifest, settings) if effects else []
    report = {
        "format": FORMAT,
        "settings": settings,
        "variants": [{"name": v.name, "label": v.label, "options": dict(v.options)} for v in variants],
        "complete": not outcome.interrupted and outcome.games_done == outcome.games_planned,
        "games_played": outcome.games_done,
        "games_planned": outcome.games_planned,
        "headline": headline(per_variant, comparison, spt),
        "in_plain_words": suggest.paragraph(per_variant[0], advice) if effects else None,
        "suggestions": advice,
        "player_counts": sorted({c.players for c in cells}),
        "cells": {name: [public(c) for c in cs] for name, cs in zip(names, per_variant)},
        "comparison": comparison,
        "changes": changes,
        "records": (records_section(variants[0].deck, records, [c for c in per_variant[0] if c["bots"] == settings.get("verdict_bots")], spt)
                    if records is not None else None),
        "methods": methods(),
    }
    report["_sections"] = sections
    return report


def replay_command(settings: dict[str, Any], variant: Variant, cell: Cell, games: list[int]) -> str:
    """The simulate command that writes the records of these games (DIR/game-NNNNNN.json)."""
    options = "".join(f" --option {k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in variant.options.items())
    return (f"county-uppy simulate --manifest {variant.manifest} --seed {settings['seed']} "
            f"--games {max(games) + 1} --edition {cell.edition} --players {cell.players} --bots {cell.bots}"
            f"{options} --record DIR")


def public(cell: dict[str, Any]) -> dict[str, Any]:
    """A cell without the raw per-game list (the histogram stands for it in the JSON)."""
    return {k: v for k, v in cell.items() if k != "turns"}


def headline(per_variant: list[list[dict[str, Any]]], comparison: list[dict[str, Any]] | None,
             spt: float = words.SECONDS_PER_TURN) -> list[dict[str, Any]]:
    """Per edition: a verdict per player count (first bot mix), and the worst of them in plain words."""
    first = per_variant[0]
    if not first:
        return []
    bots = first[0]["bots"]
    rows = []
    for edition in dict.fromkeys(c["edition"] for c in first):
        entry: dict[str, Any] = {"edition": edition, "bots": bots, "variants": []}
        for cells in per_variant:
            mine = [c for c in cells if c["edition"] == edition and c["bots"] == bots]
            if not mine:
                entry["variants"].append(None)
                continue
            entry["edition_name"] = mine[0]["edition_name"]
            bad = words.worst(mine)
            answer, sentence = words.headline(mine)
            entry["variants"].append({
                "players": bad["players"],
                "answer": answer,
                "sentence": sentence,
                "verdicts": {c["players"]: {"label": c["verdict"]["label"], "first": fp_rate(c), "games": c["games"],
                                            "minutes": words.minutes(c["length"]["median"], spt)}
                             for c in mine},
                "unfinished": sum(c["unfinished"] for c in mine),
            })
        if comparison is not None:
            entry["differences"] = sum(e["significant"] for e in comparison if e["edition"] == edition)
        rows.append(entry)
    return rows


def fp_rate(c: dict[str, Any]) -> str:
    return pct(c["first_player"]["rate"])


def details(per_variant: list[list[dict[str, Any]]], names: Sequence[str]) -> list[dict[str, Any]]:
    """Per edition, per cell: the variants' summaries side by side and their charts."""
    keyed = [{(c["edition"], c["players"], c["bots"]): c for c in cells} for cells in per_variant]
    order = list(dict.fromkeys((c["edition"], c["players"], c["bots"]) for cells in per_variant for c in cells))
    sections: list[dict[str, Any]] = []
    for key in order:
        sides = [k.get(key) for k in keyed]
        present = [s for s in sides if s is not None]
        shown_names = [n for n, s in zip(names, sides) if s is not None]
        if not sections or sections[-1]["edition"] != key[0]:
            sections.append({"edition": key[0], "edition_name": present[0]["edition_name"], "cells": []})
        same_sides = len({len(s["sides"]) for s in present}) == 1
        sections[-1]["cells"].append({
            "players": key[1], "bots": key[2], "sides": sides,
            "seat_chart": charts.seat_chart(present if same_sides else present[:1], shown_names),
            "length_chart": charts.length_chart([s["turns"] for s in present], shown_names),
            "cards": card_table(sides),
            "effects": effect_table(sides[0]),
            "penalties": penalty_table(sides),
        })
    return sections


def card_table(sides: list[dict[str, Any] | None]) -> list[dict[str, Any]]:
    codes: dict[str, dict[str, Any]] = {}
    for k, side in enumerate(sides):
        if side is None:
            continue
        for row in side["cards"]:
            entry = codes.setdefault(row["code"], {"code": row["code"], "name": row["name"], "kind": row["kind"],
                                                   "by": [None] * len(sides)})
            entry["by"][k] = row
    return list(codes.values())


def effect_table(side: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The design's card effects for the page: grouped (wilds, then each value, then colours), each
    group sorted by effect, strongest first."""
    if side is None or "card_effects" not in side:
        return []
    return sorted(side["card_effects"], key=lambda row: (card_effects.group_order(row["group"]), -row["effect"], row["code"]))


def penalty_table(sides: list[dict[str, Any] | None]) -> list[dict[str, Any]]:
    causes = list(dict.fromkeys(p["cause"] for s in sides if s for p in s["penalties"]))
    rows = []
    for cause in causes:
        by = []
        for s in sides:
            by.append(None if s is None else next((p for p in s["penalties"] if p["cause"] == cause), None))
        rows.append({"cause": cause, "label": CAUSE_LABELS.get(cause, cause), "by": by})
    return rows


def methods() -> dict[str, Any]:
    return {
        "luck_bots": list(LUCK_BOTS), "luck_games": LUCK_GAMES, "min_card_plays": MIN_CARD_PLAYS,
        "win_rates": "Wilson score 95% intervals.",
        "seat_balance": ("Chi-square goodness-of-fit of wins per seat (or team) against equal shares, "
                         "Holm-Bonferroni corrected over all cells of a report."),
        "verdict": (f"unbalanced: the seat test is significant and some seat's rate is more than "
                    f"{round(TOLERANCE * 100)}% away from the fair share; small seat effect: significant, every rate "
                    f"within that band; balanced: not significant and every seat's 95% interval within the band; "
                    f"inconclusive: none of these, more games are needed."),
        "sequential": ("Without --games, the grid is played in rounds: after each round every cell gets its verdict, "
                       "and a cell still inconclusive plays on (its game i always has the same seed, so later rounds "
                       "extend earlier ones) to the games its verdict asks for, at least twice as many, up to the cap "
                       "(--max-games). The verdicts are looked at after each round, so a cell's tests are repeated a "
                       "few times: a significant seat test after several rounds is a little weaker evidence than the "
                       "same p-value from a single fixed run."),
        "first_player": "One-proportion score z-test of the first player's win rate against the fair share.",
        "comparison": ("Win rates and unfinished shares: pooled two-proportion z-test; game length: Mann-Whitney U "
                       "(normal approximation, tie-corrected); penalties per turn: conditional binomial test of two "
                       "Poisson rates. Holm-Bonferroni over every test of the comparison; marked when the adjusted "
                       "p < 0.05. Both sides play the same seeds."),
        "card_effects": ("Restricted play (Jaffe et al., AIIDE 2012): every deal of a cell is played again with the "
                         "first seat (from seat deal mod players) that had the card among its choices kept from "
                         "playing it (it discards the card first when it owes a discard); the effect is that seat's "
                         "win rate as usual minus its win rate without the card, with a paired normal 95% interval. "
                         "Deals where no seat had the card play out the same and count as 0. A card is compared with "
                         "its group (wilds with the edition's other wilds, a number with the same value in the other "
                         "colours, colours with each other) by what it is worth when held (its effect divided by the "
                         "share of deals a seat held it): a paired z-test of the per-deal contrast, Holm-Bonferroni "
                         "corrected over every row of the cell; in line = not significant and the contrast's interval "
                         f"within ±{round(card_effects.CARD_TOLERANCE * 100)}% of the fair share."),
        "card_lift": ("Share of a card's plays made by the player who went on to win, minus that share over all "
                      "plays: positive means winners play it more than other cards. An association, not a cause."),
    }
