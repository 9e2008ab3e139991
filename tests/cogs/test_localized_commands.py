"""The slash commands in Spanish and Italian: synced with every name, description and
choice localized for Discord's es-ES, es-419 and it, which the fake Discord checks as
Discord does (a bad localized name is a 400, error 50035)."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from bot.text import t
from tests.cogs.conftest import Circus

DISCORD_LOCALES = {"es-ES": "es", "es-419": "es", "it": "it"}


def entries(commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every command, subcommand and option of the synced payload."""
    found = []
    stack = list(commands)
    while stack:
        entry = stack.pop()
        found.append(entry)
        stack.extend(entry.get("options") or [])
    return found


async def test_every_command_and_option_is_synced_in_spanish_and_italian(circus: Circus) -> None:
    commands = [command.data for command in circus.fake.commands]
    synced = entries(commands)
    assert len(synced) > 80
    for entry in synced:
        for locale in DISCORD_LOCALES:
            assert locale in (entry.get("description_localizations") or {}), entry["name"]
    names = {
        (entry["name"], locale): (entry.get("name_localizations") or {}).get(locale)
        for entry in synced
        for locale in DISCORD_LOCALES
    }
    assert names[("race", "es-ES")] == names[("race", "es-419")] == "carrera"
    assert names[("race", "it")] == "corsa"
    assert names[("seats", "it")] == "posti"
    assert names[("turn_limit", "es-ES")] == "tiempo_turno"
    untranslated = {name for (name, _), local in names.items() if local is None}
    assert untranslated <= {"panel", "carcassonne", "format", "tournament"}
    limits = next(
        entry for entry in synced if entry["name"] == "turn_limit" and entry.get("choices")
    )
    hour = next(choice for choice in limits["choices"] if choice["value"] == "1h")
    assert hour["name_localizations"] == {"es-ES": "1 hora", "es-419": "1 hora", "it": "1 ora"}


async def test_the_commands_answer_in_the_users_language(circus: Circus) -> None:
    """Discord sends the English names whatever the user's language; the answer is in
    the user's language."""
    for locale, expected in (("es-ES", "es"), ("it", "it"), ("en-US", "en")):
        circus.alice.locale = locale
        answer = await (await circus.alice.slash(circus.channel, "race rules")).reply()
        assert answer.content == t(expected, "rules.card")


class BrokenTranslator(app_commands.Translator):
    """Gives a command name Discord refuses (capitals and a space) in Italian."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale is discord.Locale.italian and string.extras.get("key") == "cmd.race":
            return "Corsa Di Carri"
        return None


async def test_a_bad_localized_name_is_refused_as_discord_does(circus: Circus) -> None:
    tree = circus.bot.tree
    await tree.set_translator(BrokenTranslator())
    with pytest.raises(discord.HTTPException) as refused:
        await tree.sync()
    assert refused.value.status == 400 and refused.value.code == 50035
    assert "Invalid localized name" in str(refused.value)
    (violation,) = circus.fake.take_violations()
    assert "name_localizations.it" in str(violation)
