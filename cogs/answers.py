"""How the shared commands and the games' own controls (other than ``/race``'s) answer:
privately, in the user's language, and through one error policy (:func:`fail`); and the
server-only check and error answer of the community and tournament commands
(:class:`ServerCommands`).

Error policy: a :class:`~bot.service.ServiceError` (an illegal move with the engine's
reason included) is answered privately, worded for any game (the host's refusals are
worded for races: :data:`GAME_WORDING`); Discord refusing us for permissions is a clear
message; an expired interaction is only logged; anything else is logged and the user gets
a short apology. Never a traceback to the user.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ClassVar, Literal, Protocol

import discord
from discord import app_commands

from bot.community.tournament import TournamentError
from bot.service import RuleError, ServiceError, Table, TableService
from bot.text import plain, t
from cogs.announce import TRANSIENT
from cogs.games import MESSAGE_LIMIT, is_lobby

log = logging.getLogger(__name__)

FOLLOW_UP = "circus: follow-up"
"""The name of the tasks that finish an answered interaction's work (see
:meth:`FollowsUp.later`); a stop waits for them."""
FOR_THREADS = ("create_public_threads", "send_messages_in_threads")
"""What the bot needs in a channel to play a game in a thread of its own."""
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080
"""A game thread's auto-archive duration: a week, Discord's longest."""
NAME_LIMIT = 32
"""Discord's longest display name."""
UNKNOWN_INTERACTION = 10062
"""Discord's error code for an interaction that expired (3 s) before its answer."""


_LOBBIES_POSTING: dict[int, asyncio.Event] = {}


async def post_lobby(
    interaction: discord.Interaction[Any],
    table_id: int,
    content: str,
    view: discord.ui.View,
    remember: Callable[[int], Awaitable[Any]],
) -> None:
    """Answer a ``/… new`` with the table's lobby and ``remember`` its message id. Until the
    id is stored, a click on the lobby (shown to everyone at once) waits for it
    (:func:`lobby_posted`): before, a Join clicked that quickly answered privately and the
    lobby never showed the player."""
    posted = _LOBBIES_POSTING[table_id] = asyncio.Event()
    try:
        answer = await interaction.response.send_message(
            content, view=view, allowed_mentions=discord.AllowedMentions.none()
        )
        message_id = answer.message_id
        if message_id is None:  # Discord left the message out of its answer: ask for it
            message_id = (await interaction.original_response()).id
        await remember(message_id)
    finally:
        posted.set()
        del _LOBBIES_POSTING[table_id]


async def lobby_posted(table_id: int) -> None:
    """Wait until a lobby being posted has its message id stored (at once if none is)."""
    posting = _LOBBIES_POSTING.get(table_id)
    if posting is not None:
        await posting.wait()


def locale_of(interaction: discord.Interaction[Any]) -> str:
    return str(interaction.locale.value) if interaction.locale else "en"


def display_name(user: discord.abc.User) -> str:
    """The member's name as the host stores it for a seat or an entrant: one clean line
    (:func:`~bot.text.plain`) of at most Discord's 32 characters."""
    name = plain(str(getattr(user, "display_name", None) or user.name), NAME_LIMIT)
    return name or str(user.id)


async def reply(interaction: discord.Interaction[Any], content: str, **kwargs: Any) -> None:
    """Answer privately, whether or not the interaction was answered already."""
    content = content[:MESSAGE_LIMIT]
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=True, **kwargs)


