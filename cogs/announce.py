"""Posting what the service has to announce: each turn's reveal, the board of the new turn
(text, picture when the channel allows files, a "Choose move" button and the pings), the
podium, reminders, and the private turn notices for players who chose DMs. A post pings
only the players it names on purpose, by id (:func:`pings`): never a mention some user
text holds, such as a display name written as ``<@id>``.

Announcements come from the service's outbox, so one that was not posted before a crash is
posted after the restart, and one Discord failed to take (a 5xx, a timeout, a dropped
connection, a permission missing) is tried again by :class:`bot.outbox.Outbox` until it is
posted; the host hears once when a permission is missing. Each post carries a nonce
Discord enforces, so a post retried in that window is still posted once. Race threads are
reopened before a post or an edit if Discord archived them, and archived at the podium.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Iterable
from contextlib import AbstractAsyncContextManager
from typing import Any

import aiohttp
import discord

from bot.images import ImageProcess
from bot.locks import KeyedLocks
from bot.outbox import Outbox
from bot.service import Announcement, Table, TableService
from bot.text import t
from cogs.games import MESSAGE_LIMIT, Post, Poster
from cogs.ui import board_view, dm_view
from engine.charioteer import SeatView
from engine.charioteer.render import board_png, board_text, hand_text, reveal_text
from engine.core import public_events

log = logging.getLogger(__name__)

ENDED = ("finished", "abandoned")
"""A table's statuses once its game is over."""

DM_CLOSED = 50007
MISSING_PERMISSIONS = 50013
THREAD_ARCHIVED = 50083
POST_TIMEOUT = 60.0
"""Seconds a post may take before it counts as failed (its nonce keeps a retry single)."""
POSTING_AT_ONCE = 8
"""Tables whose announcements are drawn and posted at the same time; the others wait their
turn holding nothing but their table's id. Under a burst (hundreds of races started or
resolved at once) every waiting table used to build its announcements at once, and all
of them waited for the picture workers, held in memory: a heap some five times larger,
and garbage collections that held the event loop for up to 300 ms."""
DRAW_TIMEOUT = 120.0
"""Seconds a post's pictures may take, once its turn has come, before the picture workers
count as stuck: they are started anew and the post is tried again later."""
NO_ANSWER = (aiohttp.ClientError, OSError, TimeoutError)
"""A call to Discord that got no answer at all (a timeout, a dropped connection): not an
``HTTPException``."""
TRANSIENT = (discord.HTTPException, *NO_ANSWER)
"""What a call to Discord can fail with: an HTTP error discord.py gave up on, or no answer."""


def mention(user_id: int | None, name: str) -> str:
    return f"<@{user_id}>" if user_id is not None else name


def pings(user_ids: Iterable[int | None]) -> discord.AllowedMentions:
    """What a public post may ping: exactly these members, the players it names by id on
    purpose; never @everyone, a role, or whoever a name or other text typed by a user
    mentions (a display name written as ``<@id>`` pings nobody)."""
    users = [discord.Object(user_id) for user_id in sorted({i for i in user_ids if i is not None})]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def waiting_ids(table: Table) -> list[int | None]:
    """The members a board or a reminder pings: the players it waits for."""
    return [seat.user_id for seat in table.waiting_humans()]


def player_ids(table: Table) -> list[int | None]:
    """Every member seated at the table (a podium, a season's scores name them all)."""
    return [seat.user_id for seat in table.humans]


def waiting_line(table: Table, locale: str | None) -> str:
    waiting = table.waiting_humans()
    if not waiting:
        return t(locale, "board.all_in")
    people = ", ".join(mention(seat.user_id, seat.name) for seat in waiting)
    if table.row.deadline is None:
        return t(locale, "board.waiting", people=people)
    return t(
        locale, "board.waiting_until", people=people, deadline=f"<t:{int(table.row.deadline)}:R>"
    )


