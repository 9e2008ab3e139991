"""Cartographers' private drawing panel on Discord: its text (the card, an ambush's target,
the drawing so far and whether it is legal, the season's edicts each with its short rule
and the stars the drawing gains or loses there), its controls (terrain, shape, row and
column selects, each option saying which it is: "Row 5"; rotate, flip, type a cell,
suggest, Confirm) and the "type a cell" form. Its custom_ids:
``cg:{table}:{verb}:{turn}`` buttons, ``cs:…`` selects, ``cm:{table}:cell:{turn}`` the
form. The panel's logic is :mod:`bot.games.cartographers.panel`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import discord

from bot.games.cartographers.panel import DrawPanel, Option, column_options, row_options
from bot.service import Table
from bot.text import t
from cogs.front.answers import MESSAGE_LIMIT
from cogs.front.components import Controls, MoveForm, PanelView, menu
from cogs.games.cartographers.posts import card_line, lang
from engine.cartographers import SeatView
from engine.cartographers.geometry import label
from engine.cartographers.messages import name, text
from engine.i18n import signed

PANEL_VERBS = frozenset({"terrain", "shape", "rotate", "flip", "row", "col", "suggest"})
CONTROLS = Controls(
    buttons="cg",
    selects="cs",
    forms="cm",
    opens="draw",
    plays=PANEL_VERBS | {"confirm", "type"},
    field="cell",
)


def panel_view(table: int, turn: int, panel: DrawPanel, locale: str | None) -> discord.ui.View:
    """Terrain, shape, row and column selects; rotate, flip, type a cell, Confirm."""
    view = PanelView()
    draft = panel.draft
    selects = (
        ("terrain", panel.terrains, "carto.pick_terrain"),
        ("shape", panel.shapes, "carto.pick_shape"),
        ("row", row_options(draft.row), "carto.pick_row"),
        ("col", column_options(draft.col), "carto.pick_col"),
    )
    for number, (verb, options, key) in enumerate(selects):
        view.add_item(
            CONTROLS.select(
                table,
                verb,
                turn,
                options=menu(labelled(options, verb, locale)),
                placeholder=t(locale, key),
                row=number,
            )
        )
    for verb in ("rotate", "flip", "type", "suggest"):
        fixed = verb in ("rotate", "flip") and panel.fallback_only
        label_text = t(locale, f"carto.{verb}")
        view.add_item(CONTROLS.button(table, verb, turn, label=label_text, disabled=fixed, row=4))
    view.add_item(CONTROLS.confirm(table, turn, locale, disabled=not panel.can_confirm, row=4))
    return view


def labelled(options: Iterable[Option], verb: str, locale: str | None) -> list[Option]:
    """A select's options saying what they choose ("Terrain: farm", "Shape 2", "Row 5",
    "Column E"): a closed select shows its chosen option alone."""
    return [
        dataclasses.replace(option, label=t(locale, f"carto.option.{verb}", **{verb: option.label}))
        for option in options
    ]


def panel_edicts(panel: DrawPanel, view: SeatView, locale: str | None) -> list[str]:
    """The season's edicts, each with its short rule and, for a legal drawing, the stars
    it gains or loses there."""
    gains = dict(panel.stars) if panel.candidate is not None else {}
    lines = [] if gains else [t(locale, "carto.board.edicts_heading")]
    for letter, edict in view.season_edicts:
        words = {
            "letter": letter.value,
            "edict": name("card", edict, lang(locale)),
            "rule": text(f"rule_short.{edict}", lang=lang(locale)),
        }
        if edict in gains:
            lines.append(t(locale, "carto.panel.edict_gain", stars=signed(gains[edict]), **words))
        else:
            lines.append(t(locale, "carto.panel.edict", **words))
    return lines


def drawing_text(panel: DrawPanel, locale: str | None) -> str:
    draft = panel.draft
    shape = "1×1" if draft.fallback else str((draft.shape or 0) + 1)
    at = label(draft.at) if draft.at is not None else "?"
    turned = t(locale, "carto.turned", rotation=draft.rotation) if draft.rotation else ""
    flipped = t(locale, "carto.flipped") if draft.flip else ""
    return t(
        locale,
        "carto.drawing",
        terrain=name("terrain", draft.terrain or "", lang(locale)),
        shape=shape,
        turned=turned,
        flipped=flipped,
        at=at,
    )


def panel_content(table: Table, view: SeatView, panel: DrawPanel, locale: str | None) -> str:
    names = table.names
    lines = [t(locale, "carto.panel.header", table=table.id, turn=view.turn)]
    lines.append(card_line(view, locale))
    if panel.ambush:
        lines.append(t(locale, "carto.panel.ambush", name=names.get(panel.target, panel.target)))
    if panel.fallback_only:
        lines.append(
            t(locale, "carto.panel.fallback_ruins" if panel.ruins else "carto.panel.fallback")
        )
    elif panel.ruins:
        lines.append(t(locale, "carto.panel.ruins"))
    lines.append(drawing_text(panel, locale))
    if panel.candidate is not None:
        if panel.proposed:
            lines.append(t(locale, "carto.panel.proposed"))
        lines.append(t(locale, "carto.panel.legal", coins=panel.coins))
    elif panel.nowhere:
        lines.append(t(locale, "carto.panel.nowhere"))
    elif panel.refusal is not None:
        lines.append(t(locale, "carto.panel.illegal", reason=panel.refusal))
    lines += panel_edicts(panel, view, locale)
    if panel.committed is not None:
        lines.append(t(locale, "carto.panel.chosen"))
    return "\n".join(line for line in lines if line)[:MESSAGE_LIMIT]


def cell_form(table: int, turn: int, locale: str | None, current: str) -> MoveForm:
    """ "Type a cell": one text field (``C4``)."""
    return CONTROLS.form(
        table, "cell", turn, current, locale=locale, texts="carto.modal", max_length=8
    )


__all__ = ["CONTROLS", "PANEL_VERBS", "cell_form", "drawing_text", "panel_content", "panel_view"]
