"""Games played through the table service for the web's tests and bench: people and AI
seats of any game, to the end or to a chosen point (a turn with a secret move in)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games import host_for
from bot.service import Table, TableService, TableSettings
from engine.core import Rng

PEOPLE = (
    412345678901234501,
    412345678901234502,
    412345678901234503,
    412345678901234504,
    412345678901234505,
    412345678901234506,
)
"""Members' ids as Discord's look (a page must show none)."""
NAMES = dict(zip(PEOPLE, ("Ada", "Bea", "Cy", "Dot", "Eve", "Flo"), strict=True))


@dataclass(frozen=True)
class Setting:
    """Where a test's games are played."""

    guild_id: int
    channel_id: int


async def open_game(
    service: TableService,
    game: str,
    where: Setting,
    *,
    people: int = 2,
    ai: int = 1,
    options: dict[str, object] | None = None,
    turn_seconds: int | None = 3600,
    members: Sequence[int] | None = None,
) -> Table:
    """A started table of ``people`` members (the first hosts; or these ``members``) and
    ``ai`` random AI seats."""
    users = tuple(members) if members is not None else PEOPLE[:people]
    table = await service.open_lobby(
        game=game,
        host_id=users[0],
        host_name=NAMES[users[0]],
        settings=TableSettings(
            seats=people + ai,
            turn_seconds=turn_seconds,
            ai_level="random",
            options=dict(options or {}),
        ),
        guild_id=where.guild_id,
        channel_id=where.channel_id,
        locale="en",
    )
    for user in users[1:]:
        table = await service.join(table.id, user, NAMES[user])
    for _ in range(ai):
        table = await service.add_ai(table.id, users[0], "random")
    await service.start(table.id, users[0])
    await service.play_ai_seats(table.id)
    return await service.table(table.id)


async def play(
    service: TableService, table_id: int, seed: int, *, moves: int | None = None
) -> Table:
    """The table's people play random legal moves (AI seats theirs) until the game ends,
    or until ``moves`` moves of people are stored (the last may be a secret commit that
    leaves the turn open)."""
    rng = Rng(seed)
    made = 0
    for _ in range(5000):
        table = await service.table(table_id)
        if table.status != "running" or (moves is not None and made >= moves):
            return table
        waiting = table.waiting_humans()
        if not waiting:
            await service.play_ai_seats(table_id)
            continue
        seat = waiting[0]
        assert seat.user_id is not None
        _, view = await service.view_for(table_id, seat.user_id)
        action = host_for(table.game).ai_action("random", view, rng)
        await service.submit(table_id, seat.user_id, action, view.turn)
        made += 1
        await service.play_ai_seats(table_id)
    raise AssertionError("the game did not end")


__all__ = ["NAMES", "PEOPLE", "Setting", "open_game", "play"]
