"""Acting as players in the fake Discord: open a lobby, play a turn through the private
panel, find the race's thread and its latest board."""

from __future__ import annotations

import re
from typing import Any

from tests.fakediscord.model import Channel, Message, User
from tests.fakediscord.server import FakeDiscord

BOARD = re.compile(r"\*\*Race #(\d+) · turn (\d+)\*\*")


def custom_id(message: Message, verb: str) -> str:
    for component_id in message.custom_ids():
        if component_id.split(":")[2] == verb:
            return component_id
    raise AssertionError(f"no {verb} control on {message!r}: {message.custom_ids()}")


def select_options(message: Message, verb: str) -> list[dict[str, Any]]:
    options: list[dict[str, Any]] = message.component(custom_id(message, verb))["options"]
    return options


def boards(channel: Channel) -> list[Message]:
    return [m for m in channel.public_messages() if BOARD.match(m.content) and m.custom_ids()]


def board_turn(message: Message) -> int:
    match = BOARD.match(message.content)
    assert match is not None
    return int(match.group(2))


async def open_lobby(user: User, channel: Channel, **options: Any) -> Message:
    asked = await user.slash(channel, "race new", **options)
    return await asked.reply()


async def wait_for_board(fake: FakeDiscord, thread: Channel, turn: int) -> Message:
    def found() -> Message | None:
        for message in boards(thread):
            if board_turn(message) == turn:
                return message
        return None

    await fake.wait_for(lambda: found() is not None, timeout=30, what=f"the board of turn {turn}")
    board = found()
    assert board is not None
    return board


async def play_turn_with_the_panel(user: User, board: Message) -> Message:
    """Open the panel from the board, pick a legal move with the selects and confirm it.
    Prefers a real move (a symbol, the cards showing it, the crowd card when needed); falls
    back to a reset move. Returns the panel as it stands after confirming."""
    panel = await (await user.click(board, custom_id(board, "choose"))).reply()
    assert panel.ephemeral and panel.ephemeral_to is user
    symbols = [o["value"] for o in select_options(panel, "symbol") if o["value"] != "reset"]
    if symbols:
        panel = await (await user.select(panel, custom_id(panel, "symbol"), [symbols[0]])).reply()
        matching = [
            o["value"]
            for o in select_options(panel, "cards")
            if o.get("description", "").startswith("shows")
        ]
        panel = await (await user.select(panel, custom_id(panel, "cards"), matching[:3])).reply()
        if not _confirm_enabled(panel):
            panel = await (await user.click(panel, custom_id(panel, "crowd"))).reply()
    if not _confirm_enabled(panel):
        panel = await (await user.select(panel, custom_id(panel, "symbol"), ["reset"])).reply()
        panel = await (await user.select(panel, custom_id(panel, "cards"), ["0"])).reply()
    assert _confirm_enabled(panel), panel.content
    return await (await user.click(panel, custom_id(panel, "confirm"))).reply()


def _confirm_enabled(panel: Message) -> bool:
    button = panel.component(custom_id(panel, "confirm"))
    return not button.get("disabled", False)
