"""Posting what the service has to announce, for every game: each step's public posts
(the game's front words and draws them: :meth:`Poster.compose`, from the snapshot of the
table the announcement carries, taken in the transaction that made it), the current
board kept up to date after each move, reminders, and the private turn notices, each
member's reached as they chose (:mod:`bot.notices`: a ping, a DM, none, held through
their quiet hours). A post pings only the players it names on purpose, by id
(:func:`pings`): never a mention some user text holds, such as a display name written as
``<@id>``.

Announcements come from the service's outbox, so one that was not posted before a crash is
posted after the restart, and one Discord failed to take (a 5xx, a timeout, a dropped
connection, a permission missing) is tried again by :class:`bot.outbox.Outbox` until it is
posted; the host hears once when a permission is missing. Each post carries a nonce
Discord enforces, so a post retried in that window is still posted once. A game's thread
is reopened before a post or an edit if Discord archived it, and archived once its podium
is posted and the game's animated replay (:mod:`bot.animation`, drawn by a picture worker
of its own while the podium is already up) attached to it. A board a new board or the
podium supersedes is retired first (:meth:`Announcer.retire_board`): its waiting line and
its action buttons go, so the thread never reads as if a past turn still waited for
someone.
After an accepted action the follow-up (:meth:`Announcer.settle`) lets AI seats play and
posts what came of it.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from bot.animation import DISCORD_LIMIT, replay_animation
from bot.games.base import PODIUM, REPLAY
from bot.images import ImageProcess, ImagesClosed
from bot.locks import KeyedLocks
from bot.notices import Delivery, next_reminder
from bot.outbox import Outbox
from bot.service import ABANDONED, Announcement, Table, TableService, game_record
from bot.text import t
from cogs.front.answers import MESSAGE_LIMIT, TRANSIENT, FollowsUp
from cogs.front.panel import ENDED
from engine.i18n import base_locale

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
ANIMATION_TIMEOUT = 100.0
"""Seconds a game's animated replay may take to draw (some seconds, up to 40 on a busy
two-core machine) before its worker counts as stuck and the replay is tried again later;
within a process's claim on the table's posts (:data:`bot.service.CLAIM_LEASE`). Should
two processes of a cluster still both draw it, the podium ends with one replay: each
edit sets the podium's whole list of files."""
REQUEST_TOO_LARGE = 40005
"""Discord's code for a file over its attachment limit."""


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
        expiry = table.runs_out(seat.seat)
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


def attachment_limit(channel: Any) -> int:
    """The largest file the bot may attach in ``channel``, in bytes (its server's limit)."""
    guild = getattr(channel, "guild", None)
    return int(getattr(guild, "filesize_limit", DISCORD_LIMIT))


def replay_filename(table_id: int) -> str:
    return f"replay-{table_id}.webp"


def without_waiting_line(content: str) -> str:
    """A board's text once its turn is over: every board ends with its waiting line
    (:func:`waiting_line`, or the game's own word for who is to play), which goes. A
    board cut short of its waiting line (a code block closing its last line) stays whole."""
    kept, _, last = content.rpartition("\n")
    return kept if kept and not last.startswith("```") else content


def live_controls(message: Any) -> bool:
    """Whether a posted board still has a control besides its Status button."""
    for row in getattr(message, "components", ()):
        for child in getattr(row, "children", [row]):
            custom_id = str(getattr(child, "custom_id", None) or "")
            if custom_id.count(":") >= 2 and custom_id.split(":")[2] != "status":
                return True
    return False