def board_content(table: Table, view: SeatView, locale: str | None) -> str:
    """The board message: a header with the waiting players, then the track in a code block."""
    loc = locale or "en"
    header = t(locale, "board.header", race=table.id, turn=view.turn)
    status = waiting_line(table, locale)
    text = board_text(view, names=table.names, locale=loc)
    content = f"{header} · {status}\n{text}"
    if len(content) > MESSAGE_LIMIT:
        content = f"{header}\n{text}"
    return content[:MESSAGE_LIMIT]


def podium_content(table: Table, view: SeatView, locale: str | None) -> str:
    result = view.result
    if result is None:
        return t(locale, "podium.abandoned", race=table.id)
    lines = [t(locale, "podium.header", race=table.id, turns=result.turns)]
    for place, seat in enumerate(result.ranking, start=1):
        row = table.seat(seat)
        lines.append(
            t(locale, "podium.line", place=place, name=mention(row.user_id, row.name), seat=seat)
        )
    return "\n".join(lines)[:MESSAGE_LIMIT]


class Announcer:
    """Delivers a race's pending announcements, one race at a time, in order; everything
    that touches a race's board (new boards, refreshes, the podium's archiving) holds that
    race's lock, so they cannot interleave."""

    def __init__(self, client: discord.Client, service: TableService, images: ImageProcess) -> None:
        self.client = client
        self.service = service
        self.images = images
        self._locks: KeyedLocks[int] = KeyedLocks()
        self._dm_warned: set[tuple[int, int]] = set()
        self.posters: dict[str, Poster] = {}
        """Games that post their own announcements, by game id (Charioteer's are below)."""
        self._host_told: set[int] = set()
        self.post_timeout = POST_TIMEOUT
        self.draw_timeout = DRAW_TIMEOUT
        self._posting = asyncio.Semaphore(POSTING_AT_ONCE)
        self.outbox = Outbox(self.deliver, service.tables_with_pending, service.clock)
        """Every delivery goes through it: failed ones are retried with backoff."""
        self.on_game_over: Callable[[int], Awaitable[None]] | None = None
        """Told of every game that ended (tournaments count its result), of any game."""

    def lock(self, race_id: int) -> AbstractAsyncContextManager[None]:
        """Held while anything touches the race's board or posts its announcements."""
        return self._locks.hold(race_id)

    async def channel_for(self, table: Table) -> Any:
        """The race's thread (or channel); None when Discord says it is gone. A transient
        failure raises, so that the delivery is tried again."""
        channel_id = table.row.thread_id or table.row.channel_id
        if channel_id is None:
            return None
        channel = self.client.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(channel_id)
            except discord.NotFound:
                log.warning("race %d: channel %d is gone", table.id, channel_id)
                return None
        return channel

    async def deliver(self, race_id: int) -> bool:
        """Post the race's pending announcements in order; True when none is left. At most
        :data:`POSTING_AT_ONCE` tables post at a time."""
        async with self.lock(race_id):
            if await self.service.storage.pending_announcements(race_id):
                async with self._posting:
                    for announcement in await self.service.announcements(race_id):
                        if not await self._deliver_one(announcement):
                            return False
        self._host_told.discard(race_id)
        return True

    async def _deliver_one(self, announcement: Announcement) -> bool:
        table = await self.service.table(announcement.row.table_id)
        try:
            channel = await self.channel_for(table)
            if channel is None:
                await self.service.announced(announcement, None)
                return True
            if announcement.row.kind == "board" and announcement.row.turn != announcement.view.turn:
                await self.service.announced(announcement, None)
                return True
            await self.reopen(channel)
            try:
                post = await asyncio.wait_for(
                    self._compose(channel, table, announcement), self.draw_timeout
                )
            except TimeoutError:
                log.error("race %d: its pictures were not drawn in time", table.id)
                self.images.restart()
                return False
            message = await asyncio.wait_for(
                channel.send(
                    post.content[:MESSAGE_LIMIT],
                    files=post.files,
                    view=post.view,
                    nonce=f"c{announcement.row.id}",
                    allowed_mentions=pings(post.pings),
                ),
                self.post_timeout,
            )
        except discord.Forbidden as error:
            log.warning("race %d: cannot post in its channel (%s)", table.id, error.code)
            if table.id not in self._host_told:
                self._host_told.add(table.id)
                await self.tell_host(
                    table, t(table.row.locale, "error.lost_permissions", race=table.id)
                )
            return False
        except TRANSIENT as error:
            log.warning(
                "race %d: posting the %s failed (%s)",
                table.id,
                announcement.row.kind,
                type(error).__name__,
            )
            return False
        await self.service.announced(announcement, message.id)
        if announcement.row.kind == "board":
            await self.notify_by_dm(await self.service.table(table.id), channel)
        if announcement.row.kind == "podium":
            await self.close_thread(channel, table)
        return True

    async def reopen(self, channel: Any) -> None:
        """Unarchive the race's thread if Discord archived it (days without a message)."""
        if isinstance(channel, discord.Thread) and channel.archived and not channel.locked:
            await channel.edit(archived=False)

    async def close_thread(self, channel: Any, table: Table) -> None:
        """At the podium: archive the race's thread, and lock it when allowed to."""
        if not isinstance(channel, discord.Thread):
            return
        try:
            if channel.guild.me is None or channel.parent is None:
                # Another shard's server (a last move from a DM): its permissions are not
                # known here, so try the lock and go without it if refused.
                try:
                    await channel.edit(archived=True, locked=True)
                except discord.Forbidden:
                    await channel.edit(archived=True)
                return
            lock = bool(channel.permissions_for(channel.guild.me).manage_threads)
            await channel.edit(archived=True, locked=lock)
        except TRANSIENT:
            log.warning("race %d: could not archive its thread", table.id)

    async def _compose(self, channel: Any, table: Table, announcement: Announcement) -> Post:
        """The announcement's message: the game's own poster's, or Charioteer's."""
        poster = self.posters.get(table.game)
        if poster is not None:
            return await poster.compose(channel, table, announcement)
        locale = table.row.locale
        kind = announcement.row.kind
        if kind == "reveal":
            report = announcement.report
            assert report is not None
            story = reveal_text(
                public_events(report.events), report.view, names=table.names, locale=locale or "en"
            )
            header = t(locale, "reveal.header", race=table.id, turn=report.turn)
            return Post(f"{header}\n{story}")
        if kind == "podium":
            finished = announcement.view.result is not None
            return Post(
                podium_content(table, announcement.view, locale),
                pings=player_ids(table) if finished else (),
            )
        files = []
        if self.can_attach(channel):
            png = await self.images.run(
                board_png, announcement.view, names=table.names, locale=locale or "en"
            )
            files.append(
                discord.File(
                    io.BytesIO(png), filename=f"race-{table.id}-turn-{announcement.view.turn}.png"
                )
            )
        return Post(
            board_content(table, announcement.view, locale),
            files,
            board_view(table.id, announcement.view.turn, locale),
            pings=waiting_ids(table),
        )

    def can_attach(self, channel: Any) -> bool:
        guild = getattr(channel, "guild", None)
        if guild is None or guild.me is None:
            return True
        permissions = channel.permissions_for(guild.me)
        return bool(permissions.attach_files)

    async def follow_up(self, table_id: int, *, moved: bool = True) -> None:
        """After an accepted action, for any game: AI seats play, announcements go out, the
        board updates, and a game that ended is told to :attr:`on_game_over`."""
        await self.service.play_ai_seats(table_id)
        await self.outbox.deliver(table_id)
        if moved:
            await self.refresh_board(table_id)
        hook = self.on_game_over
        if hook is not None and (await self.service.table(table_id)).status in ENDED:
            await hook(table_id)

    async def refresh_board(self, race_id: int) -> None:
        """Edit the current board's waiting line after a move (no new ping). Nothing to do
        while a newer announcement waits: the board it brings is the one to show."""
        async with self.lock(race_id):
            table = await self.service.table(race_id)
            if table.status != "running" or table.row.board_message_id is None:
                return
            storage = self.service.storage
            if await storage.pending_announcements(race_id):
                return
            _, view = await self.service.view_for(race_id, None)
            board_id = table.row.board_message_id
            if await storage.posted_turn(race_id, board_id) != view.turn:
                return  # a turn was resolved meanwhile: its own board is on the way
            poster = self.posters.get(table.game)
            if poster is not None:
                content = await poster.board_content(table)
            else:
                content = board_content(table, view, table.row.locale)
            try:
                channel = await self.channel_for(table)
                if channel is None:
                    return
                await self.reopen(channel)
                message = channel.get_partial_message(board_id)
                mentions = pings(waiting_ids(table))
                try:
                    await message.edit(content=content, allowed_mentions=mentions)
                except discord.HTTPException as error:
                    if error.code != THREAD_ARCHIVED:
                        raise
                    await channel.edit(archived=False)
                    await message.edit(content=content, allowed_mentions=mentions)
            except TRANSIENT:
                log.warning("race %d: could not update the board", race_id)

    async def notify_by_dm(self, table: Table, channel: Any) -> None:
        """Tell players who chose DMs that their move is due; say so in the race's channel
        (without revealing anything) when a DM cannot be delivered. Closed DMs are
        remembered: no more tries until the player turns DMs on again."""
        storage = self.service.storage
        for seat in table.waiting_humans():
            if seat.user_id is None or not await storage.dm_reachable(seat.user_id):
                continue
            locale = table.row.locale
            poster = self.posters.get(table.game)
            if poster is not None:
                text, buttons = await poster.turn_notice(table, seat.user_id)
            else:
                _, view = await self.service.view_for(table.id, seat.user_id)
                text = (
                    t(locale, "dm.turn", race=table.id, turn=view.turn)
                    + "\n"
                    + hand_text(view, locale=locale or "en")
                )
                buttons = dm_view(table.id, view.turn, locale)
            try:
                user = self.client.get_user(seat.user_id) or await self.client.fetch_user(
                    seat.user_id
                )
                await user.send(text[:MESSAGE_LIMIT], view=buttons)
            except TRANSIENT as error:
                closed = getattr(error, "code", None) == DM_CLOSED
                if closed:
                    await storage.mark_dm_closed(seat.user_id)
                if (table.id, seat.user_id) in self._dm_warned:
                    continue
                self._dm_warned.add((table.id, seat.user_id))
                key = "dm.closed" if closed else "dm.failed"
                try:
                    await channel.send(
                        t(locale, key, name=seat.name),
                        allowed_mentions=discord.AllowedMentions.none(),
                    )
                except TRANSIENT:
                    log.warning("race %d: could not say that a DM failed", table.id)

    async def remind(self, table: Table, number: int) -> None:
        channel = await self.channel_for(table)
        if channel is None or not table.waiting_humans():
            return
        people = ", ".join(mention(seat.user_id, seat.name) for seat in table.waiting_humans())
        deadline = f"<t:{int(table.row.deadline or 0)}:R>"
        key = "reminder.half" if number == 1 else "reminder.last"
        try:
            await channel.send(
                t(table.row.locale, key, people=people, deadline=deadline),
                allowed_mentions=pings(waiting_ids(table)),
            )
        except TRANSIENT:
            log.warning("race %d: could not post a reminder", table.id)

    async def tell_host(self, table: Table, text: str) -> None:
        try:
            host = self.client.get_user(table.row.host_id) or await self.client.fetch_user(
                table.row.host_id
            )
            await host.send(text[:MESSAGE_LIMIT])
        except TRANSIENT:
            log.warning("race %d: could not reach the host either", table.id)
