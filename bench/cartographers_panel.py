"""Cartographers' drawing panel under load through the fake Discord: how long players wait
for the panel with its map picture.

    python bench/cartographers_panel.py [--games 10] [--players 4] [--turns 3]

Prints JSON. A measurement, never a test.

The fake Discord (``tests/fakediscord``) runs in this process with one guild and one
member per player; the bot runs as a subprocess, exactly ``python -m bot``, on a fresh
SQLite file. Each game's host runs ``/cartographers new``, the others click **Join**, the
host clicks **Start**. Then, for ``--turns`` turns, every player of every game at once
clicks **Draw** on the turn's post, moves the proposed drawing with the row select (and
back with **Suggest** if that is not legal), and clicks **Confirm**.

For each kind of interaction: the time to Discord's initial answer (``ack``: the panel is
deferred, so this is what Discord's 3-second rule sees) and to the finished answer
(``done``: the panel's message with its map picture in place), median and p99, measured
in this process from the click to the fake receiving the bot's request. CPU seconds of the
bot and its picture worker over the played turns.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stats import summary_ms
from tests.e2e.mapmakers import posts, start_game, wait_for_post
from tests.e2e.players import custom_id
from tests.fakediscord import FakeDiscord
from tests.fakediscord.harness import run_bot
from tests.fakediscord.model import Message, User

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """CPU of ``pid`` and its live children (the picture worker)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / TICKS
    return total


class Timings:
    def __init__(self) -> None:
        self.ack: dict[str, list[float]] = defaultdict(list)
        self.done: dict[str, list[float]] = defaultdict(list)

    async def timed(self, kind: str, asked: Any, started: float) -> Message:
        await asked.wait_ack(timeout=60)
        self.ack[kind].append(time.perf_counter() - started)
        message: Message = await asked.reply(timeout=120)
        self.done[kind].append(time.perf_counter() - started)
        return message

    def summary(self) -> dict[str, Any]:
        return {
            kind: {"ack": summary_ms(self.ack[kind]), "done": summary_ms(self.done[kind])}
            for kind in self.ack
        }


async def play_turn(timings: Timings, user: User, post: Message) -> None:
    """Draw, move the drawing to row 6, back to the proposed spot if that is not legal,
    Confirm."""
    started = time.perf_counter()
    panel = await timings.timed("draw", await user.click(post, custom_id(post, "draw")), started)
    started = time.perf_counter()
    asked = await user.select(panel, custom_id(panel, "row"), ["5"])
    panel = await timings.timed("row", asked, started)
    if panel.component(custom_id(panel, "confirm")).get("disabled"):
        started = time.perf_counter()
        asked = await user.click(panel, custom_id(panel, "suggest"))
        panel = await timings.timed("suggest", asked, started)
    started = time.perf_counter()
    await timings.timed("confirm", await user.click(panel, custom_id(panel, "confirm")), started)


async def main(arguments: argparse.Namespace) -> dict[str, Any]:
    fake = await FakeDiscord.start()
    fake.interaction_deadline = 60.0  # measured, not failed: the figures say how late
    guild = fake.add_guild("Bench")
    channel = guild.add_text_channel("maps")
    players = [
        [guild.add_member(f"g{game}p{seat}") for seat in range(arguments.players)]
        for game in range(arguments.games)
    ]
    with tempfile.TemporaryDirectory() as folder:
        env = {"DATABASE_PATH": str(Path(folder) / "bench.db"), "LOG_LEVEL": "WARNING"}
        async with run_bot(fake, "bot", env=env) as process:
            await fake.wait_for_command("cartographers", timeout=60)
            await fake.wait_until_ready(timeout=60)
            places = []
            for people in players:
                _, place = await start_game(fake, people[0], people[1:], channel)
                places.append(place)
            timings = Timings()
            pid = process.process.pid
            cpu_before, wall_before = cpu_seconds(pid), time.perf_counter()
            for turn in range(1, arguments.turns + 1):
                jobs = []
                for people, place in zip(players, places, strict=True):
                    post = await wait_for_post(fake, place, turn)
                    jobs += [play_turn(timings, user, post) for user in people]
                await asyncio.gather(*jobs)
                for place in places:
                    await fake.wait_for(
                        lambda place=place, turn=turn: any(
                            int(m.content.split("turn ")[1].split("*")[0]) > turn
                            for m in posts(place)
                        ),
                        timeout=120,
                        what="the next turn",
                    )
            wall = time.perf_counter() - wall_before
            cpu = cpu_seconds(pid) - cpu_before
    await fake.close()
    return {
        "games": arguments.games,
        "players": arguments.players,
        "turns": arguments.turns,
        "interactions": timings.summary(),
        "window_seconds": round(wall, 2),
        "bot_and_worker_cpu_seconds": round(cpu, 2),
        "cpu_ms_per_interaction": round(
            cpu * 1000 / max(1, sum(len(v) for v in timings.ack.values())), 1
        ),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--turns", type=int, default=3)
    print(json.dumps(asyncio.run(main(parser.parse_args())), indent=2))
