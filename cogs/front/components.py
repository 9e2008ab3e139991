"""Every game's controls: persistent buttons and selects whose custom_id carries ids, not
state (``{prefix}:{table}:{verb}:{turn}``), and the "type your move" form. Nothing lives
in a View: every click is looked up in the service.

One family of items serves every game (:class:`Control`, a button or a select): the
prefix routes a click to the front of the game that declared it (:class:`Controls`:
Charioteer's ``g``/``s``/``m``, say), so a control of a message posted long ago works
after any restart or upgrade. A prefix no game declares, or one of another kind of
control (a select carrying a button's prefix), is refused as an unknown button.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import discord

from bot.text import t

TEMPLATE = r"(?P<prefix>[a-z]{1,2}):(?P<table>\d{1,18}):(?P<verb>[a-z]{1,12}):(?P<turn>\d{1,6})"
PATTERN = re.compile(TEMPLATE)
"""A control's or a form's custom_id."""
LABEL_LIMIT = 80
OPTION_LIMIT = 100
PLACEHOLDER_LIMIT = 150
TITLE_LIMIT = 45
OPTIONS_SHOWN = 25
"""Discord's most options in one select."""

Kind = Literal["button", "select", "form"]


@dataclass(frozen=True)
class Controls:
    """One game's controls: the custom_id prefixes of its buttons, selects and typed-move
    form; the verb of the button that opens a seat's panel (on boards and turn notices),
    the panel's own verbs and the form's text field; and the controls made with them."""

    buttons: str
    selects: str
    forms: str | None = None
    opens: str = "play"
    plays: frozenset[str] = frozenset()
    field: str = "move"

    def of(self, kind: Kind) -> str | None:
        return {"button": self.buttons, "select": self.selects, "form": self.forms}[kind]

    def button(self, table: int, verb: str, turn: int, **shown: Any) -> Control:
        """A button (``shown``: its label, style, disabled, row)."""
        return button(self.buttons, table, verb, turn, **shown)

    def select(self, table: int, verb: str, turn: int, **shown: Any) -> Control:
        """A select (``shown``: its options, placeholder, min and max values, row)."""
        return select(self.selects, table, verb, turn, **shown)

    def confirm(
        self, table: int, turn: int, locale: str | None, *, disabled: bool = False, row: int
    ) -> Control:
        """A panel's Confirm."""
        label = t(locale, "panel.confirm")
        style = discord.ButtonStyle.success
        return self.button(
            table, "confirm", turn, label=label, style=style, disabled=disabled, row=row
        )

    def form(
        self,
        table: int,
        verb: str,
        turn: int,
        current: str,
        *,
        locale: str | None,
        texts: str,
        max_length: int,
        say: Callable[..., str] = t,
    ) -> MoveForm:
        """The typed-move form, holding the text typed so far (its title, label and
        placeholder: the catalogue's ``<texts>.title`` and so on, said by ``say``) and
        taking at most ``max_length`` characters."""
        assert self.forms is not None, "this game has no typed-move form"
        return MoveForm(
            custom_id(self.forms, table, verb, turn),
            title=say(locale, f"{texts}.title"),
            label=say(locale, f"{texts}.label"),
            placeholder=say(locale, f"{texts}.placeholder"),
            field=self.field,
            current=current,
            max_length=max_length,
        )


Route = Callable[[discord.Interaction[Any], Kind, re.Match[str], list[str]], Awaitable[None]]
"""Where a control's click goes: the bot's dispatch to the game that declared its prefix."""


def custom_id(prefix: str, table: int, verb: str, turn: int) -> str:
    return f"{prefix}:{table}:{verb}:{turn}"


def clip(text: str, limit: int = LABEL_LIMIT) -> str:
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