async def fail(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """The one error policy of the shared commands and Cartographers' controls: a
    :class:`ServiceError` (an illegal drawing with the engine's reason) is answered
    privately; Discord refusing us is a clear message; anything else is logged and the
    user gets a short apology. Never a traceback to the user."""
    locale = locale_of(interaction)
    if isinstance(error, RuleError):
        text = t(locale, GAME_WORDING[error.key], reason=error.reason_in(locale))
    elif isinstance(error, ServiceError):
        text = t(locale, GAME_WORDING.get(error.key, error.key), **error.params)
    elif isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION:
        log.warning("an interaction expired before it was answered")
        return
    elif isinstance(error, discord.Forbidden):
        log.warning("missing permissions: %s", error.text)
        text = t(locale, "error.missing_permissions_generic")
    else:
        log.error("unexpected error answering an interaction", exc_info=error)
        text = t(locale, "error.unexpected")
    try:
        await reply(interaction, text)
    except discord.HTTPException:
        log.warning("could not answer an interaction with an error")


class FollowsUp:
    """Mixin for a cog that answers an interaction first and finishes its slow work after
    (posting, AI moves): :meth:`later` runs that work as a task a stop waits for."""

    _background: set[asyncio.Task[None]]

    def later(self, coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run slow follow-up work after the interaction was answered (see
        :data:`FOLLOW_UP`)."""
        task = asyncio.create_task(coroutine, name=FOLLOW_UP)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task


class Opener(Protocol):
    """A game's cog whose lobby opens its table (see :func:`open_table`)."""

    service: TableService

    def lobby_text(self, table: Table) -> str: ...

    async def refresh_lobby(self, table: Table) -> None: ...


async def open_table(
    cog: Opener,
    interaction: discord.Interaction[Any],
    table_id: int,
    thread_name: Callable[[Table], str],
) -> None:
    """The host's Start: the game begins (stored first), the lobby says so and loses its
    controls, and the game gets a thread of its own under the lobby (named by
    ``thread_name``) where the bot may open one; else it is played in the channel and the
    host is told why. The caller then posts the first turn, after the answer."""
    table = (await cog.service.start(table_id, interaction.user.id)).table
    lobby = interaction.message if is_lobby(interaction.message, table) else None
    try:
        if lobby is not None:
            await interaction.response.edit_message(
                content=cog.lobby_text(table),
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        else:
            await reply(
                interaction, cog.lobby_text(table), allowed_mentions=discord.AllowedMentions.none()
            )
            await cog.refresh_lobby(table)
    except discord.NotFound as error:
        if error.code != UNKNOWN_INTERACTION:
            raise
        log.warning("table %d: started, but the Start click expired unanswered", table.id)
    permissions = interaction.app_permissions
    if lobby is not None and all(getattr(permissions, name, False) for name in FOR_THREADS):
        try:
            thread = await lobby.create_thread(
                name=thread_name(table)[:100], auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
        except TRANSIENT:
            log.warning("table %d: could not open a thread; playing in the channel", table.id)
        else:
            await cog.service.set_channel_message(table.id, thread_id=thread.id)
    else:
        await interaction.followup.send(
            t(locale_of(interaction), "error.no_threads"), ephemeral=True
        )


class ServerOnly:
    """Mixin for a cog (listed before the cog class) whose slash commands run in a server
    only, whatever Discord let through."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True


class ServerCommands(ServerOnly):
    """Mixin for a cog of server-only commands that refuse with a keyed error (a
    :class:`ServiceError`, or one of :attr:`refusals`): the refusal's message is answered
    privately, a command sent from a DM is told it works in a server only, anything else
    is logged and the user gets a short apology."""

    refusals: ClassVar[tuple[type[ServiceError] | type[TournamentError], ...]] = (ServiceError,)
    """The errors answered with their own message (``key`` and ``params``)."""
    commands_name: ClassVar[str] = "a command"
    """What the log calls these commands when one fails unexpectedly."""

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        locale = locale_of(interaction)
        if isinstance(original, self.refusals):
            text = t(locale, original.key, **original.params)
        elif isinstance(original, app_commands.NoPrivateMessage):
            text = t(locale, "error.server_only")
        else:
            log.error("unexpected error answering %s", self.commands_name, exc_info=original)
            text = t(locale, "error.unexpected")
        try:
            await reply(interaction, text)
        except TRANSIENT:
            log.warning("could not answer %s with an error", self.commands_name)


GAME_WORDING: dict[str, str] = {
    "error.no_such_race": "game.no_such_table",
    "error.bad_seats": "game.bad_seats",
    "error.bad_options": "game.bad_options",
    "error.illegal_move": "game.illegal_move",
    "error.host_cannot_leave_lobby": "game.host_cannot_leave_lobby",
    "error.not_a_lobby": "game.not_a_lobby",
    "error.race_over": "game.over",
    "error.host_only": "game.host_only",
    "error.too_few_players": "game.too_few_players",
    "error.not_seated": "game.not_seated",
    "error.stale_turn": "game.stale_turn",
    "error.not_started": "game.not_started",
    "error.no_such_seat": "game.no_such_seat",
    "error.already_seated": "game.already_seated",
    "error.held_another_seat": "game.held_another_seat",
    "error.no_race_here": "game.no_table_here",
    "error.stale_choice": "game.stale_choice",
    "error.server_only": "game.server_only",
}
"""The host's refusals are worded for races; these say "game" for any game."""


__all__ = [
    "GAME_WORDING",
    "ServerCommands",
    "ServerOnly",
    "display_name",
    "fail",
    "locale_of",
    "reply",
]
