"""How fast the community features are: Swiss pairing, rating updates, standings pictures.

    python bench/community.py [--players 1000] [--rounds 5] [--games 200]

Prints one JSON object:

* ``pairing``: Swiss rounds for ``--players`` players at 4-seat tables (3 at least), each
  round's results drawn from a seeded generator so standings move as in a real event:
  time per round (median, p99, max), repeated table-mates per round, and byes;
* ``rating``: the rating update of a finished 4-seat game: openskill alone, and the whole
  stored final action with its results and ratings (one transaction, a real SQLite file
  holding ``--games`` rated games before it), per game;
* ``standings_picture``: the standings of 64 players drawn as a picture: time and PNG size.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stats import cpu_seconds, summary_ms
from bot.community.pairing import pair_key, repeats_in, swiss_round
from bot.community.pictures import standings_picture
from bot.community.ratings import INITIAL, new_ratings
from bot.community.tournament import StandingRow
from bot.storage import ResultRow, SeatRow, Storage, StoredAction
from engine.core import Action, Rng


def bench_pairing(players: int, rounds: int) -> dict[str, object]:
    ids = [f"user:{i}" for i in range(players)]
    points: Counter[str] = Counter()
    met: Counter[tuple[str, str]] = Counter()
    byes: Counter[str] = Counter()
    rng = Rng(2026)
    times, repeats, bye_counts = [], [], []
    for _ in range(rounds):
        order = sorted(ids, key=lambda p: (-points[p], p))
        started = time.perf_counter()
        pairing = swiss_round(order, most=4, least=3, met=met, byes_had=byes)
        times.append(time.perf_counter() - started)
        repeats.append(repeats_in(pairing.tables, met))
        bye_counts.append(len(pairing.byes))
        for player in pairing.byes:
            byes[player] += 1
        for table in pairing.tables:
            for place, index in enumerate(rng.permutation(len(table))):
                points[table[index]] += len(table) - 1 - place
            for a, b in combinations(table, 2):
                met[pair_key(a, b)] += 1
    return {
        "players": players,
        "rounds": rounds,
        "per_round": summary_ms(times),
        "repeats_per_round": repeats,
        "byes_per_round": bye_counts,
    }


async def bench_rating(games: int) -> dict[str, object]:
    pure = []
    for _ in range(200):
        started = time.perf_counter()
        new_ratings([INITIAL] * 4, [1, 2, 2, 4])
        pure.append(time.perf_counter() - started)
    with tempfile.TemporaryDirectory() as folder:
        storage = await Storage.open(Path(folder) / "bench.db")
        rng = Rng(7)
        stored = []
        try:
            for game in range(games):
                users = [1 + rng.below(100) for _ in range(4)]
                seats = list(dict.fromkeys(users))
                race = await storage.create_table(
                    game="charioteer",
                    guild_id=1,
                    channel_id=1,
                    host_id=seats[0],
                    host_name="h",
                    settings={},
                    seed=game,
                    locale=None,
                    now=float(game),
                )
                rows = [
                    SeatRow(race, chr(65 + i), user, f"u{user}", None, float(game))
                    for i, user in enumerate(seats)
                ]
                await storage.replace_seats(race, rows, float(game), status="running", seq=0)
                results = tuple(
                    ResultRow(
                        race,
                        row.seat,
                        row.user_id,
                        row.name,
                        1 + rng.below(len(rows)),
                        9,
                        float(game),
                    )
                    for row in rows
                )
                final = StoredAction(
                    race,
                    1,
                    Action("move", "A"),
                    seats[0],
                    "player",
                    float(game),
                    {},
                    9,
                    "",
                    "finished",
                    None,
                    results=results,
                )
                started = time.perf_counter()
                await storage.store_action(final)
                stored.append(time.perf_counter() - started)
        finally:
            await storage.close()
    return {"openskill_alone": summary_ms(pure), "final_action_with_rating": summary_ms(stored)}


def bench_picture() -> dict[str, object]:
    rows = [
        StandingRow(
            i + 1,
            f"user:{i}",
            f"Player number {i:02}",
            12.5 - i / 8,
            40.0 - i / 3,
            0.0,
            5,
            0,
            i % 9 != 0,
        )
        for i in range(64)
    ]
    times, cpu = [], []
    picture = None
    for _ in range(5):
        started, cpu_started = time.perf_counter(), cpu_seconds()
        picture = standings_picture("Spring Cup: standings after round 5", rows)
        times.append(time.perf_counter() - started)
        cpu.append(cpu_seconds() - cpu_started)
    assert picture is not None
    return {
        "players": 64,
        "time": summary_ms(times),
        "cpu": summary_ms(cpu),
        "png_bytes": len(picture.png),
        "size_px": [round(picture.width * 2), round(picture.height * 2)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    report = {
        "pairing": bench_pairing(args.players, args.rounds),
        "rating": asyncio.run(bench_rating(args.games)),
        "standings_picture": bench_picture(),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
