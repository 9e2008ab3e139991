"""Charioteer's own controls: the private move panel's selects and buttons (cards, symbol,
token, discards; crowd, type, clear, confirm) and the "type your move" form
(``R5 1 2 crowd t1``). Its custom_ids: ``g:{race}:{verb}:{turn}`` buttons,
``s:…`` selects, ``m:{race}:move:{turn}`` the form.
"""

from __future__ import annotations

import discord

from bot.games.charioteer.panel import Panel
from bot.text import t
from cogs.front.components import Controls, MoveForm, PanelView, menu

PANEL_VERBS = frozenset({"cards", "symbol", "token", "discard", "crowd", "clear"})
CONTROLS = Controls(
    buttons="g", selects="s", forms="m", opens="choose", plays=PANEL_VERBS | {"confirm", "type"}
)


def panel_view(race: int, turn: int, panel: Panel, locale: str | None) -> discord.ui.View:
    """The private panel: cards, symbol, token, discards, then crowd / type / confirm."""
    view = PanelView()
    view.add_item(
        CONTROLS.select(
            race,
            "cards",
            turn,
            options=menu(panel.cards, described=True),
            placeholder=t(locale, "panel.pick_cards"),
            min_values=0,
            max_values=min(3, len(panel.cards)),
            row=0,
        )
    )
    view.add_item(
        CONTROLS.select(
            race,
            "symbol",
            turn,
            options=menu(panel.symbols, described=True),
            placeholder=t(locale, "panel.pick_symbol"),
            row=1,
        )
    )
    if len(panel.tokens) > 1:
        view.add_item(
            CONTROLS.select(
                race,
                "token",
                turn,
                options=menu(panel.tokens, described=True),
                placeholder=t(locale, "panel.pick_token"),
                row=2,
            )
        )
    if panel.discards:
        view.add_item(
            CONTROLS.select(
                race,
                "discard",
                turn,
                options=menu(panel.discards, described=True),
                placeholder=t(locale, "panel.pick_discards", limit=panel.discard_limit),
                min_values=0,
                max_values=min(panel.discard_limit, len(panel.discards)),
                row=3,
            )
        )
    crowd = panel.draft.crowd
    view.add_item(
        CONTROLS.button(
            race,
            "crowd",
            turn,
            label=t(locale, "panel.crowd_on" if crowd else "panel.crowd_off"),
            style=discord.ButtonStyle.primary if crowd else discord.ButtonStyle.secondary,
            disabled=not panel.crowd_available and not crowd,
            row=4,
        )
    )
    for verb in ("type", "clear"):
        view.add_item(CONTROLS.button(race, verb, turn, label=t(locale, f"panel.{verb}"), row=4))
    view.add_item(CONTROLS.confirm(race, turn, locale, disabled=not panel.can_confirm, row=4))
    return view


def move_form(race: int, turn: int, locale: str | None, current: str) -> MoveForm:
    """ "Type your move": one labelled text field in the text form (``R5 1 2 crowd t1``)."""
    return CONTROLS.form(race, "move", turn, current, locale=locale, texts="modal", max_length=100)


__all__ = ["CONTROLS", "PANEL_VERBS", "move_form", "panel_view"]
