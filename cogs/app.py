"""The Discord client: connects with the token, builds every registered game's front
(:mod:`bot.games`) on the shared front (:mod:`cogs.front`) with the community, tournament
and shared table commands, registers the persistent controls, syncs the slash commands,
resumes tables on start-up and runs the dispatcher that fires time limits and reminders.
It names no game.

It asks for the guilds intent only (see :data:`INTENTS`): no message is ever read.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import hashlib
import importlib
import json
import logging
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.catch_up import CatchUp
from bot.config import EXIT_SETTINGS, EXIT_TEMPORARY, Settings
from bot.games import REGISTRY
from bot.health import BEAT_SECONDS, beat, stop_beating
from bot.images import ImageProcess
from bot.loopwatch import LoopWatch
from bot.service import TableService
from bot.shards import EVERY_SHARD
from bot.startup import START_PAUSES, STOP_SIGNALS, StartAbandoned, with_retries
from bot.storage import StorageError, StorageUnavailable
from bot.text import catalogue, know_command_ids
from cogs.community import CommunityCog
from cogs.front import vote
from cogs.front.announce import Announcer
from cogs.front.answers import FOLLOW_UP, refuse
from cogs.front.away import AwayCog
from cogs.front.components import PATTERN, Control
from cogs.front.game import Fronts, GameFront
from cogs.front.tables import TablesCog
from cogs.option_checks import CheckedTree
from cogs.tournaments import SIGNUP_PATTERN, TournamentCog
from cogs.web import WebCog

log = logging.getLogger(__name__)

IDLE_WAKEUP = 3600.0
ITEM_PATTERNS = {2: (PATTERN, SIGNUP_PATTERN), 3: (PATTERN,)}
"""The custom_ids of the persistent buttons (2) and selects (3): every game's controls and
the tournaments' sign-up buttons."""
SYNC_SECONDS = 30.0
"""How long a command sync may take (Discord can ask to wait hours after too many) before
the bot goes on with the commands Discord already has; the next start tries again."""
FINISH_SECONDS = 20.0
"""How long a stop waits for work in flight (answers, follow-ups) before closing anyway."""
START_SECONDS = 20.0
"""How long a stop signal that comes during start-up waits for it to end (the bot ready,
or its start failed) before closing anyway (Discord unreachable: discord.py retries)."""
IN_FLIGHT = (FOLLOW_UP, "CommandTree-invoker", "discord-ui-", "discord.py: on_")
"""Names of the tasks that carry work a stop lets finish: ours, discord.py's for slash
commands and components, and every event listener (an interaction; the ready and server
events after which a server's page stores its public channels)."""
SWITCH_INTERVAL = 0.0005
"""Seconds the event loop keeps the interpreter lock while the database thread waits for it
(Python's default is 5 ms). Every SQLite call takes the lock a few times; with the loop
busy, each wait was up to 5 ms, the database thread fell behind and queries queued for
a second behind one another."""
INTENTS = discord.Intents(guilds=True)
"""Servers, channels and threads only: commands and components arrive as interactions, so
the bot reads no message in a server or a DM (no prefix commands)."""