class Control(discord.ui.DynamicItem[discord.ui.Item[Any]], template=TEMPLATE):
    """A button or a select of a game's table; the game's front decides what a click
    means now (see :func:`button` and :func:`select` to make one)."""

    def __init__(self, item: discord.ui.Item[Any], match: re.Match[str]) -> None:
        super().__init__(item)
        self.match = match

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> Control:
        if isinstance(item, discord.ui.Select):
            rebuilt: discord.ui.Item[Any] = discord.ui.Select(
                custom_id=match.string, options=list(item.options)
            )
        else:
            rebuilt = discord.ui.Button(
                label=getattr(item, "label", None) or "",
                style=getattr(item, "style", discord.ButtonStyle.secondary),
                custom_id=match.string,
            )
        return cls(rebuilt, match)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        route: Route | None = getattr(interaction.client, "route_control", None)
        if route is None:
            return
        if isinstance(self.item, discord.ui.Select):
            await route(interaction, "select", self.match, list(self.item.values))
        else:
            await route(interaction, "button", self.match, [])


def button(
    prefix: str,
    table: int,
    verb: str,
    turn: int,
    *,
    label: str = "",
    style: discord.ButtonStyle | None = None,
    disabled: bool = False,
    row: int | None = None,
) -> Control:
    key = custom_id(prefix, table, verb, turn)
    item = discord.ui.Button[Any](
        label=clip(label),
        style=style or discord.ButtonStyle.secondary,
        disabled=disabled,
        custom_id=key,
        row=row,
    )
    return Control(item, _matched(key))


def select(
    prefix: str,
    table: int,
    verb: str,
    turn: int,
    *,
    options: list[discord.SelectOption] | None = None,
    placeholder: str | None = None,
    min_values: int = 1,
    max_values: int = 1,
    row: int | None = None,
) -> Control:
    key = custom_id(prefix, table, verb, turn)
    item = discord.ui.Select[Any](
        custom_id=key,
        options=options or [discord.SelectOption(label="-", value="-")],
        placeholder=clip(placeholder or "", PLACEHOLDER_LIMIT) or None,
        min_values=min_values,
        max_values=max_values,
        row=row,
    )
    return Control(item, _matched(key))


def _matched(key: str) -> re.Match[str]:
    match = PATTERN.fullmatch(key)
    assert match is not None, f"not a control's custom_id: {key}"
    return match


class MoveForm(discord.ui.Modal):
    """A "type your move" form: one labelled text field. Its submission is handled by the
    bot's interaction listener (:func:`typed_field` reads it), so it works after a restart
    and the form object is not kept once shown."""

    def __init__(
        self,
        key: str,
        *,
        title: str,
        label: str,
        placeholder: str,
        field: str,
        current: str,
        max_length: int,
    ) -> None:
        super().__init__(title=clip(title, TITLE_LIMIT), custom_id=key, timeout=None)
        self.add_item(
            discord.ui.Label(
                text=clip(label, TITLE_LIMIT),
                component=discord.ui.TextInput(
                    placeholder=clip(placeholder, OPTION_LIMIT),
                    default=current or None,
                    custom_id=field,
                    max_length=max_length,
                ),
            )
        )


def typed_field(data: Any, field: str) -> str:
    """The text typed in a form's ``field``, wherever the submission nests it (in a label,
    or in an action row as older clients send)."""
    pending = [data]
    while pending:
        node = pending.pop()
        if isinstance(node, list):
            pending.extend(reversed(node))
        elif isinstance(node, Mapping):
            if node.get("custom_id") == field and "value" in node:
                return str(node["value"])
            pending.extend(node.get(key) for key in ("components", "component") if key in node)
    return ""


def menu(
    entries: Any, *, described: bool = False, limit: int = OPTIONS_SHOWN
) -> list[discord.SelectOption]:
    """A select's options from a panel's choices (each with ``label``, ``value``,
    ``selected`` and, ``described``, a ``description``), at most Discord's 25."""
    return [
        discord.SelectOption(
            label=clip(entry.label),
            value=entry.value,
            description=(clip(entry.description, OPTION_LIMIT) or None) if described else None,
            default=entry.selected,
        )
        for entry in list(entries)[:limit]
    ]


__all__ = [
    "PATTERN",
    "Control",
    "Controls",
    "MoveForm",
    "PanelView",
    "button",
    "clip",
    "custom_id",
    "menu",
    "select",
    "typed_field",
]
