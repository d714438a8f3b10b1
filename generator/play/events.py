"""One line per decision for the "what just happened" panel, told from the human's side.

Only what the table can see is told: other players' draws, and the card a Steal takes from
someone else, stay hidden. `human` None tells it from no seat's side: what someone watching
the table sees (the web table before a seat is taken), no hand's change at all.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict

from rich.text import Text

from generator.deck.effects import pending_keys
from generator.deck.quickref import short_effect
from generator.engine import Action, State
from generator.play.describe import card_text, seat_name
from generator.play.penalties import MISMATCH, OVER, TARGET, UNDER, Out, Penalty, outs, penalties


def event_text(before: State, action: Action, after: State, actor: int, human: int | None, bots: list[str]) -> Text:
    game = after.game
    who = "you" if actor == human else seat_name(actor, human, bots)
    out = Text()
    owing = penalties(before, action, after, actor)
    if action.kind == "play":
        out.append(f"{who} played " if actor != human else "you played ")
        out.append_text(card_text(game, action.code))
        if action.seat is not None:
            out.append(f" → {'you' if action.seat == human else f'seat {action.seat}'}")
        card = game.deck.card(action.code)
        if card.effect is not None:  # a wild: what it does, in the quick reference's words
            out.append(f" ({short_effect(card, game.deck, asdict(game.options))})", style="italic")
        reached = after.last_count
        if reached == game.target:
            out.append(f"; the count hit {game.target}!", style="bold green")
        elif not after.in_play:
            side = f"over {game.target}" if reached > game.target else "below 0"
            out.append(f"; the count went to {reached}, {side}: back to 0", style="bold red")
        else:
            out.append(f"; count {after.count}")
        if human is not None:
            out.append_text(_hand_change(before, action, after, actor, human))
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
    elif action.kind == "no give":
        taker = "you" if before.turn == human else f"seat {before.turn}"
        out.append(f"{who} gave {taker} nothing")
    elif action.kind == "late":
        out.append(f"{who} took too long (SPEED) and owe{'' if actor == human else 's'} a discard", style="bold red")
    for line in what_changed(before, after, human):
        out.append("; ")
        out.append_text(line)
    for line in why_owed(owing, game, human):
        out.append("; ")
        out.append_text(line)
    for gone in outs(before, after, owing):
        out.append("; ")
        out.append_text(out_text(gone, human))
    return out


def waiting(s: State) -> list[str]:
    """What the wilds left waiting now (a +/-, a Play 2, a Skip), in the catalogue's words: public."""
    lines = []
    for p in pending_keys():
        n = getattr(s, p.field)
        if n:
            lines.append(p.shown.format(n=int(n), s="s" if n > 1 else "", seat=s.turn))
    return lines


def what_changed(before: State, after: State, human: int | None) -> list[Text]:
    """What a decision left for later or changed about the turn order: a Skip waiting, a +/- waiting,
    a Play 2 coming, play reversed, players passed over (the wilds' catalogue words)."""
    lines = []
    for p in pending_keys():
        was, now = getattr(before, p.field), getattr(after, p.field)
        if now and now != was:
            n = int(now)
            lines.append(Text(p.shown.format(n=n, s="s" if n > 1 else "", seat=after.turn), style="yellow"))
    if after.direction != before.direction:
        lines.append(Text("play now goes " + ("clockwise ↻" if after.direction == 1 else "counterclockwise ↺"),
                          style="yellow"))
    skipped = _passed_over(before, after)
    if skipped:
        names = ", ".join("you" if s == human else f"seat {s}" for s in skipped)
        lines.append(Text(f"{names} {'are' if len(skipped) > 1 or skipped == [human] else 'is'} skipped", style="yellow"))
    return lines


def _passed_over(before: State, after: State) -> list[int]:
    """Players still in whom the turn passed over (a Skip) between `before` and `after`."""
    if after.turns == before.turns or after.is_terminal():
        return []
    n = after.game.players
    seat, passed = before.turn, []
    for _ in range(n):
        seat = (seat + after.direction) % n
        if seat == after.turn:
            return passed
        if not after.out[seat]:
            passed.append(seat)
    return []


