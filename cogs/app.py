"""The Discord client: connects with the token, wires the service into the race cog,
registers the persistent buttons and selects, syncs the slash commands, resumes races on
start-up and runs the dispatcher that fires time limits and reminders.

No privileged intent is needed: commands and components arrive as interactions.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Settings
from bot.images import ImageProcess
from bot.service import TableService
from bot.text import catalogue
from cogs.announce import Announcer
from cogs.race import RaceCog
from cogs.ui import BUTTON_PATTERN, MODAL_PATTERN, SELECT_PATTERN, RaceButton, RaceSelect

log = logging.getLogger(__name__)

IDLE_WAKEUP = 3600.0


class CatalogueTranslator(app_commands.Translator):
    """Command and option names and descriptions from the message catalogue."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if not key:
            return None
        language = str(locale.value).split("-")[0]
        if language == "en":
            return None
        try:
            template = catalogue().template(language, key)
        except KeyError:
            return None
        if not isinstance(template, str) or template == catalogue().template("en", key):
            return None
        return template


def handled_by_items(interaction: discord.Interaction[Any]) -> bool:
    """Whether discord.py will hand this component interaction to a race button or select:
    its custom_id fits their template and names a component of that type on the message."""
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    kind = data.get("component_type")
    template = {2: BUTTON_PATTERN, 3: SELECT_PATTERN}.get(kind)
    if template is None or not template.fullmatch(custom_id) or interaction.message is None:
        return False
    for row in interaction.message.components:
        for child in getattr(row, "children", [row]):
            if getattr(child, "custom_id", None) == custom_id and child.type.value == kind:
                return True
    return False


class CircusBot(commands.Bot):
    """The bot process: one service, one announcer, the race cog."""

    def __init__(self, settings: Settings, service: TableService | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.settings = settings
        self._service = service
        self._tasks: list[asyncio.Task[None]] = []
        self.images: ImageProcess | None = None

    @property
    def service(self) -> TableService:
        assert self._service is not None, "the service opens in setup_hook"
        return self._service

    async def setup_hook(self) -> None:
        if self._service is None:
            self._service = await TableService.create(str(self.settings.database_path))
        self.images = images = ImageProcess(self.service.in_worker)
        self.announcer = Announcer(self, self.service, images)
        self.race_cog = RaceCog(self, self.service, self.announcer)
        await self.add_cog(self.race_cog)
        self.component_handler = self.race_cog.on_component
        self.add_dynamic_items(RaceButton, RaceSelect)
        await self.tree.set_translator(CatalogueTranslator())
        await self.sync_commands()
        self._tasks.append(asyncio.create_task(self.resume_races()))
        self._tasks.append(asyncio.create_task(self.dispatch_time_limits()))

    async def sync_commands(self) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d application commands", len(synced))

    async def on_ready(self) -> None:
        log.info(
            "connected as %s (%s) to %d servers",
            self.user,
            getattr(self.user, "id", "?"),
            len(self.guilds),
        )

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Modal submissions are handled here, not by an in-memory Modal, so a "type your
        move" form still works after a restart; a component no race item will take (an
        unknown or forged custom_id) still gets an answer."""
        data: Any = interaction.data or {}
        if interaction.type is discord.InteractionType.modal_submit:
            if MODAL_PATTERN.fullmatch(str(data.get("custom_id", ""))):
                await self.race_cog.on_modal(interaction)
            else:
                await self.race_cog.refuse(interaction, "error.unknown_button")
        elif interaction.type is discord.InteractionType.component and not handled_by_items(
            interaction
        ):
            await self.race_cog.refuse(interaction, "error.unknown_button")

    async def resume_races(self) -> None:
        """After a start or restart: AI seats still owing a move play, and announcements
        not posted before a crash are posted."""
        await self.wait_until_ready()
        for race_id in await self.service.tables_to_resume():
            await self.race_cog.settle(race_id, moved=False)
        log.info("resumed races")

    async def dispatch_time_limits(self) -> None:
        """Fire every time limit and reminder as it comes due; re-armed by every change."""
        await self.wait_until_ready()
        clock = self.service.clock
        while not self.is_closed():
            try:
                when = await self.service.next_wakeup()
                self.service.deadline_changed.clear()
                await clock.sleep_until(
                    when if when is not None else clock.now() + IDLE_WAKEUP,
                    self.service.deadline_changed,
                )
                for update in await self.service.fire_due():
                    await self.race_cog.settle(update.table.id)
                for table, number in await self.service.reminders_due():
                    await self.announcer.remind(table, number)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the time-limit dispatcher failed; retrying in a minute")
                await asyncio.sleep(60)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await super().close()
        if self.images is not None:
            self.images.close()
        if self._service is not None:
            await self._service.close()


def run(settings: Settings) -> int:
    """Run until stopped; the token was checked by the caller."""
    assert settings.token is not None
    bot = CircusBot(settings)
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        log.error(
            "Discord refused the token: check DISCORD_TOKEN (Developer Portal → Bot → Reset Token)"
        )
        return 2
    except discord.PrivilegedIntentsRequired:
        log.error("a privileged intent was requested; this bot needs none")
        return 2
    return 0
