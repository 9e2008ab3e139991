"""Service-level fixtures: a real database per test (a SQLite file, or a PostgreSQL schema:
every test using them runs on both), a fake clock, seeded choices."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.clock import FakeClock
from bot.games.base import GameHost
from bot.service import TableService
from engine.charioteer import Move, SeatView
from engine.core import Action, Rng


def first_choice(host: GameHost, level: str, view: SeatView, rng: Rng) -> Move | Action:
    """A stand-in AI for service tests: for Charioteer a seeded pick among the legal moves
    without discards (fast), for other games the game's own AI."""
    if host.id != "charioteer":
        return host.ai_action(level, view, rng)
    moves = view.legal_moves(discards=False)
    return moves[rng.below(len(moves))]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(database: str) -> str:
    """The test's database (a SQLite file's path or a PostgreSQL URL)."""
    return database


@pytest.fixture
async def service(db_path: str, clock: FakeClock) -> AsyncIterator[TableService]:
    service = await TableService.create(
        str(db_path), clock=clock, seeds=_seeds(), choose_action=first_choice
    )
    yield service
    await service.close()


def _seeds():  # type: ignore[no-untyped-def]
    counter = iter(range(1000, 10**6))
    return lambda: next(counter)
