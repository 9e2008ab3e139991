"""Charioteer on Discord: the ``/race …`` commands (``new`` with the race's options, and
the race's own ``hand``, ``status``, ``log``, ``rules``, ``leave``, ``abandon``,
``substitute`` and ``dm``), the private move panel with its typed-move form, and the
race's posts. Everything else, the lobby, the panel's plumbing, the error answer and the
announcements, is the shared front's (:mod:`cogs.front`).

A race words the host's refusals its own way (a race, not a game), and a stale panel's
refusal links to the current board.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.access import Verdict
from bot.games.charioteer import HOST, MAX_LAPS
from bot.games.charioteer.drafts import Draft, DraftError, parse_move_text
from bot.games.charioteer.panel import apply_choice, build_panel
from bot.service import (
    Announcement,
    RuleError,
    ServiceError,
    Table,
    TableSettings,
    TurnReport,
)
from bot.text import t
from cogs.front import tables
from cogs.front.announce import Post, can_attach
from cogs.front.answers import ServerOnly, locale_of, refusal_params, reply
from cogs.front.components import MoveForm
from cogs.front.game import Click, GameFront, Keys
from cogs.front.lobby import (
    AWAY_PAUSES_OPTION,
    TIME_BANK_OPTION,
    TURN_LIMIT_CHOICES,
    command_group,
    new_command,
    time_control,
)
from cogs.front.panel import PanelMessage
from cogs.front.place import Act, admit
from cogs.front.tables import Words
from cogs.games.charioteer.controls import CONTROLS, move_form, panel_view
from cogs.games.charioteer.posts import (
    board_content,
    board_post,
    podium_post,
    reveal_details,
    reveal_post,
    status_content,
)
from engine.charioteer import SeatView
from engine.charioteer.render import hand_text
from engine.core import EngineError

log = logging.getLogger(__name__)

KEYS = Keys(
    title="game.charioteer",
    help="help.game.charioteer",
    rules="rules.card",
    thread="thread.name",
    open="board.choose",
    lobby="lobby.header",
    settings="lobby.settings",
)

RACE_OPTION = _("The race number (this thread's race if left out)", key="cmd.option.race")
"""The ``race`` option's description, shared by every command that takes one."""
RACE_WORDS = Words("race.left", "race.abandoned_by_leaving", "race.abandoned", "race.substituted")


