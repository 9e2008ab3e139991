"""Discord components for races: persistent buttons and selects whose custom_id carries
ids, not state (``g:{race}:{verb}:{turn}``), and the views for lobbies, boards and the
private move panel. Nothing lives in a View: every click is looked up in the service.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.games.charioteer import AI_LEVELS
from bot.games.charioteer.panel import Panel
from bot.service import Table
from bot.text import t

BUTTON_TEMPLATE = r"g:(?P<race>\d{1,18}):(?P<verb>[a-z]{1,12}):(?P<turn>\d{1,6})"
SELECT_TEMPLATE = r"s:(?P<race>\d{1,18}):(?P<verb>[a-z]{1,12}):(?P<turn>\d{1,6})"
BUTTON_PATTERN = re.compile(BUTTON_TEMPLATE)
SELECT_PATTERN = re.compile(SELECT_TEMPLATE)
MODAL_PATTERN = re.compile(r"m:(?P<race>\d{1,18}):(?P<verb>[a-z]{1,12}):(?P<turn>\d{1,6})")
LABEL_LIMIT = 80
OPTION_LIMIT = 100

Handler = Callable[[discord.Interaction[Any], int, str, int, list[str]], Awaitable[None]]


def custom_id(prefix: str, race: int, verb: str, turn: int) -> str:
    return f"{prefix}:{race}:{verb}:{turn}"


def _clip(text: str, limit: int = LABEL_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class PanelView(discord.ui.View):
    """A view of dynamic items only, for a private (ephemeral) message. discord.py gives such
    a view a 15-minute timeout, which keeps it, its items and a sleeping task alive for that
    long after the answer: with thousands of panels a minute that was most of the bot's
    memory, and the garbage collector's work. Every click is looked up by its custom_id, so
    this view needs no timeout and nothing keeps it once it is sent."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @property
    def timeout(self) -> float | None:
        return None

    @timeout.setter
    def timeout(self, value: float | None) -> None:
        """Ignored: see the class docstring."""


async def _dispatch(
    interaction: discord.Interaction[Any], race: int, verb: str, turn: int, values: list[str]
) -> None:
    handler: Handler | None = getattr(interaction.client, "component_handler", None)
    if handler is None:
        return
    await handler(interaction, race, verb, turn, values)


class RaceButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    """A button of a race; the service decides what a click means now."""

    def __init__(
        self,
        race: int,
        verb: str,
        turn: int,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=_clip(label),
                style=style,
                disabled=disabled,
                custom_id=custom_id("g", race, verb, turn),
                row=row,
            )
        )
        self.race, self.verb, self.turn = race, verb, turn

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> RaceButton:
        label = getattr(item, "label", None) or ""
        style = getattr(item, "style", discord.ButtonStyle.secondary)
        return cls(int(match["race"]), match["verb"], int(match["turn"]), label=label, style=style)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.race, self.verb, self.turn, [])


class RaceSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """A select menu of a race (cards, symbol, token, discards, AI level)."""

    def __init__(
        self,
        race: int,
        verb: str,
        turn: int,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id("s", race, verb, turn),
                options=options or [discord.SelectOption(label="-", value="-")],
                placeholder=_clip(placeholder or "", 150) or None,
                min_values=min_values,
                max_values=max_values,
                row=row,
            )
        )
        self.race, self.verb, self.turn = race, verb, turn

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> RaceSelect:
        return cls(
            int(match["race"]),
            match["verb"],
            int(match["turn"]),
            options=list(getattr(item, "options", [])),
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.race, self.verb, self.turn, list(self.item.values))


