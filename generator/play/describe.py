"""Words and styles for what the terminal shows: cards, the match target, players, decisions.

Every colour is shown with its name and its shape, never by colour alone.
"""

from __future__ import annotations

from rich.text import Text

from generator.deck.model import CardType
from generator.engine import Action, Game, State

SHAPES = {"circle": "●", "triangle": "▲", "square": "■", "diamond": "◆", "star": "★", "hexagon": "⬢"}


def colour_tag(game: Game, colour: str) -> Text:
    c = game.deck.colour(colour)
    return Text(f"{SHAPES.get(c.shape, '?')} {c.name}", style=f"bold {c.rgb}")


def card_text(game: Game, code: str, *, long: bool = False) -> Text:
    """`● cyan 5`, `● cyan / ▲ green -4`, or a wild's name (and its effect text when long)."""
    card: CardType = game.deck.card(code)
    if card.is_number:
        out = Text()
        for i, colour in enumerate(card.colours):
            if i:
                out.append(" / ")
            out.append_text(colour_tag(game, colour))
        out.append(f" {card.value}", style="bold")
        return out
    out = Text(game.deck.words(card.name, card), style="bold magenta")  # inline icons in words
    if long and card.text:
        out.append(f" ({game.deck.words(card.text, card)})", style="dim")
    return out


def match_text(state: State) -> Text:
    """The match target: colour name, shape and number, or the start marker."""
    game = state.game
    if state.match == game.START:
        return Text("start: any card matches (0 of all colours)")
    return card_text(game, game.codes[state.match])


def seat_name(seat: int, human: int | None, bots: list[str]) -> str:
    """`seat 2 (you)`, `seat 2 (person)`, `seat 2 (greedy bot)`; `seat 2` where `bots` names no one there."""
    if seat == human:
        return f"seat {seat} (you)"
    if seat >= len(bots) or not bots[seat]:
        return f"seat {seat}"
    return f"seat {seat} (person)" if bots[seat] == "human" else f"seat {seat} ({bots[seat]} bot)"


def action_text(state: State, action: Action, human: int, bots: list[str]) -> Text:
    """A choice as the player reads it: `play ● cyan 5`, `play Steal a Card from seat 2`."""
    head, seat = action_parts(state, action, human, bots)
    return head.append(f" {seat}") if seat else head


def action_parts(state: State, action: Action, human: int, bots: list[str]) -> tuple[Text, str]:
    """A choice in two parts: the card (`play Steal a Card (...) from`) and the seat it names
    (`seat 2 (greedy bot), 3 cards`), "" for a decision that names no seat: the web table shows
    the first part once over one button per seat."""
    game = state.game
    out = Text()
    if action.kind == "play":
        out.append("play ")
        out.append_text(card_text(game, action.code, long=True))
        if action.seat is not None:
            out.append(f" {game.effect[action.card].seat_verb}")  # only a wild's play names a seat
            return out, f"{seat_name(action.seat, human, bots)}, {len(state.hands[action.seat])} cards"
    elif action.kind == "discard":
        out.append("discard ")
        out.append_text(card_text(game, action.code))
    elif action.kind == "give":
        if action.seat == human:
            out.append(f"give seat {state.turn} ")
        else:
            out.append(f"{seat_name(action.seat, human, bots)} gives you ")  # type: ignore[arg-type]
        out.append_text(card_text(game, action.code))
    elif action.kind == "no give":
        out.append(f"give {'seat ' + str(state.turn) if state.turn != human else 'you'} nothing")
    else:
        out.append(str(action))
    return out, ""
