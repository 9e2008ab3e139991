"""Fixtures every suite shares: the storage backend a test runs on (SQLite and
PostgreSQL, see :mod:`tests.databases`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.databases import BACKENDS, database_for


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """``sqlite`` or ``postgres``: a test asking for it runs on both."""
    return str(request.param)


@pytest.fixture
async def database(backend: str, tmp_path: Path) -> AsyncIterator[str]:
    """Where the test's races are stored: a SQLite file, or a fresh PostgreSQL schema."""
    async with database_for(backend, tmp_path) as target:
        yield target
