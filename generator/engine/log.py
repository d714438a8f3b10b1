"""Human-readable log lines for a game: the golden playthrough and the rulebook's examples."""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from generator.engine.position import to_position


def describe_position(position: Mapping[str, Any]) -> str:
    """A short multi-line text picture of a position dict."""
    arrow = "clockwise" if position.get("direction", 1) == 1 else "counterclockwise"
    lines = [
        f"count {position.get('count', 0)}  match {position.get('match', 'start')}  {arrow}  turn: seat {position.get('turn', 0)}"
        f"  turns played: {position.get('turns', 0)}",
    ]
    out = set(position.get("out", []))
    for seat, hand in enumerate(position["hands"]):
        status = " (out)" if seat in out else ""
        lines.append(f"  seat {seat}{status}: {' '.join(hand) if hand else '-'}")
    lines.append(f"  in play: {' '.join(position.get('in_play', [])) or '-'}")
    lines.append(f"  draw pile: {len(position.get('draw', []))} cards  discard pile: {len(position.get('discard', []))} cards")
    pending = {k: v for k, v in position.get("pending", {}).items()
               if v not in (False, 0, []) and k not in ("drawn", "played")}
    if pending:
        lines.append("  pending: " + ", ".join(f"{k}={v}" for k, v in pending.items()))
    lines.append("  " + result_line(position))
    return "\n".join(lines)


def result_line(position: Mapping[str, Any]) -> str:
    if position.get("winner") is not None:
        team = "team" if position.get("options", {}).get("teams") else "seat"
        return f"winner: {team} {position['winner']}"
    if position.get("stopped"):
        return f"stopped unfinished after {position.get('turns')} turns (max_turns)"
    if len(position.get("out", [])) == position.get("players"):
        return "everyone is out: a draw"
    return "game in progress"


def decision_line(before, action, after) -> str:
    """One log line: who did what, and what followed (count, match, penalties, outs)."""
    game = before.game
    actor = before.owed[0] if before.owed else before.turn if before.giver < 0 else before.giver
    text = str(action)
    if action.kind == "late":
        return f"seat {actor} is late and owes a discard"
    parts = [f"seat {actor}: {text}"]
    if action.kind == "play":
        match = "start" if after.match == game.START else game.codes[after.match]
        notes = []
        matched = game.matches[before.match][game.index[action.code]]
        if not matched:
            notes.append("no match")
        if after.last_penalty > (0 if matched else 1):
            notes.append("bust, reset")
        if after.sixteen_by == actor:
            notes.append(f"hits {game.target}, reset")
        parts.append(f"count {after.count} match {match}" + (f" ({', '.join(notes)})" if notes else ""))
    new_owed = after.owed
    if new_owed:
        parts.append("owed " + ",".join(map(str, new_owed)))
    newly_out = after.out_order[len(before.out_order):]
    if newly_out:
        parts.append("out " + ",".join(map(str, newly_out)))
    if after.turn != before.turn and not after.done:
        parts.append(f"next seat {after.turn}")
    if after.done:
        parts.append(result_line({"winner": after.winner, "stopped": after.stopped, "turns": after.turns,
                                  "out": after.out_order, "players": game.players,
                                  "options": game.options.to_dict()}))
    return "; ".join(parts)


def playthrough(state, choose) -> Iterator[str]:
    """Play a game from `state`, yielding a log line per decision; `choose(state)` picks each action."""
    yield "start " + describe_position(to_position(state)).replace("\n", "\n      ")
    while not state.is_terminal():
        legal = state.legal_actions()
        hand_line = f"  [seat {state.current_player()} holds {' '.join(state.game.codes[c] for c in state.hands[state.current_player()])}]"
        before = state.clone()
        action = choose(state, legal)
        state.apply(action)
        yield decision_line(before, action, state) + hand_line
    yield "end   " + describe_position(to_position(state)).replace("\n", "\n      ")
