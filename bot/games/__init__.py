"""The hosted games: each has its adapter package ``bot/games/<id>/`` exposing ``HOST``, a
:class:`~bot.games.base.GameHost`, and a ``broadcast`` module exposing ``BROADCAST``, a
:class:`~bot.games.base.Broadcast`. The registry names them without importing them, so the
host's core stays free of every game until a table of that game is loaded."""

from __future__ import annotations

import importlib
from functools import cache

from bot.games.base import Broadcast, GameHost, ServiceError

GAMES: tuple[str, ...] = ("charioteer", "cartographers", "carcassonne")
"""Every hosted game's id, in the order lists show them."""


@cache
def host_for(game: str) -> GameHost:
    """The adapter of ``game``; :class:`ServiceError` ``error.no_such_game`` if unknown."""
    if game not in GAMES:
        raise ServiceError("error.no_such_game", game=game)
    host: GameHost = importlib.import_module(f"bot.games.{game}").HOST
    return host


@cache
def broadcast_for(game: str) -> Broadcast:
    """What outsiders see of ``game`` (its ``broadcast`` module's ``BROADCAST``);
    :class:`ServiceError` ``error.no_such_game`` if unknown."""
    if game not in GAMES:
        raise ServiceError("error.no_such_game", game=game)
    broadcast: Broadcast = importlib.import_module(f"bot.games.{game}.broadcast").BROADCAST
    return broadcast


__all__ = ["GAMES", "broadcast_for", "host_for"]
