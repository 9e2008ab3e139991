"""``/race …`` commands and the race's buttons, selects and modal: parse, call the service,
render, respond. Every interaction is answered (within Discord's 3 seconds); slow work
(AI seats, posting the next board) happens after the answer.

Error policy: a :class:`~bot.service.ServiceError` (including an illegal move, with the
engine's reason) is answered privately in the user's language; Discord refusing us for
permissions becomes a clear message; anything unexpected is logged and the user gets a
short apology. Nothing in an answer shown to others ever holds a hand, token or move.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.access import Verdict
from bot.community.server import ServerSettingsStore
from bot.games.charioteer.drafts import Draft, DraftError, parse_move_text
from bot.games.charioteer.panel import apply_choice, build_panel
from bot.service import (
    TURN_LIMITS,
    RuleError,
    ServiceError,
    Table,
    TableService,
    TableSettings,
    Update,
)
from bot.text import t
from cogs.announce import NO_ANSWER, TRANSIENT, Announcer
from cogs.answers import (
    UNKNOWN_INTERACTION,
    FollowsUp,
    ServerOnly,
    display_name,
    lobby_posted,
    locale_of,
    open_table,
    post_lobby,
    reply,
)
from cogs.games import MESSAGE_LIMIT
from cogs.place import Act, admit, is_admin
from cogs.server_checks import enforce_server_settings, public_locale
from cogs.ui import MODAL_PATTERN, MoveModal, lobby_view, panel_view, typed_move
from engine.charioteer.render import hand_text, reveal_text, rule_text
from engine.core import EngineError, public_events

log = logging.getLogger(__name__)

PANEL_VERBS = {"cards", "symbol", "token", "discard", "crowd", "clear"}
LOBBY_VERBS = {"join", "leave", "start", "addai", "noai"}
REQUIRED = ("view_channel", "send_messages")
RACE_OPTION = _("The race number (this thread's race if left out)", key="cmd.option.race")
"""The ``race`` option's description, shared by every command that takes one."""


def on_own_panel(interaction: discord.Interaction[Any]) -> bool:
    """Whether the click came from the user's own private panel: an ephemeral message the
    bot sent in answer to that very user. Only such a message is updated in place (type 7);
    a control sent from anywhere else gets a fresh private answer."""
    message = interaction.message
    if message is None or not message.flags.ephemeral:
        return False
    metadata = message.interaction_metadata
    return metadata is not None and metadata.user.id == interaction.user.id