def message_link(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """A message's jump URL (``@me`` for a DM's)."""
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


def latest_post_link(table: Table) -> str | None:
    """The jump URL of the table's current board (its lobby post before the start)."""
    row = table.row
    board_channel = row.thread_id or row.channel_id
    if row.board_message_id is not None and board_channel is not None:
        return message_link(row.guild_id, board_channel, row.board_message_id)
    if row.lobby_message_id is not None and row.channel_id is not None:
        return message_link(row.guild_id, row.channel_id, row.lobby_message_id)
    return None


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
    holds: :func:`pings`); ``lead``: the texts of messages posted just before it, when
    what it tells does not fit one message (they ping nobody)."""

    content: str
    files: list[discord.File] = field(default_factory=list)
    view: discord.ui.View | None = None
    pings: Sequence[int | None] = ()
    lead: Sequence[str] = ()


class Poster(Protocol):
    """A game's front as the announcer sees it: it words and draws its own posts."""

    async def compose(self, channel: Any, table: Table, announcement: Announcement) -> Post:
        """The message for ``announcement`` in ``channel`` (pictures only where the bot may
        attach files there: :func:`can_attach`)."""
        ...

    async def board_content(self, table: Table, view: Any, channel: Any) -> str | None:
        """The current board message's text after a move, from the table and its public
        view as read together, or None to leave it."""
        ...

    async def turn_notice(self, table: Table, user_id: int) -> tuple[str, discord.ui.View]:
        """A seat's direct-message notice that its move is due."""
        ...

    def thread_name(self, table: Table, locale: str | None) -> str:
        """The table's name in the game's words ("Race #3", "Carcassonne #4")."""
        ...

    def retired_view(self, table_id: int, turn: int, locale: str | None) -> discord.ui.View:
        """A superseded board's controls: its Status button alone."""
        ...


