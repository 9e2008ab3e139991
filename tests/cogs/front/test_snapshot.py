"""What the Discord layer asks the host for one confirm: the calls into the table service
and into storage, from the Confirm click to the end of its follow-up (the resolved turn's
reveal and next board posted), none of them made to compose a post: a post is rendered
from the snapshot its announcement carries. Run with ``-s`` to read the counts."""

from __future__ import annotations

import functools
import inspect
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from tests.cogs.conftest import Circus
from tests.e2e.players import (
    custom_id,
    play_turn_with_the_panel,
    prepare_move,
    start_race,
    wait_for_board,
)


@contextmanager
def calls_to(*targets: Any) -> Iterator[list[tuple[str, str, str]]]:
    """Every call of a public coroutine method of ``targets``: the calling module and
    function, and ``Class.method``."""
    made: list[tuple[str, str, str]] = []
    patched: list[tuple[Any, str]] = []

    def counting(owner: str, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        async def call(*args: Any, **kwargs: Any) -> Any:
            caller = sys._getframe(1)
            module = caller.f_globals.get("__name__", "")
            made.append((module, caller.f_code.co_name, f"{owner}.{name}"))
            return await method(*args, **kwargs)

        return call

    for target in targets:
        owner = type(target).__name__
        for name, _ in inspect.getmembers(type(target), inspect.iscoroutinefunction):
            if not name.startswith("_"):
                setattr(target, name, counting(owner, name, getattr(target, name)))
                patched.append((target, name))
    try:
        yield made
    finally:
        for target, name in patched:
            delattr(target, name)


def from_cogs(made: list[tuple[str, str, str]]) -> Counter[str]:
    """The calls the Discord layer made."""
    return Counter(called for module, _, called in made if module.startswith("cogs."))


async def test_the_calls_of_one_confirm_are_counted(circus: Circus) -> None:
    alice, bob = circus.alice, circus.bob
    _, thread = await start_race(circus.fake, alice, [bob], circus.channel)
    board = await wait_for_board(circus.fake, thread, 1)
    service = circus.bot.service
    await play_turn_with_the_panel(alice, board)
    await circus.bot.finish_in_flight()
    panel = await prepare_move(bob, board)
    with calls_to(service, service.storage) as made:
        await (await bob.click(panel, custom_id(panel, "confirm"))).reply()
        await wait_for_board(circus.fake, thread, 2)
        await circus.bot.finish_in_flight()
    counted = from_cogs(made)
    stored = Counter(called for _, _, called in made if called.startswith("Storage."))
    print(f"\na confirm that resolves a turn: {sum(counted.values())} calls from cogs/")
    print(dict(counted))
    print(f"and {sum(stored.values())} storage calls in all", dict(stored))
    assert counted["TableService.submit"] == 1
    assert counted["TableService.announced"] == 2  # the reveal and the new board
    composing = [call for call in made if call[1] == "compose"]
    assert composing == [], "a game's front read the host while composing a post"
