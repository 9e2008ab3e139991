"""A server's settings: checked values, stored and read back, and the check a new lobby
passes (channel, host role, open-game limits), each refusal naming its reason."""

from __future__ import annotations

import pytest

from bot.community.server import ServerSettings, ServerSettingsStore, check_may_open
from bot.games.base import ServiceError
from bot.storage import Storage

OPEN = {"channel_ids": {10}, "role_ids": set(), "admin": False, "member_open": 0, "server_open": 0}


def refusal(settings: ServerSettings, **changes: object) -> str | None:
    try:
        check_may_open(settings, **(OPEN | changes))  # type: ignore[arg-type]
    except ServiceError as error:
        return error.key
    return None


def test_defaults_allow_everything() -> None:
    assert refusal(ServerSettings()) is None


def test_a_channel_not_listed_is_refused_but_a_thread_of_a_listed_one_is_not() -> None:
    settings = ServerSettings(channels=(20,))
    assert refusal(settings) == "error.channel_not_allowed"
    assert refusal(settings, channel_ids={99, 20}) is None


def test_the_host_role_binds_everyone_but_admins() -> None:
    settings = ServerSettings(host_role=5)
    assert refusal(settings) == "error.host_role_needed"
    assert refusal(settings, role_ids={5}) is None
    assert refusal(settings, admin=True) is None


def test_open_game_limits() -> None:
    settings = ServerSettings(max_open_per_member=2, max_open_per_server=3)
    assert refusal(settings, member_open=1, server_open=2) is None
    assert refusal(settings, member_open=2) == "error.too_many_open_member"
    assert refusal(settings, server_open=3) == "error.too_many_open_server"


@pytest.mark.parametrize(
    "bad",
    [
        ServerSettings(language="xx"),
        ServerSettings(max_open_per_member=0),
        ServerSettings(max_open_per_server=5000),
        ServerSettings(lobby_expiry_hours=0.1),
    ],
)
def test_bad_values_are_refused(bad: ServerSettings) -> None:
    with pytest.raises(ServiceError):
        bad.checked()


async def test_settings_are_stored_per_server(database: str) -> None:
    storage = await Storage.open(database)
    try:
        store = ServerSettingsStore(storage)
        saved = await store.set(1, ServerSettings(channels=(3, 2, 3), host_role=7))
        assert saved.channels == (2, 3)
        assert await store.get(1) == saved
        assert await store.get(2) == ServerSettings()
        race = await storage.create_table(
            game="charioteer",
            guild_id=1,
            channel_id=2,
            host_id=9,
            host_name="h",
            settings={},
            seed=1,
            locale=None,
            now=100.0,
        )
        assert await store.open_counts(1, 9) == (1, 1)
        assert await store.open_counts(1, 8) == (0, 1)
        await store.set(1, ServerSettings(lobby_expiry_hours=1))
        assert await store.expired_lobbies(100.0 + 3599) == []
        assert await store.expired_lobbies(100.0 + 3600) == [race]
    finally:
        await storage.close()
