"""pytest fixtures for tests against the fake Discord.

Use them from a `conftest.py` with `pytest_plugins = ["tests.fakediscord.plugin"]` (in the
top-level `tests/conftest.py`) or by importing the fixtures by name.

- `fake`: a started `FakeDiscord` (default rules: 3 s answer deadline, 15 min tokens); at
  teardown it is closed and the test fails if any violation was left unclaimed (claim the
  ones a test provokes on purpose with `fake.take_violations()`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from .harness import assert_no_violations
from .server import FakeDiscord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = await FakeDiscord.start()
    try:
        yield server
    finally:
        await server.close()
    assert_no_violations(server)
