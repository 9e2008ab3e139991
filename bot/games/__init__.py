"""The hosted games, by id: for each, where its engine ruleset, its host adapter (a package
exposing ``HOST``, a :class:`~bot.games.base.GameHost`), what outsiders see of it (a
``broadcast`` module exposing ``BROADCAST``, a :class:`~bot.games.base.Broadcast`: the web
pages and replays) and its Discord front (a package exposing ``FRONT``) live. The registry
names them without importing them, so the host's core stays free of every game until a
table of that game is loaded, and the host knows nothing of Discord (a front is only
named).

A game not shipped with the bot (a test's) plugs in through :func:`register`, before the
service or the bot is built; it then needs no other file outside its own folders.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from bot.games.base import Broadcast, GameHost, ServiceError
from engine.core import RULESET_MODULES


@dataclass(frozen=True)
class GameEntry:
    """Where one game lives: module paths, imported when first needed."""

    id: str
    engine: str
    """The engine package exposing ``RULESET`` (its id is the game's)."""
    host: str
    """The host adapter's package exposing ``HOST``."""
    front: str
    """The Discord front's package exposing ``FRONT``."""
    broadcast: str | None = None
    """The module exposing ``BROADCAST`` (None: the game has no public pages)."""


GAMES: tuple[str, ...] = ("charioteer", "cartographers", "carcassonne")
"""Every game the bot ships with, in the order lists show them."""

REGISTRY: dict[str, GameEntry] = {
    game: GameEntry(
        game,
        f"engine.{game}",
        f"bot.games.{game}",
        f"cogs.games.{game}",
        f"bot.games.{game}.broadcast",
    )
    for game in GAMES
}
"""Every hosted game, in the order lists show them (the shipped ones, then any added)."""

_hosts: dict[str, GameHost] = {}


def register(entry: GameEntry) -> None:
    """Host one more game (or another version of one): its tables can be opened, played
    and listed, and a bot built afterwards has its front."""
    REGISTRY[entry.id] = entry
    RULESET_MODULES[entry.id] = entry.engine
    _hosts.pop(entry.id, None)


def unregister(game: str) -> None:
    """Host ``game`` no more (a test's game, once the test is over)."""
    REGISTRY.pop(game, None)
    RULESET_MODULES.pop(game, None)
    _hosts.pop(game, None)


def games() -> tuple[str, ...]:
    """Every hosted game's id, in the order lists show them."""
    return tuple(REGISTRY)


def host_for(game: str) -> GameHost:
    """The adapter of ``game``; :class:`ServiceError` ``error.no_such_game`` if unknown."""
    host = _hosts.get(game)
    if host is not None:
        return host
    entry = REGISTRY.get(game)
    if entry is None:
        raise ServiceError("error.no_such_game", game=game)
    host = importlib.import_module(entry.host).HOST
    assert isinstance(host, GameHost)
    _hosts[game] = host
    return host


def broadcast_for(game: str) -> Broadcast:
    """What outsiders see of ``game`` (its ``broadcast`` module's ``BROADCAST``);
    :class:`ServiceError` ``error.no_such_game`` if unknown or without public pages."""
    entry = REGISTRY.get(game)
    if entry is None or entry.broadcast is None:
        raise ServiceError("error.no_such_game", game=game)
    broadcast = importlib.import_module(entry.broadcast).BROADCAST
    assert isinstance(broadcast, Broadcast)
    return broadcast


__all__ = [
    "GAMES",
    "REGISTRY",
    "GameEntry",
    "broadcast_for",
    "games",
    "host_for",
    "register",
    "unregister",
]
