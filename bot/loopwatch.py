"""What holds the event loop, and for how long.

Every click is answered on the event loop, so anything that keeps the loop from coming
back to its queue (a long computation in a callback, a garbage collection over a large
heap) delays every answer waiting behind it. :class:`LoopWatch` times each callback the
loop runs and each garbage collection: one that holds the loop for ``threshold`` seconds or
more is logged as a warning naming what it was (a task's coroutine and the line it stopped
at, or the callback), and totals by name are kept for :meth:`LoopWatch.report` (the load
bench reads them). It costs two clock reads per callback.

The bot turns it on with ``LOOP_WATCH_MS`` (see :mod:`bot.config`).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

log = logging.getLogger(__name__)


@dataclass
class Hold:
    """Times one kind of hold took the loop: how often, how long in all and at most, and
    for how much of that time the loop's thread had a CPU (when known: less than the time
    means the machine gave the CPU to other work meanwhile)."""

    count: int = 0
    total: float = 0.0
    longest: float = 0.0
    cpu: float | None = None

    def add(self, seconds: float, cpu: float | None = None) -> None:
        self.count += 1
        self.total += seconds
        self.longest = max(self.longest, seconds)
        if cpu is not None:
            self.cpu = (self.cpu or 0.0) + cpu

    def to_json(self) -> dict[str, float | int]:
        out: dict[str, float | int] = {
            "count": self.count,
            "total_ms": round(self.total * 1000, 1),
            "longest_ms": round(self.longest * 1000, 1),
        }
        if self.cpu is not None:
            out["cpu_ms"] = round(self.cpu * 1000, 1)
        return out


def describe(callback: Callable[..., Any]) -> str:
    """A callback as a person debugging would name it: a task step as its coroutine and
    where that coroutine is suspended now (or that it ended), anything else by its name."""
    task = getattr(callback, "__self__", None)
    if isinstance(task, asyncio.Task):
        coroutine = task.get_coro()
        name = getattr(coroutine, "__qualname__", repr(coroutine))
        return f"task {name} (at {_suspended_at(coroutine)})"
    return getattr(callback, "__qualname__", None) or repr(callback)


def _suspended_at(coroutine: Any) -> str:
    """The innermost frame a coroutine waits in, as ``module:function:line``."""
    where = "its end"
    while coroutine is not None:
        frame = getattr(coroutine, "cr_frame", None) or getattr(coroutine, "gi_frame", None)
        if frame is None:
            break
        where = f"{frame.f_globals.get('__name__', '?')}:{frame.f_code.co_name}:{frame.f_lineno}"
        coroutine = getattr(coroutine, "cr_await", None) or getattr(coroutine, "gi_yieldfrom", None)
    return where


class LoopWatch:
    """Times the loop's callbacks and the garbage collector; see the module docstring.
    One watch at a time: :meth:`start` patches :class:`asyncio.Handle`, :meth:`stop`
    restores it."""

    running: ClassVar[LoopWatch | None] = None
    """The watch started last and not stopped."""

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold
        self.callbacks: dict[str, Hold] = {}
        self.collections: dict[int, Hold] = {}
        """Every collection by generation, whether or not it reached the threshold."""
        self._original: Callable[[asyncio.Handle], None] | None = None
        self._collecting_since = 0.0
        self._collecting_cpu = 0.0

    def start(self) -> None:
        if self._original is not None:
            return
        original = asyncio.Handle._run
        self._original = original
        watch = self

        def timed_run(handle: asyncio.Handle) -> None:
            began = time.perf_counter()
            original(handle)
            took = time.perf_counter() - began
            if took >= watch.threshold:
                watch._held(handle, took)

        asyncio.Handle._run = timed_run  # type: ignore[method-assign, assignment]
        gc.callbacks.append(self._on_collection)
        LoopWatch.running = self

    def stop(self) -> None:
        if self._original is None:
            return
        asyncio.Handle._run = self._original  # type: ignore[method-assign, assignment]
        self._original = None
        if self._on_collection in gc.callbacks:
            gc.callbacks.remove(self._on_collection)
        if LoopWatch.running is self:
            LoopWatch.running = None

    def _held(self, handle: asyncio.Handle, seconds: float) -> None:
        name = describe(handle._callback)  # type: ignore[attr-defined]
        self.callbacks.setdefault(name, Hold()).add(seconds)
        log.warning("the event loop was held %.0f ms by %s", seconds * 1000, name)

    def _on_collection(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._collecting_since = time.perf_counter()
            self._collecting_cpu = time.thread_time()
            return
        took = time.perf_counter() - self._collecting_since
        cpu = time.thread_time() - self._collecting_cpu
        generation = info.get("generation", -1)
        self.collections.setdefault(generation, Hold()).add(took, cpu)
        if took >= self.threshold:
            log.warning(
                "the event loop was held %.0f ms by a garbage collection (generation %d,"
                " %d objects freed)",
                took * 1000,
                generation,
                info.get("collected", 0),
            )

    def reset(self) -> None:
        """Forget the holds so far: :meth:`report` counts from now."""
        self.callbacks.clear()
        self.collections.clear()

    def report(self) -> dict[str, Any]:
        """The holds so far: callbacks past the threshold by name (longest total first),
        and every garbage collection by generation."""
        ranked = sorted(self.callbacks.items(), key=lambda item: -item[1].total)
        return {
            "threshold_ms": round(self.threshold * 1000, 1),
            "callbacks": {name: hold.to_json() for name, hold in ranked},
            "collections": {
                str(generation): hold.to_json()
                for generation, hold in sorted(self.collections.items())
            },
        }
