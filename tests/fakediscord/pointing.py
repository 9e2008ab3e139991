"""discord.py's two settings that decide where it connects: REST base and gateway URL."""

from __future__ import annotations

import discord.gateway
import discord.http
import yarl


def point_discord_at(api_base: str, gateway_url: str) -> tuple[str, yarl.URL]:
    """Point discord.py at a fake Discord; returns the previous settings."""
    previous = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    return previous


def restore(previous: tuple[str, yarl.URL]) -> None:
    discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = previous
