"""What every game's Discord front is (:class:`GameFront`): the shared front's lobby,
panel and error answer, with the hooks a game fills in with its own — its name and rules
card, lobby options (its ``/… new`` command), panel, typed-move form, posts, status and
log. The bot builds one front per registered game (:mod:`bot.games`), adds it as a cog,
and routes every control and form to it by the custom_id prefixes it declares
(:attr:`GameFront.controls`).

A click is looked up in the service and checked for its place (:mod:`cogs.front.place`)
and its game before the game's front sees it; a custom_id may be forged.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import Verdict
from bot.images import ImageProcess
from bot.service import Announcement, ServiceError, Table, TableService
from bot.service import TurnReport as Report
from bot.text import t
from cogs.front import vote
from cogs.front.announce import Announcer, Post, timestamp
from cogs.front.answers import (
    MESSAGE_LIMIT,
    FollowsUp,
    Wording,
    fail,
    locale_of,
    refuse,
    reply,
)
from cogs.front.components import PATTERN, Controls, Kind, MoveForm, typed_field
from cogs.front.lobby import LOBBY_VERBS, Lobby, time_control_words
from cogs.front.panel import PanelMessage, Panels
from cogs.front.place import Act, admit

log = logging.getLogger(__name__)

LOG_ENTRIES = 3
"""The latest resolved steps a game's log shows."""


@dataclass(frozen=True)
class Keys:
    """A game's catalogue keys for what every game says: its name, its ``/help`` line, its
    rules card, its thread's name (with ``{table}``), the label of the button that opens a
    seat's panel (on boards and turn notices), and its lobby's header (with ``{table}`` and
    ``{host}``) and settings line (with ``{limit}`` and the game's own options)."""

    title: str
    help: str
    rules: str
    thread: str
    open: str
    lobby: str
    settings: str

    @classmethod
    def of(cls, game: str, prefix: str, **keys: str) -> Keys:
        """The keys of ``game`` (its name ``game.<game>``, its help line
        ``help.game.<game>``) whose own sentences are ``<prefix>.rules``, ``<prefix>.thread``,
        ``<prefix>.lobby.header`` and ``<prefix>.lobby.settings``; ``keys`` names the
        others (``open``) and any that differ."""
        named = {
            "title": f"game.{game}",
            "help": f"help.game.{game}",
            "rules": f"{prefix}.rules",
            "thread": f"{prefix}.thread",
            "lobby": f"{prefix}.lobby.header",
            "settings": f"{prefix}.lobby.settings",
        }
        return cls(**(named | keys))


@dataclass(frozen=True)
class Click:
    """A seat's click on its panel, or what it typed in the game's form (``values``): on
    which table, which control (``verb``), for which turn."""

    interaction: discord.Interaction[Any]
    table: Table
    verb: str
    turn: int
    values: list[str]

    @property
    def user_id(self) -> int:
        return self.interaction.user.id

    @property
    def locale(self) -> str:
        return locale_of(self.interaction)


