"""The floor of the load bench: a bare discord.py bot that only acknowledges each interaction.

Whatever the product bot costs beyond this bot (parsing, the game service, storage,
rendering) is its own overhead; whatever this bot costs is discord.py's and the transport's.
Run it against the fake Discord as a subprocess:

    DISCORD_TOKEN=… FAKEDISCORD_API_BASE=… FAKEDISCORD_GATEWAY=… \\
        python -m tests.fakediscord.launch bench/floor_bot.py

(`tests.fakediscord.harness.run_bot(fake, "bench/floor_bot.py")` sets all three.)

Commands: it registers, as global commands, the JSON list in the file named by
`FLOOR_COMMANDS` (for instance the product's commands as the fake recorded them,
`fake.commands_payload()`), or else a small `/race` group (`new seats:int`, `panel`).

Answers, the cheapest complete acknowledgement of each kind: a slash command or a modal
submitted from a command gets an ephemeral "ok" (type 4); a button, a select, or a modal
submitted from a message gets a deferred update (type 6, nothing more is owed); an
autocomplete gets an empty list of choices (type 8).
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

import discord

DEFAULT_COMMANDS: list[dict[str, Any]] = [
    {
        "name": "race",
        "description": "Floor race commands",
        "options": [
            {
                "type": 1,
                "name": "new",
                "description": "Open a race",
                "options": [{"type": 4, "name": "seats", "description": "Seats", "required": True}],
            },
            {"type": 1, "name": "panel", "description": "Open a panel"},
        ],
    }
]


def load_commands() -> list[dict[str, Any]]:
    path = os.environ.get("FLOOR_COMMANDS")
    if not path:
        return DEFAULT_COMMANDS
    commands: list[dict[str, Any]] = json.loads(Path(path).read_text(encoding="utf-8"))
    return commands


class FloorBot(discord.Client):
    """Acknowledges every interaction and does nothing else."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.none())
        self.acknowledged = 0

    async def setup_hook(self) -> None:
        assert self.application_id is not None
        await self.http.bulk_upsert_global_commands(self.application_id, load_commands())

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        kind = interaction.type
        if kind is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        elif kind is discord.InteractionType.component or (
            kind is discord.InteractionType.modal_submit and interaction.message is not None
        ):
            await interaction.response.defer()
        else:
            await interaction.response.send_message("ok", ephemeral=True)
        self.acknowledged += 1


def main() -> None:
    logging.basicConfig(level=logging.WARNING)
    FloorBot().run(os.environ["DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
