"""The animated replay at the podium (:mod:`bot.animation`): its size in bytes and its
drawing time, for a 6-seat 3-lap race, a 5-player Carcassonne game and a 12-player
Cartographers game (the most seats), each played through the service by random AI seats
and one person. Drawn as the picture workers draw it, in one process. Prints JSON."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.animation import DISCORD_LIMIT, replay_animation
from bot.service import TableService, game_record
from tests.bot.web.games import Setting, open_game, play

GAMES: tuple[tuple[str, int, dict[str, object]], ...] = (
    ("charioteer", 6, {"laps": 3}),
    ("carcassonne", 5, {}),
    ("cartographers", 12, {}),
)


async def measure(
    seed: int, games: set[str], seats: int | None = None
) -> dict[str, dict[str, object]]:
    folder = tempfile.mkdtemp()
    service = await TableService.create(f"{folder}/bench.db")
    out: dict[str, dict[str, object]] = {}
    try:
        for game, most, options in GAMES:
            if game not in games:
                continue
            seated = seats or most
            table = await open_game(
                service, game, Setting(1, 2), people=1, ai=seated - 1, options=options
            )
            table = await play(service, table.id, seed)
            record = game_record(table, await service.storage.actions(table.id))
            started = time.perf_counter()
            webp = replay_animation(game, record, table.names, "en")
            seconds = time.perf_counter() - started
            out[game] = {
                "seats": seated,
                "options": options,
                "actions": len(record.actions),
                "bytes": len(webp),
                "mib": round(len(webp) / 2**20, 2),
                "under_discord_limit": len(webp) < DISCORD_LIMIT,
                "draw_seconds": round(seconds, 2),
            }
    finally:
        await service.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--games",
        default=",".join(game for game, _, _ in GAMES),
        help="which games' replays, by id, comma-separated (all three by default)",
    )
    parser.add_argument(
        "--seats", type=int, default=None, help="seats at every table (the games' own by default)"
    )
    args = parser.parse_args()
    figures = asyncio.run(measure(args.seed, set(args.games.split(",")), args.seats))
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
