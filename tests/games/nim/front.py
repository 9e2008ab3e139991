"""Nim on Discord: ``/nim new`` with the pile's size, the active seat's panel (how many
counters to take, chosen or typed), and the posts of every turn and of the winner. Its
sentences are in its own catalogue (``locales/``); everything else is the shared front's.
Its custom_ids: ``ng:{table}:{verb}:{turn}`` buttons, ``ns:…`` selects, ``nf:…`` the
typed-move form."""

from __future__ import annotations

import functools
from typing import Any

import discord
from discord import app_commands

from bot.games.base import BOARD, PODIUM, REVEAL
from bot.service import TURN_LIMITS, Announcement, ServiceError, Table, TableSettings, TurnReport
from bot.storage import SeatRow
from bot.text import t
from cogs.front.announce import Post, mention, player_ids, waiting_ids, waiting_line
from cogs.front.components import Controls, MoveForm, PanelView
from cogs.front.game import Click, GameFront, Keys
from cogs.front.lobby import TURN_LIMIT_CHOICES, command_group, new_command
from cogs.front.panel import PanelMessage
from engine.i18n import Catalogue
from tests.games.nim.host import take
from tests.games.nim.rules import PILE, NimView, Took

CONTROLS = Controls(
    buttons="ng",
    selects="ns",
    forms="nf",
    opens="take",
    plays=frozenset({"count", "confirm", "type"}),
    field="count",
)
KEYS = Keys.of("nim", "nim", open="nim.open")
GROUP = command_group("nim", "Nim: take the last counter")


@functools.cache
def catalogue() -> Catalogue:
    return Catalogue.from_package("tests.games.nim")


class Count:
    """A seat's choice so far: how many counters it takes (1 until it chooses)."""

    def __init__(self, count: int = 1) -> None:
        self.count = count

    @classmethod
    def from_json(cls, stored: dict[str, Any] | None) -> Count:
        return cls(int((stored or {}).get("count", 1)))

    def to_json(self) -> dict[str, Any]:
        return {"count": self.count}