@app_commands.guild_only()
class RaceCog(
    ServerOnly,
    FollowsUp,
    commands.GroupCog,
    group_name=_("race", key="cmd.race"),
    group_description=_("Chariot races", key="cmd.race.about"),
):
    """Charioteer races: lobby, private move panel, board, podium. Every ``/race`` command
    runs in a server only (:class:`ServerOnly`)."""

    def __init__(
        self, bot: commands.AutoShardedBot, service: TableService, announcer: Announcer
    ) -> None:
        super().__init__()
        self.bot = bot
        self.service = service
        self.announcer = announcer
        self._background: set[asyncio.Task[None]] = set()
        """Told of every game that ended, after its follow-up (tournaments report it)."""

    # ------------------------------------------------------------------ access

    def admit(self, interaction: discord.Interaction[Any], table: Table, act: Act) -> Verdict:
        """The table's server, its channel's view and the DM rule (:mod:`bot.access`);
        raises the refusal.
        Another game's table is no race: ``/game …`` serves it."""
        if table.game != "charioteer":
            raise ServiceError("error.no_such_race", race=table.id)
        return admit(table, interaction, act)

    # ------------------------------------------------------------------ errors

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Every slash command's error, mapped by :meth:`fail`."""
        await self.fail(interaction, getattr(error, "original", error))

    async def fail(self, interaction: discord.Interaction[Any], error: BaseException) -> None:
        locale = locale_of(interaction)
        if isinstance(error, ServiceError):
            params = dict(error.params)
            if isinstance(error, RuleError):
                params["reason"] = rule_text(error.error, locale)
            if error.key == "error.stale_turn":
                params["link"] = await self.board_link(interaction, params)
                text = t(
                    locale,
                    "error.stale_turn_link" if params["link"] else "error.stale_turn",
                    **params,
                )
            else:
                text = t(locale, error.key, **params)
        elif isinstance(error, DraftError):
            text = t(locale, error.key, **error.params)
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

    async def refuse(self, interaction: discord.Interaction[Any], key: str) -> None:
        """Answer an interaction nothing else will take."""
        try:
            await reply(interaction, t(locale_of(interaction), key))
        except TRANSIENT:
            log.warning("could not refuse an interaction")

    async def board_link(
        self, interaction: discord.Interaction[Any], params: dict[str, Any]
    ) -> str:
        race = params.get("race")
        if race is None:
            return ""
        table = await self.service.table(int(race))
        channel = table.row.thread_id or table.row.channel_id
        if table.row.board_message_id is None or channel is None or interaction.guild_id is None:
            return ""
        return f"https://discord.com/channels/{interaction.guild_id}/{channel}/{table.row.board_message_id}"

    async def settle(self, table_id: int, *, moved: bool = True) -> None:
        """:meth:`announce_and_play`, run to its end even if the caller is cancelled (the
        time-limit dispatcher, when the bot stops), so no announcement is left half sent."""
        await asyncio.shield(self.later(self.announce_and_play(table_id, moved=moved)))

    async def announce_and_play(self, race_id: int, *, moved: bool = True) -> None:
        """After an accepted action: AI seats play, announcements go out, the board updates."""
        try:
            await self.announcer.follow_up(race_id, moved=moved)
        except Exception:
            log.exception("race %d: follow-up work failed", race_id)

    async def find(
        self, interaction: discord.Interaction[Any], race: int | None, act: Act
    ) -> tuple[Table, Verdict]:
        """The race a command means (``race``, else this channel's or the user's latest
        here), once :meth:`admit` lets the user ``act`` on it from here."""
        if race is not None:
            table = await self.service.table(race)
        else:
            table = await self.service.find_table(
                channel_id=interaction.channel_id,
                user_id=interaction.user.id,
                guild_id=interaction.guild_id,
            )
        return table, self.admit(interaction, table, act)

    async def look_up(self, interaction: discord.Interaction[Any], race: int, act: Act) -> Table:
        """The race a button, select or form names: its custom_id may be forged."""
        table, _ = await self.find(interaction, race, act)
        return table

    # ------------------------------------------------------------------ commands

    @app_commands.command(
        name=_("new", key="cmd.new"),
        description=_("Open a race lobby in this channel", key="cmd.new.about"),
    )
    @app_commands.describe(
        seats=_("How many chariots (2–6)", key="cmd.new.seats"),
        turn_limit=_("Time to choose a move each turn", key="cmd.new.turn_limit"),
        laps=_("Laps to race (1–5)", key="cmd.new.laps"),
        on_timeout=_("What happens to a seat whose time runs out", key="cmd.new.on_timeout"),
    )
    @app_commands.choices(
        turn_limit=[
            app_commands.Choice(name=_(name, key=f"limit.{name}"), value=name)
            for name in TURN_LIMITS
        ],
        on_timeout=[
            app_commands.Choice(name=_("the AI plays the turn", key="timeout.ai"), value="ai"),
            app_commands.Choice(name=_("a reset move", key="timeout.reset"), value="reset"),
        ],
    )
    async def new(
        self,
        interaction: discord.Interaction[Any],
        seats: app_commands.Range[int, 2, 6] = 4,
        turn_limit: str = "24h",
        laps: app_commands.Range[int, 1, 5] = 3,
        on_timeout: str = "ai",
    ) -> None:
        missing = [
            name for name in REQUIRED if not getattr(interaction.app_permissions, name, False)
        ]
        if missing:
            await reply(
                interaction,
                t(
                    locale_of(interaction),
                    "error.missing_permissions",
                    permissions=", ".join(missing),
                ),
            )
            return
        server = await enforce_server_settings(
            ServerSettingsStore(self.service.storage), interaction, admin=is_admin(interaction)
        )
        locale = public_locale(interaction, server)
        settings = TableSettings(
            seats=seats,
            options={"laps": laps},
            turn_seconds=TURN_LIMITS.get(turn_limit, TURN_LIMITS["24h"]),
            timeout_policy=on_timeout,
        )
        table = await self.service.open_lobby(
            game="charioteer",
            host_id=interaction.user.id,
            host_name=display_name(interaction.user),
            settings=settings,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            locale=locale,
        )
        await post_lobby(
            interaction,
            table.id,
            self.lobby_text(table),
            lobby_view(table, locale),
            lambda message_id: self.service.set_channel_message(
                table.id, lobby_message_id=message_id
            ),
        )

    def lobby_text(self, table: Table) -> str:
        locale = table.row.locale
        settings = table.settings
        limit = next(
            (name for name, seconds in TURN_LIMITS.items() if seconds == settings.turn_seconds),
            "none",
        )
        lines = [
            t(locale, "lobby.header", race=table.id, host=f"<@{table.row.host_id}>"),
            t(
                locale,
                "lobby.settings",
                count=settings.options["laps"],
                seats=settings.seats,
                limit=t(locale, f"limit.{limit}"),
                timeout=t(locale, f"timeout.{settings.timeout_policy}"),
            ),
            t(locale, "lobby.players", count=len(table.seats), seats=settings.seats),
        ]
        for seat in table.seats:
            who = (
                f"<@{seat.user_id}>"
                if seat.user_id is not None
                else t(
                    locale, "lobby.ai_seat", name=seat.name, level=t(locale, f"ai.{seat.ai_level}")
                )
            )
            lines.append(f"{seat.seat}. {who}")
        if table.status != "lobby":
            lines.append(
                t(locale, "lobby.started" if table.status == "running" else "lobby.closed")
            )
        return "\n".join(lines)

    @app_commands.command(
        name=_("hand", key="cmd.hand"),
        description=_("Open your private move panel", key="cmd.hand.about"),
    )
    @app_commands.describe(race=RACE_OPTION)
    async def hand(self, interaction: discord.Interaction[Any], race: int | None = None) -> None:
        table, _ = await self.find(interaction, race, Act.PLAY)
        await self.open_panel(interaction, table.id, None)

    @app_commands.command(
        name=_("dm", key="cmd.dm"),
        description=_("Get a direct message when your move is due", key="cmd.dm.about"),
    )
    @app_commands.describe(
        enabled=_("On: a direct message when your move is due", key="cmd.option.enabled")
    )
    async def dm(self, interaction: discord.Interaction[Any], enabled: bool) -> None:
        await self.service.storage.set_dm(interaction.user.id, enabled)
        await reply(interaction, t(locale_of(interaction), "dm.on" if enabled else "dm.off"))

    @app_commands.command(
        name=_("status", key="cmd.status"),
        description=_("Where the race stands", key="cmd.status.about"),
    )
    @app_commands.describe(race=RACE_OPTION)
    async def status(self, interaction: discord.Interaction[Any], race: int | None = None) -> None:
        table, _ = await self.find(interaction, race, Act.LOOK)
        await reply(
            interaction,
            await self.status_text(table, locale_of(interaction)),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def status_text(self, table: Table, locale: str) -> str:
        if table.status == "lobby":
            return self.lobby_text(table)
        from cogs.announce import board_content

        _, view = await self.service.view_for(table.id, None)
        return board_content(table, view, locale)

    @app_commands.command(
        name=_("log", key="cmd.log"),
        description=_("Every reveal of the race so far", key="cmd.log.about"),
    )
    @app_commands.describe(race=RACE_OPTION)
    async def log_(self, interaction: discord.Interaction[Any], race: int | None = None) -> None:
        table, _ = await self.find(interaction, race, Act.LOOK)
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = locale_of(interaction)
        reports = await self.service.turn_reports(table.id)
        if not reports:
            await interaction.followup.send(t(locale, "log.empty"), ephemeral=True)
            return
        chunks: list[str] = []
        for report in reports[-10:]:
            story = reveal_text(
                public_events(report.events), report.view, names=table.names, locale=locale
            )
            chunks.append(
                t(locale, "reveal.header", race=table.id, turn=report.turn) + "\n" + story
            )
        for chunk in chunks[-3:]:
            await interaction.followup.send(
                chunk[:MESSAGE_LIMIT],
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )

    @app_commands.command(
        name=_("rules", key="cmd.rules"), description=_("A short rules card", key="cmd.rules.about")
    )
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await reply(interaction, t(locale_of(interaction), "rules.card"))

    @app_commands.command(
        name=_("leave", key="cmd.leave"),
        description=_("Leave the race (an AI takes your chariot)", key="cmd.leave.about"),
    )
    @app_commands.describe(race=RACE_OPTION)
    async def leave(self, interaction: discord.Interaction[Any], race: int | None = None) -> None:
        table, _ = await self.find(interaction, race, Act.PLAY)
        if table.status == "lobby":
            table = await self.service.leave_lobby(table.id, interaction.user.id)
            await reply(interaction, t(locale_of(interaction), "lobby.left"))
            await self.refresh_lobby(table)
            return
        update = await self.service.leave_game(table.id, interaction.user.id)
        try:
            await reply(
                interaction,
                t(
                    locale_of(interaction),
                    "race.left"
                    if update.table.status == "running"
                    else "race.abandoned_by_leaving",
                ),
            )
        finally:
            self.later(self.announce_and_play(table.id))  # the seat is handed over, answered or not

    @app_commands.command(
        name=_("abandon", key="cmd.abandon"),
        description=_("End the race (host or Manage Server)", key="cmd.abandon.about"),
    )
    @app_commands.describe(race=RACE_OPTION)
    async def abandon(self, interaction: discord.Interaction[Any], race: int | None = None) -> None:
        table, verdict = await self.find(interaction, race, Act.MANAGE)
        update = await self.service.abandon(table.id, interaction.user.id, admin=verdict.admin)
        try:
            await interaction.response.send_message(
                t(
                    update.table.row.locale,
                    "race.abandoned",
                    race=table.id,
                    by=display_name(interaction.user),
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        finally:
            await self.settle(table.id, moved=False)

    @app_commands.command(
        name=_("substitute", key="cmd.substitute"),
        description=_("Put a member in a seat (host)", key="cmd.substitute.about"),
    )
    @app_commands.choices(
        seat=[app_commands.Choice(name=letter, value=letter) for letter in "ABCDEF"]
    )
    @app_commands.describe(
        seat=_("The seat to hand over", key="cmd.option.seat"),
        member=_("Who drives it from now on", key="cmd.option.member"),
        race=RACE_OPTION,
    )
    async def substitute(
        self,
        interaction: discord.Interaction[Any],
        seat: str,
        member: discord.Member,
        race: int | None = None,
    ) -> None:
        table, verdict = await self.find(interaction, race, Act.MANAGE)
        await self.service.substitute(
            table.id,
            interaction.user.id,
            seat,
            member.id,
            display_name(member),
            admin=verdict.admin,
        )
        try:
            await interaction.response.send_message(
                t(table.row.locale, "race.substituted", seat=seat, member=member.mention),
                allowed_mentions=discord.AllowedMentions(users=[member]),
            )
        finally:
            self.later(self.announcer.refresh_board(table.id))

    # ------------------------------------------------------------------ components

    async def on_component(
        self,
        interaction: discord.Interaction[Any],
        race: int,
        verb: str,
        turn: int,
        values: list[str],
    ) -> None:
        try:
            if verb in LOBBY_VERBS:
                await self.look_up(interaction, race, Act.MANAGE)
                await self.on_lobby(interaction, race, verb, values)
            elif verb == "choose":
                await self.look_up(interaction, race, Act.PLAY)
                await self.open_panel(interaction, race, turn)
            elif verb == "status":
                table = await self.look_up(interaction, race, Act.LOOK)
                await reply(
                    interaction,
                    await self.status_text(table, locale_of(interaction)),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            elif verb in PANEL_VERBS:
                await self.look_up(interaction, race, Act.PLAY)
                await self.on_panel(interaction, race, verb, turn, values)
            elif verb == "confirm":
                await self.look_up(interaction, race, Act.PLAY)
                await self.confirm(interaction, race, turn)
            elif verb == "type":
                await self.look_up(interaction, race, Act.PLAY)
                await self.open_modal(interaction, race, turn)
            else:
                await reply(interaction, t(locale_of(interaction), "error.unknown_button"))
        except Exception as error:
            await self.fail(interaction, error)

    async def on_lobby(
        self, interaction: discord.Interaction[Any], race: int, verb: str, values: list[str]
    ) -> None:
        user = interaction.user
        await lobby_posted(race)
        if verb == "join":
            table = await self.service.join(race, user.id, display_name(user))
        elif verb == "leave":
            table = await self.service.leave_lobby(race, user.id)
        elif verb == "addai":
            table = await self.service.add_ai(race, user.id, values[0] if values else "")
        elif verb == "noai":
            table = await self.service.remove_ai(race, user.id)
        else:
            await self.start(interaction, race)
            return
        message = interaction.message
        if message is not None and message.id == table.row.lobby_message_id:
            await interaction.response.edit_message(
                content=self.lobby_text(table),
                view=lobby_view(table, table.row.locale),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        else:
            await reply(interaction, self.lobby_text(table))
            await self.refresh_lobby(table)

    async def refresh_lobby(self, table: Table) -> None:
        channel = self.bot.get_channel(table.row.channel_id or 0)
        if channel is None or table.row.lobby_message_id is None:
            return
        try:
            await channel.get_partial_message(table.row.lobby_message_id).edit(  # type: ignore[union-attr]
                content=self.lobby_text(table),
                view=lobby_view(table, table.row.locale) if table.status == "lobby" else None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except TRANSIENT:
            log.warning("race %d: could not update the lobby", table.id)

    async def start(self, interaction: discord.Interaction[Any], race: int) -> None:
        await open_table(
            self,
            interaction,
            race,
            lambda started: t(started.row.locale, "thread.name", race=started.id),
        )
        self.later(self.announce_and_play(race, moved=False))

    async def open_panel(
        self, interaction: discord.Interaction[Any], race: int, turn: int | None
    ) -> None:
        locale = locale_of(interaction)
        table, view = await self.service.view_for(race, interaction.user.id)
        if table.status != "running":
            raise ServiceError(
                "error.race_over"
                if table.status in ("finished", "abandoned")
                else "error.not_started"
            )
        if table.seat_of(interaction.user.id) is None:
            raise ServiceError("error.not_seated")
        if turn is not None and turn != view.turn:
            raise ServiceError("error.stale_turn", turn=view.turn, race=race)
        draft = Draft.from_json(await self.service.get_draft(race, interaction.user.id, view.turn))
        if draft.is_empty and view.my_move is not None:
            draft = Draft.from_move(view.my_move)
        await interaction.response.send_message(
            **self.panel_message(race, view, draft, locale), ephemeral=True
        )

    def panel_message(self, race: int, view: Any, draft: Draft, locale: str) -> dict[str, Any]:
        panel = build_panel(view, draft, locale)
        lines = [
            t(locale, "panel.header", race=race, turn=view.turn),
            hand_text(view, locale=locale),
        ]
        if view.my_move is not None:
            lines.append(t(locale, "panel.chosen", move=Draft.from_move(view.my_move).text()))
        lines.append(t(locale, "panel.preview", preview=panel.preview))
        content = "\n".join(lines)
        if len(content) > 2000:
            content = content[:1999] + "…"
        return {"content": content, "view": panel_view(race, view.turn, panel, locale)}

    async def _seat_view(self, interaction: discord.Interaction[Any], race: int, turn: int) -> Any:
        table, view = await self.service.view_for(race, interaction.user.id)
        if table.status != "running":
            raise ServiceError(
                "error.race_over"
                if table.status in ("finished", "abandoned")
                else "error.not_started"
            )
        if table.seat_of(interaction.user.id) is None:
            raise ServiceError("error.not_seated")
        if turn != view.turn:
            raise ServiceError("error.stale_turn", turn=view.turn, race=race)
        return view

    async def on_panel(
        self,
        interaction: discord.Interaction[Any],
        race: int,
        verb: str,
        turn: int,
        values: list[str],
    ) -> None:
        locale = locale_of(interaction)
        view = await self._seat_view(interaction, race, turn)
        draft = Draft.from_json(await self.service.get_draft(race, interaction.user.id, turn))
        if draft.is_empty and view.my_move is not None:
            draft = Draft.from_move(view.my_move)
        try:
            draft = apply_choice(draft, verb, values)
            self._check_draft(draft, len(view.hand), len(view.tokens))
        except (ValueError, IndexError):
            raise ServiceError("error.stale_choice") from None
        await self.service.save_draft(race, interaction.user.id, turn, draft.to_json())
        panel = self.panel_message(race, view, draft, locale)
        if on_own_panel(interaction):
            await interaction.response.edit_message(**panel)
        else:
            await interaction.response.send_message(**panel, ephemeral=True)

    @staticmethod
    def _check_draft(draft: Draft, hand_size: int, token_count: int) -> None:
        cards = [*draft.cards, *draft.discard] + ([draft.wild] if draft.wild is not None else [])
        if any(not 0 <= card < hand_size for card in cards) or len(draft.cards) > 3:
            raise ValueError("card out of range")
        if draft.token is not None and not 0 <= draft.token < token_count:
            raise ValueError("token out of range")

    async def confirm(
        self,
        interaction: discord.Interaction[Any],
        race: int,
        turn: int,
        draft: Draft | None = None,
    ) -> None:
        locale = locale_of(interaction)
        view = await self._seat_view(interaction, race, turn)
        if draft is None:
            draft = Draft.from_json(await self.service.get_draft(race, interaction.user.id, turn))
        move = draft.to_move(view.tokens)
        update = await self.service.submit(race, interaction.user.id, move, turn)
        try:
            await self.answer_accepted(interaction, race, update, draft, locale)
        finally:
            self.later(self.announce_and_play(race))  # the move is stored, answered or not

    async def answer_accepted(
        self,
        interaction: discord.Interaction[Any],
        race: int,
        update: Update,
        draft: Draft,
        locale: str,
    ) -> None:
        key = (
            "move.resolved"
            if update.resolved
            else ("move.changed" if update.changed_move else "move.accepted")
        )
        if not update.stored:
            key = "move.unchanged"
        text = t(locale, key, move=draft.text())
        if interaction.type == discord.InteractionType.component and on_own_panel(interaction):
            await interaction.response.edit_message(content=text, view=None)
        else:
            await reply(interaction, text)

    async def open_modal(self, interaction: discord.Interaction[Any], race: int, turn: int) -> None:
        view = await self._seat_view(interaction, race, turn)
        draft = Draft.from_json(await self.service.get_draft(race, interaction.user.id, turn))
        current = "" if draft.is_empty else draft.text()
        if not current and view.my_move is not None:
            current = Draft.from_move(view.my_move).text()
        modal = MoveModal(race, turn, locale_of(interaction), current)
        await interaction.response.send_modal(modal)
        modal.stop()  # its submission comes to on_modal: a dismissed form is not kept

    async def on_modal(self, interaction: discord.Interaction[Any]) -> None:
        """A "type your move" submission (also after a restart: nothing is kept in memory)."""
        data: Any = interaction.data or {}
        match = MODAL_PATTERN.fullmatch(str(data.get("custom_id", "")))
        if match is None:
            return
        try:
            race, turn = int(match["race"]), int(match["turn"])
            await self.look_up(interaction, race, Act.PLAY)
            text = typed_move(data.get("components", []))
            view = await self._seat_view(interaction, race, turn)
            draft = parse_move_text(text, len(view.hand), len(view.tokens))
            try:
                view.analyse(draft.to_move(view.tokens))
            except EngineError as error:
                raise RuleError(error) from None
            await self.service.save_draft(race, interaction.user.id, turn, draft.to_json())
            await self.confirm(interaction, race, turn, draft)
        except Exception as error:
            await self.fail(interaction, error)
