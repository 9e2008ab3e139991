"""Posting what the service has to announce, for every game: each step's public posts
(the game's front words and draws them: :meth:`Poster.compose`, from the snapshot of the
table the announcement carries, taken in the transaction that made it), the current
board kept up to date after each move, reminders, and the private turn notices for
players who chose DMs. A post pings only the players it names on purpose, by id
(:func:`pings`): never a mention some user text holds, such as a display name written as
``<@id>``.

Announcements come from the service's outbox, so one that was not posted before a crash is
posted after the restart, and one Discord failed to take (a 5xx, a timeout, a dropped
connection, a permission missing) is tried again by :class:`bot.outbox.Outbox` until it is
posted; the host hears once when a permission is missing. Each post carries a nonce
Discord enforces, so a post retried in that window is still posted once. A game's thread
is reopened before a post or an edit if Discord archived it, and archived at the podium.
After an accepted action the follow-up (:meth:`Announcer.settle`) lets AI seats play and
posts what came of it.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from bot.images import ImageProcess
from bot.locks import KeyedLocks
from bot.outbox import Outbox
from bot.service import Announcement, Table, TableService
from bot.text import t
from cogs.front.answers import MESSAGE_LIMIT, TRANSIENT, FollowsUp
from cogs.front.panel import ENDED

log = logging.getLogger(__name__)

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
BOARD_POSTED: contextvars.ContextVar[bool] = contextvars.ContextVar("board_posted", default=False)
"""Set when a delivery in this task posted a board: the board a follow-up has just posted
needs no refresh (a move made since refreshes it in its own follow-up)."""
DRAW_TIMEOUT = 120.0
"""Seconds a post's pictures may take, once its turn has come, before the picture workers
count as stuck: they are started anew and the post is tried again later."""


def mention(user_id: int | None, name: str) -> str:
    return f"<@{user_id}>" if user_id is not None else name


def pings(user_ids: Iterable[int | None]) -> discord.AllowedMentions:
    """What a public post may ping: exactly these members, the players it names by id on
    purpose; never @everyone, a role, or whoever a name or other text typed by a user
    mentions (a display name written as ``<@id>`` pings nobody)."""
    users = [discord.Object(user_id) for user_id in sorted({i for i in user_ids if i is not None})]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def waiting_ids(table: Table) -> list[int | None]:
    """The members a board or a reminder pings: the players it waits for, but those away."""
    return [
        seat.user_id
        for seat in table.waiting_humans()
        if table.away_until(seat.seat, _moment(table, seat.seat)) is None
    ]


def _moment(table: Table, seat: str) -> float:
    """The moment a post about the table speaks of: its snapshot's, or when the seat began
    owing its move if later."""
    return max(table.row.updated_at, table.clock(seat).get("since", 0.0))


def player_ids(table: Table) -> list[int | None]:
    """Every member seated at the table (a podium, a season's scores name them all)."""
    return [seat.user_id for seat in table.humans]


def timestamp(when: float) -> str:
    """A moment as Discord shows it to each reader, in their own time zone (``in 3 hours``)."""
    return f"<t:{int(when)}:R>"


def waiting_line(table: Table, locale: str | None) -> str:
    """Who the table waits for: each with their bank's end, or away until when; at a table
    with a time per turn, when the turn's time runs out."""
    waiting = table.waiting_humans()
    if not waiting:
        return t(locale, "board.all_in")
    banked = table.settings.bank is not None
    people, turn_ends = [], []
    for seat in waiting:
        person = mention(seat.user_id, seat.name)
        away = table.away_until(seat.seat, _moment(table, seat.seat))
        expiry = table.expiry(seat.seat)
        if away is not None:
            people.append(t(locale, "board.seat_away", person=person, until=timestamp(away)))
        elif banked and expiry is not None:
            people.append(t(locale, "board.seat_bank", person=person, deadline=timestamp(expiry)))
        else:
            people.append(person)
            turn_ends.extend([expiry] if expiry is not None else [])
    listed = ", ".join(people)
    if banked or not turn_ends:
        return t(locale, "board.waiting", people=listed)
    return t(locale, "board.waiting_until", people=listed, deadline=timestamp(min(turn_ends)))


def can_attach(channel: Any) -> bool:
    """Whether the bot may attach pictures to a post in ``channel``."""
    guild = getattr(channel, "guild", None)
    if guild is None or guild.me is None:
        return True
    permissions = channel.permissions_for(guild.me)
    return bool(permissions.attach_files)


@dataclass
class Post:
    """A public message the announcer sends: its text, pictures and controls, and the
    members it pings (the players it mentions on purpose; nobody else, whatever the text
    holds: :func:`pings`)."""

    content: str
    files: list[discord.File] = field(default_factory=list)
    view: discord.ui.View | None = None
    pings: Sequence[int | None] = ()


class Poster(Protocol):
    """A game's front as the announcer sees it: it words and draws its own posts."""

    async def compose(self, channel: Any, table: Table, announcement: Announcement) -> Post:
        """The message for ``announcement`` in ``channel`` (pictures only where the bot may
        attach files there: :func:`can_attach`)."""
        ...

    async def board_content(self, table: Table) -> str | None:
        """The current board message's text after a move, or None to leave it."""
        ...

    async def turn_notice(self, table: Table, user_id: int) -> tuple[str, discord.ui.View]:
        """A seat's direct-message notice that its move is due."""
        ...


class Announcer(FollowsUp):
    """Delivers a table's pending announcements, one table at a time, in order; everything
    that touches a table's board (new boards, refreshes, the podium's archiving) holds that
    table's lock, so they cannot interleave. It knows no game: each table's posts are
    composed by its game's front (:attr:`fronts`)."""

    def __init__(self, client: discord.Client, service: TableService, images: ImageProcess) -> None:
        self.client = client
        self.service = service
        self.images = images
        self._locks: KeyedLocks[int] = KeyedLocks()
        self._dm_warned: set[tuple[int, int]] = set()
        self.fronts: Mapping[str, Poster] = {}
        """Every game's front, by game id: each composes its own posts."""
        self._host_told: set[int] = set()
        self._background: set[asyncio.Task[None]] = set()
        self.post_timeout = POST_TIMEOUT
        self.draw_timeout = DRAW_TIMEOUT
        self._posting = asyncio.Semaphore(POSTING_AT_ONCE)
        self.outbox = Outbox(self.deliver, service.tables_with_pending, service.clock)
        """Every delivery goes through it: failed ones are retried with backoff."""
        self.on_game_over: Callable[[int], Awaitable[None]] | None = None
        """Told of every game that ended (tournaments count its result), of any game."""

    def lock(self, table_id: int) -> AbstractAsyncContextManager[None]:
        """Held while anything touches the table's board or posts its announcements."""
        return self._locks.hold(table_id)

    def front(self, table: Table) -> Poster:
        return self.fronts[table.game]

    async def channel_for(self, table: Table) -> Any:
        """The table's thread (or channel); None when Discord says it is gone. A transient
        failure raises, so that the delivery is tried again."""
        channel_id = table.row.thread_id or table.row.channel_id
        if channel_id is None:
            return None
        channel = self.client.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.client.fetch_channel(channel_id)
            except discord.NotFound:
                log.warning("table %d: channel %d is gone", table.id, channel_id)
                return None
        return channel

    async def deliver(self, table_id: int) -> bool:
        """Post the table's pending announcements in order; True when none is left. At most
        :data:`POSTING_AT_ONCE` tables post at a time. Each post is composed from its own
        snapshot; the table as it is now only says where to post, whether a board is still
        the current one, and whom to tell by DM."""
        async with self.lock(table_id):
            if await self.service.storage.pending_announcements(table_id):
                async with self._posting:
                    announcements = await self.service.announcements(table_id)
                    now = await self.service.table(table_id)
                    for announcement in announcements:
                        if not await self._deliver_one(now, announcement):
                            return False
        self._host_told.discard(table_id)
        return True

    async def _deliver_one(self, table: Table, announcement: Announcement) -> bool:
        """Post one announcement of ``table`` (as it is now)."""
        row = announcement.row
        try:
            channel = await self.channel_for(table)
            if channel is None or (row.kind == "board" and row.turn != table.row.turn):
                await self.service.announced(announcement, None)  # gone, or a past turn's
                return True
            await self.reopen(channel)
            front = self.front(table)
            try:
                post = await asyncio.wait_for(
                    front.compose(channel, announcement.table, announcement), self.draw_timeout
                )
            except TimeoutError:
                log.error("table %d: its pictures were not drawn in time", table.id)
                self.images.restart()
                return False
            message = await asyncio.wait_for(
                channel.send(
                    post.content[:MESSAGE_LIMIT],
                    files=post.files,
                    view=post.view,
                    nonce=f"c{row.id}",
                    allowed_mentions=pings(post.pings),
                ),
                self.post_timeout,
            )
        except discord.Forbidden as error:
            log.warning("table %d: cannot post in its channel (%s)", table.id, error.code)
            if table.id not in self._host_told:
                self._host_told.add(table.id)
                await self.tell_host(
                    table, t(table.row.locale, "error.lost_permissions", race=table.id)
                )
            return False
        except TRANSIENT as error:
            log.warning(
                "table %d: posting the %s failed (%s)", table.id, row.kind, type(error).__name__
            )
            return False
        await self.service.announced(announcement, message.id)
        if row.kind == "board":
            BOARD_POSTED.set(True)
            await self.notify_by_dm(table, channel)
        if row.kind == "podium":
            await self.close_thread(channel, table)
        return True

    async def reopen(self, channel: Any) -> None:
        """Unarchive the table's thread if Discord archived it (days without a message)."""
        if isinstance(channel, discord.Thread) and channel.archived and not channel.locked:
            await channel.edit(archived=False)

    async def close_thread(self, channel: Any, table: Table) -> None:
        """At the podium: archive the table's thread, and lock it when allowed to."""
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
            log.warning("table %d: could not archive its thread", table.id)

    # ------------------------------------------------------------------ follow-up

    async def settle(self, table_id: int, *, moved: bool = True) -> None:
        """:meth:`follow_up`, run to its end even if the caller is cancelled (the time-limit
        dispatcher, when the bot stops), so no announcement is left half sent."""
        await asyncio.shield(self.settle_later(table_id, moved=moved))

    def settle_later(self, table_id: int, *, moved: bool = True) -> asyncio.Task[None]:
        """:meth:`follow_up` after an answered interaction (an accepted move is stored,
        answered or not), as a task a stop waits for. A failure is logged, never raised:
        the action itself is stored."""
        return self.later(self._follow_up_logged(table_id, moved))

    async def _follow_up_logged(self, table_id: int, moved: bool) -> None:
        try:
            await self.follow_up(table_id, moved=moved)
        except Exception:
            log.exception("table %d: follow-up work failed", table_id)

    async def follow_up(self, table_id: int, *, moved: bool = True) -> None:
        """After an accepted action, for any game: AI seats play, announcements go out, the
        board updates (unless this follow-up has just posted it), and a game that ended is
        told to :attr:`on_game_over`."""
        await self.service.play_ai_seats(table_id)
        fresh = BOARD_POSTED.set(False)
        try:
            await self.outbox.deliver(table_id)
            posted = BOARD_POSTED.get()
        finally:
            BOARD_POSTED.reset(fresh)
        if moved and not posted:
            await self.refresh_board(table_id)
        hook = self.on_game_over
        if hook is not None and (await self.service.table(table_id)).status in ENDED:
            await hook(table_id)

    async def refresh_board(self, table_id: int) -> None:
        """Edit the current board's waiting line after a move (no new ping). Nothing to do
        while a newer announcement waits: the board it brings is the one to show."""
        async with self.lock(table_id):
            table = await self.service.table(table_id)
            if table.status != "running" or table.row.board_message_id is None:
                return
            storage = self.service.storage
            if await storage.pending_announcements(table_id):
                return
            board_id = table.row.board_message_id
            if await storage.posted_turn(table_id, board_id) != table.row.turn:
                return  # a turn was resolved meanwhile: its own board is on the way
            content = await self.front(table).board_content(table)
            if content is None:
                return
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
                log.warning("table %d: could not update the board", table_id)

    async def notify_by_dm(self, table: Table, channel: Any) -> None:
        """Tell players who chose DMs that their move is due; say so in the table's channel
        (without revealing anything) when a DM cannot be delivered. Closed DMs are
        remembered: no more tries until the player turns DMs on again."""
        storage = self.service.storage
        for seat in table.waiting_humans():
            if seat.user_id is None or not await storage.dm_reachable(seat.user_id):
                continue
            if table.away_until(seat.seat, self.service.clock.now()) is not None:
                continue  # away: no notices until they are back
            locale = table.row.locale
            text, buttons = await self.front(table).turn_notice(table, seat.user_id)
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
                    log.warning("table %d: could not say that a DM failed", table.id)

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
            log.warning("table %d: could not post a reminder", table.id)

    async def tell_host(self, table: Table, text: str) -> None:
        try:
            host = self.client.get_user(table.row.host_id) or await self.client.fetch_user(
                table.row.host_id
            )
            await host.send(text[:MESSAGE_LIMIT])
        except TRANSIENT:
            log.warning("table %d: could not reach the host either", table.id)


__all__ = [
    "Announcer",
    "Post",
    "Poster",
    "can_attach",
    "mention",
    "pings",
    "player_ids",
    "timestamp",
    "waiting_ids",
    "waiting_line",
]
