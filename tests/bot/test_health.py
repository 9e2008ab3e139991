"""The health check's reading of the bot's heartbeat: well while it is fresh, not well
when it is stale, missing or not set up."""

from __future__ import annotations

import os
from pathlib import Path

from bot.health import STALE_SECONDS, beat, bot_health, stop_beating


def test_a_fresh_heartbeat_is_well_and_says_what_it_wrote(tmp_path: Path) -> None:
    path = tmp_path / "health"
    beat(path, "connected to 3 servers, 1 shards")
    found = bot_health(path)
    assert found.well and found.status == 0
    assert "connected to 3 servers" in found.said
    assert [p.name for p in tmp_path.iterdir()] == ["health"]


def test_a_stale_heartbeat_is_not_well(tmp_path: Path) -> None:
    path = tmp_path / "health"
    beat(path, "connected to 3 servers, 1 shards")
    written = path.stat().st_mtime
    assert bot_health(path, now=written + STALE_SECONDS - 1).well
    late = bot_health(path, now=written + STALE_SECONDS + 1)
    assert not late.well and late.status == 1 and "61 s old" in late.said


def test_a_heartbeat_rewritten_after_a_stale_one_is_well_again(tmp_path: Path) -> None:
    path = tmp_path / "health"
    beat(path, "first")
    old = path.stat().st_mtime - 2 * STALE_SECONDS
    os.utime(path, (old, old))
    assert not bot_health(path).well
    beat(path, "second")
    assert bot_health(path).well and "second" in bot_health(path).said


def test_no_heartbeat_is_not_well(tmp_path: Path) -> None:
    path = tmp_path / "health"
    beat(path, "connected")
    stop_beating(path)
    stop_beating(path)
    assert not path.exists()
    assert not bot_health(path).well and "not connected" in bot_health(path).said
    unset = bot_health(None)
    assert not unset.well and "HEALTH_FILE" in unset.said