def _hand_change(before: State, action: Action, after: State, actor: int, human: int) -> Text:
    """What a play did to the human's hand, beyond the card the human played.

    Only the player gained (a Steal, a +N's draw) or lost to them: `; you got X, Y` or `; you
    lost X`. Hands passed or dealt again (Trade, Rotate, Re-Deal: a hand other than the
    player's gained a card, or the player's lost one and gained others): whoever's hand changed is
    told the whole new hand, `; you got a new hand: X, Y`, or `; your hand is now empty`.
    """
    game = after.game

    def held(seat: int) -> tuple[Counter, Counter]:
        was = Counter(before.hands[seat])
        if seat == actor:
            was[game.card_index(action.code)] -= 1  # the card played left by being played
        return +was, Counter(after.hands[seat])

    mine_was, mine_now = held(actor)
    passed = bool(mine_was - mine_now and mine_now - mine_was) or any(
        now - was for was, now in (held(seat) for seat in range(game.players) if seat != actor))
    was, now = held(human)
    if was == now:
        return Text()
    cards = lambda ids: Text(", ").join(card_text(game, game.codes[c]) for c in sorted(ids.elements()))  # noqa: E731
    if not passed:
        gained, lost = now - was, was - now
        return Text("; you got ").append_text(cards(gained)) if gained else Text("; you lost ").append_text(cards(lost))
    if not now:
        return Text("; your hand is now empty")
    return Text("; you got a new hand: ").append_text(cards(now))


RED = "bold red"


def _name(seat: int, human: int | None) -> str:
    return "you" if seat == human else f"seat {seat}"


def _owe(seats: list[int], human: int | None) -> str:
    """`seat 2 owes a discard`, `you owe a discard`, `seat 1, you and seat 3 each owe a discard`."""
    names = [_name(s, human) for s in seats]
    if len(names) > 1:
        return f"{', '.join(names[:-1])} and {names[-1]} each owe a discard"
    return f"{names[0]} owe{'' if seats[0] == human else 's'} a discard"


def why_owed(owing: list[Penalty], game, human: int | None) -> list[Text]:
    """One clause per discard owed and its cause: `you owe a discard: ● cyan 5 does not match ■ magenta 1`."""
    lines: list[Text] = []
    for p in owing:
        if p.cause == MISMATCH:
            line = Text(f"{_owe([p.seat], human)}: ", style=RED)
            lines.append(line.append_text(cause_text(p, game)))
        elif p.cause in (OVER, UNDER):
            side = f"over {game.target}" if p.cause == OVER else "below 0"
            lines.append(Text(f"{_owe([p.seat], human)} for going {side}", style=RED))
    hit = [p for p in owing if p.cause == TARGET]
    if hit:
        by = hit[0].by
        whose = "your" if by == human else f"seat {by}'s"
        lines.append(Text(f"{_owe([p.seat for p in hit], human)}: {whose} card made exactly {game.target}",
                          style="bold green" if by == human else RED))
    return lines


def cause_text(p: Penalty, game, *, with_card: bool = True) -> Text:
    """The cause alone: `● cyan 5 does not match ■ magenta 1 (...)`, `count 19, over 16`, `count -2, below 0`."""
    if p.cause == MISMATCH:
        line = Text()
        if with_card:
            line.append_text(card_text(game, p.card)).append(" ", style=RED)
        line.append("does not match ", style=RED)
        line.append_text(card_text(game, p.match))
        return line.append(" (no shared colour or number)", style=RED)
    if p.cause == OVER:
        return Text(f"count {p.count}, over {game.target}", style=RED)
    if p.cause == UNDER:
        return Text(f"count {p.count}, below 0", style=RED)
    if p.cause == TARGET:
        return Text(f"seat {p.by}'s card made exactly {game.target}", style=RED)
    return Text("too slow (SPEED)", style=RED)


def out_text(gone: Out, human: int | None) -> Text:
    """`you are out: a discard was owed and no card was left`, or `seat 2 is out: no card left to play`."""
    who = "you are" if gone.seat == human else f"seat {gone.seat} is"
    why = "a discard was owed and no card was left" if gone.owed else "no card left to play"
    return Text(f"{who} out: {why}", style="bold")