class CatalogueTranslator(app_commands.Translator):
    """Command, option and choice names and descriptions from the message catalogue: a
    string's ``key``, or ``opt.<name>`` for an option's name."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if not key and context.location is app_commands.TranslationContextLocation.parameter_name:
            key = f"opt.{string.message}"
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
    """Whether discord.py will hand this component interaction to a game's control or a
    sign-up button:
    its custom_id fits their template and names a component of that type on the message."""
    data: Any = interaction.data or {}
    custom_id = str(data.get("custom_id", ""))
    kind = data.get("component_type")
    templates = ITEM_PATTERNS.get(kind, ())
    if not any(t.fullmatch(custom_id) for t in templates) or interaction.message is None:
        return False
    for row in interaction.message.components:
        for child in getattr(row, "children", [row]):
            if getattr(child, "custom_id", None) == custom_id and child.type.value == kind:
                return True
    return False


def build_front(
    game: str,
    bot: commands.AutoShardedBot,
    service: TableService,
    announcer: Announcer,
    images: ImageProcess,
) -> GameFront:
    """The Discord front of a registered game (its package's ``FRONT``)."""
    front_class = importlib.import_module(REGISTRY[game].front).FRONT
    front: GameFront = front_class(bot, service, announcer, images)
    return front


class CircusBot(commands.AutoShardedBot):
    """The bot process: one service, one announcer, every registered game's front.

    It holds the gateway shards its settings name (``SHARD_COUNT`` with ``SHARD_IDS`` or
    ``CLUSTER_INDEX``/``CLUSTER_SIZE``), or, without them, as many as Discord recommends.
    Its service serves the tables of those shards' servers; the process holding shard 0
    also gets every DM and syncs the slash commands."""

    def __init__(self, settings: Settings, service: TableService | None = None) -> None:
        held: dict[str, Any] = {}
        if settings.shards is not None:
            held = {"shard_count": settings.shards.count, "shard_ids": list(settings.shards.ids)}
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=INTENTS,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=CheckedTree,
            **held,
        )
        self.settings = settings
        self._service = service
        self._tasks: list[asyncio.Task[None]] = []
        self._closing: asyncio.Future[None] | None = None
        self._started = asyncio.Event()
        """Start-up is over: the bot is ready, or its start ended, or it is being closed."""
        self.sync_seconds = SYNC_SECONDS
        self.images: ImageProcess | None = None
        self.animations: ImageProcess | None = None
        """The worker that draws the games' animated replays (:class:`Announcer`)."""
        self.catch_up = CatchUp(self._resume)

    @property
    def service(self) -> TableService:
        assert self._service is not None, "the service opens in setup_hook"
        return self._service

    async def setup_hook(self) -> None:
        if self._service is None:
            self._service = await TableService.create(
                self.settings.database, shards=self.settings.shards or EVERY_SHARD
            )
        self.images = images = ImageProcess(self.service.in_worker)
        self.animations = animations = ImageProcess(self.service.in_worker, workers=1)
        self.announcer = announcer = Announcer(self, self.service, images, animations)
        self.fronts = Fronts(
            build_front(game, self, self.service, announcer, images) for game in REGISTRY
        )
        announcer.fronts = self.fronts
        self.route_control = self.fronts.route
        for front in self.fronts.values():
            await self.add_cog(front)
        self.add_dynamic_items(Control)
        self.community_cog = CommunityCog(self, self.service, self.fronts)
        await self.add_cog(self.community_cog)
        self.community_cog.web = WebCog(self, self.service, self.settings.web_base_url)
        await self.add_cog(self.community_cog.web)
        self.tournament_cog = TournamentCog(self, self.service, announcer, self.fronts)
        await self.add_cog(self.tournament_cog)
        announcer.on_game_over = self.tournament_cog.game_over
        await self.add_cog(TablesCog(self, self.service, self.fronts))
        await self.add_cog(AwayCog(self.service))
        await self.tree.set_translator(CatalogueTranslator())
        await self.sync_commands()
        self._tasks.append(asyncio.create_task(self.resume_races()))
        self._tasks.append(asyncio.create_task(self.dispatch_time_limits()))
        self._tasks.append(asyncio.create_task(self.sweep_outbox()))
        self._tasks.append(asyncio.create_task(self.community_cog.expire_lobbies()))
        self._tasks.append(asyncio.create_task(self.tournament_cog.run_deadlines()))
        if self.settings.health_file is not None:
            self._tasks.append(asyncio.create_task(self.beat(self.settings.health_file)))

    async def sync_commands(self) -> None:
        """Register the slash commands with Discord, only where they changed since the
        last sync (a hash of each payload is kept in the database), so restarts, even in
        a crash loop, spend none of Discord's small daily budget of command writes.

        With ``DEV_GUILD_ID`` the commands live in that server only (they show at once
        there) and the global set is emptied, so the server never shows them twice. A
        failed sync is logged and the bot runs on with the commands Discord has.

        In a cluster only the process holding shard 0 syncs: the commands are the
        application's, not a shard's."""
        if self.settings.shards is not None and not self.settings.shards.holds_dms:
            log.info("application commands are synced by the process holding shard 0")
            return
        scopes: list[discord.abc.Snowflake | None] = [None]
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            self.tree.clear_commands(guild=None)
            scopes.insert(0, guild)
        for scope in scopes:
            where = "global" if scope is None else f"server {scope.id}"
            key = "commands:global" if scope is None else f"commands:guild:{scope.id}"
            digest = await self.commands_digest(scope)
            if await self.service.storage.fact(key) == digest:
                log.info("application commands (%s) unchanged: not synced", where)
                await self.learn_command_ids(key, scope)
                continue
            try:
                synced = await asyncio.wait_for(self.tree.sync(guild=scope), self.sync_seconds)
            except (discord.HTTPException, TimeoutError) as error:
                log.warning(
                    "could not sync the application commands (%s): %s",
                    where,
                    error or f"no answer within {self.sync_seconds:g} s (rate limited?)",
                )
                continue
            ids = {command.name: command.id for command in synced}
            await self.service.storage.set_fact(f"{key}:ids", json.dumps(ids, sort_keys=True))
            await self.service.storage.set_fact(key, digest)
            know_command_ids(ids)
            log.info("synced %d application commands (%s)", len(synced), where)

    async def learn_command_ids(self, key: str, scope: discord.abc.Snowflake | None) -> None:
        """The commands' ids as the last sync of ``key`` stored them (asked of Discord if
        that sync stored none), so that sentences name commands as clickable mentions
        (:func:`bot.text.command_mention`); without them, sentences name commands in the
        reader's language."""
        try:
            stored = json.loads(await self.service.storage.fact(f"{key}:ids") or "null")
        except ValueError:
            stored = None
        if isinstance(stored, dict):
            know_command_ids({str(name): int(i) for name, i in stored.items()})
            return
        try:
            commands = await self.tree.fetch_commands(guild=scope)
        except discord.HTTPException as error:
            log.warning("could not read the application commands' ids: %s", error)
            return
        ids = {command.name: command.id for command in commands}
        await self.service.storage.set_fact(f"{key}:ids", json.dumps(ids, sort_keys=True))
        know_command_ids(ids)

    async def commands_digest(self, scope: discord.abc.Snowflake | None) -> str:
        """A hash of exactly what :meth:`discord.app_commands.CommandTree.sync` would send."""
        translator = self.tree.translator
        payload = [
            await command.get_translated_payload(self.tree, translator)
            if translator is not None
            else command.to_dict(self.tree)
            for command in self.tree.get_commands(guild=scope)
        ]
        body = json.dumps(
            {"application": self.application_id, "commands": payload},
            sort_keys=True,
            separators=(",", ":"),
        )
        return hashlib.sha256(body.encode()).hexdigest()

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        try:
            await super().start(token, reconnect=reconnect)
        finally:
            self._started.set()

    async def on_ready(self) -> None:
        self._started.set()
        log.info(
            "connected as %s (%s) to %d servers (%s)",
            self.user,
            getattr(self.user, "id", "?"),
            len(self.guilds),
            self.settings.shards or f"shards 0-{(self.shard_count or 1) - 1}, all",
        )

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Form submissions are handled here, not by an in-memory Modal, so a "type your
        move" form still works after a restart; a component no control will take (an
        unknown or forged custom_id) still gets an answer."""
        if interaction.type is discord.InteractionType.modal_submit:
            await self.fronts.route_form(interaction)
        elif interaction.type is discord.InteractionType.component and not handled_by_items(
            interaction
        ):
            await refuse(interaction, "error.unknown_button")

    async def resume_races(self) -> None:
        """After a start or restart, in the background (players are answered from the
        moment the bot is connected): AI seats still owing a move play, and announcements
        not posted before a crash are posted, a few tables at a time (see
        :mod:`bot.catch_up`)."""
        try:
            await self.wait_until_ready()
            count = await self.catch_up.run(await self.service.tables_to_resume())
            log.info("resumed %d tables", count)
        finally:
            self.catch_up.done.set()

    async def _resume(self, table_id: int) -> None:
        await self.announcer.settle(table_id, moved=False)

    async def dispatch_time_limits(self) -> None:
        """Fire every time limit and reminder as it comes due; re-armed by every change."""
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                await self.service.wait_until_due(IDLE_WAKEUP)
                for update in await self.service.fire_due():
                    if update.vote is not None:
                        await vote.announce_result(self.announcer, update.vote)
                    await self.announcer.settle(update.table.id)
                for table, number in await self.service.reminders_due():
                    await self.announcer.remind(table, number)
                for table, user_id in await self.service.member_notices_due():
                    await self.announcer.remind_member(table, user_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the time-limit dispatcher failed; retrying in a minute")
                await asyncio.sleep(60)

    async def beat(self, path: Path) -> None:
        """Rewrite the heartbeat (:mod:`bot.health`) while every shard is connected."""
        await self.wait_until_ready()
        try:
            while not self.is_closed():
                if all(not shard.is_closed() for shard in self.shards.values()):
                    note = f"connected to {len(self.guilds)} servers, {len(self.shards)} shards"
                    await asyncio.to_thread(beat, path, note)
                await asyncio.sleep(BEAT_SECONDS)
        except OSError as error:
            log.error("cannot write the heartbeat %s (%s): HEALTH_FILE stays stale", path, error)

    def stop(self, signum: int) -> None:
        """A stop signal: close gracefully (once; a repeated signal changes nothing)."""
        name = signal.Signals(signum).name
        if self._closing is not None:
            log.info("%s received: already stopping", name)
            return
        log.info("%s received: finishing work in flight, then stopping", name)
        self._closing = asyncio.ensure_future(self._stop())

    async def _stop(self) -> None:
        """A stop signal's shutdown: one that comes during start-up lets it end first.

        Closing discord.py while it starts pulls things from under it: its HTTP session
        under the login (which then fails as if Discord were unreachable), the database
        under the setup hook, the gateway under shards still connecting and under its
        wait for the servers' data before ``on_ready``."""
        if not self._started.is_set():
            log.info("stopping once the start-up is over")
            try:
                await asyncio.wait_for(self._started.wait(), START_SECONDS)
            except TimeoutError:
                log.warning("start-up still not over after %g s: stopping anyway", START_SECONDS)
        await self._shut_down()

    async def sweep_outbox(self) -> None:
        """Re-deliver every announcement Discord did not take, with backoff, for good."""
        await self.wait_until_ready()
        await self.announcer.outbox.run()

    async def close(self) -> None:
        """Stop: work in flight finishes, then Discord, the image worker and the database
        close. Every caller waits for the same, single shutdown; one called by discord.py
        (a gateway error) or after the start ended lets a stop signal's shutdown go on."""
        self._started.set()
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._shut_down())
        await asyncio.shield(self._closing)

    async def _shut_down(self) -> None:
        for task in self._tasks:  # the dispatcher and start-up resumption: on disk, re-armed
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.animations is not None:  # no click waits for a replay: it is owed, on disk
            self.animations.close()
        await self.finish_in_flight()
        await super().close()
        if self.images is not None:
            self.images.close()
        if self._service is not None:
            await self._service.close()
        if self.settings.health_file is not None:
            stop_beating(self.settings.health_file)
        log.info("stopped")

    async def finish_in_flight(self, timeout: float = FINISH_SECONDS) -> None:
        """Wait until no interaction is being handled and no follow-up is running (those
        that finish may start more), or ``timeout`` has passed."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        this = asyncio.current_task()
        while True:
            busy = [
                task
                for task in asyncio.all_tasks()
                if task is not this and not task.done() and task.get_name().startswith(IN_FLIGHT)
            ]
            left = deadline - loop.time()
            if not busy:
                return
            if left <= 0:
                log.warning("stopping with %d interaction tasks unfinished", len(busy))
                return
            await asyncio.wait(busy, timeout=left)


async def serve(bot: CircusBot, token: str) -> None:
    """Connect and run until closed; a stop signal closes gracefully."""
    loop = asyncio.get_running_loop()
    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, bot.stop, signum)
    try:
        async with bot:
            await bot.start(token)
    finally:
        await bot.close()  # discord.py skips it once the connection is closed
        for signum in STOP_SIGNALS:
            loop.remove_signal_handler(signum)


async def start(settings: Settings) -> None:
    """One start: the database first (it may not be up yet either), then Discord, until
    stopped."""
    assert settings.token is not None
    service = await TableService.create(settings.database, shards=settings.shards or EVERY_SHARD)
    try:
        bot = CircusBot(settings, service)
    except BaseException:
        await service.close()
        raise
    await serve(bot, settings.token)


DISCORD_OUT_OF_REACH = (
    aiohttp.ClientConnectionError,
    OSError,
    TimeoutError,
    discord.DiscordServerError,
    discord.GatewayNotFound,
)
"""What a start that cannot get through to Discord raises (no network, a DNS or proxy
failure, Discord's own trouble): it may pass."""


def passing(error: Exception) -> str | None:
    """What went wrong, when a later start may go through (:func:`bot.startup.with_retries`)."""
    if isinstance(error, StorageUnavailable):
        return str(error)
    if isinstance(error, DISCORD_OUT_OF_REACH):
        return f"cannot reach Discord ({error.__class__.__name__})"
    return None


def run(settings: Settings, *, pauses: Sequence[float] = START_PAUSES) -> int:
    """Run until stopped (exit status 0 after a stop signal); the token was checked by the
    caller. A start that fails for a reason that may pass is tried again after each of
    ``pauses``, then ends with status 75; a setting to fix ends it with status 2."""
    assert settings.token is not None
    watch = LoopWatch(settings.loop_watch_ms / 1000) if settings.loop_watch_ms else None
    if watch is not None:
        watch.start()
    sys.setswitchinterval(SWITCH_INTERVAL)
    gc.collect()
    gc.freeze()  # what the imports made lives as long as the process: full collections skip it
    try:
        asyncio.run(with_retries(functools.partial(start, settings), passing, pauses))
    except StartAbandoned:
        return 0
    except discord.LoginFailure:
        log.error(
            "Discord refused the token: check DISCORD_TOKEN (Developer Portal → Bot → Reset Token)"
        )
        return EXIT_SETTINGS
    except discord.PrivilegedIntentsRequired:
        log.error("a privileged intent was requested; this bot needs none")
        return EXIT_SETTINGS
    except StorageUnavailable as error:
        print(f"circus: {error}", file=sys.stderr)
        return EXIT_TEMPORARY
    except StorageError as error:
        print(f"circus: {error}", file=sys.stderr)
        return EXIT_SETTINGS
    except DISCORD_OUT_OF_REACH as error:
        print(
            f"circus: cannot reach Discord ({error.__class__.__name__}) after"
            f" {len(pauses) + 1} tries: check the network connection (exit status 75: a"
            " service manager starts the bot again)",
            file=sys.stderr,
        )
        return EXIT_TEMPORARY
    finally:
        if watch is not None:
            watch.stop()
    return 0