class NimFront(GameFront, game="nim", controls=CONTROLS, keys=KEYS, **GROUP):
    """Nim tables: the lobby, the active seat's panel, the public posts."""

    drafts = Count

    def say(self, locale: str | None, key: str, /, **params: Any) -> str:
        return catalogue().text(locale, key, **params)

    async def refusal_text(
        self, interaction: discord.Interaction[Any], error: ServiceError, locale: str
    ) -> str:
        if error.key.startswith("nim."):
            return self.say(locale, error.key, **error.params)
        return await super().refusal_text(interaction, error, locale)

    def lobby_options(self, table: Table, locale: str | None) -> dict[str, Any]:
        return {"pile": table.settings.options["pile"]}

    def status_of(self, table: Table, view: Any, locale: str | None) -> str:
        return self.board_text(table, view, locale)

    def log_entry(self, table: Table, report: TurnReport, locale: str | None) -> str:
        took = next(event for event in report.events if isinstance(event, Took))
        name = table.seat(took.seat).name
        return self.say(
            locale,
            "nim.took",
            table=table.id,
            turn=report.turn,
            name=name,
            count=took.count,
            left=took.left,
        )

    # ------------------------------------------------------------------ the lobby

    @new_command("Open a Nim lobby in this channel", "cmd.nim.new.about")
    @app_commands.choices(turn_limit=TURN_LIMIT_CHOICES)
    @app_commands.guild_only()
    async def new(
        self,
        interaction: discord.Interaction[Any],
        seats: app_commands.Range[int, 2, 4] = 2,
        pile: app_commands.Range[int, 1, 99] = PILE,
        turn_limit: str = "24h",
    ) -> None:
        await self.open_lobby(
            interaction,
            lambda: TableSettings(
                seats=seats,
                options={"pile": pile},
                turn_seconds=TURN_LIMITS.get(turn_limit, TURN_LIMITS["24h"]),
            ),
        )

    # ------------------------------------------------------------------ the panel

    def check_seat(
        self, interaction: discord.Interaction[Any], table: Table, seat: SeatRow, view: Any
    ) -> None:
        if view.active != seat.seat:
            raise ServiceError("nim.not_your_turn", name=table.seat(view.active).name)

    async def panel_message(
        self, table: Table, view: NimView, draft: Count, locale: str
    ) -> PanelMessage:
        count = min(draft.count, view.most)
        text = self.say(
            locale, "nim.panel", table=table.id, turn=view.turn, pile=view.pile, count=count
        )
        panel = PanelView()
        options = [
            discord.SelectOption(
                label=self.say(locale, "nim.count", count=number),
                value=str(number),
                default=number == count,
            )
            for number in range(1, view.most + 1)
        ]
        placeholder = self.say(locale, "nim.pick")
        panel.add_item(
            CONTROLS.select(table.id, "count", view.turn, options=options, placeholder=placeholder)
        )
        panel.add_item(CONTROLS.button(table.id, "type", view.turn, label=t(locale, "panel.type")))
        panel.add_item(CONTROLS.confirm(table.id, view.turn, locale, row=1))
        return PanelMessage(text, panel)

    async def choose(self, click: Click) -> None:
        table, view = await self.seat_view(click.interaction, click.table.id, click.turn)
        draft = Count(int(click.values[0]))
        await self.keep(click, draft)
        await self.show_panel(
            click.interaction, await self.panel_message(table, view, draft, click.locale)
        )

    async def confirm(self, click: Click, count: int | None = None) -> None:
        table, view = await self.seat_view(click.interaction, click.table.id, click.turn)
        if count is None:
            count = min((await self.draft(table, click.user_id, click.turn, view)).count, view.most)
        await self.service.submit(table.id, click.user_id, take(view.active, count), click.turn)
        try:
            await self.answer_done(
                click.interaction, self.say(click.locale, "nim.done", count=count)
            )
        finally:
            self.announcer.settle_later(table.id)

    async def form_for(self, click: Click) -> MoveForm:
        table, _ = await self.seat_view(click.interaction, click.table.id, click.turn)
        return CONTROLS.form(
            table.id,
            "take",
            click.turn,
            "",
            locale=click.locale,
            texts="nim.form",
            max_length=2,
            say=self.say,
        )

    async def typed(self, click: Click) -> None:
        """A typed number of counters, taken at once."""
        _, view = await self.seat_view(click.interaction, click.table.id, click.turn)
        text = click.values[0].strip()
        if not text.isdigit() or not 1 <= int(text) <= view.most:
            raise ServiceError("nim.not_a_number", most=view.most)
        await self.confirm(click, int(text))

    # ------------------------------------------------------------------ posts

    def board_text(self, table: Table, view: NimView, locale: str | None) -> str:
        name = table.seat(view.active).name
        header = self.say(
            locale, "nim.board", table=table.id, turn=view.turn, pile=view.pile, name=name
        )
        return f"{header}\n{waiting_line(table, locale)}"

    async def compose(self, channel: Any, table: Table, announcement: Announcement) -> Post:
        locale = table.row.locale
        kind = announcement.row.kind
        if kind == BOARD:
            view: NimView = announcement.view
            buttons = self.board_view(table, view.turn, locale)
            return Post(
                self.board_text(table, view, locale), view=buttons, pings=waiting_ids(table)
            )
        report = announcement.report
        assert report is not None and kind in (REVEAL, PODIUM)
        if kind == REVEAL:
            return Post(self.log_entry(table, report, locale))
        winner = table.seat(report.view.winner)
        name = mention(winner.user_id, winner.name)
        text = self.say(locale, "nim.podium", table=table.id, name=name)
        return Post(text, pings=player_ids(table))

    async def board_content(self, table: Table, view: Any, channel: Any) -> str | None:
        return self.board_text(table, view, table.row.locale)

    async def turn_notice(self, table: Table, user_id: int) -> tuple[str, discord.ui.View]:
        locale = table.row.locale
        _, view = await self.service.view_for(table.id, user_id)
        text = self.say(locale, "nim.dm", table=table.id, turn=view.turn, pile=view.pile)
        return text, self.notice_view(table.id, view.turn, locale)


FRONT = NimFront

__all__ = ["FRONT", "NimFront"]
