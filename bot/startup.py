"""Starting a service whose network or database may not be up yet: a start that fails for
a reason that passes (Discord or PostgreSQL out of reach, a schema the bot has still to
migrate) is tried again after growing pauses, about half a minute in all; then the
process exits with status 75 (``EX_TEMPFAIL``) and its service manager (systemd, Docker)
starts it again. A failure no wait would mend (a setting to fix) is not tried again.

A stop signal (SIGTERM, SIGINT) during a pause ends the wait and the start at once.

Twenty lines rather than tenacity's ``AsyncRetrying``, which would need a sleep of ours that
ends at a stop signal (tests/bot/test_startup.py) and a wait of ours for the fixed pauses:
the two parts that make this module.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable, Iterator, Sequence

log = logging.getLogger(__name__)

START_PAUSES = (1.0, 2.0, 4.0, 8.0, 15.0)
"""Seconds between the tries of a start (30 s in all, six tries): a server or a network
coming up after a reboot has the time to, and a service manager is told soon enough."""
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
"""What ``docker stop``, systemd and Ctrl-C send: each stops a service gracefully."""


class StartAbandoned(Exception):
    """A stop signal came while a start waited to try again: nothing is left to stop."""


@contextlib.contextmanager
def stop_signals(stop: Callable[[], None]) -> Iterator[None]:
    """``stop`` on SIGTERM or SIGINT while the block runs (in the main thread only)."""
    loop = asyncio.get_running_loop()
    installed = []
    for signum in STOP_SIGNALS:
        try:
            loop.add_signal_handler(signum, stop)
        except (RuntimeError, ValueError):  # not the main thread: no signals to take
            continue
        installed.append(signum)
    try:
        yield
    finally:
        for signum in installed:
            loop.remove_signal_handler(signum)


async def with_retries(
    start: Callable[[], Awaitable[None]],
    passing: Callable[[Exception], str | None],
    pauses: Sequence[float] = START_PAUSES,
) -> None:
    """Run ``start`` until it returns; a failure ``passing`` describes (a sentence) is tried
    again after each of ``pauses`` in turn, and raised once they are spent. Raises
    :class:`StartAbandoned` when a stop signal comes during a pause."""
    for attempt, pause in enumerate((*pauses, None), start=1):
        try:
            await start()
            return
        except Exception as error:
            why = passing(error)
            if why is None or pause is None:
                raise
            log.warning(
                "%s: trying again in %g s (try %d of %d)", why, pause, attempt, len(pauses) + 1
            )
        stopped = asyncio.Event()
        with stop_signals(stopped.set):
            try:
                await asyncio.wait_for(stopped.wait(), pause)
            except TimeoutError:
                continue
        log.info("stopped while waiting to start again")
        raise StartAbandoned()


__all__ = ["START_PAUSES", "STOP_SIGNALS", "StartAbandoned", "stop_signals", "with_retries"]
