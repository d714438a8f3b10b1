"""One line per decision for the "what just happened" panel, told from the human's side.

Only what the table can see is told: other players' draws, and the card a Steal takes from
someone else, stay hidden.
"""

from __future__ import annotations

from collections import Counter

from rich.text import Text

from generator.engine import Action, State
from generator.play.describe import card_text, seat_name


def event_text(before: State, action: Action, after: State, actor: int, human: int, bots: list[str]) -> Text:
    game = after.game
    who = "you" if actor == human else seat_name(actor, human, bots)
    out = Text()
    if action.kind == "play":
        out.append(f"{who} played " if actor != human else "you played ")
        out.append_text(card_text(game, action.code))
        if action.seat is not None:
            out.append(f" → {'you' if action.seat == human else f'seat {action.seat}'}")
        if after.sixteen_by == actor:
            out.append(f"; the count hit {game.target}! everyone else owes a discard", style="bold green")
        elif not after.in_play:
            out.append(f"; the count went past {game.target} or below 0: back to 0", style="bold red")
        else:
            out.append(f"; count {after.count}")
        lost = _lost(before, after, human)
        gained = [after.game.codes[c] for c in sorted((Counter(after.hands[human]) - Counter(before.hands[human])).elements())]
        if actor == human and gained:
            out.append("; you got ")
            out.append_text(Text(", ").join(card_text(game, c) for c in gained))
        if lost and actor != human:
            if len(lost) == 1 and len(after.hands[human]) == len(before.hands[human]) - 1:
                out.append("; you lost ")
                out.append_text(card_text(game, lost[0]))
            else:
                out.append("; your hand changed")
    elif action.kind == "discard":
        out.append(f"{who} discarded ")
        out.append_text(card_text(game, action.code))
    elif action.kind == "give":
        if human in (action.seat, before.turn):
            giver = "you" if action.seat == human else f"seat {action.seat}"
            taker = "you" if before.turn == human else f"seat {before.turn}"
            out.append(f"{giver} gave {taker} ")
            out.append_text(card_text(game, action.code))
        else:
            out.append(f"seat {action.seat} gave seat {before.turn} a card")
    elif action.kind == "late":
        out.append(f"{who} took too long (SPEED) and owe{'' if actor == human else 's'} a discard", style="bold red")
    new_owed = [s for s in after.owed if s != actor or action.kind != "discard"]
    if action.kind == "play" and new_owed:
        names = ", ".join("you" if s == human else f"seat {s}" for s in dict.fromkeys(new_owed))
        out.append(f"; to discard: {names}")
    for s in after.out_order[len(before.out_order):]:
        out.append(f"; {'you are' if s == human else f'seat {s} is'} out", style="bold")
    return out


def _lost(before: State, after: State, human: int) -> list[str]:
    """Cards that left the human's hand by someone else's card (Steal, Trade, Rotate, Re-Deal)."""
    codes = after.game.codes
    gone = Counter(before.hands[human]) - Counter(after.hands[human])
    return [codes[c] for c in sorted(gone.elements())]
