"""A small discord.py bot that exercises what the fake serves; used by the fake's own tests.

It is not the product bot: it has one slash-command group `/demo …` whose subcommands each
do one thing Discord allows (or, for the tests of the fake's refusals, one thing it does
not), persistent `DynamicItem` buttons and a select whose custom_ids carry ids
(`g:{race}:{verb}:{seq}`), and a modal. Run in the test's event loop (`SampleBot`), or
as a subprocess: `python -m tests.fakediscord.launch tests.fakediscord.sample_bot`.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import re
from typing import Any

import discord
from discord import app_commands
from PIL import Image

log = logging.getLogger(__name__)


def png_bytes(width: int = 40, height: int = 20) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(buffer, "PNG")
    return buffer.getvalue()


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"g:(?P<race>\d+):join:(?P<seq>\d+)"
):
    """Joins a race; the board message is updated in place (response type 7)."""

    def __init__(self, race: int, seq: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join", style=discord.ButtonStyle.primary, custom_id=f"g:{race}:join:{seq}"
            )
        )
        self.race, self.seq = race, seq

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["race"]), int(match["seq"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = board_view(self.race, self.seq + 1)
        await interaction.response.edit_message(
            content=f"Race {self.race}: {interaction.user.name} joined (seq {self.seq + 1})",
            view=view,
        )


class HandButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"g:(?P<race>\d+):hand:(?P<seq>\d+)"
):
    """Opens a fresh ephemeral panel with a select menu."""

    def __init__(self, race: int, seq: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="My hand",
                style=discord.ButtonStyle.secondary,
                custom_id=f"g:{race}:hand:{seq}",
            )
        )
        self.race, self.seq = race, seq

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HandButton:
        return cls(int(match["race"]), int(match["seq"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(MoveSelect(self.race, self.seq))
        await interaction.response.send_message(
            f"Your hand for race {self.race}", view=view, ephemeral=True
        )


class MoveSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"g:(?P<race>\d+):pick:(?P<seq>\d+)"
):
    """Picks a move: deferred update (type 6), then the panel is edited."""

    def __init__(self, race: int, seq: int) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"g:{race}:pick:{seq}",
                placeholder="Choose a move",
                options=[
                    discord.SelectOption(label="Sprint", value="sprint"),
                    discord.SelectOption(label="Hold", value="hold"),
                    discord.SelectOption(label="Whip", value="whip"),
                ],
            )
        )
        self.race, self.seq = race, seq

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveSelect:
        return cls(int(match["race"]), int(match["seq"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        picked = ", ".join(self.item.values)
        await interaction.edit_original_response(content=f"You chose {picked}", view=None)


def board_view(race: int, seq: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(JoinButton(race, seq))
    view.add_item(HandButton(race, seq))
    return view


class NameModal(discord.ui.Modal, title="Name your chariot"):
    name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", max_length=20)
    motto: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Motto", style=discord.TextStyle.paragraph, required=False
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            f"Chariot {self.name.value!r} ({self.motto.value or 'no motto'})", ephemeral=True
        )


class SampleBot(discord.Client):
    """The bot under the fake's tests; `outcomes` records what it learnt from Discord."""

    def __init__(self, **options: Any) -> None:
        super().__init__(intents=discord.Intents.default(), **options)
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(build_group(self))
        self.outcomes: list[tuple[str, Any]] = []
        self.heard: list[str] = []
        self.release_silent = asyncio.Event()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(JoinButton, HandButton, MoveSelect)
        await self.tree.sync()

    async def on_message(self, message: discord.Message) -> None:
        if not message.author.bot:
            self.heard.append(message.content)

    def note(self, what: str, value: Any) -> None:
        self.outcomes.append((what, value))
        log.info("outcome %s: %r", what, value)


