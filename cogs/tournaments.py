"""``/tournament …``: a server's tournaments on Discord, for every hosted game.

An organiser opens one (``new``), members sign up and drop (``join``, ``leave``), the
organiser (or an admin) starts it, advances a round whose games hang, or removes a player;
anyone reads the standings, as text and a picture. Starting, and every finished game that
completes a round, opens the next round's games in the tournament's channel and
announces its tables. Everything is stored by :mod:`bot.community.desk` and
:mod:`bot.community.rounds`; a tournament belongs to its server, and another server's
reads as none.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.community.desk import TournamentDesk, TournamentRecord
from bot.community.pictures import standings_picture
from bot.community.rounds import TournamentTables, user_of
from bot.community.server import ServerSettingsStore
from bot.community.tournament import (
    FINISHED,
    Format,
    Tournament,
    TournamentError,
    TournamentSettings,
)
from bot.games import GAMES
from bot.games.base import ServiceError
from bot.service import TURN_LIMITS, TableService
from bot.text import t
from cogs.announce import TRANSIENT
from cogs.community import GAME_CHOICES, game_name
from cogs.race import RaceCog, display_name, is_admin, locale_of, reply
from cogs.server_checks import enforce_server_settings

log = logging.getLogger(__name__)

TOURNAMENT_OPTION = _("The tournament number", key="cmd.option.tournament")


@app_commands.guild_only()
class TournamentCog(
    commands.GroupCog,
    group_name=_("tournament", key="cmd.tournament"),
    group_description=_("Tournaments of this server", key="cmd.tournament.about"),
):
    """Tournaments: sign-up, rounds opened as games, standings."""

    def __init__(self, bot: commands.AutoShardedBot, service: TableService, races: RaceCog) -> None:
        super().__init__()
        self.bot = bot
        self.service = service
        self.races = races
        self.desk = TournamentDesk(service.storage, service.clock)
        self.tables = TournamentTables(self.desk, service)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        locale = locale_of(interaction)
        if isinstance(original, ServiceError | TournamentError):
            text = t(locale, original.key, **original.params)
        elif isinstance(original, app_commands.NoPrivateMessage):
            text = t(locale, "error.server_only")
        else:
            log.error("unexpected error answering a tournament command", exc_info=original)
            text = t(locale, "error.unexpected")
        try:
            await reply(interaction, text)
        except TRANSIENT:
            log.warning("could not answer a tournament command with an error")

    async def _here(
        self, interaction: discord.Interaction[Any], tournament: int
    ) -> TournamentRecord:
        """The tournament, if it belongs to this server (another server's is none)."""
        record = await self.desk.load(tournament)
        if record.guild_id != interaction.guild_id:
            raise TournamentError("error.no_such_tournament", tournament=tournament)
        return record

    # ------------------------------------------------------------------ commands

    @app_commands.command(
        name=_("new", key="cmd.tournament.new"),
        description=_("Open a tournament for sign-up", key="cmd.tournament.new.about"),
    )
    @app_commands.describe(
        game=_("The game", key="cmd.option.which_game"),
        name=_("The tournament's name", key="cmd.tournament.name"),
        format=_(
            "Swiss rounds, heats and a final, or single elimination", key="cmd.tournament.format"
        ),
        rounds=_("Swiss rounds (1–20)", key="cmd.tournament.rounds"),
        table_size=_("Players per table", key="cmd.tournament.table_size"),
        turn_limit=_("Time to choose a move each turn", key="cmd.new.turn_limit"),
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        format=[
            app_commands.Choice(name=_(f.value, key=f"tournament.format.{f.value}"), value=f.value)
            for f in Format
        ],
        turn_limit=[
            app_commands.Choice(name=_(name, key=f"limit.{name}"), value=name)
            for name in TURN_LIMITS
        ],
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        name: app_commands.Range[str, 1, 80],
        format: str = Format.SWISS.value,
        rounds: app_commands.Range[int, 1, 20] = 3,
        table_size: app_commands.Range[int, 2, 12] = 4,
        turn_limit: str = "24h",
    ) -> None:
        if game not in GAMES:
            raise ServiceError("error.no_such_game", game=game)
        await enforce_server_settings(
            ServerSettingsStore(self.service.storage), interaction, admin=is_admin(interaction)
        )
        chosen = Format(format)
        settings = TournamentSettings(
            format=chosen,
            table_size=table_size,
            min_table=2 if chosen is Format.ELIMINATION else max(2, table_size - 1),
            rounds=rounds,
            table={"turn_seconds": TURN_LIMITS.get(turn_limit, TURN_LIMITS["24h"])},
        )
        record = await self.desk.create(
            guild_id=interaction.guild_id,
            game=game,
            name=name,
            host_id=interaction.user.id,
            settings=settings,
        )
        locale = locale_of(interaction)
        await interaction.response.send_message(
            t(
                locale,
                "tournament.opened",
                tournament=record.id,
                name=record.name,
                game=game_name(locale, game),
                format=t(locale, f"tournament.format.{chosen.value}"),
                seats=table_size,
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(
        name=_("join", key="cmd.tournament.join"),
        description=_("Sign up for a tournament", key="cmd.tournament.join.about"),
    )
    @app_commands.describe(tournament=TOURNAMENT_OPTION)
    async def join(self, interaction: discord.Interaction[Any], tournament: int) -> None:
        record = await self._here(interaction, tournament)
        record = await self.desk.sign_up(
            record.id, interaction.user.id, display_name(interaction.user)
        )
        count = len(record.state.entrants)
        await reply(
            interaction,
            t(locale_of(interaction), "tournament.joined", name=record.name, count=count),
        )

    @app_commands.command(
        name=_("leave", key="cmd.tournament.leave"),
        description=_("Drop out of a tournament", key="cmd.tournament.leave.about"),
    )
    @app_commands.describe(tournament=TOURNAMENT_OPTION)
    async def leave(self, interaction: discord.Interaction[Any], tournament: int) -> None:
        record = await self._here(interaction, tournament)
        record = await self.desk.drop(record.id, interaction.user.id)
        await reply(interaction, t(locale_of(interaction), "tournament.left", name=record.name))

    @app_commands.command(
        name=_("remove", key="cmd.tournament.remove"),
        description=_("Remove a player (organiser)", key="cmd.tournament.remove.about"),
    )
    @app_commands.describe(
        tournament=TOURNAMENT_OPTION, member=_("Who to remove", key="cmd.tournament.member")
    )
    async def remove(
        self, interaction: discord.Interaction[Any], tournament: int, member: discord.Member
    ) -> None:
        record = await self._here(interaction, tournament)
        record = await self.desk.drop(
            record.id, member.id, by_user=interaction.user.id, admin=is_admin(interaction)
        )
        await reply(
            interaction,
            t(
                locale_of(interaction),
                "tournament.removed",
                name=record.name,
                member=display_name(member),
            ),
        )

    @app_commands.command(
        name=_("start", key="cmd.tournament.start"),
        description=_(
            "Close sign-up and open the first round (organiser)", key="cmd.tournament.start.about"
        ),
    )
    @app_commands.describe(tournament=TOURNAMENT_OPTION)
    async def start(self, interaction: discord.Interaction[Any], tournament: int) -> None:
        record = await self._here(interaction, tournament)
        record = await self.desk.start(record.id, interaction.user.id, admin=is_admin(interaction))
        await interaction.response.defer()
        await self.open_round(record.id, interaction.channel_id, interaction)

    @app_commands.command(
        name=_("advance", key="cmd.tournament.advance"),
        description=_(
            "End the round: unfinished games count as ties (organiser)",
            key="cmd.tournament.advance.about",
        ),
    )
    @app_commands.describe(tournament=TOURNAMENT_OPTION)
    async def advance(self, interaction: discord.Interaction[Any], tournament: int) -> None:
        record = await self._here(interaction, tournament)
        record = await self.desk.advance(
            record.id, interaction.user.id, admin=is_admin(interaction)
        )
        await interaction.response.defer()
        await self.open_round(record.id, interaction.channel_id, interaction)

    @app_commands.command(
        name=_("standings", key="cmd.tournament.standings"),
        description=_(
            "A tournament's standings, with a picture", key="cmd.tournament.standings.about"
        ),
    )
    @app_commands.describe(tournament=TOURNAMENT_OPTION)
    async def standings(self, interaction: discord.Interaction[Any], tournament: int) -> None:
        record = await self._here(interaction, tournament)
        locale = locale_of(interaction)
        text, picture = await self.standings_post(record, locale)
        await interaction.response.send_message(
            text, file=picture, allowed_mentions=discord.AllowedMentions.none()
        )

    # ------------------------------------------------------------------ rounds

    async def standings_post(
        self, record: TournamentRecord, locale: str
    ) -> tuple[str, discord.File]:
        rows = record.state.standings()
        title = t(
            locale, "tournament.standings_title", name=record.name, round=len(record.state.rounds)
        )
        picture = await self.service.in_worker(standings_picture, title, rows)
        lines = [f"**{title}**"]
        lines += [f"{row.rank}. {row.name} · {row.points:g}" for row in rows[:20]]
        champion = record.state.champion()
        if champion is not None:
            lines.append(t(locale, "tournament.champion", member=f"<@{user_of(champion)}>"))
        return "\n".join(lines)[:2000], discord.File(
            io.BytesIO(picture.png), filename="standings.png"
        )

    async def open_round(
        self,
        tournament: int,
        channel_id: int | None,
        interaction: discord.Interaction[Any] | None = None,
    ) -> None:
        """Open the current round's games, start their boards, and announce the tables
        (or the final standings when the tournament is over)."""
        opened = await self.tables.open_round(tournament, channel_id=channel_id)
        record = await self.desk.load(tournament)
        locale = "en"
        if interaction is not None:
            locale = locale_of(interaction)
        if record.state.status == FINISHED:
            text, picture = await self.standings_post(record, locale)
            await self._post(channel_id, interaction, text, picture, mention=True)
            return
        lines = [t(locale, "tournament.round", name=record.name, round=len(record.state.rounds))]
        for index, table in enumerate(opened, start=1):
            players = " ".join(f"<@{seat.user_id}>" for seat in table.seats if seat.user_id)
            lines.append(t(locale, "tournament.table", table=index, race=table.id, players=players))
        byes = record.state.rounds[-1].pairing.byes
        if byes:
            lines.append(
                t(locale, "tournament.byes", players=" ".join(f"<@{user_of(p)}>" for p in byes))
            )
        await self._post(channel_id, interaction, "\n".join(lines), None, mention=True)
        for table in opened:
            await self.races.settle(table.id)

    async def _post(
        self,
        channel_id: int | None,
        interaction: discord.Interaction[Any] | None,
        text: str,
        picture: discord.File | None,
        *,
        mention: bool,
    ) -> None:
        mentions = (
            discord.AllowedMentions(users=True) if mention else discord.AllowedMentions.none()
        )
        extra: dict[str, Any] = {"file": picture} if picture is not None else {}
        try:
            if interaction is not None:
                await interaction.followup.send(text[:2000], allowed_mentions=mentions, **extra)
                return
            channel = self.bot.get_channel(channel_id or 0)
            if isinstance(channel, discord.TextChannel | discord.Thread):
                await channel.send(text[:2000], allowed_mentions=mentions, **extra)
        except TRANSIENT:
            log.warning("could not post a tournament announcement")

    async def game_over(self, race_id: int) -> None:
        """A game ended: if it is a tournament table not yet reported, report it; when
        that completed the round, open the next one (or post the final standings). Every
        follow-up that sees the game over calls this; only the one whose report is stored
        goes on (a second report of the same table is refused by the tournament's log)."""
        linked = await self.service.storage.read(
            "SELECT tournament_id FROM tournament_tables WHERE race_id = ?", (race_id,)
        )
        if not linked:
            return
        before = (await self.desk.load(int(linked[0][0]))).state
        try:
            record = await self.tables.table_finished(race_id)
        except TournamentError as refused:
            log.info("race %d: tournament result not stored again (%s)", race_id, refused.key)
            return
        if record is None or reported(record) != reported_count(before) + 1:
            return
        if len(record.state.rounds) > len(before.rounds) or record.state.status == FINISHED:
            table = await self.service.table(race_id)
            await self.open_round(record.id, table.row.channel_id)


def reported_count(state: Tournament) -> int:
    return sum(len(play.results) for play in state.rounds)


def reported(record: TournamentRecord) -> int:
    return reported_count(record.state)


__all__ = ["TournamentCog"]
