"""Storage details the service tests do not reach: the host's own facts."""

from __future__ import annotations

from pathlib import Path

from bot.storage import Storage


async def test_a_host_fact_is_kept_replaced_and_survives_reopening(db_path: Path) -> None:
    storage = await Storage.open(str(db_path))
    try:
        assert await storage.fact("commands:global") is None
        await storage.set_fact("commands:global", "one")
        await storage.set_fact("commands:global", "two")
        await storage.set_fact("commands:guild:5", "three")
    finally:
        await storage.close()
    reopened = await Storage.open(str(db_path))
    try:
        assert await reopened.fact("commands:global") == "two"
        assert await reopened.fact("commands:guild:5") == "three"
    finally:
        await reopened.close()
