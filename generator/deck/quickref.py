"""The quick-reference summary as data: the turn, the penalties and the wilds.

Pure data from the Deck, no rendering: the quick-reference card (faces.py) and the rulebook
print the same summary, so the two cannot disagree. Game numbers (target, hand size) and wild
parameters come from the manifest, never from literals here.
"""

from __future__ import annotations

from dataclasses import dataclass

from typing import Any, Mapping

from generator.deck import icons
from generator.deck.effects import wild_entry
from generator.deck.model import CardType, Deck

@dataclass(frozen=True)
class WildLine:
    """One wild on the quick reference."""

    code: str  #: card code, e.g. "x2"
    name: str  #: printed name, e.g. "x2" (already templated)
    set: str  #: set key, so a renderer can group base and chaos wilds
    short: str  #: one-line effect


@dataclass(frozen=True)
class QuickRef:
    """What the quick-reference card says, in reading order."""

    title: str  #: the reference card's printed name
    goal: str  #: the objective in one line
    turn: tuple[str, ...]  #: turn steps, in order
    penalties: tuple[str, ...]  #: penalty lines; they stack
    wilds: tuple[WildLine, ...]  #: every wild of the deck, manifest order


def short_effect(card: CardType, deck: Deck, options: Mapping[str, Any] | None = None) -> str:
    """The one-line effect of a wild card under the rule options `options` (default: those the
    deck prints, its manifest's `game.options`): the card's own `short:`, else the catalogue's line
    for them (`short`, or `short_when` for an option set another way), else the sentence its steps
    make (deck/steps.py), with its parameters filled in: `{factor}`,
    `{count}`, `{value}`, `{target}`, `{hand_size}` from the card's parameters and the game's."""
    assert card.effect is not None
    fields = {"target": deck.params.target, "hand_size": deck.params.hand_size, **dict(card.effect.params)}
    line = wild_entry(card.effect).short_for(deck.params.rule_options if options is None else options)
    return icons.fill(line, fields)


def shows_wilds(deck: Deck, card: CardType) -> bool:
    """Which half of the summary reference card `card` prints: the goal, the turn and the
    penalties (False), or the wilds (True). The summary is two faces so every line stays
    legible: the manifest's first reference card type prints the first half, the second the
    wilds, a third the first half again, and so on."""
    refs = [c.code for c in deck.cards if c.kind == "reference"]
    return card.code in refs and refs.index(card.code) % 2 == 1


def wilds_on(deck: Deck, card: CardType, wilds: "tuple[WildLine, ...]") -> tuple[WildLine, ...]:
    """The wilds a reference card that shows wilds (`shows_wilds`) lists: all of them when the
    deck has one such card type; with more, the sets' wilds are shared out among them in order,
    whole sets to a card, so a deck with more wilds than one card holds adds a pair of
    reference card types (the rules again, and more wilds) rather than printing smaller."""
    faces = [c.code for c in deck.cards if c.kind == "reference" and shows_wilds(deck, c)]
    if len(faces) < 2 or card.code not in faces:
        return wilds
    sets = list(dict.fromkeys(w.set for w in wilds))
    j, m = faces.index(card.code), len(faces)
    mine = set(sets[j * len(sets) // m:(j + 1) * len(sets) // m])
    return tuple(w for w in wilds if w.set in mine)


def quick_reference(deck: Deck, options: Mapping[str, Any] | None = None) -> QuickRef:
    """The quick-reference summary of `deck`, under the rule options it prints (`game.options`),
    or under `options` (every option's value: a game played another way, in the terminal)."""
    p = deck.params
    rules = p.rule_options if options is None else options
    play = ("Play any card. It matches after a wild, or if it shares a colour or the number with the last card"
            if rules.get("wild_sets_target")
            else "Play any card. It matches if it shares a colour or the number with the last number card played")
    ref = next((c for c in deck.cards if c.kind == "reference"), None)
    return QuickRef(
        title=ref.name if ref else "Quick Reference",
        goal=f"Get the count to exactly {p.target}, and be the last player able to play.",
        turn=(
            "Draw a card.",
            f"{play}; if not, it still counts, and costs you a discard.",
            "A number card adds its number to the count.",
            "Pass the turn on. No card to play: you are out.",
        ),
        penalties=(
            "No match: discard 1.",
            f"Count over {p.target} or under 0: discard 1; reset.",
            f"Count exactly {p.target}: everyone else discards 1; reset.",
            "Reset: cards in play to the discard pile, count to 0.",
            "Penalties stack. Owe a discard with no card: you are out.",
        ),
        wilds=tuple(
            WildLine(c.code, c.name, c.set, short_effect(c, deck, rules)) for c in deck.cards if c.kind == "wild"
        ),
    )
