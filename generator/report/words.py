"""The report's numbers in plain sentences, for a designer rather than a statistician.

Each sentence says what a number means at the table ("the player who plays 2nd wins 1 game
in 5; 1 in 6 would be fair"); the tests and intervals behind it stay in the page's
technical fold. Everything here is a pure function of a cell summary (summarize.py), so the
same games always give the same words.
"""

from __future__ import annotations

from typing import Any, Sequence

from generator.ai.bots import describe

#: Default seconds a turn takes at the table, for minutes per game (`report --seconds-per-turn`).
SECONDS_PER_TURN = 6.0

#: How bad a verdict is, worst first: the headline names the worst player count.
SEVERITY = ("no data", "unbalanced", "inconclusive", "small seat effect", "balanced")
#: A verdict in a few words, after "for N players".
SHORT = {"balanced": "balanced", "small seat effect": "nearly balanced", "unbalanced": "unbalanced",
         "inconclusive": "not clear yet", "no data": "no finished games"}


def rests_on(mix: str) -> str:
    """Which bots a verdict rests on, to follow "the verdicts rest on": "greedy bots in every seat
    (greedy: one-move rules of thumb)", or a mix given to the seats in turn."""
    names = list(dict.fromkeys(mix.split(",")))
    about = "; ".join(describe(n) for n in names)
    if len(mix.split(",")) == 1:
        return f"{mix} bots in every seat ({about})"
    return f"the bot mix {mix}, given to the seats in turn ({about})"


def in_words(rate: float) -> str:
    """A share as "1 game in 5", "3 games in 10", "every game", "no game"."""
    if rate <= 0:
        return "no game"
    if rate >= 0.995:
        return "every game"
    for tolerance in (0.05, 0.1):
        for b in range(2, 11):
            a = round(rate * b)
            if 1 <= a < b and abs(a / b - rate) <= tolerance * rate:
                return f"{a} game{'s' if a > 1 else ''} in {b}"
    a = round(rate * 100)
    return f"{max(a, 1)} game{'s' if a > 1 else ''} in 100"


def fair_words(fair: float) -> str:
    """The fair share as "1 in 4"."""
    return in_words(fair).replace(" games", "").replace(" game", "")


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def minutes(turns: float, seconds_per_turn: float) -> str:
    m = turns * seconds_per_turn / 60
    if m < 1:
        return "under a minute"
    return f"about {m:.0f} minute{'s' if round(m) != 1 else ''}"


def players_list(counts: Sequence[int]) -> str:
    """2, 3, 4 -> "2 to 4"; 2, 4, 6 -> "2, 4 and 6"."""
    counts = sorted(counts)
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    if len(counts) == 1:
        return str(counts[0])
    return ", ".join(map(str, counts[:-1])) + f" and {counts[-1]}"


def seat_label(side: dict[str, Any], teams: bool) -> str:
    """"the player who plays 2nd", "the dealer (plays last)", "team 1"."""
    if teams:
        return side["label"].split(" (")[0]
    label = side["label"]
    if "plays first" in label:
        return "the player who plays first"
    if "dealer" in label:
        return "the dealer, who plays last"
    return "the player who plays " + label.split("plays ")[1].rstrip(")")


def seats(c: dict[str, Any]) -> str:
    """The seat verdict in one plain sentence."""
    v = c["verdict"]["label"]
    rows, fair, teams = c["sides"], c["fair"], c["teams"]
    who = "team" if teams else "player"
    mixed = " (the bots differ by seat, so part of this is the bots)" if len(set(c["bots"].split(","))) > 1 else ""
    if v == "no data":
        return "No game finished, so nothing can be said about the seats."
    far = max(rows, key=lambda s: (abs(s["rate"] - fair), -s["order"]))
    if v in ("unbalanced", "small seat effect"):
        size = "too often to be chance" if v == "unbalanced" else "a small but real edge"
        more = "more" if far["rate"] > fair else "less"
        return (f"{seat_label(far, teams)[0].upper()}{seat_label(far, teams)[1:]} wins {in_words(far['rate'])} "
                f"({pct(far['rate'])}); {fair_words(fair)} would be fair: {size}, {more} than the others{mixed}.")
    if v == "balanced":
        lo = min(s["rate"] for s in rows)
        hi = max(s["rate"] for s in rows)
        return (f"Every {who} wins close to a fair share, {fair_words(fair)} ({pct(lo)} to {pct(hi)}){mixed}.")
    need = c["verdict"].get("games_needed")
    cap = c["verdict"].get("capped")
    return (f"No {who} clearly wins more than {fair_words(fair)}, but {c['finished']} games are too few to be sure"
            f"{f'; about {need:,} would settle it' if need else ''}{mixed}."
            f"{f' The run stopped at its cap of {cap:,} games per cell (--max-games raises it).' if cap else ''}")