def build_group(bot: SampleBot) -> app_commands.Group:
    demo = app_commands.Group(name="demo", description="Exercises the fake Discord")

    @demo.command(name="new", description="Open a race board")
    @app_commands.describe(seats="How many seats")
    async def new(interaction: discord.Interaction, seats: app_commands.Range[int, 2, 6]) -> None:
        race = interaction.id % 10_000
        await interaction.response.send_message(
            f"Race {race} with {seats} seats", view=board_view(race, 0)
        )

    @demo.command(name="panel", description="An ephemeral reply")
    async def panel(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Only you can see this", ephemeral=True)

    @demo.command(name="slow", description="Defer, then edit the original response")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.edit_original_response(content="Done thinking")

    @demo.command(name="followup", description="Reply, then follow up ephemerally")
    async def followup(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("First")
        await interaction.followup.send("Second, just for you", ephemeral=True)

    @demo.command(name="modal", description="Open a modal")
    async def modal(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @demo.command(name="thread", description="Start a thread on the reply")
    async def thread(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Race board")
        message = await interaction.original_response()
        created = await message.create_thread(name="race-chat")
        await created.send("Talk here")

    @demo.command(name="dm", description="Write to a user directly")
    async def dm(interaction: discord.Interaction, user: discord.User) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await user.send("Your turn")
        except discord.Forbidden as error:
            bot.note("dm", error.code)
            await interaction.followup.send(f"Could not DM {user.name}", ephemeral=True)
        else:
            bot.note("dm", "sent")
            await interaction.followup.send(f"Sent a DM to {user.name}", ephemeral=True)

    @demo.command(name="post", description="Post a PNG in the channel, then edit the post")
    async def post(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        try:
            message = await interaction.channel.send(
                "The track", file=discord.File(io.BytesIO(png_bytes()), "track.png")
            )
            await message.edit(content="The track (turn 1)")
        except discord.HTTPException as error:
            bot.note("post", error.code)
            await interaction.followup.send(f"Could not post: {error.code}", ephemeral=True)
        else:
            bot.note("post", "ok")
            await interaction.followup.send("Posted", ephemeral=True)

    @demo.command(name="picture", description="Answer with a PNG attachment")
    async def picture(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "Here", file=discord.File(io.BytesIO(png_bytes(64, 32)), "board.png")
        )

    @demo.command(name="long", description="Try to post more than 2,000 characters")
    async def long(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.channel is not None
        try:
            await interaction.channel.send("x" * 2001)  # type: ignore[union-attr]
        except discord.HTTPException as error:
            bot.note("long", error.code)
        await interaction.followup.send("Tried", ephemeral=True)

    @demo.command(name="twice", description="Answer the same interaction twice")
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("One")
        interaction.response._response_type = None  # bypass discord.py's own guard
        try:
            await interaction.response.send_message("Two")
        except discord.HTTPException as error:
            bot.note("twice", error.code)

    @demo.command(name="silent", description="Answer only when the test says so")
    async def silent(interaction: discord.Interaction) -> None:
        await bot.release_silent.wait()
        try:
            await interaction.response.send_message("Too late")
        except discord.HTTPException as error:
            bot.note("silent", error.code)

    @demo.command(name="invalid", description="Send a body Discord's schema rejects")
    async def invalid(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        route = discord.http.Route(
            "POST", "/channels/{channel_id}/messages", channel_id=interaction.channel_id
        )
        try:
            await bot.http.request(route, json={"content": "hi", "embeds": {"title": "x"}})
        except discord.HTTPException as error:
            bot.note("invalid", error.code)
        await interaction.followup.send("Tried", ephemeral=True)

    colours = ["red", "green", "blue", "white"]

    @demo.command(name="colour", description="Pick a colour, with suggestions")
    async def colour(interaction: discord.Interaction, colour: str) -> None:
        await interaction.response.send_message(f"You picked {colour}", ephemeral=True)

    @colour.autocomplete("colour")
    async def suggest_colour(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=c, value=c) for c in colours if current in c]

    return demo


def main() -> None:
    logging.basicConfig(level=logging.INFO)
    SampleBot().run(os.environ["DISCORD_TOKEN"], log_handler=None)


if __name__ == "__main__":
    main()
