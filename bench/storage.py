"""Per-action commit time of the storage, SQLite against PostgreSQL.

    python bench/storage.py [--actions 2000] [--races 32] [--state-bytes 3000]
                            [--database-url postgresql://postgres@127.0.0.1:5432/test]

Prints JSON. A measurement, never a test.

Each accepted action is one :meth:`bot.storage.Storage.store_action` transaction: the
action row, the race's new snapshot (``--state-bytes`` of JSON), its seq re-checked under
the race row's lock, and every third action an outbox row. Measured on a SQLite file (WAL,
``synchronous=FULL``) and on a fresh schema of the PostgreSQL server at ``--database-url``
(dropped after; skipped if none answers):

- ``sequential``: ``--actions`` actions on one race, one after another: the time from the
  call to the commit, per action;
- ``concurrent``: ``--races`` races each storing ``--actions / --races`` actions, all at
  once (as many tables acting together): per-action latency and total actions per second.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import asyncpg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stats import summary_ms
from bot.storage import Storage, StoredAction
from engine.core import Action


async def new_table(storage: Storage) -> int:
    table_id = await storage.create_table(
        game="charioteer",
        guild_id=1,
        channel_id=2,
        host_id=11,
        host_name="alice",
        settings={"seats": 4},
        seed=7,
        locale=None,
        now=time.time(),
    )
    await storage.update_table(table_id, time.time(), status="running", deadline=time.time() + 60)
    return table_id


async def store_actions(
    storage: Storage, table_id: int, count: int, state_bytes: int
) -> list[float]:
    filler = "x" * state_bytes
    times = []
    for seq in range(1, count + 1):
        stored = StoredAction(
            table_id=table_id,
            seq=seq,
            action=Action("commit", "A", {"move": seq}, ()),
            by_user=11,
            source="player",
            at=time.time(),
            state={"seq": seq, "filler": filler},
            turn=1 + seq // 3,
            waiting="B",
            status="running",
            deadline=time.time() + 60,
            announcements=(("reveal", 1 + seq // 3),) if seq % 3 == 0 else (),
        )
        start = time.perf_counter()
        await storage.store_action(stored)
        times.append(time.perf_counter() - start)
    return times


async def measure(target: str, args: argparse.Namespace) -> dict[str, Any]:
    storage = await Storage.open(target)
    try:
        table_id = await new_table(storage)
        sequential = await store_actions(storage, table_id, args.actions, args.state_bytes)
        races = [await new_table(storage) for _ in range(args.races)]
        each = max(1, args.actions // args.races)
        start = time.perf_counter()
        batches = await asyncio.gather(
            *(store_actions(storage, race, each, args.state_bytes) for race in races)
        )
        wall = time.perf_counter() - start
        concurrent = [t for batch in batches for t in batch]
        return {
            "sequential": summary_ms(sequential),
            "concurrent": {
                **summary_ms(concurrent),
                "races": args.races,
                "actions_per_second": round(len(concurrent) / wall, 1),
            },
        }
    finally:
        await storage.close()


async def postgres(args: argparse.Namespace) -> dict[str, Any]:
    try:
        admin = await asyncpg.connect(args.database_url, timeout=5)
    except (OSError, TimeoutError, asyncpg.PostgreSQLError) as error:
        return {"skipped": f"no PostgreSQL at {args.database_url.split('@')[-1]}: {error}"}
    schema = f"bench_{secrets.token_hex(4)}"
    await admin.execute(f"CREATE SCHEMA {schema}")
    try:
        joiner = "&" if "?" in args.database_url else "?"
        return await measure(f"{args.database_url}{joiner}search_path={schema}", args)
    finally:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="circus-bench-") as folder:
        print("SQLite …", file=sys.stderr)
        sqlite = await measure(str(Path(folder) / "bench.db"), args)
    print("PostgreSQL …", file=sys.stderr)
    return {"state_bytes": args.state_bytes, "sqlite": sqlite, "postgres": await postgres(args)}


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--races", type=int, default=32)
    parser.add_argument("--state-bytes", type=int, default=3000)
    parser.add_argument("--database-url", default="postgresql://postgres@127.0.0.1:5432/test")
    return parser.parse_args(argv)


if __name__ == "__main__":
    print(json.dumps(asyncio.run(run(parse(None))), indent=2))