def going_first(c: dict[str, Any]) -> str:
    fp = c["first_player"]
    real = fp["p"] < 0.05
    edge = ("an advantage" if fp["advantage"] > 0 else "a disadvantage") if real else "no clear edge either way"
    who = "The team that plays first" if c["teams"] else "The player who plays first"
    return f"{who} wins {in_words(fp['rate'])} ({pct(fp['rate'])}); {fair_words(fp['fair'])} would be fair: {edge}."


def length(c: dict[str, Any], seconds_per_turn: float) -> str:
    n = c["length"]
    return (f"A game takes {minutes(n['median'], seconds_per_turn)} ({n['median']:g} turns at "
            f"{seconds_per_turn:g} s a turn); 1 game in 10 takes more than {minutes(n['p90'], seconds_per_turn).replace('about ', '')}.")


def waiting(c: dict[str, Any], seconds_per_turn: float) -> str:
    w = c["waiting"]
    if not w["games_with_someone_out"] or w["first_out_mean"] < 0.5:
        return "Nobody sits out: the game ends as soon as a player goes out."
    return (f"The first player to go out waits {w['first_out_mean']:.0f} turns on average "
            f"({minutes(w['first_out_mean'], seconds_per_turn)}) for the game to end; "
            f"counting everyone who goes out, a player waits {w['per_player_out_mean']:.0f} turns.")


def luck(c: dict[str, Any]) -> str:
    lk = c["luck"]
    if not lk["games"]:
        return ""
    skill = lk["skill"]
    side = "team" if c["teams"] else "player"
    split = ("mostly luck" if skill < 0.15 else "luck and skill both matter" if skill < 0.4 else
             "skill matters a lot" if skill < 0.7 else "mostly skill")
    return (f"A {lk['strong']} {side} against {lk['weak']} {side}s wins {in_words(lk['rate'])} ({pct(lk['rate'])}); "
            f"pure luck would give {fair_words(lk['fair'])}, pure skill every game: {split} "
            f"(skill {max(0.0, skill):.2f} on a scale from 0, luck, to 1, skill).")


def card_line(card: dict[str, Any] | None, which: str) -> str:
    if card is None:
        return ""
    pts = abs(100 * card["lift"])
    if which == "strongest":
        how = (f"winners play it {pts:.1f} points more often than other cards" if card["lift"] > 0
               else "no card goes with winning more than the rest")
    else:
        how = (f"winners play it {pts:.1f} points less often than other cards" if card["lift"] < 0
               else "no card goes with losing")
    return f"{which.capitalize()} card: {card['code']} ({card['name']}): {how}."


def cell_sentences(c: dict[str, Any], seconds_per_turn: float) -> list[str]:
    """Every plain sentence of a cell, in the order the page shows them."""
    lines = [seats(c), going_first(c), length(c, seconds_per_turn), waiting(c, seconds_per_turn), luck(c)]
    ext = c["card_extremes"]
    lines += [card_line(ext["strongest"], "strongest"), card_line(ext["weakest"], "weakest")]
    if c["draws"]:
        lines.append(f"{in_words(c['draws'] / c['finished'])[0].upper()}{in_words(c['draws'] / c['finished'])[1:]} "
                     f"ends in a draw ({c['draws']} of {c['finished']}).")
    if c["unfinished"]:
        lines.append(f"{c['unfinished']} game{'s' if c['unfinished'] != 1 else ''} of {c['games']} did not finish "
                     f"within the turn limit.")
    return [line for line in lines if line]


def worst(cells: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The cell with the worst verdict; among equals, the one whose seat strays furthest from fair."""
    def badness(c: dict[str, Any]) -> tuple:
        off = max((abs(s["rate"] - c["fair"]) / c["fair"] for s in c["sides"]), default=0.0)
        return (SEVERITY.index(c["verdict"]["label"]), -off, c["players"])
    return min(cells, key=badness)


def headline(cells: Sequence[dict[str, Any]]) -> tuple[str, str]:
    """The answer ("No: unbalanced for 6 players.") and the sentence after it, for one edition."""
    bad = worst(cells)
    label = bad["verdict"]["label"]
    counts = [c["players"] for c in cells]
    if label == "balanced":
        answer = f"Yes: balanced for {players_list(counts)} players."
    elif label == "small seat effect":
        answer = f"Yes, nearly: a small seat effect at {bad['players']} players."
    elif label == "unbalanced":
        answer = f"No: unbalanced for {bad['players']} players."
    elif label == "inconclusive":
        answer = f"Not clear yet for {bad['players']} players: more games needed."
    else:
        answer = f"No finished games for {bad['players']} players."
    others: dict[str, list[int]] = {}
    for c in cells:
        if c is not bad:
            others.setdefault(SHORT[c["verdict"]["label"]], []).append(c["players"])
    rest = "; ".join(f"{word} for {players_list(ns)}" for word, ns in
                     sorted(others.items(), key=lambda kv: -len(kv[1])))
    sentence = seats(bad) if label != "balanced" else ""
    if rest and label != "balanced":
        sentence += f" Other player counts: {rest}."
    return answer, sentence.strip()