@app_commands.guild_only()
class CharioteerFront(
    ServerOnly,
    GameFront,
    game="charioteer",
    controls=CONTROLS,
    keys=KEYS,
    **command_group("race", "Chariot races"),
):
    """Charioteer races: lobby, private move panel, board, podium. Every ``/race`` command
    runs in a server only (:class:`ServerOnly`)."""

    drafts = Draft

    started_key = "lobby.started"

    # ------------------------------------------------------------------ the race's words

    def ai_about(self, level: str, locale: str | None) -> str | None:
        return t(locale, f"ai.{level}.about")

    def lobby_options(self, table: Table, locale: str | None) -> dict[str, Any]:
        settings = table.settings
        timeout = t(locale, f"timeout.{settings.timeout_policy}")
        return {"count": settings.options["laps"], "seats": settings.seats, "timeout": timeout}

    def status_of(self, table: Table, view: Any, locale: str | None) -> str:
        return status_content(table, view, locale)

    def log_entry(self, table: Table, report: TurnReport, locale: str | None) -> str:
        return reveal_details(table, report, locale)

    # ------------------------------------------------------------------ errors

    def admit(self, interaction: discord.Interaction[Any], table: Table, act: Act) -> Verdict:
        """The table's server, its channel's view and the DM rule (:mod:`bot.access`);
        raises the refusal. Another game's table is no race: ``/game …`` serves it."""
        if table.game != self.game:
            raise ServiceError("error.no_such_race", race=table.id)
        return admit(table, interaction, act)

    async def refusal_text(
        self, interaction: discord.Interaction[Any], error: ServiceError, locale: str
    ) -> str:
        """The host's refusal in race words; a stale panel's links to the current board."""
        params = refusal_params(error, locale)
        if error.key != "error.stale_turn":
            return t(locale, error.key, **params)
        params["link"] = await self.board_link(interaction, params)
        return t(
            locale, "error.stale_turn_link" if params["link"] else "error.stale_turn", **params
        )

    def own_error_text(self, error: BaseException, locale: str) -> str | None:
        if isinstance(error, DraftError):
            return t(locale, error.key, **error.params)
        return None

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

    async def find(
        self, interaction: discord.Interaction[Any], race: int | None, act: Act
    ) -> tuple[Table, Verdict]:
        """The race a command means (``race``, else this channel's or the user's latest
        here), once :meth:`admit` lets the user ``act`` on it from here."""
        table = await tables.find_table(self.service, interaction, race)
        return table, self.admit(interaction, table, act)

    # ------------------------------------------------------------------ commands

    @new_command("Open a race lobby in this channel", "cmd.new.about")
    @app_commands.describe(
        seats=_("How many chariots (2–6)", key="cmd.new.seats"),
        turn_limit=_("Time to choose a move each turn", key="cmd.new.turn_limit"),
        laps=_("Laps to race (1–9)", key="cmd.new.laps"),
        on_timeout=_("What happens to a seat whose time runs out", key="cmd.new.on_timeout"),
        time_bank=TIME_BANK_OPTION,
        away_pauses=AWAY_PAUSES_OPTION,
    )
    @app_commands.choices(
        turn_limit=TURN_LIMIT_CHOICES,
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
        laps: app_commands.Range[int, 1, MAX_LAPS] = 3,
        on_timeout: str = "ai",
        time_bank: str | None = None,
        away_pauses: bool = False,
    ) -> None:
        await self.open_lobby(
            interaction,
            lambda: TableSettings(
                seats=seats,
                options={"laps": laps},
                timeout_policy=on_timeout,
                **time_control(turn_limit, time_bank, away_pauses),
            ),
        )

    @app_commands.command(
        name=_("hand", key="cmd.hand"),
        description=_("Open your private move panel", key="cmd.hand.about"),
    )
    @app_commands.describe(race=RACE_OPTION)
    async def hand(self, interaction: discord.Interaction[Any], race: int | None = None) -> None:
        table, _ = await self.find(interaction, race, Act.PLAY)
        await self.open_panel(interaction, table)

    @app_commands.command(
        name=_("dm", key="cmd.dm"),
        description=_("Get a direct message when your move is due", key="cmd.dm.about"),
    )
    @app_commands.describe(
        enabled=_("On: a direct message when your move is due", key="cmd.option.enabled")
    )
    async def dm(self, interaction: discord.Interaction[Any], enabled: bool) -> None:
        await tables.set_dm(interaction, self.service, enabled)

    @app_commands.command(
        name=_("status", key="cmd.status"),
        description=_("Where the race stands", key="cmd.status.about"),
    )
    @app_commands.describe(race=RACE_OPTION)
    async def status(self, interaction: discord.Interaction[Any], race: int | None = None) -> None:
        table, _ = await self.find(interaction, race, Act.LOOK)
        await tables.answer_status(interaction, self, table)

    @app_commands.command(
        name=_("log", key="cmd.log"),
        description=_("Every reveal of the race so far", key="cmd.log.about"),
    )
    @app_commands.describe(race=RACE_OPTION)
    async def log_(self, interaction: discord.Interaction[Any], race: int | None = None) -> None:
        table, _ = await self.find(interaction, race, Act.LOOK)
        await tables.answer_log(interaction, self, table)

    @app_commands.command(
        name=_("rules", key="cmd.rules"), description=_("A short rules card", key="cmd.rules.about")
    )
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await reply(interaction, self.rules_card(locale_of(interaction)))

    @app_commands.command(
        name=_("leave", key="cmd.leave"),
        description=_("Leave the race (an AI takes your chariot)", key="cmd.leave.about"),
    )
    @app_commands.describe(race=RACE_OPTION)
    async def leave(self, interaction: discord.Interaction[Any], race: int | None = None) -> None:
        table, _ = await self.find(interaction, race, Act.PLAY)
        await tables.leave(interaction, self, table, RACE_WORDS)

    @app_commands.command(
        name=_("abandon", key="cmd.abandon"),
        description=_("End the race (host or Manage Server)", key="cmd.abandon.about"),
    )
    @app_commands.describe(race=RACE_OPTION)
    async def abandon(self, interaction: discord.Interaction[Any], race: int | None = None) -> None:
        table, verdict = await self.find(interaction, race, Act.MANAGE)
        await tables.abandon(interaction, self, table, RACE_WORDS, admin=verdict.admin)

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
        await tables.substitute(
            interaction, self, table, seat, member, RACE_WORDS, admin=verdict.admin
        )

    # ------------------------------------------------------------------ the panel

    async def draft(self, table: Table, user_id: int, turn: int, view: Any) -> Draft:
        """The seat's draft of this turn, else the move it already chose."""
        draft: Draft = await super().draft(table, user_id, turn, view)
        if draft.is_empty and view.my_move is not None:
            draft = Draft.from_move(view.my_move)
        return draft

    async def panel_message(
        self, table: Table, view: SeatView, draft: Draft, locale: str
    ) -> PanelMessage:
        race = table.id
        panel = build_panel(view, draft, locale)
        lines = [
            t(locale, "panel.header", race=race, turn=view.turn),
            hand_text(view, locale=locale, squares=True),
        ]
        if view.my_move is not None:
            move = Draft.from_move(view.my_move).text(locale)
            lines.append(t(locale, "panel.chosen", move=move))
        lines.append(t(locale, "panel.preview", preview=panel.preview))
        content = "\n".join(lines)
        if len(content) > 2000:
            content = content[:1999] + "…"
        return PanelMessage(content, panel_view(race, view.turn, panel, locale))

    async def choose(self, click: Click) -> None:
        table, view = await self.seat_view(click.interaction, click.table.id, click.turn)
        draft = await self.draft(table, click.user_id, click.turn, view)
        try:
            draft = apply_choice(draft, click.verb, click.values)
            check_draft(draft, len(view.hand), len(view.tokens))
        except (ValueError, IndexError):
            raise ServiceError("error.stale_choice") from None
        await self.keep(click, draft)
        await self.show_panel(
            click.interaction, await self.panel_message(table, view, draft, click.locale)
        )

    async def confirm(self, click: Click, draft: Draft | None = None) -> None:
        table, view = await self.seat_view(click.interaction, click.table.id, click.turn)
        if draft is None:
            draft = await super().draft(table, click.user_id, click.turn, view)
        move = draft.to_move(view.tokens)
        update = await self.service.submit(table.id, click.user_id, move, click.turn)
        try:
            key = (
                "move.resolved"
                if update.resolved
                else ("move.changed" if update.changed_move else "move.accepted")
            )
            if not update.stored:
                key = "move.unchanged"
            answer = t(click.locale, key, move=draft.text(click.locale))
            await self.answer_done(click.interaction, answer)
        finally:
            self.announcer.settle_later(table.id)  # the move is stored, answered or not

    async def form_for(self, click: Click) -> MoveForm:
        table, view = await self.seat_view(click.interaction, click.table.id, click.turn)
        draft = await super().draft(table, click.user_id, click.turn, view)
        current = "" if draft.is_empty else draft.text(click.locale)
        if not current and view.my_move is not None:
            current = Draft.from_move(view.my_move).text(click.locale)
        return move_form(table.id, click.turn, click.locale, current)

    async def typed(self, click: Click) -> None:
        """A typed move: checked, kept as the draft, and confirmed."""
        _, view = await self.seat_view(click.interaction, click.table.id, click.turn)
        draft = parse_move_text(click.values[0], len(view.hand), len(view.tokens), click.locale)
        try:
            view.analyse(draft.to_move(view.tokens))
        except EngineError as error:
            raise RuleError(error, HOST) from None
        await self.keep(click, draft)
        await self.confirm(click, draft)

    # ------------------------------------------------------------------ posts

    async def compose(self, channel: Any, table: Table, announcement: Announcement) -> Post:
        kind = announcement.row.kind
        if kind == "reveal":
            report = announcement.report
            assert report is not None
            details = self.details_view(table.id, report.turn, table.row.locale)
            return Post(reveal_post(table, report, table.row.locale), view=details)
        if kind == "podium":
            return await podium_post(self.images, channel, table, announcement.view)
        view: SeatView = announcement.view
        buttons = self.board_view(table, view.turn, table.row.locale)
        return await board_post(self.images, channel, table, view, buttons)

    async def board_content(self, table: Table, view: Any, channel: Any) -> str | None:
        return board_content(table, view, table.row.locale, pictured=can_attach(channel))

    async def turn_notice(self, table: Table, user_id: int) -> tuple[str, discord.ui.View]:
        locale = table.row.locale
        _, view = await self.service.view_for(table.id, user_id)
        text = (
            t(locale, "dm.turn", race=table.id, turn=view.turn)
            + "\n"
            + hand_text(view, locale=locale or "en", squares=True)
        )
        return text, self.notice_view(table.id, view.turn, locale)


def check_draft(draft: Draft, hand_size: int, token_count: int) -> None:
    """Refuse (ValueError) a draft naming a card or token the seat does not hold (a choice
    from a panel of an older hand)."""
    cards = [*draft.cards, *draft.discard] + ([draft.wild] if draft.wild is not None else [])
    if any(not 0 <= card < hand_size for card in cards) or len(draft.cards) > 3:
        raise ValueError("card out of range")
    if draft.token is not None and not 0 <= draft.token < token_count:
        raise ValueError("token out of range")


__all__ = ["CharioteerFront"]
