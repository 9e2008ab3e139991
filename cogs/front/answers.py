"""How every command, button, select and form answers: privately, in the user's language,
through one error policy (:func:`fail`); the follow-up work done after an answer
(:class:`FollowsUp`); and the server-only check and error answer of the community and
tournament commands (:class:`ServerCommands`).

Error policy: a :class:`~bot.service.ServiceError` (an illegal move with the engine's
reason included) is answered privately in the words of a :class:`Wording` (the host's
refusals are worded for races; :data:`GAME_WORDING` says "game" for any game, and a game
may word them its own way); Discord refusing us for permissions is a clear message; an
expired interaction, or a call Discord never answered, is only logged (the answer may
have reached Discord: nothing is said twice); anything else is logged and the user gets a
short apology. Never a traceback to the user.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, ClassVar, Literal

import aiohttp
import discord
from discord import app_commands

from bot.community.tournament import TournamentError
from bot.service import RuleError, ServiceError
from bot.text import plain, t

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 2000
"""Discord's longest message, in characters."""
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
NO_ANSWER = (aiohttp.ClientError, OSError, TimeoutError)
"""A call to Discord that got no answer at all (a timeout, a dropped connection): not an
``HTTPException``."""
TRANSIENT = (discord.HTTPException, *NO_ANSWER)
"""What a call to Discord can fail with: an HTTP error discord.py gave up on, or no answer."""


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


async def refuse(interaction: discord.Interaction[Any], key: str) -> None:
    """Answer an interaction nothing else will take (an unknown or forged control)."""
    try:
        await reply(interaction, t(locale_of(interaction), key))
    except TRANSIENT:
        log.warning("could not refuse an interaction")


class Wording:
    """How a refusal reads: in game words (:data:`GAME_WORDING`). A game words its own
    refusals by overriding :meth:`refusal_text`, and answers errors of its own kind (a
    typed move that does not parse) with :meth:`own_error_text`."""

    async def refusal_text(
        self, interaction: discord.Interaction[Any], error: ServiceError, locale: str
    ) -> str:
        params = refusal_params(error, locale)
        return t(locale, GAME_WORDING.get(error.key, error.key), **params)

    def own_error_text(self, error: BaseException, locale: str) -> str | None:
        """The answer to an error only this game raises; None for any other."""
        return None


def refusal_params(error: ServiceError, locale: str) -> dict[str, Any]:
    """A refusal's parameters; an illegal move's reason in the user's language."""
    params = dict(error.params)
    if isinstance(error, RuleError):
        params["reason"] = error.reason_in(locale)
    return params


GAME_WORDS = Wording()
"""Refusals in game words, for the commands every game shares."""


async def fail(
    interaction: discord.Interaction[Any], error: BaseException, wording: Wording = GAME_WORDS
) -> None:
    """The one error policy (see the module docstring), worded by ``wording``."""
    locale = locale_of(interaction)
    own = wording.own_error_text(error, locale)
    if own is not None:
        text = own
    elif isinstance(error, ServiceError):
        text = await wording.refusal_text(interaction, error, locale)
    elif isinstance(error, app_commands.NoPrivateMessage):
        text = t(locale, "error.server_only")
    elif isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION:
        log.warning("an interaction expired before it was answered")
        return
    elif isinstance(error, discord.Forbidden):
        log.warning("missing permissions: %s", error.text)
        text = t(locale, "error.missing_permissions_generic")
    elif isinstance(error, NO_ANSWER):
        log.warning("Discord did not answer a call (%s)", type(error).__name__)
        return  # the answer may have reached Discord: nothing is said twice
    else:
        log.error("unexpected error answering an interaction", exc_info=error)
        text = t(locale, "error.unexpected")
    try:
        await reply(interaction, text)
    except TRANSIENT:
        log.warning("could not answer an interaction with an error")


class FollowsUp:
    """Mixin for what answers an interaction first and finishes its slow work after
    (posting, AI moves): :meth:`later` runs that work as a task a stop waits for."""

    _background: set[asyncio.Task[None]]

    def later(self, coroutine: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run slow follow-up work after the interaction was answered (see
        :data:`FOLLOW_UP`)."""
        task = asyncio.create_task(coroutine, name=FOLLOW_UP)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task


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
    "FOLLOW_UP",
    "GAME_WORDING",
    "MESSAGE_LIMIT",
    "NO_ANSWER",
    "TRANSIENT",
    "FollowsUp",
    "ServerCommands",
    "ServerOnly",
    "Wording",
    "display_name",
    "fail",
    "locale_of",
    "refusal_params",
    "refuse",
    "reply",
]
