"""``/tournament …``: a server's tournaments on Discord, for every hosted game.

An organiser opens one (``new``, optionally with a sign-up deadline, a player limit and a
time per round); members sign up and drop with the Join and Drop buttons of its sign-up
post (or ``join``, ``leave``); the organiser (or an admin) starts it, or it starts by itself
at the deadline (cancelled, with a message, when too few signed up); the organiser pauses
and resumes it, advances a round whose games hang, or removes a player. A round with a time
limit advances by itself when it runs out; a round ended early abandons its unfinished
games, which count as ties. A player who drops or is removed mid-round hands their seat to
the AI through the game's leave path. Anyone reads the standings, as text and a picture.
Starting, and every finished game that completes a round, opens the next round's games,
each in its thread, and announces its tables with the standings so far.
"""

from __future__ import annotations

import asyncio
import functools
import io
import logging
import re
from collections.abc import Collection, Mapping
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.access import Place, may_look
from bot.community.desk import MAX_NAME, TournamentDesk, TournamentRecord
from bot.community.pictures import standings_picture
from bot.community.ratings import player_key
from bot.community.rounds import TournamentTables, user_of
from bot.community.seating import MAX_OPTIONS_TEXT, read_options
from bot.community.server import ServerSettingsStore
from bot.community.tournament import (
    FINISHED,
    MAX_HOURS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_TABLE,
    RUNNING,
    Format,
    TournamentError,
    TournamentSettings,
)
from bot.games.base import ServiceError
from bot.locks import KeyedLocks
from bot.service import LOBBY, Table, TableService
from bot.service import RUNNING as GAME_RUNNING
from bot.text import t
from cogs.community import GAME_CHOICES, game_name, offer_games
from cogs.front.announce import Announcer
from cogs.front.answers import (
    FOR_THREADS,
    MESSAGE_LIMIT,
    NAME_LIMIT,
    THREAD_ARCHIVE_MINUTES,
    TRANSIENT,
    ServerCommands,
    display_name,
    locale_of,
    reply,
)
from cogs.front.game import GameFront
from cogs.front.lobby import TIME_BANK_OPTION, TURN_LIMIT_CHOICES, time_control
from cogs.front.place import asker_of, audience_of, is_admin
from cogs.server_checks import enforce_server_settings, public_locale, server_locale

log = logging.getLogger(__name__)

TOURNAMENT_OPTION = _("The tournament number", key="cmd.option.tournament")
SIGNUP_TEMPLATE = r"tn:(?P<tournament>\d{1,18}):(?P<verb>join|drop)"
SIGNUP_PATTERN = re.compile(SIGNUP_TEMPLATE)
HOUR = 3600.0
SWEEP_SECONDS = 3600.0
"""How long the deadline watcher sleeps with no deadline ahead (a new one wakes it)."""
RETRY_SECONDS = 60.0
MAX_PINGED = 100
"""The most users one message may ping (Discord's limit on ``allowed_mentions.users``)."""


class SignUpButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=SIGNUP_TEMPLATE):
    """Join or Drop on a tournament's sign-up post; the custom_id names the tournament,
    and the desk decides whether the click counts (it may be forged)."""

    def __init__(self, tournament: int, verb: str, *, label: str = "") -> None:
        style = discord.ButtonStyle.primary if verb == "join" else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"tn:{tournament}:{verb}")
        )
        self.tournament, self.verb = tournament, verb

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> SignUpButton:
        return cls(int(match["tournament"]), match["verb"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = getattr(interaction.client, "tournament_cog", None)
        if isinstance(cog, TournamentCog):
            await cog.on_signup(interaction, self.tournament, self.verb)


def signup_view(locale: str, tournament: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(SignUpButton(tournament, "join", label=t(locale, "tournament.button_join")))
    view.add_item(SignUpButton(tournament, "drop", label=t(locale, "tournament.button_drop")))
    return view


@app_commands.guild_only()
class TournamentCog(
    ServerCommands,
    commands.GroupCog,
    group_name=_("tournament", key="cmd.tournament"),
    group_description=_("Tournaments of this server", key="cmd.tournament.about"),
):
    """Tournaments: sign-up, rounds opened as games, standings."""

    refusals = (ServiceError, TournamentError)
    commands_name = "a tournament command"

    def __init__(
        self,
        bot: commands.AutoShardedBot,
        service: TableService,
        announcer: Announcer,
        fronts: Mapping[str, GameFront],
    ) -> None:
        super().__init__()
        self.bot = bot
        self.service = service
        self.announcer = announcer
        self.fronts = fronts
        offer_games(self.new, "game", fronts)
        self.desk = TournamentDesk(service.storage, service.clock)
        self.tables = TournamentTables(self.desk, service)
        self.deadline_changed = asyncio.Event()
        self.reporting: KeyedLocks[int] = KeyedLocks()
        """One lock per tournament: its games' results are stored one at a time."""
        self.opening: KeyedLocks[int] = KeyedLocks()
        """One lock per tournament: its round's games are opened once."""
        self.sweep_owed = False
        """A result could not be stored (the tournament was busy): the deadline watcher
        sweeps again soon (:meth:`report_finished`)."""
        self.sweeping = False
        """The sweep is running (a result it cannot store waits for the next one)."""

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(SignUpButton)

    async def _here(
        self, interaction: discord.Interaction[Any], tournament: int, *, own_entry: bool = False
    ) -> TournamentRecord:
        """The tournament, if it belongs to this server and the asker can view its channel
        (another server's, or one in a channel the asker cannot view, is none); with
        ``own_entry``, an entrant reaches it whatever they view (to drop out)."""
        record = await self.desk.load(tournament)
        missing = TournamentError("error.no_such_tournament", tournament=tournament)
        if record.guild_id != interaction.guild_id:
            raise missing
        if record.channel_id is not None and not may_look(
            Place(record.guild_id, record.channel_id), asker_of(interaction)
        ):
            entered = player_key(interaction.user.id, None) in record.state.entrants
            if not (own_entry and entered):
                raise missing
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
        signup_hours=_(
            "Start by itself this many hours from now", key="cmd.tournament.signup_hours"
        ),
        max_players=_("Close sign-up at this many players", key="cmd.tournament.max_players"),
        round_hours=_(
            "End each round this many hours after it starts", key="cmd.tournament.round_hours"
        ),
        options=_("The game's options for every table, like laps=1", key="cmd.tournament.options"),
        min_reliability=_(
            "Sign-up only with this share (%) of games played without a time-out",
            key="cmd.tournament.min_reliability",
        ),
        time_bank=TIME_BANK_OPTION,
        allow_away=_(
            "Players may be away (/away) during their games", key="cmd.tournament.allow_away"
        ),
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        format=[
            app_commands.Choice(name=_(f.value, key=f"tournament.format.{f.value}"), value=f.value)
            for f in Format
        ],
        turn_limit=TURN_LIMIT_CHOICES,
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        game: str,
        name: app_commands.Range[str, 1, MAX_NAME],
        format: str = Format.SWISS.value,
        rounds: app_commands.Range[int, 1, MAX_ROUNDS] = 3,
        table_size: app_commands.Range[int, 2, MAX_TABLE] = 4,
        turn_limit: str = "24h",
        signup_hours: app_commands.Range[int, 1, MAX_HOURS] | None = None,
        max_players: app_commands.Range[int, 2, MAX_PLAYERS] | None = None,
        round_hours: app_commands.Range[int, 1, MAX_HOURS] | None = None,
        options: app_commands.Range[str, 1, MAX_OPTIONS_TEXT] | None = None,
        min_reliability: app_commands.Range[int, 1, 100] | None = None,
        time_bank: str | None = None,
        allow_away: bool = False,
    ) -> None:
        if game not in self.fronts:
            raise ServiceError("error.no_such_game", game=game)
        admin = is_admin(interaction)
        store = ServerSettingsStore(self.service.storage)
        server = await enforce_server_settings(
            store, interaction, admin=admin, counting_games=False
        )
        chosen = Format(format)
        settings = TournamentSettings(
            format=chosen,
            table_size=table_size,
            min_table=2 if chosen is Format.ELIMINATION else max(2, table_size - 1),
            rounds=rounds,
            max_players=max_players,
            round_hours=None if round_hours is None else float(round_hours),
            min_reliability=min_reliability,
            table={
                **time_control(turn_limit, time_bank),
                "away_refused": not allow_away,
                "options": read_options(options or ""),
            },
        )
        starts_at = None
        if signup_hours is not None:
            starts_at = self.service.clock.now() + signup_hours * HOUR
        record = await self.desk.create(
            guild_id=interaction.guild_id,
            game=game,
            name=name,
            host_id=interaction.user.id,
            settings=settings,
            channel_id=interaction.channel_id,
            starts_at=starts_at,
            admin=admin,
        )
        if starts_at is not None:
            self.deadline_changed.set()
        locale = public_locale(interaction, server)
        lines = [
            t(
                locale,
                "tournament.opened",
                tournament=record.id,
                name=shown(record.name),
                game=game_name(self.fronts, locale, game),
                format=t(locale, f"tournament.format.{chosen.value}"),
                seats=table_size,
            )
        ]
        if starts_at is not None:
            lines.append(t(locale, "tournament.signup_deadline", when=f"<t:{int(starts_at)}:R>"))
        if max_players is not None:
            lines.append(t(locale, "tournament.signup_limit", count=max_players))
        if round_hours is not None:
            lines.append(t(locale, "tournament.round_limit", hours=round_hours))
        if min_reliability is not None:
            lines.append(t(locale, "tournament.signup_reliability", percent=min_reliability))
        await interaction.response.send_message(
            "\n".join(lines),
            view=signup_view(locale, record.id),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        try:
            posted = await interaction.original_response()
        except TRANSIENT:
            log.warning("tournament %d: could not read back its sign-up post", record.id)
            return
        await self.desk.set_signup_message(record.id, posted.id)

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
            t(locale_of(interaction), "tournament.joined", name=shown(record.name), count=count),
        )

    @app_commands.command(
        name=_("leave", key="cmd.tournament.leave"),
        description=_("Drop out of a tournament", key="cmd.tournament.leave.about"),
    )
    @app_commands.describe(tournament=TOURNAMENT_OPTION)
    async def leave(self, interaction: discord.Interaction[Any], tournament: int) -> None:
        record = await self._here(interaction, tournament, own_entry=True)
        record = await self.desk.drop(record.id, interaction.user.id)
        handed = await self.hand_over_seat(record, interaction.user.id)
        await reply(
            interaction, t(locale_of(interaction), "tournament.left", name=shown(record.name))
        )
        await self.settle(handed)

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
        handed = await self.hand_over_seat(record, member.id)
        await reply(
            interaction,
            t(
                locale_of(interaction),
                "tournament.removed",
                name=shown(record.name),
                member=shown(display_name(member)),
            ),
        )
        await self.settle(handed)

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
        await self.close_signup(record)
        await self.open_round(record.id, record.channel_id, interaction)

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
        closing = len(record.state.rounds)
        record = await self.desk.advance(
            record.id, closing, interaction.user.id, admin=is_admin(interaction)
        )
        await interaction.response.defer()
        await self.close_games(record, closing)
        await self.open_round(record.id, record.channel_id, interaction)

    @app_commands.command(
        name=_("pause", key="cmd.tournament.pause"),
        description=_(
            "Pair no new round until resumed; games go on (organiser)",
            key="cmd.tournament.pause.about",
        ),
    )
    @app_commands.describe(tournament=TOURNAMENT_OPTION)
    async def pause(self, interaction: discord.Interaction[Any], tournament: int) -> None:
        record = await self._here(interaction, tournament)
        record = await self.desk.pause(record.id, interaction.user.id, admin=is_admin(interaction))
        await interaction.response.send_message(
            t(locale_of(interaction), "tournament.paused", name=shown(record.name)),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(
        name=_("resume", key="cmd.tournament.resume"),
        description=_(
            "Go on with a paused tournament (organiser)", key="cmd.tournament.resume.about"
        ),
    )
    @app_commands.describe(tournament=TOURNAMENT_OPTION)
    async def resume(self, interaction: discord.Interaction[Any], tournament: int) -> None:
        record = await self._here(interaction, tournament)
        before = len(record.state.rounds)
        record = await self.desk.resume(record.id, interaction.user.id, admin=is_admin(interaction))
        self.deadline_changed.set()  # a round whose time ran out while paused ends now
        await interaction.response.send_message(
            t(locale_of(interaction), "tournament.resumed", name=shown(record.name)),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        if len(record.state.rounds) > before or record.state.status == FINISHED:
            await self.open_round(record.id, record.channel_id, interaction)

    @app_commands.command(
        name=_("standings", key="cmd.tournament.standings"),
        description=_(
            "A tournament's standings, with a picture", key="cmd.tournament.standings.about"
        ),
    )
    @app_commands.describe(tournament=TOURNAMENT_OPTION)
    async def standings(self, interaction: discord.Interaction[Any], tournament: int) -> None:
        """For those who view the tournament's channel; shown to the channel unless some
        there may not view it (then privately)."""
        record = await self._here(interaction, tournament)
        shown = may_look(Place(record.guild_id, record.channel_id), audience_of(interaction))
        store = ServerSettingsStore(self.service.storage)
        settings = await store.get(interaction.guild_id or 0)
        locale = public_locale(interaction, settings) if shown else locale_of(interaction)
        text, picture = await self.standings_post(record, locale)
        await interaction.response.send_message(
            text,
            file=picture,
            allowed_mentions=discord.AllowedMentions.none(),
            ephemeral=not shown,
        )

    # ------------------------------------------------------------------ sign-up

    async def on_signup(
        self, interaction: discord.Interaction[Any], tournament: int, verb: str
    ) -> None:
        """A click on Join or Drop: only a member of the tournament's own server counts;
        a refusal says why, and the click is answered whatever fails."""
        locale = locale_of(interaction)
        handed: list[int] = []
        try:
            if interaction.guild_id is None or not isinstance(interaction.user, discord.Member):
                raise TournamentError("error.no_such_tournament", tournament=tournament)
            record = await self._here(interaction, tournament, own_entry=verb == "drop")
            if verb == "join":
                record = await self.desk.sign_up(
                    record.id, interaction.user.id, display_name(interaction.user)
                )
                count = len(record.state.entrants)
                text = t(locale, "tournament.joined", name=shown(record.name), count=count)
            else:
                record = await self.desk.drop(record.id, interaction.user.id)
                handed = await self.hand_over_seat(record, interaction.user.id)
                text = t(locale, "tournament.left", name=shown(record.name))
        except (TournamentError, ServiceError) as refused:
            text = t(locale, refused.key, **refused.params)
        except Exception:
            log.exception("tournament %d: a sign-up click failed", tournament)
            text = t(locale, "error.unexpected")
        try:
            await reply(interaction, text)
        except TRANSIENT:
            log.warning("could not answer a tournament sign-up click")
        await self.settle(handed)

    async def close_signup(self, record: TournamentRecord) -> None:
        """Take the Join and Drop buttons off the sign-up post once sign-up is over."""
        channel = self.bot.get_channel(record.channel_id or 0)
        if record.signup_message_id is None or not isinstance(
            channel, discord.TextChannel | discord.Thread
        ):
            return
        try:
            await channel.get_partial_message(record.signup_message_id).edit(view=None)
        except (*TRANSIENT, discord.NotFound, discord.Forbidden):
            log.warning("tournament %d: could not close its sign-up post", record.id)

    async def hand_over_seat(self, record: TournamentRecord, user_id: int) -> list[int]:
        """A player out of a running tournament leaves their game of the current round
        (if it is still running): the game's leave path gives the seat to the AI, or
        abandons the game when they were its last human. Returns the games left, for
        :meth:`settle` once the player has been answered. The drop is stored already: a
        game that refuses the leave (it ended meanwhile) or fails is logged, not raised."""
        if record.state.status != RUNNING:
            return []
        left = []
        rows = await self.service.storage.read(
            "SELECT table_id FROM tournament_tables WHERE tournament_id = ? AND round = ?",
            (record.id, len(record.state.rounds)),
        )
        for (race_id,) in rows:
            table = await self.service.table(int(race_id))
            if table.status != GAME_RUNNING or table.seat_of(user_id) is None:
                continue
            try:
                await self.service.leave_game(table.id, user_id)
            except ServiceError as refused:
                log.info("race %d: the seat was not handed over (%s)", table.id, refused.key)
                continue
            except Exception:
                log.exception("race %d: handing the seat over failed", table.id)
                continue
            left.append(table.id)
        return left

    async def settle(self, races: list[int]) -> None:
        """The follow-up of games whose seats changed: the AI plays, the boards update, an
        abandoned game reports its result."""
        for race in races:
            await self.announcer.settle(race)

    # ------------------------------------------------------------------ deadlines

    async def run_deadlines(self) -> None:
        """Run for the bot's life: report the games that ended unreported and open what a
        restart left half opened, then start every tournament whose sign-up deadline
        passes (cancel it with too few players), end every round whose time runs out, and
        report again every game over and unreported on each round."""
        await self.bot.wait_until_ready()
        clock = self.service.clock
        try:
            await self.report_finished()
            await self.resume_rounds()
        except Exception:
            log.exception("resuming tournament rounds failed")
        while not self.bot.is_closed():
            self.deadline_changed.clear()
            try:
                await self.start_due()
                await self.advance_due()
                await self.report_finished()
                when = await self.next_deadline()
            except Exception:
                log.exception("starting tournaments at their deadline failed")
                when = clock.now() + RETRY_SECONDS
            if when is None:
                when = clock.now() + SWEEP_SECONDS
            await clock.sleep_until(when, self.deadline_changed)

    async def resume_rounds(self) -> None:
        """After a restart: tables of a running round that were paired but not opened (or
        not started) are opened now and announced, each tournament on its own (one that
        fails is logged and leaves the others to open)."""
        for tournament in await self.desk.running():
            try:
                record = await self.desk.load(tournament)
                if record.state.rounds and not record.state.round_complete:
                    await self.open_round(record.id, record.channel_id, only_if_opened=True)
            except Exception:
                log.exception("tournament %d: its round could not be opened", tournament)

    async def report_finished(self) -> None:
        """Report every game of a running tournament's current round that is over but has
        no result in the log (the bot stopped between the game's end and its report, or
        the report failed), each tournament on its own; :meth:`game_over` stores each
        result once, whoever else reports it."""
        self.sweep_owed, self.sweeping = False, True
        try:
            for tournament in await self.desk.running():
                try:
                    for race in await self.tables.unreported(await self.desk.load(tournament)):
                        await self.game_over(race)
                except Exception:
                    log.exception("tournament %d: its finished games were not reported", tournament)
        finally:
            self.sweeping = False

    async def next_deadline(self) -> float | None:
        """The next sign-up deadline, end of a round still open and not paused, or sweep
        owed after a result could not be stored."""
        now = self.service.clock.now()
        times = [when for when in (await self.desk.round_deadlines()).values() if when > now]
        if self.sweep_owed:
            times.append(now + RETRY_SECONDS)
        signup = await self.desk.next_deadline()
        if signup is not None:
            # one still due was refused just now (a clash with the organiser): look again soon
            times.append(signup if signup > now else now + RETRY_SECONDS)
        return min(times, default=None)

    async def advance_due(self) -> None:
        """End every round whose time has run out (a paused tournament's round waits)."""
        now = self.service.clock.now()
        for tournament, when in (await self.desk.round_deadlines()).items():
            if when > now:
                continue
            async with self.reporting.hold(tournament):
                record = await self.desk.load(tournament)
                if record.state.paused or record.state.round_complete:
                    continue
                closing = len(record.state.rounds)
                try:
                    record = await self.desk.advance(tournament, closing, None)
                except TournamentError as refused:
                    log.info("tournament %d: round not ended (%s)", tournament, refused.key)
                    continue
            await self.close_games(record, closing)
            await self.open_round(record.id, record.channel_id)

    async def close_games(self, record: TournamentRecord, round_number: int) -> None:
        """Abandon the games of a round that was ended before they were (their result no
        longer counts), so no player sits at two tables."""
        rows = await self.service.storage.read(
            "SELECT table_id FROM tournament_tables WHERE tournament_id = ? AND round = ?",
            (record.id, round_number),
        )
        for (race_id,) in rows:
            table = await self.service.table(int(race_id))
            if table.status in (LOBBY, GAME_RUNNING):
                await self.service.abandon(table.id, record.host_id, admin=True)
                await self.announcer.settle(table.id)

    async def start_due(self) -> None:
        for tournament in await self.desk.due(self.service.clock.now()):
            try:
                record = await self.desk.start(tournament, None)
            except TournamentError as refused:
                if refused.key != "error.tournament_too_few":
                    log.info("tournament %d: not started (%s)", tournament, refused.key)
                    continue
                record = await self.desk.cancel(tournament, None)
                await self.close_signup(record)
                locale = await server_locale(
                    ServerSettingsStore(self.service.storage),
                    self.bot.get_guild(record.guild_id or 0),
                )
                text = t(
                    locale,
                    "tournament.cancelled_too_few",
                    name=shown(record.name),
                    **refused.params,
                )
                await self._post(record.channel_id, None, text, None)
                continue
            await self.close_signup(record)
            await self.open_round(record.id, record.channel_id)

    # ------------------------------------------------------------------ rounds

    async def standings_post(
        self, record: TournamentRecord, locale: str, after_round: int | None = None
    ) -> tuple[str, discord.File]:
        rows = record.state.standings()
        number = len(record.state.rounds) if after_round is None else after_round
        title = t(locale, "tournament.standings_title", name=record.name, round=number)
        picture = await self.service.in_worker(standings_picture, title, rows, locale)
        title = t(locale, "tournament.standings_title", name=shown(record.name), round=number)
        lines = [f"**{title}**"]
        lines += [
            f"{row.rank}. {shown(row.name, NAME_LIMIT)} · {row.points:g}" for row in rows[:20]
        ]
        champion = record.state.champion()
        if champion is not None:
            lines.append(t(locale, "tournament.champion", member=f"<@{user_of(champion)}>"))
        return "\n".join(lines)[:MESSAGE_LIMIT], discord.File(
            io.BytesIO(picture.png), filename="standings.png"
        )

    async def games_channel(self, record: TournamentRecord) -> int | None:
        """Where the tournament's games open: its own channel (checked against the
        server's ``/settings`` when it was opened) while they still allow games there (a
        thread counts as its channel); else the first channel they allow that the bot
        can see (else the first they list)."""
        store = ServerSettingsStore(self.service.storage)
        allowed = (await store.get(record.guild_id or 0)).channels
        own = record.channel_id
        if not allowed:
            return own
        if own is not None:
            parent = getattr(self.bot.get_channel(own), "parent_id", None)
            if {own, parent} & set(allowed):
                return own
        seen = [c for c in allowed if isinstance(self.bot.get_channel(c), discord.TextChannel)]
        return (seen or list(allowed))[0]

    async def open_round(
        self,
        tournament: int,
        channel_id: int | None,
        interaction: discord.Interaction[Any] | None = None,
        *,
        only_if_opened: bool = False,
    ) -> None:
        """Open the current round's games where the server allows games
        (:meth:`games_channel`), start their boards, and announce the tables with the
        standings so far (or the final standings when the tournament is over) in the
        tournament's channel ``channel_id`` (or in answer to ``interaction``)."""
        self.deadline_changed.set()  # a round paired: its end, if timed, is a new deadline
        record = await self.desk.load(tournament)
        store = ServerSettingsStore(self.service.storage)
        if interaction is not None:
            locale = public_locale(interaction, await store.get(interaction.guild_id or 0))
        else:
            locale = await server_locale(store, self.bot.get_guild(record.guild_id or 0))
        games_at = await self.games_channel(record)
        async with self.opening.hold(tournament):
            opened = await self.tables.open_round(
                tournament,
                channel_id=games_at,
                locale=locale,
                start=functools.partial(self.start_table, channel_id=games_at, locale=locale),
            )
        if only_if_opened and not opened:
            return
        record = await self.desk.load(tournament)
        if record.state.status == FINISHED:
            text, final = await self.standings_post(record, locale)
            champion = record.state.champion()
            pinged = [] if champion is None else [user_of(champion)]
            await self._post(channel_id, interaction, text, final, pinged)
            return
        lines = [
            t(locale, "tournament.round", name=shown(record.name), round=len(record.state.rounds))
        ]
        picture: discord.File | None = None
        if len(record.state.rounds) > 1:
            standings, picture = await self.standings_post(
                record, locale, after_round=len(record.state.rounds) - 1
            )
            lines.insert(0, standings + "\n")
        if opened and record.channel_id is not None and games_at != record.channel_id:
            moved = {"channel": f"<#{record.channel_id}>", "games": f"<#{games_at}>"}
            lines.append(t(locale, "tournament.games_elsewhere", **moved))
        threads = {table.id: table.row.thread_id for table in opened if table.row.thread_id}
        for index, table in enumerate(opened, start=1):
            players = " ".join(f"<@{seat.user_id}>" for seat in table.seats if seat.user_id)
            named = {"table": index, "game": self.table_name(table, locale), "players": players}
            if table.id in threads:
                line = t(
                    locale, "tournament.table_thread", thread=f"<#{threads[table.id]}>", **named
                )
            else:
                line = t(locale, "tournament.table", **named)
            lines.append(line)
        byes = record.state.rounds[-1].pairing.byes
        if byes:
            lines.append(
                t(locale, "tournament.byes", players=" ".join(f"<@{user_of(p)}>" for p in byes))
            )
        pinged = [seat.user_id for table in opened for seat in table.seats if seat.user_id]
        pinged += [user_of(player) for player in byes]
        await self._post(channel_id, interaction, "\n".join(lines), picture, pinged)
        for table in opened:
            await self.announcer.settle(table.id)

    def table_name(self, table: Table, locale: str) -> str:
        """A game's name in its game's own words, as its Start names its thread."""
        front = self.fronts.get(table.game)
        if front is None:
            return t(locale, "tournament.game", game=table.id)
        return front.thread_name(table, locale)

    async def start_table(self, table: Table, *, channel_id: int | None, locale: str) -> Table:
        """Start a round's game and open its public thread in the tournament's channel, its
        announcements waiting meanwhile, so its first board is posted in the thread (a game
        whose thread cannot be opened plays in the channel). Returns the game as started."""
        async with self.announcer.lock(table.id):
            started = (await self.service.start(table.id, table.row.host_id)).table
            channel = self.bot.get_channel(channel_id or 0)
            if not isinstance(channel, discord.TextChannel):
                return started
            allowed = channel.permissions_for(channel.guild.me)
            if not all(getattr(allowed, name, False) for name in FOR_THREADS):
                return started
            try:
                thread = await channel.create_thread(
                    name=self.table_name(started, locale)[:100],
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                )
            except (*TRANSIENT, discord.Forbidden):
                log.warning("table %d: could not open a thread; playing in the channel", table.id)
                return started
            await self.service.set_channel_message(table.id, thread_id=thread.id)
            return await self.service.table(table.id)

    async def _post(
        self,
        channel_id: int | None,
        interaction: discord.Interaction[Any] | None,
        text: str,
        picture: discord.File | None,
        pinged: Collection[int] = (),
    ) -> None:
        """Post a tournament announcement (in answer to ``interaction``, else in the
        channel) that pings only the members in ``pinged`` (the players it names on
        purpose), whatever else its text holds."""
        text = text[:MESSAGE_LIMIT]
        mentions = discord.AllowedMentions(
            everyone=False,
            roles=False,
            users=[discord.Object(user) for user in pinged_in(text, pinged)],
        )
        extra: dict[str, Any] = {"file": picture} if picture is not None else {}
        try:
            if interaction is not None:
                await interaction.followup.send(text, allowed_mentions=mentions, **extra)
                return
            channel = self.bot.get_channel(channel_id or 0)
            if isinstance(channel, discord.TextChannel | discord.Thread):
                await channel.send(text, allowed_mentions=mentions, **extra)
        except TRANSIENT:
            log.warning("could not post a tournament announcement")

    async def game_over(self, race_id: int) -> None:
        """A game ended: if it is a tournament table not yet reported, report it; when
        that completed the round, open the next one (or post the final standings). Every
        follow-up that sees the game over calls this; only the one whose report is stored
        goes on (a second report of the same table is refused by the tournament's log).
        Games of one tournament ending at once are reported one after the other, so the
        one completing the round opens the next; a step stored by another process at the
        same moment makes the desk build the report again. A report that still could not
        be stored is made by the deadline watcher's next sweep (:meth:`report_finished`),
        as is one lost to a restart."""
        linked = await self.service.storage.read(
            "SELECT tournament_id FROM tournament_tables WHERE table_id = ?", (race_id,)
        )
        if not linked:
            return
        tournament = int(linked[0][0])
        async with self.reporting.hold(tournament):
            before = (await self.desk.load(tournament)).state
            try:
                record = await self.tables.table_finished(race_id)
            except TournamentError as refused:
                log.info("race %d: tournament result not stored (%s)", race_id, refused.key)
                if refused.key == "error.tournament_busy":
                    self.sweep_owed = True  # the deadline watcher reports it again soon
                    if not self.sweeping:
                        self.deadline_changed.set()
                return
            if record is None:
                return
            completed = len(record.state.rounds) > len(before.rounds)
        if completed or record.state.status == FINISHED:
            table = await self.service.table(race_id)
            await self.open_round(record.id, record.channel_id or table.row.channel_id)


def shown(name: str, limit: int = MAX_NAME) -> str:
    """A name members chose (a tournament's, an entrant's), as public text shows it: cut to
    ``limit`` characters, its Markdown and mentions shown as typed, never formatting or
    pinging."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name[:limit]))


def pinged_in(text: str, users: Collection[int]) -> list[int]:
    """The ``users`` a post's ``text`` mentions, each once, at most Discord's 100."""
    return [user for user in dict.fromkeys(users) if f"<@{user}>" in text][:MAX_PINGED]


__all__ = ["SIGNUP_PATTERN", "SignUpButton", "TournamentCog"]
