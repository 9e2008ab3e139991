"""``python -m bot``, unchanged, that also tells the load bench how many commits it has
made (SQLite disk commits, or PostgreSQL transactions) and what held its event loop: on
SIGUSR1 it writes ``{"commits": N, "loop": …}`` (the sum of ``Storage.commits`` over the
storages it opened, and :meth:`bot.loopwatch.LoopWatch.report`, counted from the first
SIGUSR1) to the file named by ``BENCH_COMMITS_FILE``. With ``BENCH_PROFILE`` set it also
runs under ``cProfile`` (the main thread: the event loop): the first SIGUSR1 starts a fresh
profile, every later one writes the statistics so far to that file.

Nothing else differs from the product: the bench runs it through the fake Discord's
launcher (``run_bot(fake, "bench/counted_bot.py", env=...)``), which points discord.py at
the fake and runs this file as ``__main__``.
"""

from __future__ import annotations

import cProfile
import json
import os
import runpy
import signal
from pathlib import Path
from types import FrameType
from typing import Any

from bot import storage
from bot.loopwatch import LoopWatch

opened: list[storage.Storage] = []
_open = storage.Storage.open.__func__  # type: ignore[attr-defined]


async def _open_counted(cls: type[storage.Storage], path: Any) -> storage.Storage:
    store: storage.Storage = await _open(cls, path)
    opened.append(store)
    return store


def _report(signum: int, frame: FrameType | None) -> None:
    global profile, reports
    commits = sum(s.commits for s in opened)
    reports += 1
    watch = LoopWatch.running
    loop = watch.report() if watch is not None else None
    if watch is not None and reports == 1:
        watch.reset()
    if profile is not None:
        if reports == 1:
            profile.disable()
            profile = cProfile.Profile()
        else:
            profile.dump_stats(os.environ["BENCH_PROFILE"])  # this stops the profiler
        profile.enable()
    target = Path(os.environ["BENCH_COMMITS_FILE"])
    partial = target.with_suffix(".partial")
    partial.write_text(json.dumps({"commits": commits, "loop": loop}))
    partial.replace(target)  # last: the bench reads it as "done"


def main() -> None:
    global profile
    storage.Storage.open = classmethod(_open_counted)  # type: ignore[method-assign, assignment]
    signal.signal(signal.SIGUSR1, _report)
    profile = cProfile.Profile() if os.environ.get("BENCH_PROFILE") else None
    if profile is not None:
        profile.enable()
    runpy.run_module("bot", run_name="__main__", alter_sys=True)


reports = 0
profile: cProfile.Profile | None = None
if __name__ == "__main__":  # not in the bot's image worker, which imports this file too
    main()
