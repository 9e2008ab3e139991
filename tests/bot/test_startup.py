"""A start tried again while what it needs may come up: the pauses in turn, then the
error; a failure that will not pass at once; a stop signal ends the wait."""

from __future__ import annotations

import asyncio
import os
import signal
import threading

import pytest

from bot.startup import StartAbandoned, with_retries


class NotYet(Exception):
    pass


def passing(error: Exception) -> str | None:
    return "not up yet" if isinstance(error, NotYet) else None


async def test_a_start_that_fails_for_a_passing_reason_is_tried_after_each_pause() -> None:
    tries: list[int] = []

    async def start() -> None:
        tries.append(len(tries))
        if len(tries) < 3:
            raise NotYet()

    await with_retries(start, passing, (0.0, 0.0, 0.0, 0.0))
    assert tries == [0, 1, 2]


async def test_once_the_pauses_are_spent_the_last_failure_is_raised() -> None:
    tries: list[int] = []

    async def start() -> None:
        tries.append(len(tries))
        raise NotYet(len(tries))

    with pytest.raises(NotYet) as raised:
        await with_retries(start, passing, (0.0, 0.0))
    assert tries == [0, 1, 2] and raised.value.args == (3,)


async def test_a_failure_no_wait_mends_is_raised_at_once() -> None:
    tries: list[int] = []

    async def start() -> None:
        tries.append(len(tries))
        raise ValueError("a setting to fix")

    with pytest.raises(ValueError):
        await with_retries(start, passing, (0.0, 0.0))
    assert tries == [0]


@pytest.mark.skipif(
    threading.current_thread() is not threading.main_thread(),
    reason="signals reach the main thread only",
)
async def test_a_stop_signal_during_a_pause_ends_the_start() -> None:
    """The pause is a minute: only the signal can end it in time for the test."""
    tries: list[int] = []

    async def start() -> None:
        tries.append(len(tries))
        asyncio.get_running_loop().call_soon(os.kill, os.getpid(), signal.SIGTERM)
        raise NotYet()

    with pytest.raises(StartAbandoned):
        await asyncio.wait_for(with_retries(start, passing, (60.0,)), 30)
    assert tries == [0]
