"""County Uppy, the card game, for programs: the rules engine, the learning environments and the bots.

    import county_uppy
    game = county_uppy.new_game(players=4)               # the engine's Game, on the shipped deck
    state = game.new_initial_state(seed=7)               # game 7 (docs/engine.md, "Game N")
    spiel = county_uppy.openspiel_game(players=4)        # pyspiel.load_game("county_uppy", ...)   [ai extra]
    aec = county_uppy.pettingzoo_env(players=4)          # PettingZoo AEC, classic wrappers        [ai extra]
    gym = county_uppy.gymnasium_env(opponents=["greedy"])  # one seat against built-in bots         [ai extra]

`generator` is the source package these names come from; this one is the stable public name.
Every function takes `manifest` (a path to a cards.yaml); left out, it is cards.yaml in the
current folder if there is one, else the deck the package ships. The learning environments
need the `ai` extra (pip install 'county-uppy[ai]'); the rest needs nothing more.
"""

from __future__ import annotations

from typing import Any, Sequence

from generator.engine import BOTS, Action, Game, PlayerView, State, make_bot
from generator.resources import default_manifest, shipped_manifest

__all__ = [
    "Action", "BOTS", "Game", "PlayerView", "State", "deck", "default_manifest", "gymnasium_env", "make_bot",
    "new_game", "openspiel_bot", "openspiel_game", "pettingzoo_env", "pettingzoo_policy", "pettingzoo_raw_env",
    "shipped_manifest",
]


def deck(manifest: str | None = None):
    """The validated deck of `manifest` (default: cards.yaml here, else the shipped deck)."""
    from generator.deck.manifest import load

    return load(manifest or default_manifest())


def new_game(players: int = 4, edition: str = "the-og", manifest: str | None = None, **options: Any) -> Game:
    """The engine's Game: `options` are rule options by their docs/rules.md names (over the deck's own)."""
    return Game(deck(manifest), edition, players, options)


def openspiel_game(players: int = 4, edition: str = "the-og", manifest: str | None = None, **options: Any):
    """The OpenSpiel game (registered as "county_uppy"): chance as it happens, docs/engine.md."""
    import pyspiel

    import generator.ai.openspiel  # noqa: F401 (registers county_uppy)

    params: dict[str, Any] = {"players": players, "edition": edition, **options}
    if manifest:
        params["manifest"] = str(manifest)
    return pyspiel.load_game("county_uppy", params)


def openspiel_bot(game, player: int, bot: str = "greedy", seed: int = 0):
    """A built-in bot (random, greedy, search:N) as an OpenSpiel `pyspiel.Bot` playing `player`."""
    from generator.ai.openspiel import EngineBot

    return EngineBot(game, player, bot, seed)


def pettingzoo_env(players: int = 4, edition: str = "the-og", manifest: str | None = None, **kwargs: Any):
    """The PettingZoo AEC environment with the classic wrappers (`render_mode`, `normalize`,
    `relative_seats` and rule options as keywords)."""
    from generator.ai.pettingzoo import env

    return env(manifest, edition, players, **kwargs)


def pettingzoo_raw_env(players: int = 4, edition: str = "the-og", manifest: str | None = None, **kwargs: Any):
    """The PettingZoo AEC environment without wrappers."""
    from generator.ai.pettingzoo import raw_env

    return raw_env(manifest, edition, players, **kwargs)


def pettingzoo_policy(env, bot: str = "greedy", seed: int = 0):
    """A built-in bot as a PettingZoo policy: `policy(observation, agent) -> action id`."""
    from generator.ai.pettingzoo import policy

    return policy(env, bot, seed)


def gymnasium_env(players: int = 2, opponents: Sequence[str] = ("random",), seat: int = 0, edition: str = "the-og",
                  manifest: str | None = None, **kwargs: Any):
    """One seat against built-in bots as a single-agent Gymnasium environment."""
    from generator.ai.gym_env import CountyUppyGymEnv

    return CountyUppyGymEnv(manifest, edition, players, seat, opponents, **kwargs)
