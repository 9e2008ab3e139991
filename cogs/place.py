"""The place check of the shared commands and Cartographers' controls: the host's rule
book :mod:`bot.access` (a table belongs to its server; from a DM only a seated player's
own move, through the bot's own DM button) applied to a Discord interaction."""

from __future__ import annotations

from typing import Any

import discord

from bot.access import Act, judge
from bot.service import ServiceError, Table
from cogs.race import asker_of


def check_place(table: Table, interaction: discord.Interaction[Any], act: Act) -> bool:
    """Refuse (:class:`ServiceError`) a request from the wrong place; returns whether the
    Manage Server override applies."""
    verdict = judge(
        table.row.guild_id,
        asker_of(interaction),
        act,
        seated=table.seat_of(interaction.user.id) is not None,
    )
    if verdict.refusal is not None:
        raise ServiceError(verdict.refusal, race=table.id)
    return verdict.admin


__all__ = ["Act", "check_place"]
