"""The load bench's floor bot acknowledges every kind of interaction, as a subprocess."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import World
from .harness import REPO_ROOT, run_bot
from .server import FakeDiscord

FLOOR = str(REPO_ROOT / "bench" / "floor_bot.py")


async def test_the_floor_bot_acknowledges_commands_and_clicks(
    fake: FakeDiscord, world: World
) -> None:
    board = fake.new_message(
        world.channel,
        {
            "content": "board",
            "components": [
                {
                    "type": 1,
                    "components": [
                        {"type": 2, "style": 1, "custom_id": "g:1:join:0", "label": "Join"}
                    ],
                }
            ],
        },
        [],
    )
    async with run_bot(fake, FLOOR):
        await fake.wait_for_command("race", timeout=20)
        await fake.wait_until_ready(timeout=20)
        asked = await world.alice.slash(world.channel, "race new", seats=3)
        reply = await asked.reply(timeout=10)
        assert (reply.content, reply.ephemeral_to) == ("ok", world.alice)
        clicked = await world.bob.click(board, label="Join")
        assert await clicked.wait_ack() == 6
        assert board.edit_count == 0


async def test_the_floor_bot_registers_the_commands_it_is_given(
    fake: FakeDiscord, world: World, tmp_path: Path
) -> None:
    commands = [{"name": "ping", "description": "Ping"}]
    path = tmp_path / "commands.json"
    path.write_text(json.dumps(commands), encoding="utf-8")
    async with run_bot(fake, FLOOR, env={"FLOOR_COMMANDS": str(path)}):
        await fake.wait_for_command("ping", timeout=20)
        assert fake.commands_payload() == commands
        await fake.wait_until_ready(timeout=20)
        asked = await world.alice.slash(world.channel, "ping")
        assert await asked.wait_ack(timeout=10) == 4
