"""The animated replay at the podium: once a game's podium is posted, its whole game is
drawn as an animated WebP and attached to that post, once, whatever fails on the way: a
failed upload is tried again by the outbox, an upload that went through before its
record was stored is not repeated, and a file over the limit (the server's, or the one
Discord enforces), a bot without Attach Files, or a podium deleted meanwhile leave the
podium as it is."""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

import tests.fakediscord.limits
from bot.games.base import PODIUM, REPLAY
from bot.images import ImageProcess
from bot.replays import public_steps
from bot.service import Table, game_record
from cogs.front import announce
from cogs.front.answers import FOLLOW_UP
from tests.bot.web.games import Setting, open_game, play
from tests.cogs.conftest import Circus
from tests.cogs.front.test_announce import posted_boards, started_races
from tests.e2e.players import podiums
from tests.fakediscord.model import Message

EDIT = "/channels/{channel_id}/messages/{message_id}"


async def finished_race(circus: Circus) -> Table:
    """A short race played to its end through the service: its announcements pending."""
    service = circus.bot.service
    where = Setting(circus.guild.id, circus.channel.id)
    table = await open_game(service, "charioteer", where, people=1, ai=1, options={"laps": 1})
    return await play(service, table.id, seed=4)


def replays_on(message: Message) -> list[bytes]:
    return [a.data for a in message.attachments if a.filename.endswith(".webp")]


async def replay_posted(circus: Circus, table: Table) -> tuple[bool, int | None]:
    """Whether the table's replay is done with, and the message it was attached to."""
    storage = circus.bot.service.storage
    pending = [row.kind for row in await storage.pending_announcements(table.id)]
    seq = await storage.action_count(table.id)
    return REPLAY not in pending, await storage.posted_message(table.id, REPLAY, seq)


async def test_the_podium_carries_the_whole_game_animated(circus: Circus) -> None:
    table = await finished_race(circus)
    assert await circus.bot.announcer.outbox.deliver(table.id)
    [podium] = podiums(circus.channel)
    [webp] = replays_on(podium)
    board, replay = podium.attachments
    assert board.filename.endswith(".png"), "the final board stays"
    assert replay.filename == f"replay-{table.id}.webp"
    animation = Image.open(io.BytesIO(webp))
    assert animation.format == "WEBP" and animation.is_animated
    record = game_record(table, await circus.bot.service.storage.actions(table.id))
    assert animation.n_frames == len(public_steps("charioteer", record))
    assert await replay_posted(circus, table) == (True, podium.id)
    seq = await circus.bot.service.storage.action_count(table.id)
    assert await circus.bot.service.storage.posted_message(table.id, PODIUM, seq) == podium.id


async def test_a_failed_upload_is_tried_again_and_the_podium_posted_once(circus: Circus) -> None:
    fake, announcer = circus.fake, circus.bot.announcer
    table = await finished_race(circus)
    fake.inject_faults("PATCH", EDIT, times=1)
    assert not await announcer.outbox.deliver(table.id)
    [podium] = podiums(circus.channel)
    assert replays_on(podium) == []
    assert announcer.outbox.retry_at(table.id) is not None
    assert await announcer.outbox.deliver(table.id)
    assert podiums(circus.channel) == [podium]
    assert len(replays_on(podium)) == 1
    assert [r.status for r in fake.requests_for("PATCH", EDIT)] == [503, 200]


