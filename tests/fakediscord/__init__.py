"""A fake Discord for end-to-end tests: the real discord.py talks to it over loopback.

The fake serves the part of Discord's REST API v10 and Gateway v10 a bot with slash
commands, buttons, selects, modals, threads, attachments and DMs uses, behaves the way
Discord does (limits, the 3-second answer deadline, one initial response, ephemeral
visibility, 50007 for closed DMs, 50013 for missing permissions, scripted 429s), and
validates every request body against Discord's own OpenAPI specification. See README.md.

Test API in brief (all in the test's event loop):

    fake = await FakeDiscord.start()            # or the `fake` fixture of plugin.py
    guild = fake.add_guild("Circus")
    channel = guild.add_text_channel("races")
    alice = guild.add_member("alice")

    async with run_bot(fake, "bot"):           # the product bot, as a subprocess
        await fake.wait_for_command("race")
        asked = await alice.slash(channel, "race new", seats=3)
        board = await asked.reply()             # the message alice sees
        clicked = await alice.click(board, label="Join")
        panel = await (await alice.click(board, label="My hand")).reply()
        await alice.select(panel, panel.custom_ids()[0], ["sprint"])

    alice.visible_messages(channel), alice.ephemerals(), alice.dms(), alice.failures()
    fake.public_messages(channel), fake.requests_for("POST", "/channels/{id}/messages")
    fake.violations / fake.take_violations(), fake.clock.advance(seconds)
"""

from .errors import RequestRecord, Violation
from .harness import BotProcess, assert_no_violations, pointed_at, run_bot
from .interactions import ClientRefused, Interaction, InteractionFailed
from .model import Attachment, Channel, Command, Guild, Message, Notice, User
from .server import FakeDiscord

__all__ = [
    "Attachment",
    "BotProcess",
    "Channel",
    "ClientRefused",
    "Command",
    "FakeDiscord",
    "Guild",
    "Interaction",
    "InteractionFailed",
    "Message",
    "Notice",
    "RequestRecord",
    "User",
    "Violation",
    "assert_no_violations",
    "pointed_at",
    "run_bot",
]
