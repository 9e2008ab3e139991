"""Hypothesis throws interactions at the running bot: clicks and picks on any message a
user can see, forged custom_ids and select values, slash commands with random options,
forged "type your move" forms, from seated players and strangers, in any order.

The bot must answer every one of them (no "This interaction failed"), never crash, and
never change a race except by a legal move: at the end its stored race replays, move by
move, to exactly the stored state.

The fake Discord and the bot run in a background event loop for the whole module, so
Hypothesis drives them from ordinary synchronous examples.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Iterator
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.service import TableService
from engine.core import replay
from tests.e2e.conftest import Table, bot_env, start_up_over
from tests.e2e.leaks import leaks_in_log, leaks_in_public
from tests.e2e.players import play_turn_with_the_panel, start_race
from tests.fakediscord.harness import BotProcess, assert_no_violations, run_bot
from tests.fakediscord.interactions import ClientRefused
from tests.fakediscord.model import Channel, ChannelType, Message, User
from tests.fakediscord.server import FakeDiscord

T = TypeVar("T")
MESSAGE_COMPONENT, MODAL_SUBMIT = 3, 5
VERBS = [
    "choose",
    "cards",
    "symbol",
    "token",
    "discard",
    "crowd",
    "clear",
    "confirm",
    "type",
    "join",
    "leave",
    "start",
    "addai",
    "noai",
    "status",
    "nonsense",
]
SUBCOMMANDS = ["race hand", "race status", "race log", "race rules", "race leave", "race dm"]


class World:
    """The fake Discord, the bot and a running race, in a loop of their own."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        table: Table,
        bot: BotProcess,
        place: Channel,
        race_id: int,
    ) -> None:
        self.loop, self.table, self.bot, self.place, self.race_id = loop, table, bot, place, race_id

    def __repr__(self) -> str:
        return f"<fuzz world: race {self.race_id}>"

    def run(self, coroutine: Awaitable[T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=60)  # type: ignore[arg-type]


@pytest.fixture
def backend() -> str:
    """The fuzzed bot keeps one SQLite file for the whole module (the end-to-end tests
    cover PostgreSQL): the fuzz does not run once per database."""
    return "sqlite"


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    database = tmp_path_factory.mktemp("fuzz") / "races.db"
    holder: dict[str, Any] = {}

    async def set_up() -> World:
        fake = await FakeDiscord.start()
        guild = fake.add_guild("Circus")
        channel = guild.add_text_channel("races")
        table = Table(
            fake,
            guild,
            channel,
            guild.add_member("alice"),
            guild.add_member("bob"),
            guild.add_member("carol"),
            str(database),
        )
        context = run_bot(fake, "bot", env=bot_env(table))
        holder["context"] = context
        process = await context.__aenter__()
        await fake.wait_for_command("race", timeout=60)
        await fake.wait_until_ready(timeout=60)
        await start_up_over(fake, process)
        _, place = await start_race(fake, table.alice, [table.bob], channel, laps=2)
        return World(loop, table, process, place, 1)

    built = asyncio.run_coroutine_threadsafe(set_up(), loop).result(timeout=120)
    try:
        yield built
    finally:

        async def tear_down() -> None:
            await holder["context"].__aexit__(None, None, None)
            await built.table.fake.close()

        asyncio.run_coroutine_threadsafe(tear_down(), loop).result(timeout=60)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)


def visible(world: World, user: User) -> list[Message]:
    messages = [m for m in world.table.fake.all_messages() if m.visible_to(user) and not m.deleted]
    return [m for m in messages if m.components]


custom_ids = st.one_of(
    st.builds(
        lambda prefix, race, verb, turn: f"{prefix}:{race}:{verb}:{turn}",
        st.sampled_from(["g", "s", "m", "x"]),
        st.sampled_from([0, 1, 2, 999999999999]),
        st.sampled_from(VERBS),
        st.integers(min_value=0, max_value=40),
    ),
    st.text(min_size=0, max_size=100),
)
values = st.lists(
    st.one_of(
        st.sampled_from(["0", "1", "7", "8", "-1", "reset", "none", "R5", "0:1", "3:9"]),
        st.text(max_size=12),
    ),
    max_size=4,
)
actions = st.lists(
    st.tuples(
        st.sampled_from(["alice", "bob", "carol"]),
        st.sampled_from(["click", "select", "forged", "slash", "form", "play", "play"]),
        custom_ids,
        values,
        st.integers(min_value=0, max_value=10_000),
    ),
    min_size=1,
    max_size=6,
)