async def test_an_upload_stored_as_done_too_late_is_not_made_twice(
    circus: Circus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot stopped after Discord took the replay and before it was stored as posted:
    the next delivery finds it on the podium and only stores it."""
    fake, bot = circus.fake, circus.bot
    table = await finished_race(circus)
    service = bot.service
    stored = service.announced

    async def crash_after_the_replay(announcement: Any, message_id: int | None) -> None:
        if announcement.row.kind == REPLAY:
            raise ConnectionError("the bot stopped here")
        await stored(announcement, message_id)

    monkeypatch.setattr(service, "announced", crash_after_the_replay)
    assert not await bot.announcer.outbox.deliver(table.id)
    monkeypatch.setattr(service, "announced", stored)
    assert await bot.announcer.outbox.deliver(table.id)
    [podium] = podiums(circus.channel)
    assert len(replays_on(podium)) == 1
    assert len(fake.requests_for("PATCH", EDIT)) == 1
    assert await replay_posted(circus, table) == (True, podium.id)


async def test_a_replay_over_the_servers_limit_leaves_the_podium_without_it(
    circus: Circus, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(announce, "attachment_limit", lambda channel: 1000)
    table = await finished_race(circus)
    assert await circus.bot.announcer.outbox.deliver(table.id)
    [podium] = podiums(circus.channel)
    assert replays_on(podium) == []
    assert circus.fake.requests_for("PATCH", EDIT) == []
    assert await replay_posted(circus, table) == (True, None)


async def test_a_replay_discord_refuses_as_too_large_leaves_the_podium_without_it(
    circus: Circus, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should Discord's limit be lower than the server's limit says (they changed it
    before), the refused replay is given up, not tried forever."""
    fake, announcer = circus.fake, circus.bot.announcer
    table = await finished_race(circus)
    fake.inject_faults("PATCH", EDIT, times=1)
    assert not await announcer.outbox.deliver(table.id)  # the podium is up
    monkeypatch.setattr(tests.fakediscord.limits, "MAX_FILE_SIZE", 1000)
    assert await announcer.outbox.deliver(table.id)
    [podium] = podiums(circus.channel)
    assert replays_on(podium) == []
    assert [r.status for r in fake.requests_for("PATCH", EDIT)] == [503, 413]
    assert await replay_posted(circus, table) == (True, None)
    assert announcer.outbox.failures(table.id) == 0
    [violation] = fake.violations  # the limit the bot's own check did not know
    assert "Request entity too large" in str(violation)
    fake.violations.clear()


async def test_without_attach_files_the_podium_goes_without_pictures_or_replay(
    circus: Circus,
) -> None:
    circus.channel.deny_bot("attach_files")
    table = await finished_race(circus)
    assert await circus.bot.announcer.outbox.deliver(table.id)
    [podium] = podiums(circus.channel)
    assert podium.attachments == []
    assert circus.fake.requests_for("PATCH", EDIT) == []
    assert await replay_posted(circus, table) == (True, None)


async def test_a_podium_deleted_before_its_replay_is_left_alone(circus: Circus) -> None:
    fake, announcer = circus.fake, circus.bot.announcer
    table = await finished_race(circus)
    fake.inject_faults("PATCH", EDIT, times=1)
    assert not await announcer.outbox.deliver(table.id)
    [podium] = podiums(circus.channel)
    fake.delete_message(podium)
    assert await announcer.outbox.deliver(table.id)
    assert len(fake.requests_for("PATCH", EDIT)) == 1
    assert await replay_posted(circus, table) == (True, None)


async def test_a_replay_being_drawn_holds_up_no_other_tables_posts(
    circus: Circus, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = circus.bot
    drawing, release = asyncio.Event(), asyncio.Event()
    draw = bot.announcer.animations.run

    async def held(function: Callable[..., bytes], /, *args: Any, **kwargs: Any) -> bytes:
        drawing.set()
        await release.wait()
        return await draw(function, *args, **kwargs)

    monkeypatch.setattr(bot.announcer.animations, "run", held)
    monkeypatch.setattr(bot.announcer, "_posting", asyncio.Semaphore(1))
    table = await finished_race(circus)
    finishing = asyncio.create_task(bot.announcer.outbox.deliver(table.id))
    await asyncio.wait_for(drawing.wait(), 60)
    [race] = await started_races(circus, 1)
    assert await asyncio.wait_for(bot.announcer.outbox.deliver(race), 60)
    assert posted_boards(circus)[-1] == (race, 1)
    assert not finishing.done()
    release.set()
    assert await finishing
    [podium] = podiums(circus.channel)
    assert len(replays_on(podium)) == 1


async def test_a_stuck_replay_worker_is_replaced_and_the_replay_attached_later(
    circus: Circus, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = circus.bot
    animations = bot.announcer.animations
    draw, stuck = animations.run, asyncio.Event()
    restarts: list[bool] = []
    calls = 0

    async def first_one_hangs(
        function: Callable[..., bytes], /, *args: Any, **kwargs: Any
    ) -> bytes:
        nonlocal calls
        calls += 1
        if calls == 1:
            await stuck.wait()  # never set: a worker that never answers
        return await draw(function, *args, **kwargs)

    monkeypatch.setattr(animations, "run", first_one_hangs)
    monkeypatch.setattr(animations, "restart", lambda: restarts.append(True))
    bot.announcer.animation_timeout = 0.3
    table = await finished_race(circus)
    assert not await bot.announcer.outbox.deliver(table.id)
    assert restarts == [True]
    [podium] = podiums(circus.channel)
    assert replays_on(podium) == []
    bot.announcer.animation_timeout = announce.ANIMATION_TIMEOUT
    assert await bot.announcer.outbox.deliver(table.id)
    assert len(replays_on(podium)) == 1


async def test_a_stop_leaves_a_replay_being_drawn_owed_without_waiting_for_it(
    circus: Circus, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A whole game's replay takes seconds to draw and no click waits for it: a stop
    stops its worker at once, and the replay stays owed (on disk) for after the restart,
    neither given up nor logged as an error."""
    bot = circus.bot
    animations = ImageProcess(bot.service.in_worker, workers=1)
    monkeypatch.setattr(bot, "animations", animations)
    monkeypatch.setattr(bot.announcer, "animations", animations)
    draw, drawing = animations.run, asyncio.Event()

    async def an_hour_long(function: Callable[..., bytes], /, *args: Any, **kwargs: Any) -> Any:
        drawing.set()
        return await draw(time.sleep, 3600)

    monkeypatch.setattr(animations, "run", an_hour_long)
    table = await finished_race(circus)
    finishing = asyncio.create_task(bot.announcer.outbox.deliver(table.id), name=FOLLOW_UP)
    await asyncio.wait_for(drawing.wait(), 60)
    await bot.close()
    assert finishing.done(), "the stop gave up waiting for the replay instead of stopping it"
    assert finishing.result() is False
    assert bot.announcer.outbox.retry_at(table.id) is not None
    [podium] = podiums(circus.channel)
    assert replays_on(podium) == []
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
