"""Acting as players in the fake Discord: open a lobby, play a turn through the private
panel, find the race's thread and its latest board."""

from __future__ import annotations

import re
from typing import Any

from tests.databases import rows
from tests.fakediscord.model import Channel, Message, User
from tests.fakediscord.server import FakeDiscord

ALREADY_IN = "Your move is in"
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


def retired(board: Message) -> bool:
    """Whether a board whose turn is over reads so: no one named as awaited, no control
    but Status."""
    verbs = [component_id.split(":")[2] for component_id in board.custom_ids()]
    return verbs == ["status"] and "<@" not in board.content


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
    """Open the panel from the board, pick a legal move with the selects (a symbol, the
    cards showing it, the crowd card when needed; else a reset) and confirm it. Returns
    what the panel shows after confirming."""
    panel = await prepare_move(user, board)
    assert panel.ephemeral and panel.ephemeral_to is user
    if not _confirm_enabled(panel):
        return panel  # this very move is already in
    return await (await user.click(panel, custom_id(panel, "confirm"))).reply()


def _enabled(panel: Message, verb: str) -> bool:
    button = panel.component(custom_id(panel, verb))
    return not button.get("disabled", False)


def _confirm_enabled(panel: Message) -> bool:
    return _enabled(panel, "confirm")


async def start_race(
    fake: FakeDiscord,
    host: User,
    others: list[User],
    channel: Channel,
    *,
    ai: str | None = None,
    **options: Any,
) -> tuple[Message, Channel]:
    """Open a lobby, seat ``others`` (and one AI seat if asked), start; returns the lobby
    message and the channel the race runs in (its thread, when the bot could open one)."""
    seats = 1 + len(others) + (ai is not None)
    options.setdefault("laps", 1)
    options.setdefault("turn_limit", "none")
    lobby = await open_lobby(host, channel, seats=seats, **options)
    for user in others:
        await (await user.click(lobby, custom_id(lobby, "join"))).reply()
    if ai is not None:
        await (await host.select(lobby, custom_id(lobby, "addai"), [ai])).reply()
    threads_before = len(channel.guild.threads()) if channel.guild else 0
    await (await host.click(lobby, custom_id(lobby, "start"))).wait_ack()
    await fake.wait_for(
        lambda: any(
            boards(c) for c in [channel, *(channel.guild.threads() if channel.guild else [])]
        ),
        timeout=30,
        what="the first board",
    )
    threads = channel.guild.threads() if channel.guild else []
    place = threads[threads_before] if len(threads) > threads_before else channel
    return lobby, place


async def prepare_move(user: User, board: Message) -> Message:
    """Open the panel and pick a legal move without confirming it; returns the panel."""
    panel = await (await user.click(board, custom_id(board, "choose"))).reply()
    symbols = [o["value"] for o in select_options(panel, "symbol") if o["value"] != "reset"]
    if symbols:
        panel = await (await user.select(panel, custom_id(panel, "symbol"), [symbols[0]])).reply()
        matching = [
            o["value"]
            for o in select_options(panel, "cards")
            if o.get("description", "").startswith("shows")
        ]
        panel = await (await user.select(panel, custom_id(panel, "cards"), matching[:3])).reply()
        if not _confirm_enabled(panel) and _enabled(panel, "crowd"):
            panel = await (await user.click(panel, custom_id(panel, "crowd"))).reply()
    if not _confirm_enabled(panel):
        panel = await (await user.select(panel, custom_id(panel, "symbol"), ["reset"])).reply()
        panel = await (await user.select(panel, custom_id(panel, "cards"), ["0"])).reply()
    assert _confirm_enabled(panel) or ALREADY_IN in panel.content, panel.content
    return panel


async def play_until_the_end(
    fake: FakeDiscord, place: Channel, players: list[User], turn: int = 1
) -> int:
    """Every player plays every turn through the panel until the podium; returns the last turn."""
    while not podiums(place):
        board = await wait_for_board(fake, place, turn)
        for player in players:
            if podiums(place):
                break
            await play_turn_with_the_panel(player, board)
        wanted = f"turn {turn + 1}**"
        await fake.wait_for(
            lambda wanted=wanted: (
                bool(podiums(place)) or any(wanted in m.content for m in place.public_messages())
            ),
            timeout=30,
            what=f"the end of turn {turn}",
        )
        if not podiums(place):
            turn += 1
        assert turn < 80, "the race does not end"
    return turn


def podiums(place: Channel) -> list[Message]:
    return [m for m in place.public_messages() if "is over" in m.content]


def reveals(place: Channel) -> list[Message]:
    return [m for m in place.public_messages() if "revealed**" in m.content]


def database_actions(database: Any) -> list[tuple[str, str, int]]:
    """(seat, source, seq) of every stored action."""
    return rows(database, "SELECT seat, source, seq FROM actions ORDER BY table_id, seq")
