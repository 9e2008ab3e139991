"""Charioteer on the shared commands: routes ``/game …`` to the race cog's own code, so a
race behaves exactly as through ``/race …`` (the race cog, its panel and announcements
stay where they are)."""

from __future__ import annotations

from typing import Any

import discord

from bot.service import Table
from bot.text import t
from cogs.games import MESSAGE_LIMIT
from cogs.race import RaceCog
from engine.charioteer.render import reveal_text
from engine.core import public_events


class CharioteerFront:
    game = "charioteer"

    def __init__(self, cog: RaceCog) -> None:
        self.cog = cog

    def title(self, locale: str | None) -> str:
        return t(locale, "game.charioteer")

    def rules_card(self, locale: str | None) -> str:
        return t(locale, "rules.card")

    def lobby_text(self, table: Table) -> str:
        return self.cog.lobby_text(table)

    def thread_name(self, table: Table, locale: str | None) -> str:
        return t(locale, "thread.name", race=table.id)

    async def refresh_lobby(self, table: Table) -> None:
        await self.cog.refresh_lobby(table)

    async def status_text(self, table: Table, locale: str | None) -> str:
        return await self.cog.status_text(table, locale or "en")

    async def log_chunks(self, table: Table, locale: str | None) -> list[str]:
        """The last three reveals, as ``/race log`` shows them."""
        chunks = []
        for report in (await self.cog.service.turn_reports(table.id))[-3:]:
            story = reveal_text(
                public_events(report.events), report.view, names=table.names, locale=locale or "en"
            )
            header = t(locale, "reveal.header", race=table.id, turn=report.turn)
            chunks.append(f"{header}\n{story}"[:MESSAGE_LIMIT])
        return chunks

    async def open_panel(self, interaction: discord.Interaction[Any], table: Table) -> None:
        await self.cog.open_panel(interaction, table.id, None)

    async def settle(self, table_id: int) -> None:
        await self.cog.settle(table_id)


__all__ = ["CharioteerFront"]
