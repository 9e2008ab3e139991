"""Each hosted game's Discord adapter: one module per game (``cogs/games/<game>.py``) gives
a :class:`GameFront`, through which the shared ``/game …`` commands (:mod:`cogs.tables`)
and the announcer reach the game's own panel, public texts and pictures, rules card and
lobby. The bot holds one front per game (``bot.fronts``), built at start-up. A front that
is its own cog settles a table through the announcer (:class:`AnnouncedFront`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.service import Announcement, Table

if TYPE_CHECKING:
    from cogs.announce import Announcer

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000
"""Discord's longest message, in characters."""


class GameFront(Protocol):
    """What the shared commands and the announcer need from one game on Discord."""

    game: str

    def title(self, locale: str | None) -> str:
        """The game's name, as lists show it."""
        ...

    def rules_card(self, locale: str | None) -> str: ...

    def lobby_text(self, table: Table) -> str: ...

    def thread_name(self, table: Table, locale: str | None) -> str:
        """The name of the table's thread, as its Start names it (a tournament's too)."""
        ...

    async def refresh_lobby(self, table: Table) -> None: ...

    async def status_text(self, table: Table, locale: str | None) -> str:
        """Where the table stands, public facts only."""
        ...

    async def log_chunks(self, table: Table, locale: str | None) -> list[str]:
        """The latest resolved steps, as messages of at most 2,000 characters."""
        ...

    async def open_panel(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """Answer with the seat's private panel (already checked: the right server)."""
        ...

    async def settle(self, table_id: int) -> None:
        """After a seat changed hands or left: AI seats play, announcements go out."""
        ...


class AnnouncedFront:
    """Mixin for a game's cog that is its own front (listed before the cog class): the
    default :meth:`settle`, through the cog's announcer."""

    announcer: Announcer

    async def settle(self, table_id: int, *, moved: bool = True) -> None:
        """After an accepted action: AI seats play, announcements go out, the post updates.
        A failure is logged, never raised: the action itself is stored."""
        try:
            await self.announcer.follow_up(table_id, moved=moved)
        except Exception:
            log.exception("table %d: follow-up work failed", table_id)


@dataclass
class Post:
    """A public message the announcer sends: its text, pictures and controls, and the
    members it pings (the players it mentions on purpose; nobody else, whatever the text
    holds: :func:`cogs.announce.pings`)."""

    content: str
    files: list[discord.File] = field(default_factory=list)
    view: discord.ui.View | None = None
    pings: Sequence[int | None] = ()


class Poster(Protocol):
    """A game that words and draws its own announcements (the announcer's default is
    Charioteer's); the announcer sends them."""

    async def compose(self, channel: Any, table: Table, announcement: Announcement) -> Post:
        """The message for ``announcement`` in ``channel`` (pictures only where the bot may
        attach files there)."""
        ...

    async def board_content(self, table: Table) -> str | None:
        """The current board message's text after a move, or None to leave it."""
        ...

    async def turn_notice(self, table: Table, user_id: int) -> tuple[str, discord.ui.View]:
        """A seat's direct-message notice that its move is due."""
        ...


__all__ = ["AnnouncedFront", "GameFront", "Post", "Poster", "is_lobby"]


def is_lobby(message: discord.Message | None, table: Table) -> bool:
    """Whether a click came from the table's lobby message, the only one updated in place.
    Until the lobby's id is stored (a host may click Start before), the public message
    carrying this table's lobby controls is its lobby: only the bot writes them."""
    if message is None or message.flags.ephemeral:
        return False
    stored = table.row.lobby_message_id
    return message.id == stored if stored is not None else message.author.bot
