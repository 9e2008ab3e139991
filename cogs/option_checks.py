"""Every slash command's options checked against what the command declares, before its
handler runs (:class:`CheckedTree`). Discord's client keeps a value within the option's
choices, range and length, but a modified client sends any value, and discord.py hands it
on as sent (its ranges, ``app_commands.Range``, and ``choices`` only describe the option to
Discord). A value outside is refused in words, privately, naming the option and what it
takes; the command does not run."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import AppCommandOptionType, app_commands

from bot.text import t
from cogs.front.answers import TRANSIENT, locale_of, reply

log = logging.getLogger(__name__)

MAX_TEXT = 6000
"""The longest text Discord takes in a string option."""
NUMBERS = (AppCommandOptionType.integer, AppCommandOptionType.number)


def option_name(locale: str, parameter: app_commands.Parameter) -> str:
    """The option's name as the member's client shows it."""
    try:
        return t(locale, f"opt.{parameter.name}")
    except KeyError:
        return parameter.display_name


def refusal(parameter: app_commands.Parameter, value: Any, locale: str) -> str | None:
    """Why ``value`` is not one the option declares (None: it is)."""
    name = option_name(locale, parameter)
    kind = parameter.type
    if kind in NUMBERS:
        wanted: tuple[type, ...] = (int,) if kind is AppCommandOptionType.integer else (int, float)
        if isinstance(value, bool) or not isinstance(value, wanted):
            return t(locale, "error.option_type", option=name)
    elif kind is AppCommandOptionType.string and not isinstance(value, str):
        return t(locale, "error.option_type", option=name)
    if parameter.choices and value not in [choice.value for choice in parameter.choices]:
        return t(locale, "error.option_choice", option=name)
    least, most = parameter.min_value, parameter.max_value
    if kind is AppCommandOptionType.string:
        least, most = least or 0, MAX_TEXT if most is None else most
        if not least <= len(value) <= most:
            return t(locale, "error.option_length", option=name, least=least, most=most)
    elif kind in NUMBERS:
        if least is not None and most is not None and not least <= value <= most:
            return t(locale, "error.option_range", option=name, least=least, most=most)
        if least is not None and value < least:
            return t(locale, "error.option_at_least", option=name, least=least)
        if most is not None and value > most:
            return t(locale, "error.option_at_most", option=name, most=most)
    return None


class CheckedTree(app_commands.CommandTree[Any]):
    """The bot's command tree: a slash command runs only with options it declares."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        command = interaction.command
        if interaction.type is not discord.InteractionType.application_command or not isinstance(
            command, app_commands.Command
        ):
            return True
        given = interaction.namespace
        locale = locale_of(interaction)
        for parameter in command.parameters:
            if parameter.display_name not in given:
                continue
            text = refusal(parameter, given[parameter.display_name], locale)
            if text is not None:
                try:
                    await reply(interaction, text)
                except TRANSIENT:
                    log.warning("could not refuse a forged option of /%s", command.qualified_name)
                return False
        return True


__all__ = ["CheckedTree"]