class GameFront(Lobby, Panels, Wording, FollowsUp, commands.GroupCog):
    """A game's front on Discord: the cog of its own command group (``/race``), declared
    with its game's id, controls and catalogue keys (class keywords, as its command group's
    name and description are), its hooks filled in with its own words; everything else is
    shared."""

    game: ClassVar[str]
    controls: ClassVar[Controls]
    keys: ClassVar[Keys]
    drafts: ClassVar[Any]
    """The game's draft class (``from_json``, ``to_json``): a seat's choices so far."""

    def __init_subclass__(
        cls,
        *,
        game: str | None = None,
        controls: Controls | None = None,
        keys: Keys | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init_subclass__(**kwargs)
        if game is not None:
            cls.game = game
        if controls is not None:
            cls.controls = controls
        if keys is not None:
            cls.keys = keys

    def __init__(
        self,
        bot: commands.AutoShardedBot,
        service: TableService,
        announcer: Announcer,
        images: ImageProcess,
    ) -> None:
        super().__init__()
        self.bot = bot
        self.service = service
        self.announcer = announcer
        self.images = images
        self._background = set()

    # ------------------------------------------------------------------ the game's own

    def say(self, locale: str | None, key: str, /, **params: Any) -> str:
        """A sentence of the game's (a game with a catalogue of its own reads it there)."""
        return t(locale, key, **params)

    def title(self, locale: str | None) -> str:
        """The game's name, as lists show it."""
        return self.say(locale, self.keys.title)

    def help_line(self, locale: str | None) -> str:
        """How to start the game, as ``/help`` lists it."""
        return self.say(locale, self.keys.help)

    def rules_card(self, locale: str | None) -> str:
        return self.say(locale, self.keys.rules)

    def thread_name(self, table: Table, locale: str | None) -> str:
        return self.say(locale, self.keys.thread, table=table.id, race=table.id)

    def lobby_heading(self, table: Table) -> list[str]:
        locale = table.row.locale
        host = f"<@{table.row.host_id}>"
        limit = time_control_words(table.settings, locale)
        options = self.lobby_options(table, locale)
        return [
            self.say(locale, self.keys.lobby, table=table.id, race=table.id, host=host),
            self.say(locale, self.keys.settings, limit=limit, **options),
        ]

    def lobby_options(self, table: Table, locale: str | None) -> dict[str, Any]:
        """The game's own settings, in words, as its lobby's settings line names them."""
        return {}

    def status_of(self, table: Table, view: Any, locale: str | None) -> str:
        """Where a started game stands, public facts only, from the public view."""
        raise NotImplementedError

    def log_entry(self, table: Table, report: Report, locale: str | None) -> str:
        """One resolved step, as the game's log tells it."""
        raise NotImplementedError

    async def panel_message(self, table: Table, view: Any, draft: Any, locale: str) -> PanelMessage:
        """The seat's panel of the current turn (``view``: its own view) showing ``draft``,
        its choices so far."""
        raise NotImplementedError

    async def choose(self, click: Click) -> None:
        """A choice on the panel (one of its verbs but Confirm and Type)."""
        raise NotImplementedError

    async def confirm(self, click: Click) -> None:
        """The panel's Confirm: the seat's move is played."""
        raise NotImplementedError

    async def form_for(self, click: Click) -> MoveForm:
        """The game's "type your move" form, for a seat's Type button."""
        raise NotImplementedError

    async def typed(self, click: Click) -> None:
        """What a seat typed in the game's form (``click.values``: the text)."""
        raise NotImplementedError

    async def compose(self, channel: Any, table: Table, announcement: Announcement) -> Post:
        """The public post of ``announcement`` (see :class:`~cogs.front.announce.Poster`)."""
        raise NotImplementedError

    async def board_content(self, table: Table, view: Any, channel: Any) -> str | None:
        """The current board message's text after a move, from the table and its public
        view as read together, or None to leave it."""
        raise NotImplementedError

    async def turn_notice(self, table: Table, user_id: int) -> tuple[str, discord.ui.View]:
        """A seat's direct-message notice that its move is due."""
        raise NotImplementedError

    # ------------------------------------------------------------------ shared

    async def status_text(self, table: Table, locale: str | None) -> str:
        """Where the table stands: its lobby, or the game's public status."""
        if table.status == "lobby":
            return self.lobby_text(table)
        _, view = await self.service.view_for(table.id, None)
        return self.status_of(table, view, locale)

    async def log_chunks(self, table: Table, locale: str | None) -> list[str]:
        """The latest resolved steps, as messages of at most 2,000 characters."""
        reports = (await self.service.recent_reports(table.id))[-LOG_ENTRIES:]
        return [self.log_entry(table, report, locale)[:MESSAGE_LIMIT] for report in reports]

    def open_button(self, table_id: int, turn: int, locale: str | None) -> discord.ui.Item[Any]:
        """The button that opens a seat's panel of ``turn``."""
        label = self.say(locale, self.keys.open)
        style = discord.ButtonStyle.primary
        return self.controls.button(table_id, self.controls.opens, turn, label=label, style=style)

    def board_view(self, table: Table, turn: int, locale: str | None) -> discord.ui.View:
        """A board's controls: open the panel, the status and, at a table without a time
        limit or whose banks pause while a member is away, the vote on an absent player's
        seat."""
        view = discord.ui.View(timeout=None)
        view.add_item(self.open_button(table.id, turn, locale))
        view.add_item(self.status_button(table.id, turn, locale))
        if vote.offers_vote(table):
            view.add_item(vote.board_button(self.controls, table, turn, locale))
        return view

    def retired_view(self, table_id: int, turn: int, locale: str | None) -> discord.ui.View:
        """A superseded board's controls: the status alone."""
        view = discord.ui.View(timeout=None)
        view.add_item(self.status_button(table_id, turn, locale))
        return view

    def details_view(self, table_id: int, turn: int, locale: str | None) -> discord.ui.View:
        """A step's post told in short: its Details button answers with the whole story."""
        view = discord.ui.View(timeout=None)
        view.add_item(
            self.controls.button(table_id, "details", turn, label=t(locale, "board.details"))
        )
        return view

    async def details_text(self, table: Table, turn: int, locale: str | None) -> str:
        """The whole story of ``turn`` (as ``/game log`` tells it), or the status when
        the log no longer holds it."""
        report = await self.service.find_report(table.id, lambda report: report.turn == turn)
        if report is not None:
            return self.log_entry(table, report, locale)[:MESSAGE_LIMIT]
        return await self.status_text(table, locale)

    def status_button(self, table_id: int, turn: int, locale: str | None) -> discord.ui.Item[Any]:
        return self.controls.button(table_id, "status", turn, label=t(locale, "board.status"))

    def notice_view(self, table_id: int, turn: int, locale: str | None) -> discord.ui.View:
        """A turn notice's controls: open the panel."""
        view = discord.ui.View(timeout=None)
        view.add_item(self.open_button(table_id, turn, locale))
        return view

    def admit(self, interaction: discord.Interaction[Any], table: Table, act: Act) -> Verdict:
        """Whether the asker may ``act`` on ``table`` from here (raises the refusal); a
        table of another game is refused as an unknown button."""
        verdict = admit(table, interaction, act)
        if table.game != self.game:
            raise ServiceError("error.unknown_button")
        return verdict

    async def settle(self, table_id: int, *, moved: bool = True) -> None:
        """After a seat changed hands or left: AI seats play, announcements go out."""
        await self.announcer.settle(table_id, moved=moved)

    def begin(self, table_id: int) -> None:
        self.announcer.settle_later(table_id, moved=False)

    async def draft(self, table: Table, user_id: int, turn: int, view: Any) -> Any:
        """The seat's choices so far this turn (``view``: its own view)."""
        return self.drafts.from_json(await self.service.get_draft(table.id, user_id, turn))

    async def keep(self, click: Click, draft: Any) -> None:
        """Store the seat's choices so far (its panel and form read them back)."""
        await self.service.save_draft(click.table.id, click.user_id, click.turn, draft.to_json())

    async def panel(
        self, interaction: discord.Interaction[Any], table: Table, view: Any
    ) -> PanelMessage:
        """The asker's panel of the current turn, with the choices they made so far."""
        draft = await self.draft(table, interaction.user.id, table.row.turn, view)
        locale = locale_of(interaction)
        panel = await self.panel_message(table, view, draft, locale)
        seat = table.seat_of(interaction.user.id)
        expiry = table.runs_out(seat.seat) if seat is not None else None
        if table.settings.bank is not None and expiry is not None:
            bank = t(locale, "panel.bank", deadline=timestamp(expiry))
            panel.content = f"{panel.content}\n{bank}"[:MESSAGE_LIMIT]
        return panel

    async def open_panel(
        self, interaction: discord.Interaction[Any], table: Table, turn: int | None = None
    ) -> None:
        """Answer with the seat's private panel (already checked: the right server)."""
        table, view = await self.seat_view(interaction, table.id, turn)
        await self.show_panel(interaction, lambda: self.panel(interaction, table, view), fresh=True)

    async def fail(self, interaction: discord.Interaction[Any], error: BaseException) -> None:
        await fail(interaction, error, self)

    async def cog_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Every slash command's error, through the one error policy."""
        await self.fail(interaction, getattr(error, "original", error))

    async def on_component(
        self,
        interaction: discord.Interaction[Any],
        table_id: int,
        verb: str,
        turn: int,
        values: list[str],
    ) -> None:
        """A click on one of the game's controls (a lobby's, a board's or a panel's)."""
        try:
            if verb in LOBBY_VERBS:
                act = Act.MANAGE
            elif verb in ("status", "details"):
                act = Act.LOOK
            elif verb == self.controls.opens or verb in self.controls.plays or vote.is_vote(verb):
                act = Act.PLAY
            else:
                raise ServiceError("error.unknown_button")
            table = await self.service.table(table_id)
            self.admit(interaction, table, act)
            if verb in LOBBY_VERBS:
                await self.on_lobby(interaction, table, verb, values)
            elif verb == "status":
                await reply(
                    interaction,
                    await self.status_text(table, locale_of(interaction)),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            elif verb == "details":
                await reply(
                    interaction,
                    await self.details_text(table, turn, locale_of(interaction)),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            elif verb == self.controls.opens:
                await self.open_panel(interaction, table, turn)
            elif vote.is_vote(verb):
                if await vote.on_vote(
                    interaction, self.announcer, self.controls, table, verb, turn
                ):
                    await self.settle(table.id)
            else:
                await self.play(Click(interaction, table, verb, turn, values))
        except Exception as error:
            await self.fail(interaction, error)

    async def play(self, click: Click) -> None:
        """A click on the panel: Confirm, Type (the game's form), or a choice."""
        if click.verb == "confirm":
            await self.confirm(click)
        elif click.verb == "type":
            await self.open_form(click.interaction, await self.form_for(click))
        else:
            await self.choose(click)

    async def on_form_submit(
        self, interaction: discord.Interaction[Any], match: re.Match[str]
    ) -> None:
        """A typed-move form's submission (also after a restart: nothing is kept in
        memory)."""
        data: Any = interaction.data or {}
        try:
            table = await self.service.table(int(match["table"]))
            self.admit(interaction, table, Act.PLAY)
            typed = typed_field(data.get("components", []), self.controls.field)
            await self.typed(Click(interaction, table, "typed", int(match["turn"]), [typed]))
        except Exception as error:
            await self.fail(interaction, error)


class Fronts(Mapping[str, GameFront]):
    """Every game's front, by game id, in the registry's order; and the routing of every
    control and form to the front that declared its custom_id prefix."""

    def __init__(self, fronts: Iterable[GameFront]) -> None:
        self._fronts = {front.game: front for front in fronts}

    def __getitem__(self, game: str) -> GameFront:
        return self._fronts[game]

    def __iter__(self) -> Iterator[str]:
        return iter(self._fronts)

    def __len__(self) -> int:
        return len(self._fronts)

    def declaring(self, kind: Kind, prefix: str) -> GameFront | None:
        """The front whose controls of ``kind`` carry ``prefix``."""
        return next(
            (front for front in self._fronts.values() if front.controls.of(kind) == prefix), None
        )

    async def route(
        self,
        interaction: discord.Interaction[Any],
        kind: Kind,
        match: re.Match[str],
        values: list[str],
    ) -> None:
        """A click on a control (:class:`~cogs.front.components.Control`)."""
        front = self.declaring(kind, match["prefix"])
        if front is None:
            await refuse(interaction, "error.unknown_button")
            return
        table, verb, turn = int(match["table"]), match["verb"], int(match["turn"])
        await front.on_component(interaction, table, verb, turn, values)

    async def route_form(self, interaction: discord.Interaction[Any]) -> None:
        """A form's submission; one no game declared is refused as an unknown button."""
        data: Any = interaction.data or {}
        match = PATTERN.fullmatch(str(data.get("custom_id", "")))
        front = self.declaring("form", match["prefix"]) if match is not None else None
        if front is None or match is None:
            await refuse(interaction, "error.unknown_button")
            return
        await front.on_form_submit(interaction, match)


__all__ = ["Click", "Fronts", "GameFront", "Keys"]
