"""A game record as the replay page shows it: every position, worked out by the engine.

`steps_of(deck, record)` replays the record (engine.replay's checks) and returns, for each
decision, the decision in the players' words (as the web table tells someone watching it) and
the position after it: every seat's hand, the count, the match, the piles' sizes. The page only shows these steps, forward and back; it
knows no rule, so a replay in the browser shows what `county-uppy scenario` computes.

A record travels two ways (docs/formats.md, "Shared records"):
- `standalone_html`: one HTML file, the steps and the page's script and style inside, that
  any browser opens with no server;
- `share_fragment`: the record, compacted and compressed (raw deflate, base64url) into the
  fragment of a link to `/replay` of a running `county-uppy replay --web` or `play --web`.
  The browser inflates it (DecompressionStream) and asks that server for the steps, so the
  fragment never travels in a request line and the rules stay in one place.
"""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path
from typing import Any, Mapping

from generator import strict_json
from generator.engine import Action, Game, State, to_position
from generator.engine.actions import GIVE
from generator.engine.errors import PositionError
from generator.engine.record import replay, result_differences, result_of
from generator.play.events import event_text
from generator.web.cards import deck_json
from generator.web.table import result_text

HERE = Path(__file__).resolve().parent
#: Keys of the compact form of a record (the share link's fragment) and the record keys they stand for.
COMPACT = {"s": "seed", "p": "players", "e": "edition", "o": "options", "b": "bots", "d": "decisions", "r": "result"}


def _shown(position: Mapping[str, Any]) -> dict[str, Any]:
    """A position as the page shows it: the draw pile by its size only."""
    keep = ("count", "match", "direction", "turn", "hands", "in_play", "out", "winner", "turns", "stopped")
    shown = {k: position[k] for k in keep}
    shown["draw_size"] = len(position["draw"])
    shown["discard_top"] = position["discard"][-1] if position["discard"] else None
    shown["discards"] = len(position["discard"])
    shown["owed"] = position["pending"].get("owed", [])
    return shown


def told(before: State, action: Action, after: State, actor: int, bots: list[str]) -> str:
    """A decision in the players' words, as the web table tells someone watching it
    (play/events.py, from no seat's side), and how the game ended after the last one."""
    line = event_text(before, action, after, actor, None, bots).plain
    return f"{line}; {result_text(after, None)}" if after.is_terminal() else line


def steps_of(deck, record: Any) -> dict[str, Any]:
    """The replay page's data for `record`: header, every step's position and log line, the check."""
    final, matches = replay(deck, record)  # every check of `county-uppy replay`, the whole record first
    game: Game = final.game
    state = game.new_initial_state(record["seed"])
    steps = [{"line": f"the deal: seed {record['seed']}, {game.players} players, {game.edition.name}",
              "position": _shown(to_position(state))}]
    bots = list(record.get("bots") or [])
    for decision in record["decisions"]:
        actor = state.current_player()  # makes the turn's draw first, as the web table does before a decision
        before = state.clone()
        action = game.action(decision)
        state.apply(action)
        steps.append({"line": told(before, action, state, action.seat if action.kind == GIVE else actor, bots),
                      "position": _shown(to_position(state))})
    if matches is None:
        check = "the record has no result to check"
    elif matches:
        check = "the replayed result matches the record's"
    else:
        check = "the replayed result differs from the record's: " + "; ".join(
            result_differences(record["result"], result_of(final)))
    # the seed as text: a JavaScript number holds whole numbers exactly only below 2**53, and
    # `simulate` deals from 63-bit seeds
    return {"players": game.players, "edition": game.edition.key, "edition_name": game.edition.name,
            "seed": str(record["seed"]),
            "options": game.options.to_dict(), "bots": bots, "matches": matches, "check": check,
            "deck": deck_json(game), "steps": steps, "share": share_fragment(record)}


def compact(record: Mapping[str, Any]) -> dict[str, Any]:
    out = {short: record[long] for short, long in COMPACT.items() if long in record}
    if "d" in out:
        out["d"] = ",".join(out["d"])
    if not out.get("o"):
        out.pop("o", None)
    return out


def posted(data: Any) -> Any:
    """A record as /api/replay takes it: a whole record, or the compact form a share link carries,
    which the page sends as it inflated it (never through a JavaScript number: a seed past 2**53,
    as `simulate` deals from, would arrive as another seed)."""
    if isinstance(data, dict) and data and set(data) <= set(COMPACT):
        return expand(data)
    return data


def expand(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise PositionError("a shared record is a JSON object")
    record = {long: data[short] for short, long in COMPACT.items() if short in data}
    if isinstance(record.get("decisions"), str):
        record["decisions"] = [d for d in record["decisions"].split(",") if d]
    return record


def share_fragment(record: Mapping[str, Any]) -> str:
    """`r=...`: the record in a link's fragment (compact JSON, raw deflate, base64url without padding)."""
    text = json.dumps(compact(record), separators=(",", ":"))
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = packer.compress(text.encode()) + packer.flush()
    return "r=" + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def read_fragment(fragment: str) -> dict[str, Any]:
    """The record a share fragment carries (the page does the same in JavaScript)."""
    payload = fragment.removeprefix("#").removeprefix("r=")
    try:
        raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
        unpacker = zlib.decompressobj(-15)
        text = unpacker.decompress(raw, 1 << 20)
        return expand(strict_json.loads(text.decode("utf-8")))  # the number rules of a record file
    except (ValueError, zlib.error) as exc:
        raise PositionError(f"the link's record does not decode ({exc})") from None


def _script_json(data: Any) -> str:
    """JSON safe inside <script>: no `</`, no `<!--`."""
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")


def standalone_html(steps: Mapping[str, Any], title: str) -> str:
    """One HTML file that shows the replay with no server: the steps, script and style inside."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape  # lazy: only when a page is made

    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(["j2", "html"]))
    css = (HERE / "static" / "table.css").read_text(encoding="utf-8")
    js = (HERE / "static" / "replay.js").read_text(encoding="utf-8")
    return env.get_template("replay.html.j2").render(
        title=title, inline_css=css, inline_js=js.replace("</", "<\\/"), steps_json=_script_json(steps))
