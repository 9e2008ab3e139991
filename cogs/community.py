"""Community commands: ``/leaderboard``, ``/profile`` (ratings, records and reliability),
``/settings`` and ``/help``, for every hosted game, and the closing of lobbies past their
server's expiry (the settings' check on opening a lobby is
:func:`cogs.server_checks.enforce_server_settings`).

Handlers stay short: check who may act, read through :mod:`bot.community`, answer. Every
command runs in a server only and reads that server's data only. A public answer tells of
a game (a recent result, the game a record was set in) only if the asker and the answer's
readers may look at that game's channel (:func:`readers_look_at`); the ratings, counts
and chart, a member's own numbers, stay whole. ``/settings`` changes need Manage Server
(Discord hides the command from others, and the handler checks again, since a modified
client can send it anyway).
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.access import Place, may_look
from bot.community.pictures import rating_chart
from bot.community.reliability import Reliability, reliability
from bot.community.server import LANGUAGES, ServerSettings, ServerSettingsStore
from bot.community.stats import Record, leaderboard, profile, rating_history, records
from bot.games import GAMES
from bot.games.base import ServiceError
from bot.service import TableService
from bot.text import t
from cogs.front.answers import MESSAGE_LIMIT, TRANSIENT, ServerCommands, locale_of, reply
from cogs.front.game import GameFront
from cogs.front.place import asker_of, audience_of, is_admin
from cogs.server_checks import public_locale
from cogs.web import OFF, ON, WebCog

log = logging.getLogger(__name__)
N = TypeVar("N", int, float)

GAME_CHOICES = [
    app_commands.Choice(name=_(t("en", f"game.{game}"), key=f"game.{game}"), value=game)
    for game in GAMES
]
"""The ``game`` options' choices as declared: the shipped games (:func:`offer_games` makes
them the registered ones when a cog is built)."""
SERVER_LANGUAGE = "server"
"""The ``language`` choice that goes back to the server's own language."""
NAME_WIDTH = 20
LOBBY_SWEEP_SECONDS = 300.0


def reliability_lines(found: Reliability, locale: str) -> list[str]:
    """A profile's reliability line (none for a member who never finished nor left a
    game)."""
    share = found.percent
    if share is not None:
        line = t(locale, "profile.reliability", share=share, count=found.finished, left=found.left)
        return [line]
    if found.left:
        return [t(locale, "profile.reliability_unknown", left=found.left)]
    return []


def game_name(fronts: Mapping[str, GameFront], locale: str, game: str) -> str:
    """A game's name in ``locale`` (one no longer hosted: as the catalogue names it)."""
    front = fronts.get(game)
    return front.title(locale) if front is not None else t(locale, f"game.{game}")


def offer_games(
    command: app_commands.Command[Any, ..., Any], option: str, fronts: Mapping[str, GameFront]
) -> None:
    """Let a command's ``option`` choose among the hosted games (those registered when the
    bot was built), named in English and translated by the catalogue."""
    choices: list[app_commands.Choice[str]] = [
        app_commands.Choice(name=_(front.title("en"), key=f"game.{game}"), value=game)
        for game, front in fronts.items()
    ]
    parameter = command._params[option]
    command._params[option] = dataclasses.replace(parameter, choices=choices)  # type: ignore[arg-type]


