"""Service-level fixtures: a real SQLite file per test, a fake clock, seeded choices."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.clock import FakeClock
from bot.service import RaceService
from engine.charioteer import Move, SeatView
from engine.core import Rng


def first_choice(level: str, view: SeatView, rng: Rng) -> Move:
    """A stand-in AI for service tests: a seeded pick among the legal moves."""
    moves = view.legal_moves(discards=False)
    return moves[rng.below(len(moves))]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "races.db"


@pytest.fixture
async def service(db_path: Path, clock: FakeClock) -> AsyncIterator[RaceService]:
    service = await RaceService.create(
        str(db_path), clock=clock, seeds=_seeds(), choose_move=first_choice
    )
    yield service
    await service.close()


def _seeds():  # type: ignore[no-untyped-def]
    counter = iter(range(1000, 10**6))
    return lambda: next(counter)
