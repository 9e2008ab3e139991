"""Carcassonne's private panel on Discord, for the active seat only: first the placement
(the spot select, this page's spots; Rotate, More spots, Place), then the deployment
(where: nothing or a feature; which meeple; Undo, which takes the tile back; Confirm),
each with its text and picture. Its custom_ids: ``cc:{table}:{verb}:{turn}`` buttons,
``cx:…`` selects. The panel's logic is :mod:`bot.games.carcassonne.panel`.
"""

from __future__ import annotations

import discord

from bot.games.carcassonne.panel import NOTHING, DeployPanel, PlacePanel
from bot.text import t
from cogs.front.components import Controls, PanelView, clip

CHOICE_VERBS = frozenset({"spot", "rotate", "page", "where", "size", "undo"})
CONTROLS = Controls(buttons="cc", selects="cx", plays=CHOICE_VERBS | {"place", "confirm"})


def place_view(table: int, turn: int, panel: PlacePanel, locale: str | None) -> discord.ui.View:
    """The spot select (this page's spots), Rotate, More spots, Place."""
    view = PanelView()
    options = [
        discord.SelectOption(
            label=clip(t(locale, "carc.spot", number=index + 1)),
            value=str(index),
            default=index == panel.spot,
        )
        for index, _ in panel.page_spots()
    ]
    view.add_item(
        CONTROLS.select(
            table,
            "spot",
            turn,
            options=options,
            placeholder=t(locale, "carc.pick_spot"),
            row=0,
        )
    )
    rotate = t(locale, "carc.rotate")
    view.add_item(
        CONTROLS.button(table, "rotate", turn, label=rotate, disabled=len(panel.turns) < 2, row=1)
    )
    if panel.pages > 1:
        view.add_item(
            CONTROLS.button(table, "page", turn, label=t(locale, "carc.more_spots"), row=1)
        )
    view.add_item(
        CONTROLS.button(
            table,
            "place",
            turn,
            label=t(locale, "carc.place"),
            style=discord.ButtonStyle.success,
            row=1,
        )
    )
    return view


def deploy_view(
    table: int, turn: int, panel: DeployPanel, locale: str | None, *, undo: bool = False
) -> discord.ui.View:
    """Where (nothing, or a feature), which meeple, Undo (the tile back in hand, while
    the placement is not played: ``undo``), Confirm."""
    view = PanelView()
    wheres = [
        discord.SelectOption(
            label=clip(t(locale, "carc.deploy_nothing")),
            value=NOTHING,
            default=panel.target is None,
        )
    ]
    if panel.sizes:
        wheres += [
            discord.SelectOption(label=clip(label), value=str(index), default=index == panel.target)
            for index, label in enumerate(panel.labels[:24])
        ]
    where = t(locale, "carc.pick_where")
    view.add_item(CONTROLS.select(table, "where", turn, options=wheres, placeholder=where, row=0))
    if panel.sizes:
        sizes = [
            discord.SelectOption(
                label=t(locale, f"carc.size.{size}"), value=size, default=size == panel.size
            )
            for size in panel.sizes
        ]
        which = t(locale, "carc.pick_size")
        view.add_item(CONTROLS.select(table, "size", turn, options=sizes, placeholder=which, row=1))
    if undo:
        view.add_item(CONTROLS.button(table, "undo", turn, label=t(locale, "carc.undo"), row=2))
    view.add_item(CONTROLS.confirm(table, turn, locale, row=2))
    return view


def deployment_text(panel: DeployPanel, locale: str | None) -> str:
    if panel.target is None or not panel.sizes:
        return t(locale, "carc.deploy_nothing")
    return t(
        locale,
        "carc.deploy_choice",
        size=t(locale, f"carc.size.{panel.size}"),
        feature=panel.labels[panel.target],
    )


__all__ = ["CONTROLS", "deploy_view", "deployment_text", "place_view"]
