"""The animated replay at the podium, with the bot's own process: a race played to its end
has its podium carry the whole race as an animated WebP before its thread is archived,
and a bot stopped between the podium and its replay attaches the replay once restarted,
once."""

from __future__ import annotations

import io

from PIL import Image

from tests.e2e.conftest import Table, bot_running
from tests.e2e.players import play_until_the_end, podiums, start_race
from tests.fakediscord.model import Message

MESSAGE = "/channels/{channel_id}/messages/{message_id}"


def replays_on(podium: Message) -> list[bytes]:
    return [a.data for a in podium.attachments if a.filename.endswith(".webp")]


def animated_frames(webp: bytes) -> int:
    animation = Image.open(io.BytesIO(webp))
    assert animation.format == "WEBP" and animation.is_animated
    return int(animation.n_frames)


async def test_a_finished_races_podium_carries_the_race_animated(table: Table) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    async with bot_running(table):
        _, place = await start_race(fake, alice, [bob], table.channel)
        last = await play_until_the_end(fake, place, [alice, bob])
        await fake.wait_for(lambda: place.archived, timeout=120, what="the thread archived")
    [podium] = podiums(place)
    [webp] = replays_on(podium)
    assert animated_frames(webp) == last + 1  # the start, then every turn
    assert place.locked


async def test_a_restart_between_the_podium_and_its_replay_attaches_it_once(
    table: Table,
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob

    def a_podium(path: str) -> bool:
        message_id = int(path.rstrip("/").rsplit("/", 1)[-1])
        return any(m.id == message_id and "is over" in m.content for m in fake.all_messages())

    # the podium cannot be read for its replay (past boards still can, to be retired)
    fake.inject_faults("GET", MESSAGE, times=10_000, only=a_podium)
    async with bot_running(table) as first:
        _, place = await start_race(fake, alice, [bob], table.channel)
        await play_until_the_end(fake, place, [alice, bob])
        await fake.wait_for(
            lambda: any(r.method == "GET" for r in fake.rest.faults_served),
            timeout=60,
            what="a try at the replay",
        )
        first.process.kill()
        await first.process.wait()
    [podium] = podiums(place)
    assert replays_on(podium) == []
    assert not place.archived  # the thread waits for the replay
    fake.rest.faults.clear()
    async with bot_running(table):
        await fake.wait_for(lambda: place.archived, timeout=120, what="the thread archived")
    assert podiums(place) == [podium]
    assert len(replays_on(podium)) == 1
    edits = [r for r in fake.requests_for("PATCH", MESSAGE) if r.path.endswith(f"/{podium.id}")]
    assert len(edits) == 1