def lobby_view(table: Table, locale: str | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    race = table.id
    view.add_item(
        RaceButton(
            race, "join", 0, label=t(locale, "lobby.join"), style=discord.ButtonStyle.primary, row=0
        )
    )
    view.add_item(RaceButton(race, "leave", 0, label=t(locale, "lobby.leave"), row=0))
    view.add_item(
        RaceButton(
            race,
            "start",
            0,
            label=t(locale, "lobby.start"),
            style=discord.ButtonStyle.success,
            row=0,
        )
    )
    view.add_item(RaceButton(race, "noai", 0, label=t(locale, "lobby.remove_ai"), row=0))
    levels = [
        discord.SelectOption(
            label=t(locale, f"ai.{level}"),
            value=level,
            description=_clip(t(locale, f"ai.{level}.about"), OPTION_LIMIT),
        )
        for level in AI_LEVELS
    ]
    view.add_item(
        RaceSelect(race, "addai", 0, options=levels, placeholder=t(locale, "lobby.add_ai"), row=1)
    )
    return view


def board_view(race: int, turn: int, locale: str | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        RaceButton(
            race, "choose", turn, label=t(locale, "board.choose"), style=discord.ButtonStyle.primary
        )
    )
    view.add_item(RaceButton(race, "status", turn, label=t(locale, "board.status")))
    return view


def dm_view(race: int, turn: int, locale: str | None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        RaceButton(
            race, "choose", turn, label=t(locale, "board.choose"), style=discord.ButtonStyle.primary
        )
    )
    return view


def _options(options: tuple[Any, ...]) -> list[discord.SelectOption]:
    return [
        discord.SelectOption(
            label=_clip(option.label),
            value=option.value,
            description=_clip(option.description, OPTION_LIMIT) or None,
            default=option.selected,
        )
        for option in options[:25]
    ]


def panel_view(race: int, turn: int, panel: Panel, locale: str | None) -> discord.ui.View:
    """The private panel: cards, symbol, token, discards, then crowd / type / confirm."""
    view = PanelView()
    view.add_item(
        RaceSelect(
            race,
            "cards",
            turn,
            options=_options(panel.cards),
            placeholder=t(locale, "panel.pick_cards"),
            min_values=0,
            max_values=min(3, len(panel.cards)),
            row=0,
        )
    )
    view.add_item(
        RaceSelect(
            race,
            "symbol",
            turn,
            options=_options(panel.symbols),
            placeholder=t(locale, "panel.pick_symbol"),
            row=1,
        )
    )
    if len(panel.tokens) > 1:
        view.add_item(
            RaceSelect(
                race,
                "token",
                turn,
                options=_options(panel.tokens),
                placeholder=t(locale, "panel.pick_token"),
                row=2,
            )
        )
    if panel.discards:
        view.add_item(
            RaceSelect(
                race,
                "discard",
                turn,
                options=_options(panel.discards),
                placeholder=t(locale, "panel.pick_discards", limit=panel.discard_limit),
                min_values=0,
                max_values=min(panel.discard_limit, len(panel.discards)),
                row=3,
            )
        )
    crowd_label = t(locale, "panel.crowd_on" if panel.draft.crowd else "panel.crowd_off")
    view.add_item(
        RaceButton(
            race,
            "crowd",
            turn,
            label=crowd_label,
            style=discord.ButtonStyle.primary
            if panel.draft.crowd
            else discord.ButtonStyle.secondary,
            disabled=not panel.crowd_available and not panel.draft.crowd,
            row=4,
        )
    )
    view.add_item(RaceButton(race, "type", turn, label=t(locale, "panel.type"), row=4))
    view.add_item(RaceButton(race, "clear", turn, label=t(locale, "panel.clear"), row=4))
    view.add_item(
        RaceButton(
            race,
            "confirm",
            turn,
            label=t(locale, "panel.confirm"),
            style=discord.ButtonStyle.success,
            disabled=not panel.can_confirm,
            row=4,
        )
    )
    return view


MOVE_FIELD = "move"
"""The custom_id of the "type your move" text field."""


class MoveModal(discord.ui.Modal):
    """ "Type your move": one labelled text field in the text form (``R5 1 2 crowd t1``).
    Its submission is handled by the bot's interaction listener (:func:`typed_move` reads
    it), so it works after a restart and the modal object is not kept once shown."""

    def __init__(self, race: int, turn: int, locale: str | None, current: str) -> None:
        super().__init__(
            title=_clip(t(locale, "modal.title"), 45),
            custom_id=custom_id("m", race, "move", turn),
            timeout=None,
        )
        self.add_item(
            discord.ui.Label(
                text=_clip(t(locale, "modal.label"), 45),
                component=discord.ui.TextInput(
                    placeholder=_clip(t(locale, "modal.placeholder"), 100),
                    default=current or None,
                    custom_id=MOVE_FIELD,
                    max_length=100,
                ),
            )
        )


def typed_move(data: Any) -> str:
    """The text typed in a "type your move" submission: its ``move`` field, wherever the
    submission nests it (in a label, or in an action row as older clients send)."""
    pending = [data]
    while pending:
        node = pending.pop()
        if isinstance(node, list):
            pending.extend(reversed(node))
        elif isinstance(node, dict):
            if node.get("custom_id") == MOVE_FIELD and "value" in node:
                return str(node["value"])
            pending.extend(node.get(key) for key in ("components", "component") if key in node)
    return ""
