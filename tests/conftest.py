"""Fixtures every suite shares: the storage backend a test runs on (SQLite and
PostgreSQL, see :mod:`tests.databases`), and each test starting with no command ids known
(a bot synced in an earlier test of the process makes sentences name commands by id)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.text import COMMAND_IDS
from tests.databases import BACKENDS, database_for


@pytest.fixture(autouse=True)
def no_command_ids_known() -> Iterator[None]:
    COMMAND_IDS.clear()
    yield
    COMMAND_IDS.clear()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """``sqlite`` or ``postgres``: a test asking for it runs on both."""
    return str(request.param)


@pytest.fixture
async def database(backend: str, tmp_path: Path) -> AsyncIterator[str]:
    """Where the test's races are stored: a SQLite file, or a fresh PostgreSQL schema."""
    async with database_for(backend, tmp_path) as target:
        yield target
