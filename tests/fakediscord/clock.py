"""The fake Discord's clock: real time plus an offset that tests can advance.

Everything time-dependent in the fake (snowflakes, timestamps, the 3-second answer deadline
of an interaction, the 15-minute life of its token) reads this clock. `advance(seconds)`
moves it forward at once and fires every timer that fell due, so a test can expire a token
or miss a deadline without sleeping. Timers also fire on their own in real time.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(order=True)
class Timer:
    """A callback due at a clock time; `cancel()` stops it."""

    due: float
    order: int
    callback: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """Wall-clock seconds (`time.time()`) shifted by whatever tests have advanced."""

    def __init__(self) -> None:
        self._offset = 0.0
        self._timers: list[Timer] = []
        self._order = itertools.count()
        self._wakeup: asyncio.TimerHandle | None = None

    def now(self) -> float:
        return time.time() + self._offset

    def advance(self, seconds: float) -> None:
        """Jump forward and fire the timers that are now due."""
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self._offset += seconds
        self._fire_due()

    def call_at(self, due: float, callback: Callable[[], None]) -> Timer:
        timer = Timer(due, next(self._order), callback)
        heapq.heappush(self._timers, timer)
        self._schedule()
        return timer

    def call_later(self, delay: float, callback: Callable[[], None]) -> Timer:
        return self.call_at(self.now() + delay, callback)

    def close(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()
        if self._wakeup is not None:
            self._wakeup.cancel()
            self._wakeup = None

    def _fire_due(self) -> None:
        now = self.now()
        while self._timers and self._timers[0].due <= now:
            timer = heapq.heappop(self._timers)
            if not timer.cancelled:
                timer.callback()
        self._schedule()

    def _schedule(self) -> None:
        if self._wakeup is not None:
            self._wakeup.cancel()
            self._wakeup = None
        while self._timers and self._timers[0].cancelled:
            heapq.heappop(self._timers)
        if not self._timers:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        delay = max(0.0, self._timers[0].due - self.now())
        self._wakeup = loop.call_later(delay, self._fire_due)
