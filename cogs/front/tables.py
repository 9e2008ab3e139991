"""``/game …``: the commands every hosted game shares — ``list`` (this server's open
tables), ``mine`` (the member's own tables, here or, in a DM, in every server they share
with the bot), ``panel``, ``status``, ``log``, ``rules``, ``leave``, ``abandon``,
``substitute``, ``dm`` and ``notices`` (how and when the member hears of their moves).
Each takes a ``game`` option, the table's number, which autocompletes with this server's
open tables; without it, the channel's or thread's table is meant. Lists
and suggestions hold only the tables of the channels the member views.

A handler finds the table, checks the place (:mod:`cogs.front.place`: a table belongs to
its server and is seen by whoever views its channel), calls the service, answers, and
hands the rest to the game's front (:class:`~cogs.front.game.GameFront`). Errors go
through the one error policy of :func:`cogs.front.answers.fail`. A game's own commands
that do the same (``/race leave``, say) answer through the same functions, in their
game's words.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from zoneinfo import available_timezones

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.access import lists_own_seat
from bot.notices import MAX_REMIND_HOURS, NOTICE_MODES, NoticeChoices, Recipient
from bot.service import ServiceError, Table, TableService, seat_owes
from bot.text import t
from cogs.front.announce import latest_post_link
from cogs.front.answers import MESSAGE_LIMIT, display_name, fail, locale_of, reply
from cogs.front.game import GameFront
from cogs.front.place import Act, asker_of, check_place, place_of

log = logging.getLogger(__name__)

GAME_OPTION = _("The table's number (this channel's table if left out)", key="cmd.option.game")
CHOICE_LIMIT = 25
NAME_LIMIT = 100


class TablesCog(
    commands.GroupCog,
    group_name=_("game", key="cmd.game"),
    group_description=_("Every game's tables: panel, status, log, rules…", key="cmd.game.about"),
):
    """The shared table commands, dispatched to each game's adapter."""

    def __init__(
        self,
        bot: commands.AutoShardedBot,
        service: TableService,
        fronts: Mapping[str, GameFront],
    ) -> None:
        super().__init__()
        self.bot = bot
        self.service = service
        self.fronts = fronts

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await fail(interaction, getattr(error, "original", error))

    async def find(
        self, interaction: discord.Interaction[Any], game: int | None, act: Act
    ) -> tuple[Table, bool]:
        """The table meant, checked for this place; and whether Manage Server applies."""
        table = await find_table(self.service, interaction, game)
        return table, check_place(table, interaction, act)

    def describe(self, table: Table, locale: str | None) -> str:
        """``#12 Cartographers · alice, bob · turn 3``"""
        title = self.title(table, locale)
        people = ", ".join(seat.name for seat in table.seats)
        if table.status == "lobby":
            stage = t(locale, "game.in_lobby")
        else:
            stage = t(locale, "game.turn", turn=table.row.turn)
        return f"#{table.id} {title} · {people} · {stage}"

    async def game_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        """This server's open tables the member may look at (those of the channels they
        view) whose description holds what was typed."""
        locale = locale_of(interaction)
        typed = current.strip().lower().lstrip("#")
        choices = []
        for table in await self.service.open_tables(asker_of(interaction), CHOICE_LIMIT):
            text = self.describe(table, locale)
            if typed in text.lower():
                clipped = text if len(text) <= NAME_LIMIT else text[: NAME_LIMIT - 1] + "…"
                choices.append(app_commands.Choice(name=clipped, value=table.id))
        return choices[:CHOICE_LIMIT]

    async def seat_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The seats of the table named by the ``game`` option (or this channel's), with
        who holds them: ``2 · bob``; none of a table the member may not look at (another
        server's, or of a channel they do not view)."""
        game = getattr(interaction.namespace, "game", None)
        try:
            table, _ = await self.find(
                interaction, game if isinstance(game, int) else None, Act.LOOK
            )
        except ServiceError:
            return []
        typed = current.strip().lower()
        return [
            app_commands.Choice(name=f"{seat.seat} · {seat.name}"[:NAME_LIMIT], value=seat.seat)
            for seat in table.seats
            if typed in f"{seat.seat} · {seat.name}".lower()
        ][:CHOICE_LIMIT]

    def front(self, table: Table) -> GameFront:
        front = self.fronts.get(table.game)
        if front is None:
            raise ServiceError("error.no_such_game", game=table.game)
        return front

    # ------------------------------------------------------------------ commands

    @app_commands.command(
        name=_("list", key="cmd.list"),
        description=_("This server's open tables", key="cmd.list.about"),
    )
    @app_commands.guild_only()
    async def list_(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.guild_id is None:
            raise ServiceError("game.server_only")
        locale = locale_of(interaction)
        tables = await self.service.open_tables(asker_of(interaction), CHOICE_LIMIT)
        if not tables:
            await reply(interaction, t(locale, "game.list.empty"))
            return
        lines = [t(locale, "game.list.header", count=len(tables))]
        lines += [self.describe(table, locale) for table in tables]
        await reply(interaction, "\n".join(lines), allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(
        name=_("panel", key="cmd.panel"),
        description=_("Open your private panel", key="cmd.panel.about"),
    )
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.guild_only()
    async def panel(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        table, _ = await self.find(interaction, game, Act.PLAY)
        await self.front(table).open_panel(interaction, table)

    @app_commands.command(
        name=_("status", key="cmd.status"),
        description=_("Where the game stands", key="cmd.game.status.about"),
    )
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.guild_only()
    async def status(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        table, _ = await self.find(interaction, game, Act.LOOK)
        await answer_status(interaction, self.front(table), table)

    @app_commands.command(
        name=_("log", key="cmd.log"),
        description=_("The latest turns of the game", key="cmd.game.log.about"),
    )
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.guild_only()
    async def log_(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        table, _ = await self.find(interaction, game, Act.LOOK)
        await answer_log(interaction, self.front(table), table)

    @app_commands.command(
        name=_("rules", key="cmd.rules"),
        description=_("The game's short rules card", key="cmd.game.rules.about"),
    )
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.guild_only()
    async def rules(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        locale = locale_of(interaction)
        try:
            table, _ = await self.find(interaction, game, Act.LOOK)
            cards = [self.front(table).rules_card(locale)]
        except ServiceError as error:
            if game is not None or error.key != "error.no_race_here":
                raise
            cards = [front.rules_card(locale) for front in self.fronts.values()]
        await reply(interaction, "\n\n".join(cards))

    @app_commands.command(
        name=_("leave", key="cmd.leave"),
        description=_("Leave the game (an AI takes your seat)", key="cmd.game.leave.about"),
    )
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        table, _ = await self.find(interaction, game, Act.PLAY)
        await leave(interaction, self.front(table), table, GAME_WORDS)

    @app_commands.command(
        name=_("abandon", key="cmd.abandon"),
        description=_("End the game (host or Manage Server)", key="cmd.game.abandon.about"),
    )
    @app_commands.describe(game=GAME_OPTION)
    @app_commands.guild_only()
    async def abandon(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        table, admin = await self.find(interaction, game, Act.MANAGE)
        await abandon(interaction, self.front(table), table, GAME_WORDS, admin=admin)

    @app_commands.command(
        name=_("substitute", key="cmd.substitute"),
        description=_("Put a member in a seat (host)", key="cmd.substitute.about"),
    )
    @app_commands.describe(
        seat=_("The seat to hand over", key="cmd.option.seat"),
        member=_("Who plays it from now on", key="cmd.option.player"),
        game=GAME_OPTION,
    )
    @app_commands.guild_only()
    async def substitute(
        self,
        interaction: discord.Interaction[Any],
        seat: app_commands.Range[str, 1, 3],
        member: discord.Member,
        game: int | None = None,
    ) -> None:
        table, admin = await self.find(interaction, game, Act.MANAGE)
        await substitute(
            interaction, self.front(table), table, seat, member, GAME_WORDS, admin=admin
        )

    @app_commands.command(
        name=_("dm", key="cmd.dm"),
        description=_("Get a direct message when your move is due", key="cmd.dm.about"),
    )
    @app_commands.describe(
        enabled=_("On: a direct message when your move is due", key="cmd.option.enabled")
    )
    async def dm(self, interaction: discord.Interaction[Any], enabled: bool) -> None:
        await set_dm(interaction, self.service, enabled)

    @app_commands.command(
        name=_("mine", key="cmd.mine"),
        description=_("Your games, those waiting for your move first", key="cmd.mine.about"),
    )
    async def mine(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        asker = asker_of(interaction)
        seated = await self.service.seated_tables(interaction.user.id)
        shared = await self.shared_servers(interaction.user.id, asker.guild_id, seated)
        tables = [
            table for table in seated if lists_own_seat(place_of(table), asker, shared.__contains__)
        ]
        await reply(
            interaction,
            my_games_text(
                tables,
                interaction.user.id,
                locale_of(interaction),
                self.title,
                shared if asker.guild_id is None else None,
            ),
            allowed_mentions=discord.AllowedMentions.none(),
            suppress_embeds=True,
        )

    async def shared_servers(
        self, user_id: int, here: int | None, tables: Sequence[Table]
    ) -> dict[int, str]:
        """The servers (id: name) of these tables that the member shares with the bot,
        asked of Discord (a DM comes with no server, and the bot keeps no member lists);
        from a server, that server alone."""
        if here is not None:
            guild = self.bot.get_guild(here)
            return {here: guild.name if guild is not None else ""}
        shared: dict[int, str] = {}
        for guild_id in {table.row.guild_id for table in tables} - {None}:
            assert guild_id is not None
            try:
                await self.bot.http.get_member(guild_id, user_id)
            except (discord.NotFound, discord.Forbidden):
                continue
            guild = self.bot.get_guild(guild_id)
            shared[guild_id] = guild.name if guild is not None else ""
        return shared

    def title(self, table: Table, locale: str | None) -> str:
        """The table's game, named in ``locale``."""
        front = self.fronts.get(table.game)
        return front.title(locale) if front else table.game

    @app_commands.command(
        name=_("notices", key="cmd.notices"),
        description=_("How and when you hear that your move is due", key="cmd.notices.about"),
    )
    @app_commands.describe(
        by=_("By direct message, by a ping in the game's thread, or none", key="cmd.option.by"),
        time_zone=_("Your time zone, such as Europe/Rome", key="cmd.option.time_zone"),
        quiet_from=_("Quiet hours begin at this hour (0-23)", key="cmd.option.quiet_from"),
        quiet_until=_(
            "Quiet hours end at this hour (0-23; the same as the start: none)",
            key="cmd.option.quiet_until",
        ),
        remind_every=_(
            "A reminder every this many hours (0: at half time and near the end)",
            key="cmd.option.remind_every",
        ),
    )
    @app_commands.choices(
        by=[
            app_commands.Choice(name=_(mode, key=f"notices.choice.{mode}"), value=mode)
            for mode in NOTICE_MODES
        ]
    )
    async def notices(
        self,
        interaction: discord.Interaction[Any],
        by: str | None = None,
        time_zone: app_commands.Range[str, 1, 64] | None = None,
        quiet_from: app_commands.Range[int, 0, 23] | None = None,
        quiet_until: app_commands.Range[int, 0, 23] | None = None,
        remind_every: app_commands.Range[int, 0, MAX_REMIND_HOURS] | None = None,
    ) -> None:
        store = self.service.notices
        member = await store.member(interaction.user.id)
        choices = changed_choices(
            member.choices,
            by=by,
            time_zone=time_zone,
            quiet_from=quiet_from,
            quiet_until=quiet_until,
            remind_every=remind_every,
        )
        if choices != member.choices:
            await store.choose(interaction.user.id, choices)
            member = await store.member(interaction.user.id)
        await reply(interaction, notices_text(member, locale_of(interaction)))

    @notices.autocomplete("time_zone")
    async def _time_zone_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=zone, value=zone) for zone in time_zones(current)]

    @panel.autocomplete("game")
    @status.autocomplete("game")
    @log_.autocomplete("game")
    @rules.autocomplete("game")
    @leave.autocomplete("game")
    @abandon.autocomplete("game")
    @substitute.autocomplete("game")
    async def _game_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        return await self.game_choices(interaction, current)

    @substitute.autocomplete("seat")
    async def _seat_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.seat_choices(interaction, current)


MY_GAMES_SHOWN = 15
"""Tables ``/game mine`` lists before it says how many more there are (a phone's screen)."""


def my_games_text(
    tables: Sequence[Table],
    user_id: int,
    locale: str | None,
    title: Callable[[Table, str | None], str],
    servers: Mapping[int, str] | None,
) -> str:
    """``/game mine``'s answer: one short line per table (those owing the member's move
    first, with their deadline), each with a link to its latest post; from a DM
    (``servers``: the names of the servers shared with the member), each names its
    server."""
    if not tables:
        return t(locale, "mine.empty" if servers is None else "mine.empty_everywhere")
    lines = [t(locale, "mine.header", count=len(tables))]
    for table in tables[:MY_GAMES_SHOWN]:
        name = f"#{table.id} {title(table, locale)}"
        server = "" if servers is None else servers.get(table.row.guild_id or 0, "")
        if server:
            name = f"{name} ({server})"
        if table.status == "lobby":
            state = t(locale, "mine.lobby")
        elif seat_owes(table, user_id):
            state = t(locale, "mine.your_move")
            if table.row.deadline is not None:
                deadline = f"<t:{int(table.row.deadline)}:R>"
                state = f"{state} {t(locale, 'mine.deadline', deadline=deadline)}"
        else:
            state = t(locale, "mine.others")
        link = latest_post_link(table)
        line = f"{name} · {state}"
        lines.append(line if link is None else f"{line} · {t(locale, 'mine.link', url=link)}")
    hidden = len(tables) - MY_GAMES_SHOWN
    if hidden > 0:
        lines.append(t(locale, "mine.more", count=hidden))
    return "\n".join(lines)


TIME_ZONE_CHOICES = 25


def time_zones(typed: str) -> list[str]:
    """The IANA time zones holding what was typed (at most Discord's 25 choices)."""
    wanted = typed.strip().lower().replace(" ", "_")
    return sorted(zone for zone in available_timezones() if wanted in zone.lower())[
        :TIME_ZONE_CHOICES
    ]


def changed_choices(
    choices: NoticeChoices,
    *,
    by: str | None,
    time_zone: str | None,
    quiet_from: int | None,
    quiet_until: int | None,
    remind_every: int | None,
) -> NoticeChoices:
    """The member's choices with the options they gave changed: quiet hours that begin
    and end at the same hour are none, a reminder every 0 hours is the default cadence."""
    changes: dict[str, Any] = {}
    if by is not None:
        changes["mode"] = by
    if time_zone is not None:
        changes["time_zone"] = time_zone.strip()
    if quiet_from is not None:
        changes["quiet_from"] = quiet_from
    if quiet_until is not None:
        changes["quiet_until"] = quiet_until
    if remind_every is not None:
        changes["remind_hours"] = remind_every or None
    changed = dataclasses.replace(choices, **changes)
    if changed.quiet_from is not None and changed.quiet_from == changed.quiet_until:
        changed = dataclasses.replace(changed, quiet_from=None, quiet_until=None)
    return changed


def notices_text(member: Recipient, locale: str | None) -> str:
    """A member's notice choices, as ``/game notices`` shows them to that member."""
    choices = member.choices
    mode = choices.mode or ("default_dm" if member.dm_on else "default")
    lines = [t(locale, f"notices.mode.{mode}")]
    if choices.quiet_from is not None and choices.quiet_until is not None:
        lines.append(
            t(
                locale,
                "notices.quiet",
                start=f"{choices.quiet_from:02}:00",
                end=f"{choices.quiet_until:02}:00",
                zone=choices.time_zone,
            )
        )
    else:
        lines.append(t(locale, "notices.no_quiet"))
    if choices.remind_hours is not None:
        lines.append(t(locale, "notices.remind_every", count=choices.remind_hours))
    else:
        lines.append(t(locale, "notices.remind_default"))
    return "\n".join(lines)


@dataclass(frozen=True)
class Words:
    """How a table command's public and private answers name the game (``/game``'s say
    "game"; a game's own commands may say "race")."""

    left: str
    abandoned_by_leaving: str
    abandoned: str
    substituted: str


GAME_WORDS = Words("game.left", "game.abandoned_by_leaving", "game.abandoned", "game.substituted")


async def find_table(
    service: TableService, interaction: discord.Interaction[Any], number: int | None
) -> Table:
    """The table a command means: ``number``, else the channel's (or the user's latest
    here); not yet checked for the place."""
    if number is not None:
        return await service.table(number)
    return await service.find_table(
        channel_id=interaction.channel_id,
        user_id=interaction.user.id,
        guild_id=interaction.guild_id,
    )


async def answer_status(
    interaction: discord.Interaction[Any], front: GameFront, table: Table
) -> None:
    text = await front.status_text(table, locale_of(interaction))
    await reply(interaction, text, allowed_mentions=discord.AllowedMentions.none())


async def answer_log(interaction: discord.Interaction[Any], front: GameFront, table: Table) -> None:
    """The game's latest resolved steps, privately."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    locale = locale_of(interaction)
    chunks = await front.log_chunks(table, locale)
    if not chunks:
        chunks = [t(locale, "log.empty")]
    for chunk in chunks:
        await interaction.followup.send(
            chunk[:MESSAGE_LIMIT],
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )


async def leave(
    interaction: discord.Interaction[Any], front: GameFront, table: Table, words: Words
) -> None:
    """The asker leaves the table: its lobby, or the game (an AI takes the seat)."""
    locale = locale_of(interaction)
    service = front.service
    if table.status == "lobby":
        table = await service.leave_lobby(table.id, interaction.user.id)
        await reply(interaction, t(locale, "lobby.left"))
        await front.refresh_lobby(table)
        return
    update = await service.leave_game(table.id, interaction.user.id)
    try:
        key = words.left if update.table.status == "running" else words.abandoned_by_leaving
        await reply(interaction, t(locale, key, table=table.id))
    finally:
        await front.settle(table.id)  # the seat is handed over, answered or not


async def abandon(
    interaction: discord.Interaction[Any],
    front: GameFront,
    table: Table,
    words: Words,
    *,
    admin: bool,
) -> None:
    """The host (or an admin) ends the game, and says so in public."""
    update = await front.service.abandon(table.id, interaction.user.id, admin=admin)
    try:
        await interaction.response.send_message(
            t(
                update.table.row.locale,
                words.abandoned,
                table=table.id,
                race=table.id,
                by=display_name(interaction.user),
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )
    finally:
        await front.settle(table.id, moved=False)


async def substitute(
    interaction: discord.Interaction[Any],
    front: GameFront,
    table: Table,
    seat: str,
    member: discord.Member,
    words: Words,
    *,
    admin: bool,
) -> None:
    """Hand a seat to ``member`` (the host's or an admin's choice), said in public."""
    await front.service.substitute(
        table.id, interaction.user.id, seat, member.id, display_name(member), admin=admin
    )
    try:
        await interaction.response.send_message(
            t(table.row.locale, words.substituted, seat=seat, member=member.mention),
            allowed_mentions=discord.AllowedMentions(users=[member]),
        )
    finally:
        await front.settle(table.id)


async def set_dm(interaction: discord.Interaction[Any], service: TableService, on: bool) -> None:
    """Turn the asker's turn notices by direct message on or off."""
    await service.storage.set_dm(interaction.user.id, on)
    await reply(interaction, t(locale_of(interaction), "dm.on" if on else "dm.off"))


__all__ = [
    "GAME_WORDS",
    "TablesCog",
    "Words",
    "abandon",
    "answer_log",
    "answer_status",
    "find_table",
    "leave",
    "my_games_text",
    "notices_text",
    "set_dm",
    "substitute",
]