async def play_if_possible(user: User, board: Message) -> None:
    """A real move through the panel, when the board is current and the user may play."""
    choose = next(c for c in board.custom_ids() if ":choose:" in c)
    panel = await (await user.click(board, choose)).reply()
    if not any(":symbol:" in c for c in panel.custom_ids()):
        return
    await play_turn_with_the_panel(user, board)


async def act(
    world: World, who: str, kind: str, forged_id: str, picked: list[str], pick: int
) -> None:
    fake, table = world.table.fake, world.table
    user: User = getattr(table, who)
    messages = visible(world, user)
    try:
        if kind == "play" and who != "carol":
            boards = [m for m in messages if any(":choose:" in c for c in m.custom_ids())]
            if boards:
                await play_if_possible(user, boards[-1])
            return
        if kind == "click" and messages:
            message = messages[pick % len(messages)]
            buttons = [b for b in message.buttons() if not b.get("disabled")]
            if buttons:
                interaction = await user.click(message, buttons[pick % len(buttons)]["custom_id"])
                await interaction.wait_ack()
            return
        if kind == "select" and messages:
            message = messages[pick % len(messages)]
            selects = [c for c in message.custom_ids() if c.startswith("s:")]
            if selects:
                menu = message.component(selects[pick % len(selects)])
                options = [o["value"] for o in menu.get("options", [])]
                low, high = menu.get("min_values", 1), menu.get("max_values", 1)
                chosen = options[: max(low, min(high, len(picked)))]
                interaction = await user.select(message, selects[pick % len(selects)], chosen)
                await interaction.wait_ack()
            return
        if kind == "forged":
            source = messages[pick % len(messages)] if messages else None
            component_type = 2 if pick % 2 else 3
            data: dict[str, Any] = {"custom_id": forged_id, "component_type": component_type}
            if component_type == 3:
                data["values"] = picked
            interaction = fake.interactions._create(
                MESSAGE_COMPONENT,
                user,
                world.place if source is None else source.channel,
                data,
                source=source,
            )
            await interaction.wait_ack()
            return
        if kind == "slash":
            command = SUBCOMMANDS[pick % len(SUBCOMMANDS)]
            options: dict[str, Any] = {"enabled": bool(pick % 2)} if command == "race dm" else {}
            if command in ("race hand", "race status", "race log") and pick % 3:
                options["race"] = pick % 4
            if command == "race leave" and who != "carol":
                return
            interaction = await user.slash(world.place, command, **options)
            await interaction.wait_ack()
            return
        if kind == "form":
            text = " ".join(picked) or forged_id
            data = {
                "custom_id": f"m:{world.race_id}:move:{pick % 30}",
                "components": [
                    {
                        "type": 1,
                        "components": [{"type": 4, "custom_id": "move", "value": text[:100]}],
                    }
                ],
            }
            interaction = fake.interactions._create(MODAL_SUBMIT, user, world.place, data)
            await interaction.wait_ack()
    except ClientRefused:
        return


def test_random_interactions_never_crash_the_bot_or_bend_the_rules(world: World) -> None:
    """Random clicks, selects, forged controls, commands and forms from two players and a
    stranger; then every stored action was legal (the race replays to its stored state),
    and nothing public or logged shows a hidden hand. One test, so the check always runs
    on the world the fuzzing played in, whichever worker runs it."""

    @settings(
        max_examples=60,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(steps=actions)
    def fuzz(steps: list[tuple[str, str, str, list[str], int]]) -> None:
        for step in steps:
            world.run(act(world, *step))
        assert world.bot.running, world.bot.output()[-3000:]
        assert_no_violations(world.table.fake)

    fuzz()

    async def check() -> None:
        service = await TableService.create(str(world.table.database))
        try:
            game = await service.game(world.race_id)
            assert replay(game.record) == game.state
            assert len(game.record.actions) >= 2, "the fuzzing never made a real move"
        finally:
            await service.close()

    world.run(check())
    interactions = list(world.table.fake.interactions.by_id.values())
    assert len(interactions) >= 150
    assert {2, 3, 5} <= {interaction.type for interaction in interactions}
    assert world.bot.running
    assert_no_violations(world.table.fake)
    public = [
        message.text()
        for message in world.table.fake.public_messages()
        if message.channel.type != ChannelType.DM
    ]
    problems = leaks_in_public(public, world.table.database)
    problems += leaks_in_log(world.bot.lines, world.table.database)
    assert problems == [], problems[:10]
