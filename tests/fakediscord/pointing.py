"""discord.py's settings for a bot against the fake: where it connects (REST base and
gateway URL), and how long it waits for more servers before it is ready."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl

SERVERS_WAIT = 0.2
"""Seconds the product's end-to-end tests let discord.py wait for more servers before
``on_ready`` (its own default is 2 s, for Discord sending a bot's servers over a while).
The fake sends them all at once, so the 2 s were idle, and much of the bot waits for
``on_ready``: the time limits, the catch-up after a restart, and a stop signal's shutdown
(every test shorter than 2 s took 2 s longer)."""


def point_discord_at(api_base: str, gateway_url: str) -> tuple[str, yarl.URL]:
    """Point discord.py at a fake Discord; returns the previous settings."""
    previous = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    return previous


def restore(previous: tuple[str, yarl.URL]) -> None:
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = previous


@contextlib.contextmanager
def servers_wait(seconds: float) -> Iterator[None]:
    """Clients made in the block that choose no ``guild_ready_timeout`` of their own wait
    ``seconds`` after the last server the gateway sent before they are ready."""
    init = discord.Client.__init__

    @functools.wraps(init)
    def with_wait(self: discord.Client, *args: Any, **options: Any) -> None:
        options.setdefault("guild_ready_timeout", seconds)
        init(self, *args, **options)

    discord.Client.__init__ = with_wait  # type: ignore[method-assign]
    try:
        yield
    finally:
        discord.Client.__init__ = init  # type: ignore[method-assign]
