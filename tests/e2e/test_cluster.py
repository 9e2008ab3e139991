"""Two bot processes, one shard each of two, over one database and the fake Discord: each
serves the servers on its shard, DMs reach the process holding shard 0 whatever the game's
server, and a process killed mid-turn and restarted loses and repeats nothing."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

from tests.databases import rows
from tests.e2e.conftest import Table, bot_env, start_up_over
from tests.e2e.players import (
    BOARD,
    boards,
    custom_id,
    play_turn_with_the_panel,
    play_until_the_end,
    podiums,
    reveals,
    start_race,
    wait_for_board,
)
from tests.fakediscord.harness import BotProcess, run_bot
from tests.fakediscord.model import Channel, Guild, User

SHARDS = 2
ACTED = re.compile(r"table (\d+): seat \w+ acted")


def cluster_env(table: Table, index: int) -> dict[str, str]:
    return {
        **bot_env(table),
        "SHARD_COUNT": str(SHARDS),
        "CLUSTER_INDEX": str(index),
        "CLUSTER_SIZE": str(SHARDS),
    }


@contextlib.asynccontextmanager
async def cluster_process(table: Table, index: int) -> AsyncIterator[BotProcess]:
    """``python -m bot`` as process ``index`` of the cluster, connected on its shard."""
    fake = table.fake
    async with run_bot(fake, "bot", env=cluster_env(table, index)) as process:
        table.processes.append(process)
        await fake.wait_for(
            lambda: any(
                s.ready and s.connection and s.shard == (index, SHARDS)
                for s in fake.gateway.live_sessions()
            ),
            timeout=60,
            what=f"shard {index} to connect",
        )
        if index == 0:
            await fake.wait_for_command("race", timeout=60)
        await start_up_over(fake, process, f"process {index}")
        yield process


def server(table: Table, name: str, shard: int, members: list[User]) -> tuple[Guild, Channel]:
    guild = table.fake.add_guild(name, shard=(shard, SHARDS))
    for member in members:
        guild.add_member(member)
    return guild, guild.add_text_channel("races")


def tables_acted_on(process: BotProcess) -> set[int]:
    return {int(match.group(1)) for line in process.lines if (match := ACTED.search(line))}


def stored(database: str | Path) -> list[tuple[int, int, str, str]]:
    return [
        (int(r[0]), int(r[1]), str(r[2]), str(r[3]))
        for r in rows(database, "SELECT table_id, seq, seat, source FROM actions ORDER BY 1, 2")
    ]


def race_id(place: Channel) -> int:
    match = BOARD.match(boards(place)[0].content)
    assert match is not None
    return int(match.group(1))


def played_once(place: Channel, last_turn: int) -> None:
    turns = Counter(BOARD.match(m.content).group(2) for m in boards(place))  # type: ignore[union-attr]
    assert all(count == 1 for count in turns.values()), turns
    assert len(turns) == last_turn and len(reveals(place)) == last_turn
    assert len(podiums(place)) == 1


async def test_games_on_both_shards_finish_and_a_killed_process_loses_nothing(
    table: Table,
) -> None:
    fake, alice, bob = table.fake, table.alice, table.bob
    _, zero = server(table, "zero", 0, [alice, bob])
    _, one = server(table, "one", 1, [alice, bob])
    async with cluster_process(table, 0) as first:
        async with cluster_process(table, 1) as second:
            assert any("synced" in line and "commands" in line for line in first.lines)
            assert any("synced by the process holding shard 0" in line for line in second.lines)
            _, place_zero = await start_race(fake, alice, [bob], zero)
            _, place_one = await start_race(fake, alice, [bob], one)
            board = await wait_for_board(fake, place_one, 1)
            assert "Move confirmed" in (await play_turn_with_the_panel(alice, board)).content
            second.process.kill()
            await second.process.wait()
        before = stored(table.database)
        on_one = race_id(place_one)
        assert [(seat, source) for race, _, seat, source in before if race == on_one] == [
            ("A", "player")
        ]
        async with cluster_process(table, 1) as restarted:
            panel = await (await alice.click(board, custom_id(board, "choose"))).reply()
            assert "Your move is in" in panel.content
            await play_turn_with_the_panel(bob, board)
            last_zero, last_one = await asyncio.gather(
                play_until_the_end(fake, place_zero, [alice, bob]),
                play_until_the_end(fake, place_one, [alice, bob], turn=2),
            )

    after = stored(table.database)
    assert [row for row in after if row[0] == on_one][:1] == [r for r in before if r[0] == on_one]
    for race in {row[0] for row in after}:
        seqs = [seq for r, seq, _, _ in after if r == race]
        assert seqs == list(range(1, len(seqs) + 1))
    played_once(place_zero, last_zero)
    played_once(place_one, last_one)
    on_zero = race_id(place_zero)
    assert tables_acted_on(first) == {on_zero}
    assert tables_acted_on(second) | tables_acted_on(restarted) == {on_one}


async def test_moves_from_dms_are_played_by_the_process_holding_shard_0(table: Table) -> None:
    """bob's DMs about his due moves reach shard 0's process, though the game is served by
    shard 1's: he plays every turn from them, moving last, so shard 0's process stores his
    moves, resolves the turns, posts the boards and the podium in the game's server, and
    closes its thread; every turn resolves once."""
    fake, alice, bob = table.fake, table.alice, table.bob
    _, one = server(table, "one", 1, [alice, bob])
    async with cluster_process(table, 0) as first, cluster_process(table, 1) as second:
        answer = await (await bob.slash(one, "race dm", enabled=True)).reply()
        assert answer.ephemeral_to is bob
        _, place = await start_race(fake, alice, [bob], one)
        turn = 1
        while not podiums(place):
            board = await wait_for_board(fake, place, turn)
            await fake.wait_for(
                lambda turn=turn: any(f"turn {turn}" in m.content for m in bob.dms()),
                timeout=30,
                what=f"bob's DM for turn {turn}",
            )
            notice = [m for m in bob.dms() if f"turn {turn}" in m.content][-1]
            await play_turn_with_the_panel(alice, board)
            await play_turn_with_the_panel(bob, notice)
            await fake.wait_for(
                lambda wanted=f"turn {turn + 1}**": (
                    bool(podiums(place)) or any(wanted in m.content for m in boards(place))
                ),
                timeout=30,
                what=f"the end of turn {turn}",
            )
            turn += 1
            assert turn < 80, "the race does not end"
        await fake.wait_for(lambda: place.archived, timeout=30, what="the thread to close")
        on_one = race_id(place)
        assert tables_acted_on(first) == {on_one}  # bob's moves, from his DMs
        assert tables_acted_on(second) == {on_one}  # alice's, from the server
    played_once(place, turn - 1)
    seqs = [seq for _, seq, _, _ in stored(table.database)]
    assert seqs == list(range(1, len(seqs) + 1))