class Announcer(FollowsUp):
    """Delivers a table's pending announcements, one table at a time, in order; everything
    that touches a table's board (new boards, refreshes, the podium's archiving) holds that
    table's lock, so they cannot interleave. It knows no game: each table's posts are
    composed by its game's front (:attr:`fronts`)."""

    def __init__(
        self,
        client: discord.Client,
        service: TableService,
        images: ImageProcess,
        animations: ImageProcess | None = None,
    ) -> None:
        self.client = client
        self.service = service
        self.images = images
        self.animations = animations or images
        """Draws the animated replays (seconds each: the bot gives them a worker of their
        own, so that no board waits behind one)."""
        self.animation_timeout = ANIMATION_TIMEOUT
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
        :data:`POSTING_AT_ONCE` tables post at a time, not counting the drawing of a
        finished game's replay (seconds of its own worker's time, after the podium). Each
        post is composed from its own snapshot; the table as it is now only says where to
        post, whether a board is still the current one, and whom to tell by DM."""
        async with self.lock(table_id):
            if await self.service.storage.pending_announcements(table_id):
                async with self._posting:
                    announcements = await self.service.announcements(table_id)
                    now = await self.service.table(table_id)
                    replays = [item for item in announcements if item.row.kind == REPLAY]
                    posts = [item for item in announcements if item.row.kind != REPLAY]
                    for announcement in posts:
                        if not await self._deliver_one(now, announcement):
                            return False
                for replay in replays:  # the table's last: drawn without holding others up
                    if not await self._deliver_one(now, replay):
                        return False
                if any(item.row.kind in (PODIUM, REPLAY) for item in announcements):
                    await self.close_thread(await self.channel_for(now), now)
        self._host_told.discard(table_id)
        return True

    async def _deliver_one(self, table: Table, announcement: Announcement) -> bool:
        """Post one announcement of ``table`` (as it is now)."""
        row = announcement.row
        try:
            channel = await self.channel_for(table)
            if channel is None:
                await self.service.announced(announcement, None)
                return True
            if row.kind == "board" and row.turn < table.row.turn:
                log.info("table %d: the board of turn %d is past: not posted", table.id, row.turn)
                await self.service.announced(announcement, None)
                return True
            await self.reopen(channel)
            if row.kind in ("board", "podium"):
                await self.retire_board(table, channel)
            if row.kind == REPLAY:
                return await self.attach_replay(channel, table, announcement)
            front = self.front(table)
            try:
                post = await asyncio.wait_for(
                    front.compose(channel, announcement.table, announcement), self.draw_timeout
                )
            except TimeoutError:
                log.error("table %d: its pictures were not drawn in time", table.id)
                self.images.restart()
                return False
            told = await self.deliveries(table) if row.kind == "board" else {}
            unpinged = {user_id for user_id, chosen in told.items() if not chosen.ping}
            for number, text in enumerate(post.lead):
                await asyncio.wait_for(
                    channel.send(
                        text[:MESSAGE_LIMIT],
                        nonce=f"c{row.id}.{number}",
                        allowed_mentions=discord.AllowedMentions.none(),
                    ),
                    self.post_timeout,
                )
            message = await asyncio.wait_for(
                channel.send(
                    post.content[:MESSAGE_LIMIT],
                    files=post.files,
                    view=post.view,
                    nonce=f"c{row.id}",
                    allowed_mentions=pings(i for i in post.pings if i not in unpinged),
                ),
                self.post_timeout,
            )
        except discord.Forbidden as error:
            log.warning("table %d: cannot post in its channel (%s)", table.id, error.code)
            if table.id not in self._host_told:
                self._host_told.add(table.id)
                locale = table.row.locale
                name = self.fronts[table.game].thread_name(table, locale)
                await self.tell_host(table, t(locale, "error.lost_permissions", name=name))
            return False
        except TRANSIENT as error:
            log.warning(
                "table %d: posting the %s failed (%s)", table.id, row.kind, type(error).__name__
            )
            return False
        except ImagesClosed:
            log.info("table %d: its %s is owed until the bot is back", table.id, row.kind)
            return False
        await self.service.announced(announcement, message.id)
        if row.kind == "board":
            BOARD_POSTED.set(True)
            await self.tell_waiting(table, channel, told, message.jump_url)
        return True

    async def attach_replay(self, channel: Any, table: Table, announcement: Announcement) -> bool:
        """Attach the finished game's animated replay to its podium post (one
        :meth:`_deliver_one` of a :data:`~bot.games.base.REPLAY`; Discord's failures are
        the caller's to handle). The podium keeps its own pictures, and one that already
        carries the replay (edited before a crash) is left as it is. Without the podium,
        without the Attach Files permission, when the file is over the server's limit or
        the drawing fails, the podium stays without it."""
        row = announcement.row
        podium_id = await self.service.storage.posted_message(table.id, PODIUM, row.seq)
        if podium_id is None or not can_attach(channel):
            await self.service.announced(announcement, None)
            return True
        try:
            podium = await channel.fetch_message(podium_id)
        except discord.NotFound:
            await self.service.announced(announcement, None)  # deleted meanwhile
            return True
        name = replay_filename(table.id)
        if not any(attachment.filename == name for attachment in podium.attachments):
            webp = await self._draw_replay(channel, table, announcement)
            if webp is None:
                await self.service.announced(announcement, None)
                return True
            kept: list[discord.Attachment | discord.File] = [*podium.attachments]
            try:
                await asyncio.wait_for(
                    podium.edit(attachments=[*kept, discord.File(io.BytesIO(webp), name)]),
                    self.post_timeout,
                )
            except discord.HTTPException as error:
                if error.code != REQUEST_TOO_LARGE:
                    raise
                log.warning("table %d: Discord refused its replay's size", table.id)
                await self.service.announced(announcement, None)
                return True
        await self.service.announced(announcement, podium_id)
        return True

    async def _draw_replay(
        self, channel: Any, table: Table, announcement: Announcement
    ) -> bytes | None:
        """The game's animated replay; None when it cannot be drawn or is over the limit of
        ``channel``. A timeout raises: the workers are started anew and the replay
        is tried again later."""
        shown = announcement.table
        record = game_record(table, await self.service.storage.actions(table.id))
        try:
            webp = await asyncio.wait_for(
                self.animations.run(
                    replay_animation,
                    table.game,
                    record,
                    shown.names,
                    base_locale(shown.row.locale),
                ),
                self.animation_timeout,
            )
        except TimeoutError:
            log.error("table %d: its replay was not drawn in time", table.id)
            self.animations.restart()
            raise
        except ImagesClosed:
            raise
        except Exception:
            log.exception("table %d: its replay could not be drawn", table.id)
            return None
        if len(webp) > attachment_limit(channel):
            log.warning("table %d: its replay (%d bytes) is over the limit", table.id, len(webp))
            return None
        return webp

    async def retire_board(self, table: Table, channel: Any) -> None:
        """Before a new board or the podium is posted: the current board loses its waiting
        line and every control but Status. Done once (a retired board has no live
        control); a transient failure raises, so the delivery is tried again later. The
        table is read afresh: a board posted earlier in this delivery is the current one."""
        table = await self.service.table(table.id)
        board_id = table.row.board_message_id
        if board_id is None:
            return
        try:
            message = await channel.fetch_message(board_id)
        except (discord.NotFound, discord.Forbidden):
            return  # deleted, or not readable here: nothing to retire
        if not live_controls(message):
            return
        turn = await self.service.storage.posted_turn(table.id, board_id)
        buttons = self.front(table).retired_view(table.id, turn or 0, table.row.locale)
        await message.edit(
            content=without_waiting_line(message.content),
            view=buttons,
            allowed_mentions=discord.AllowedMentions.none(),
        )

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
        table = await self.service.table(table_id)
        if table.status == ABANDONED:
            await self.retire_abandoned(table)
        hook = self.on_game_over
        if hook is not None and table.status in ENDED:
            await hook(table_id)

    async def retire_abandoned(self, table: Table) -> None:
        """An abandoned game has no podium to retire its board: it is retired here, once
        (a failure is logged; the game is over either way)."""
        async with self.lock(table.id):
            try:
                channel = await self.channel_for(table)
                if channel is not None:
                    await self.reopen(channel)
                    await self.retire_board(table, channel)
            except TRANSIENT:
                log.warning("table %d: could not retire the abandoned game's board", table.id)

    async def refresh_board(self, table_id: int) -> None:
        """Edit the current board's waiting line after a move (no new ping). Nothing to do
        while a newer announcement waits: the board it brings is the one to show."""
        async with self.lock(table_id):
            table = await self.service.table(table_id)
            board_id = table.row.board_message_id
            if table.status != "running" or board_id is None:
                return
            storage = self.service.storage
            if await storage.pending_announcements(table_id):
                return
            turn = await storage.posted_turn(table_id, board_id)
            if turn != table.row.turn:
                return  # a turn was resolved meanwhile: its own board is on the way
            table, view = await self.service.view_for(table_id, None)  # as one read
            if table.status != "running" or table.row.turn != turn:
                return  # resolved since: the board keeps its own turn's text
            try:
                channel = await self.channel_for(table)
                if channel is None:
                    return
                content = await self.front(table).board_content(table, view, channel)
                if content is None:
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

    async def deliveries(self, table: Table, *, last_call: bool = False) -> dict[int, Delivery]:
        """How the notice that their move is due reaches each member the table waits for
        now, by each one's own choices (:func:`bot.notices.delivery`); a member away hears
        nothing until they are back."""
        now = self.service.clock.now()
        notices = self.service.notices
        return {
            seat.user_id: (await notices.member(seat.user_id)).delivery(now, last_call=last_call)
            for seat in table.waiting_humans()
            if seat.user_id is not None and table.away_until(seat.seat, now) is None
        }

    async def tell_waiting(
        self, table: Table, channel: Any, told: Mapping[int, Delivery], link: str | None
    ) -> None:
        """After a turn's board is posted: DM the members who chose DMs (with a link to the
        board), and keep for later the notices held by quiet hours and each member's own
        next reminder."""
        for seat in table.waiting_humans():
            if seat.user_id is None or seat.user_id not in told:
                continue
            chosen = told[seat.user_id]
            if chosen.dm:
                text, buttons = await self.front(table).turn_notice(table, seat.user_id)
                await self.send_dm(table, channel, seat.user_id, seat.name, text, buttons, link)
            await self.owe_next(table, seat.user_id, chosen)

    async def owe_next(self, table: Table, user_id: int, told: Delivery) -> None:
        """Keep the member's next notice at this table for this turn: the one their quiet
        hours held, else their own next reminder (if they chose a cadence)."""
        notices = self.service.notices
        due = told.held_until
        if due is None:
            member = await notices.member(user_id)
            due = next_reminder(member.choices, self.service.clock.now())
        if due is not None:
            await notices.owe(table.id, user_id, table.row.turn, due)
            self.service.deadline_changed.set()

    async def send_dm(
        self,
        table: Table,
        channel: Any,
        user_id: int,
        name: str,
        text: str,
        buttons: discord.ui.View,
        link: str | None,
    ) -> None:
        """A notice by direct message (``link``: the table's latest post); say so in the
        table's channel (without revealing anything) when it cannot be delivered. Closed
        DMs are remembered: no more tries until the member turns DMs on again."""
        storage = self.service.storage
        content = text if link is None else f"{text}\n{link}"
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            await user.send(content[:MESSAGE_LIMIT], view=buttons)
        except TRANSIENT as error:
            closed = getattr(error, "code", None) == DM_CLOSED
            if closed:
                await storage.mark_dm_closed(user_id)
            if (table.id, user_id) in self._dm_warned:
                return
            self._dm_warned.add((table.id, user_id))
            key = "dm.closed" if closed else "dm.failed"
            try:
                await channel.send(
                    t(table.row.locale, key, name=name),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except TRANSIENT:
                log.warning("table %d: could not say that a DM failed", table.id)

    async def remind(self, table: Table, number: int) -> None:
        """The table's reminder ``number`` (1: half time, 2: near the end), to each member
        it waits for as they chose: a ping in one post naming them, a DM, or held until
        their quiet hours end (never the last one). Members with a reminder cadence of
        their own skip the half-time one."""
        channel = await self.channel_for(table)
        if channel is None or not table.waiting_humans():
            return
        last_call = number != 1
        told = await self.deliveries(table, last_call=last_call)
        if not last_call:
            notices = self.service.notices
            for user_id in list(told):
                if (await notices.member(user_id)).choices.remind_hours is not None:
                    del told[user_id]
        key = "reminder.half" if number == 1 else "reminder.last"
        await self.remind_members(table, channel, told, key)

    async def remind_member(self, table: Table, user_id: int) -> None:
        """A notice owed to one member now (held by their quiet hours, or their own
        reminder), as they chose; then their next one is kept."""
        channel = await self.channel_for(table)
        if channel is None:
            return
        now = self.service.clock.now()
        chosen = (await self.service.notices.member(user_id)).delivery(now)
        await self.remind_members(table, channel, {user_id: chosen}, "reminder.again")
        if chosen.held_until is None:  # a held one is owed already
            await self.owe_next(table, user_id, chosen)

    async def remind_members(
        self, table: Table, channel: Any, told: Mapping[int, Delivery], key: str
    ) -> None:
        """One reminder post pinging the members who chose pings, a DM to those who chose
        DMs; those held by their quiet hours are owed it later."""
        seats = [seat for seat in table.waiting_humans() if seat.user_id in told]
        limits = [when for seat in seats if (when := table.runs_out(seat.seat)) is not None]
        deadline = timestamp(min(limits)) if limits else None
        link = latest_post_link(table)
        pinged = [seat for seat in seats if told[seat.user_id or 0].ping]
        locale = table.row.locale
        for seat in seats:
            assert seat.user_id is not None
            chosen = told[seat.user_id]
            if chosen.dm:
                text, buttons = await self.front(table).turn_notice(table, seat.user_id)
                if deadline is not None:
                    text = f"{text}\n{t(locale, 'reminder.runs_out', deadline=deadline)}"
                opens = table.vote_opens(seat.seat)
                if opens is not None:
                    text = f"{text}\n{t(locale, 'vote.pending_you', opens=timestamp(opens))}"
                await self.send_dm(table, channel, seat.user_id, seat.name, text, buttons, link)
            elif chosen.held_until is not None:
                await self.owe_next(table, seat.user_id, chosen)
        if not pinged:
            return
        people = ", ".join(mention(seat.user_id, seat.name) for seat in pinged)
        text = t(locale, key, people=people, deadline=deadline or "")
        if key == "reminder.again" and deadline is not None:
            text = f"{text} {t(locale, 'reminder.runs_out', deadline=deadline)}"
        for seat in pinged:
            opens = table.vote_opens(seat.seat)
            if opens is not None:
                person = mention(seat.user_id, seat.name)
                text = f"{text}\n{t(locale, 'vote.pending', person=person, opens=timestamp(opens))}"
        try:
            await channel.send(text, allowed_mentions=pings(seat.user_id for seat in pinged))
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
    "attachment_limit",
    "can_attach",
    "latest_post_link",
    "mention",
    "message_link",
    "pings",
    "player_ids",
    "timestamp",
    "waiting_ids",
    "waiting_line",
    "without_waiting_line",
]
