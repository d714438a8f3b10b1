"""`county-uppy simulate --dataset DIR`: every decision of seeded bot games, as training data.

Game i is game i of `county-uppy simulate` with the same arguments (same seed, same bots,
same decisions). For every decision the acting seat made, one row in each array:

- `observations.npy` float32 [N, T]: the seat's information-state tensor before the decision
  (generator/ai/observation.py; its segments are listed in dataset.json and docs/formats.md);
- `legal.npy` uint8 [N, A]: 1 at the id of every legal decision (generator/ai/actions.py);
- `actions.npy` int32 [N]: the id of the decision taken;
- `games.npy` int32 [N], `seats.npy` int8 [N]: which game, which seat;
- `returns.npy` float32 [N]: that seat's return when the game ended (+1 won, -1 lost, 0 draw
  or unfinished), for value targets.

`dataset.json` says what was played and how the arrays are laid out. Arrays are written row
by row in game order as the workers finish, so memory stays flat; the files appear complete
or not at all.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from generator.ai.actions import ActionIds
from generator.ai.npy import NpyWriter, pack
from generator.ai.observation import Layout, Table
from generator.backends import open_backend
from generator.deck.model import Deck
from generator.engine import Game, make_bot, make_record
from generator.engine.simulate import bot_seed, game_seed
from generator.files import write_replacing

FORMAT = "county-uppy-dataset/1"
#: The arrays, their typecodes and whether each row is a vector.
ARRAYS = (("observations", "f"), ("legal", "B"), ("actions", "i"), ("games", "i"), ("seats", "b"), ("returns", "f"))
#: Games per chunk a worker plays.
CHUNK = 20


def _play(job: tuple, indices: range) -> tuple[int, dict[str, bytes], list[tuple]]:
    """Play games `indices` and return (rows, packed arrays, per-game results)."""
    deck, edition, players, options, bot_names, run_seed, record_dir = job
    game = Game(deck, edition, players, options)
    bots = [make_bot(name) for name in bot_names]
    ids, layout = ActionIds(game), Layout(game)
    obs: list[float] = []
    legal_rows: list[int] = []
    actions: list[int] = []
    games: list[int] = []
    seats: list[int] = []
    returns: list[float] = []
    results = []
    for i in indices:
        seed = game_seed(run_seed, i)
        state = game.new_initial_state(seed)
        rng = random.Random(bot_seed(seed))
        table = Table(game)
        first = len(seats)
        while not state.done:  # the loop of simulate.play_game: the same draws from the same RNG
            legal = state.legal_actions()
            if not legal:
                continue
            seat = state.current_player()
            view = state.view(seat)
            obs.extend(layout.information_state(view, table))
            legal_rows.extend(ids.mask(legal))
            action = bots[seat].choose(view, legal, rng)
            state.apply(action)
            table.note(seat, action)
            actions.append(ids.id(action))
            games.append(i)
            seats.append(seat)
        final = state.returns()
        returns.extend(final[s] for s in seats[first:])
        if record_dir is not None:
            write_replacing(Path(record_dir) / f"game-{i:06d}.json",
                            (json.dumps(make_record(state, bot_names), indent=1) + "\n").encode("utf-8"))
        results.append((i, state.winner, state.stopped, state.turns, len(seats) - first))
    packed = {"observations": pack("f", obs), "legal": pack("B", legal_rows), "actions": pack("i", actions),
              "games": pack("i", games), "seats": pack("b", seats), "returns": pack("f", returns)}
    return len(actions), packed, results


def export(deck: Deck, out: str | Path, *, games: int, players: int, edition: str, seed: int, bots: Sequence[str],
           options: Mapping[str, Any] | None = None, workers: int | None = None, record_dir: str | Path | None = None,
           progress: Callable[[int], None] | None = None, scheduler: str | None = None,
           manifest: str = "cards.yaml") -> dict[str, Any]:
    """Play the games and write the dataset into `out`; return what dataset.json holds."""
    game = Game(deck, edition, players, options)
    bot_names = [bots[s % len(bots)] for s in range(players)]
    ids, layout = ActionIds(game), Layout(game)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    if record_dir is not None:
        Path(record_dir).mkdir(parents=True, exist_ok=True)
    widths = {"observations": layout.size, "legal": ids.size}
    writers = {name: NpyWriter(folder / f"{name}.npy", code, widths.get(name, 0)) for name, code in ARRAYS}
    wins = [0] * players
    finished = draws = 0
    job = (deck, edition, players, game.options, bot_names, seed, None if record_dir is None else str(record_dir))
    chunks = (range(lo, min(lo + CHUNK, games)) for lo in range(0, games, CHUNK))
    try:
        with open_backend(scheduler, workers, work=max(1, games // CHUNK)) as backend:
            for rows, packed, results in backend.map_chunks(_play, job, chunks):
                for name, raw in packed.items():
                    writers[name].add_bytes(raw, rows)
                for _i, winner, stopped, _turns, _n in results:
                    if not stopped:
                        finished += 1
                        if winner is None:
                            draws += 1
                        else:
                            wins[winner] += 1
                if progress:
                    progress(len(results))
        shapes = {name: list(w.shape()) for name, w in writers.items()}
        for w in writers.values():
            w.close()
    except BaseException:
        for w in writers.values():
            w.abandon()
        raise
    info = {
        "format": FORMAT,
        "manifest": manifest, "edition": edition, "players": players, "options": game.options.to_dict(),
        "seed": seed, "bots": bot_names, "games": games, "finished": finished, "draws": draws,
        "wins": wins if not game.options.teams else wins[:2], "wins_by": "team" if game.options.teams else "seat",
        "decisions": shapes["actions"][0],
        "arrays": {name: {"file": f"{name}.npy", "dtype": dtype, "shape": shapes[name]}
                   for (name, code), dtype in zip(ARRAYS, ("float32", "uint8", "int32", "int32", "int8", "float32"))},
        "observation": {"size": layout.size, "segments": [
            {"name": name, "offset": layout.offsets[name], "size": size} for name, size in layout.segments]},
        "actions": {"size": ids.size, "cards": list(game.codes), "seat_slots": ids.seats,
                    "ids": "play c: c; play c s: K + S*c + s; discard c: K*(1+S) + c; give s c: K*(2+S) + S*c + s; "
                           "late: K*(2+2S); no give: K*(2+2S) + 1 (K card types in manifest order, S seat slots)"},
    }
    write_replacing(folder / "dataset.json", (json.dumps(info, indent=1) + "\n").encode("utf-8"))
    return info