@app_commands.guild_only()
class CommunityCog(ServerCommands, commands.Cog):
    """Ratings, profiles, server settings and help."""

    commands_name = "a community command"

    def __init__(
        self,
        bot: commands.AutoShardedBot,
        service: TableService,
        fronts: Mapping[str, GameFront],
    ) -> None:
        self.bot = bot
        self.service = service
        self.fronts = fronts
        self.server_settings = ServerSettingsStore(service.storage)
        self.web: WebCog | None = None
        offer_games(self.leaderboard, "game", fronts)
        offer_games(self.settings, "recompute_ratings", fronts)

    def game_name(self, locale: str, game: str) -> str:
        return game_name(self.fronts, locale, game)

    async def public_locale(self, interaction: discord.Interaction[Any]) -> str:
        """The language of this server's public posts (see :func:`public_locale`)."""
        settings = await self.server_settings.get(interaction.guild_id or 0)
        return public_locale(interaction, settings)

    # ------------------------------------------------------------------ ratings

    @app_commands.command(
        name=_("leaderboard", key="cmd.leaderboard"),
        description=_("A game's ratings in this server", key="cmd.leaderboard.about"),
    )
    @app_commands.describe(
        game=_("The game", key="cmd.option.which_game"),
        page=_("Page number", key="cmd.option.page"),
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        locale = locale_of(interaction)
        if game not in self.fronts:
            raise ServiceError("error.no_such_game", game=game)
        board = await leaderboard(self.service.storage, interaction.guild_id, game, page)
        name = self.game_name(locale, game)
        if not board.rows:
            await reply(interaction, t(locale, "leaderboard.empty", game=name))
            return
        locale = await self.public_locale(interaction)
        name = self.game_name(locale, game)
        lines = [
            f"{row.rank:<3} {row.name[:NAME_WIDTH]:<{NAME_WIDTH}} {row.rating.ordinal:7.1f}"
            f" {row.games:6} {row.wins:5} {row.podiums:8}"
            for row in board.rows
        ]
        header = t(locale, "leaderboard.header", game=name, page=board.page, pages=board.pages)
        table = "\n".join([t(locale, "leaderboard.columns"), *lines])
        found = await records(self.service.storage, interaction.guild_id)
        readable = readers_look_at(interaction)
        notes = [
            record_line(
                locale, record, self.game_name(locale, record.game), readable(record.channel_id)
            )
            for record in found
            if record.game == game
        ]
        await interaction.response.send_message(
            "\n".join([f"{header}\n```\n{table}\n```", *notes])[:MESSAGE_LIMIT],
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(
        name=_("profile", key="cmd.profile"),
        description=_("A member's rated games, with a rating chart", key="cmd.profile.about"),
    )
    @app_commands.describe(member=_("Whose profile (yours if left out)", key="cmd.profile.member"))
    async def profile(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        locale = locale_of(interaction)
        who = member or interaction.user
        name = str(getattr(who, "display_name", None) or who.name)
        games = await profile(self.service.storage, interaction.guild_id, who.id)
        kept = await reliability(self.service.storage, interaction.guild_id, who.id)
        if not games:
            lines = [t(locale, "profile.none", name=name), *reliability_lines(kept, locale)]
            await reply(interaction, "\n".join(lines))
            return
        locale = await self.public_locale(interaction)
        readable = readers_look_at(interaction)
        lines = [t(locale, "profile.header", name=name), *reliability_lines(kept, locale)]
        for game in games:
            lines.append(
                t(
                    locale,
                    "profile.game",
                    game=self.game_name(locale, game.game),
                    mu=f"{game.rating.mu:.1f}",
                    sigma=f"{game.rating.sigma:.1f}",
                    ordinal=f"{game.rating.ordinal:.1f}",
                    games=game.games,
                    wins=game.wins,
                    podiums=game.podiums,
                    average=f"{game.average_place:.2f}",
                )
            )
            results = ", ".join(
                t(locale, "profile.result", place=r.place, seats=r.seats, change=f"{r.change:+.1f}")
                for r in game.recent
                if readable(r.channel_id)
            )
            if results:
                lines.append(t(locale, "profile.recent", results=results))
        held = await records(self.service.storage, interaction.guild_id)
        lines.extend(
            record_line(
                locale, record, self.game_name(locale, record.game), readable(record.channel_id)
            )
            for record in held
            if record.user_id == who.id
        )
        main = max(games, key=lambda game: (game.games, game.game))
        history = await rating_history(
            self.service.storage, interaction.guild_id, main.game, who.id
        )
        title = t(locale, "profile.chart_title", name=name, game=self.game_name(locale, main.game))
        picture = await self.service.in_worker(rating_chart, title, history)
        await interaction.response.send_message(
            "\n".join(lines)[:MESSAGE_LIMIT],
            file=discord.File(io.BytesIO(picture.png), filename="rating.png"),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    # ------------------------------------------------------------------ settings

    @app_commands.command(
        name=_("settings", key="cmd.settings"),
        description=_("This server's rules for games (Manage Server)", key="cmd.settings.about"),
    )
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.describe(
        allow_channel=_("Allow games in this channel", key="cmd.settings.allow_channel"),
        disallow_channel=_(
            "No longer allow games in this channel", key="cmd.settings.disallow_channel"
        ),
        any_channel=_(
            "True: games may be opened in any channel again", key="cmd.settings.any_channel"
        ),
        host_role=_("Only this role may open games", key="cmd.settings.host_role"),
        anyone_hosts=_("True: everyone may open games again", key="cmd.settings.anyone_hosts"),
        language=_("Language of public messages", key="cmd.settings.language"),
        max_per_member=_(
            "Most open games per member (0: no limit)", key="cmd.settings.max_per_member"
        ),
        max_per_server=_(
            "Most open games in the server (0: no limit)", key="cmd.settings.max_per_server"
        ),
        lobby_expiry_hours=_(
            "Close unstarted lobbies after this many hours (0: never)",
            key="cmd.settings.lobby_expiry_hours",
        ),
        recompute_ratings=_(
            "Rebuild this game's ratings from the stored results",
            key="cmd.settings.recompute_ratings",
        ),
        web=_("Turn this server's web page on or off", key="cmd.settings.web"),
    )
    @app_commands.choices(
        language=[
            app_commands.Choice(
                name=_(t("en", f"language.{code}"), key=f"language.{code}"), value=code
            )
            for code in (*LANGUAGES, SERVER_LANGUAGE)
        ],
        recompute_ratings=GAME_CHOICES,
        web=[app_commands.Choice(name=_(v, key=f"settings.web.{v}"), value=v) for v in (ON, OFF)],
    )
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        allow_channel: discord.TextChannel | None = None,
        disallow_channel: discord.TextChannel | None = None,
        any_channel: bool = False,
        host_role: discord.Role | None = None,
        anyone_hosts: bool = False,
        language: str | None = None,
        max_per_member: app_commands.Range[int, 0, 1000] | None = None,
        max_per_server: app_commands.Range[int, 0, 1000] | None = None,
        lobby_expiry_hours: app_commands.Range[float, 0, 336] | None = None,
        recompute_ratings: str | None = None,
        web: str | None = None,
    ) -> None:
        locale = locale_of(interaction)
        if not is_admin(interaction):
            raise ServiceError("error.admin_only")
        assert interaction.guild_id is not None
        current = await self.server_settings.get(interaction.guild_id)
        channels = set(current.channels)
        if any_channel:
            channels.clear()
        if allow_channel is not None:
            channels.add(allow_channel.id)
        if disallow_channel is not None:
            channels.discard(disallow_channel.id)
        changed = ServerSettings(
            channels=tuple(channels),
            host_role=None if anyone_hosts else (host_role.id if host_role else current.host_role),
            language=None if language == SERVER_LANGUAGE else language or current.language,
            max_open_per_member=_limit(max_per_member, current.max_open_per_member),
            max_open_per_server=_limit(max_per_server, current.max_open_per_server),
            lobby_expiry_hours=_limit(lobby_expiry_hours, current.lobby_expiry_hours),
        )
        if changed != current:
            current = await self.server_settings.set(interaction.guild_id, changed)
            lines = [t(locale, "settings.saved")]
        else:
            lines = []
        if recompute_ratings is not None:
            count = await self.service.recompute_ratings(interaction.guild_id, recompute_ratings)
            lines.append(
                t(
                    locale,
                    "settings.recomputed",
                    game=self.game_name(locale, recompute_ratings),
                    count=count,
                )
            )
        lines.extend(settings_lines(locale, current))
        lines.extend(await self.web.settings_lines(interaction, web, locale) if self.web else [])
        await reply(interaction, "\n".join(lines), allowed_mentions=discord.AllowedMentions.none())

    # ------------------------------------------------------------------ help

    @app_commands.command(
        name=_("help", key="cmd.help"),
        description=_("What this bot does and how to start each game", key="cmd.help.about"),
    )
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        locale = locale_of(interaction)
        games = "\n".join(front.help_line(locale) for front in self.fronts.values())
        await reply(interaction, t(locale, "help.text", games=games))

    # ------------------------------------------------------------------ lobby expiry

    async def close_expired_lobbies(self) -> list[int]:
        """Close every lobby older than its server's expiry (as an admin's abandon) and say
        so on its lobby message."""
        closed = []
        for table_id in await self.server_settings.expired_lobbies(
            self.service.clock.now(), self.service.shards
        ):
            try:
                table = await self.service.table(table_id)
                await self.service.abandon(table_id, table.row.host_id, admin=True)
            except ServiceError:
                continue  # started or closed meanwhile
            closed.append(table_id)
            settings = await self.server_settings.get(table.row.guild_id or 0)
            text = t(
                table.row.locale, "lobby.expired", hours=f"{settings.lobby_expiry_hours or 0:g}"
            )
            channel = self.bot.get_channel(table.row.channel_id or 0)
            if (
                isinstance(channel, discord.TextChannel | discord.Thread)
                and table.row.lobby_message_id
            ):
                try:
                    message = channel.get_partial_message(table.row.lobby_message_id)
                    await message.edit(
                        content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
                    )
                except TRANSIENT:
                    log.warning("table %d: could not mark the lobby closed", table_id)
        return closed

    async def expire_lobbies(self) -> None:
        """Run for the bot's life: close expired lobbies every few minutes."""
        await self.bot.wait_until_ready()
        clock = self.service.clock
        while not self.bot.is_closed():
            try:
                await self.close_expired_lobbies()
            except Exception:
                log.exception("closing expired lobbies failed")
            await clock.sleep_until(clock.now() + LOBBY_SWEEP_SECONDS, asyncio.Event())


def _limit(given: N | None, current: N | None) -> N | None:
    """An option's new value: left out keeps the current one, 0 removes the limit."""
    if given is None:
        return current
    return None if given == 0 else given


def readers_look_at(interaction: discord.Interaction[Any]) -> Callable[[int | None], bool]:
    """Whether a public answer to ``interaction`` may tell of a game played in a channel
    (by its id): only if the asker and everyone reading the answer may look at that
    channel (:func:`bot.access.may_look`)."""
    readers = (asker_of(interaction), audience_of(interaction))

    def readable(channel_id: int | None) -> bool:
        where = Place(interaction.guild_id, channel_id)
        return all(may_look(where, who) for who in readers)

    return readable


def record_line(locale: str, record: Record, game: str, named: bool = True) -> str:
    """A server record in a sentence: a win streak counts games, the biggest win rating
    (and the game it was, ``game`` in words, where ``named``)."""
    value = f"{record.value:g}" if record.kind == "win_streak" else f"{record.value:.1f}"
    unnamed = record.kind == "biggest_win" and (record.table_id is None or not named)
    return t(
        locale,
        f"records.{record.kind}_unnamed" if unnamed else f"records.{record.kind}",
        game=game,
        value=value,
        name=record.name,
        race=record.table_id,
    )


def settings_lines(locale: str, settings: ServerSettings) -> list[str]:
    no_limit = t(locale, "settings.no_limit")
    return [
        t(locale, "settings.header"),
        t(locale, "settings.channels", channels=", ".join(f"<#{c}>" for c in settings.channels))
        if settings.channels
        else t(locale, "settings.channels_any"),
        t(locale, "settings.host_role", role=f"<@&{settings.host_role}>")
        if settings.host_role is not None
        else t(locale, "settings.host_role_any"),
        t(locale, "settings.language", language=t(locale, f"language.{settings.language}"))
        if settings.language
        else t(locale, "settings.language_server"),
        t(locale, "settings.max_member", limit=settings.max_open_per_member or no_limit),
        t(locale, "settings.max_server", limit=settings.max_open_per_server or no_limit),
        t(locale, "settings.lobby_expiry", hours=f"{settings.lobby_expiry_hours:g}")
        if settings.lobby_expiry_hours
        else t(locale, "settings.lobby_expiry_never"),
    ]


__all__ = ["CommunityCog"]
