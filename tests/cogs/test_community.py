"""The community commands through the fake Discord: leaderboards and profiles of this
server only, /settings for Manage Server only, the settings enforced on /race new (allowed
channels, host role, open-game limits), lobbies closing at their expiry, and /help."""

from __future__ import annotations

import pytest

from bot.community.server import ServerSettings
from bot.games import GAMES
from bot.text import t
from tests.bot.community.test_ratings import finish
from tests.cogs.conftest import Circus
from tests.fakediscord import ClientRefused
from tests.fakediscord.model import Message, User


async def private_answer(user: User, channel, command: str, **options: object) -> Message:  # type: ignore[no-untyped-def]
    answer = await (await user.slash(channel, command, **options)).reply()
    assert answer.ephemeral_to is user
    return answer


async def test_help_names_every_game_and_how_to_start_it(circus: Circus) -> None:
    answer = await private_answer(circus.alice, circus.channel, "help")
    assert "/race new" in answer.content
    for game in GAMES:
        assert t("en", f"game.{game}") in answer.content


async def test_community_commands_from_a_direct_message_are_refused_in_words(
    circus: Circus,
) -> None:
    dm = circus.fake.open_dm_channel(circus.alice)
    for command, options in [("help", {}), ("leaderboard", {"game": "charioteer"})]:
        answer = await (await circus.alice.forge_slash(dm, command, **options)).reply()
        assert "only in a server" in answer.content, command


async def test_the_leaderboard_shows_this_servers_players_best_first(circus: Circus) -> None:
    storage = circus.bot.service.storage
    alice, bob = circus.alice, circus.bob
    guild = circus.guild.id
    await finish(storage, [(alice.id, None, 1), (bob.id, None, 2)], 1.0, guild=guild)
    await finish(storage, [(alice.id, None, 1), (None, "greedy", 2)], 2.0, guild=guild)
    other = circus.fake.add_guild("Elsewhere")
    stranger = other.add_member("stranger")
    await finish(storage, [(stranger.id, None, 1), (bob.id, None, 2)], 3.0, guild=other.id)
    answer = await (await bob.slash(circus.channel, "leaderboard", game="charioteer")).reply()
    assert not answer.ephemeral_to
    lines = answer.content.splitlines()
    names = [line.split()[1] for line in lines if line[:1].isdigit()]
    assert names[0] == f"u{alice.id}" and "stranger" not in answer.content
    assert f"u{stranger.id}" not in answer.content
    assert "page 1 of 1" in lines[0]
    assert f"longest win streak, 2 — u{alice.id}" in answer.content


async def test_an_admin_recomputes_a_games_ratings(circus: Circus) -> None:
    storage = circus.bot.service.storage
    alice, bob = circus.alice, circus.bob
    await finish(storage, [(alice.id, None, 1), (bob.id, None, 2)], 1.0, guild=circus.guild.id)
    before = await storage.read("SELECT player, mu, sigma FROM ratings ORDER BY player")
    await storage.write_with(lambda db: db.execute("UPDATE ratings SET mu = 0").close())
    answer = await private_answer(
        circus.guild.owner, circus.channel, "settings", recompute_ratings="charioteer"
    )
    assert "recomputed from this server's 1 rated game." in answer.content
    after = await storage.read("SELECT player, mu, sigma FROM ratings ORDER BY player")
    assert [tuple(row) for row in after] == [tuple(row) for row in before]


async def test_an_empty_leaderboard_says_how_to_get_on_it(circus: Circus) -> None:
    answer = await private_answer(circus.alice, circus.channel, "leaderboard", game="cartographers")
    assert "No rated Cartographers games" in answer.content


async def test_a_profile_shows_the_rating_and_a_chart(circus: Circus) -> None:
    storage = circus.bot.service.storage
    alice, bob = circus.alice, circus.bob
    for at in range(3):
        await finish(
            storage, [(alice.id, None, 1), (bob.id, None, 2)], float(at), guild=circus.guild.id
        )
    answer = await (await bob.slash(circus.channel, "profile", member=alice)).reply()
    assert (
        "Charioteer" in answer.content
        and "games 3" in answer.content
        and "wins 3" in answer.content
    )
    assert "longest win streak, 3" in answer.content
    assert (
        "Reliability: 100 % of 3 finished games played to the end without a time-out"
        " · games left: 0" in answer.content
    )
    [chart] = answer.attachments
    assert chart.image_size() == (800, 440)
    newcomer = circus.guild.add_member("newcomer")
    nobody = await private_answer(newcomer, circus.channel, "profile")
    assert "no rated games" in nobody.content


async def test_settings_are_for_manage_server_only(circus: Circus) -> None:
    with pytest.raises(ClientRefused):
        await circus.alice.slash(circus.channel, "settings", max_per_member=1)
    forged = await (
        await circus.alice.forge_slash(circus.channel, "settings", max_per_member=1)
    ).reply()
    assert "Manage Server" in forged.content
    assert await circus.bot.community_cog.server_settings.get(circus.guild.id) == ServerSettings()


async def test_a_channel_not_allowed_refuses_with_the_reason(circus: Circus) -> None:
    owner, guild = circus.guild.owner, circus.guild
    games = guild.add_text_channel("games")
    saved = await private_answer(owner, circus.channel, "settings", allow_channel=games)
    assert "Saved" in saved.content and f"<#{games.id}>" in saved.content
    refused = await private_answer(circus.alice, circus.channel, "race new")
    assert (
        "can't be opened in this channel" in refused.content and f"<#{games.id}>" in refused.content
    )
    lobby = await (await circus.alice.slash(games, "race new")).reply()
    assert not lobby.ephemeral_to
    await private_answer(owner, circus.channel, "settings", any_channel=True)
    assert not (await (await circus.bob.slash(circus.channel, "race new")).reply()).ephemeral_to


async def test_only_the_host_role_opens_games(circus: Circus) -> None:
    guild = circus.guild
    hosts = guild.add_role("Hosts")
    await circus.fake.wait_for(
        lambda: (
            circus.bot.get_guild(guild.id) is not None
            and circus.bot.get_guild(guild.id).get_role(hosts.id) is not None
        ),  # type: ignore[union-attr]
        timeout=5,
        what="the bot to learn of the role",
    )
    await private_answer(guild.owner, circus.channel, "settings", host_role=hosts)
    refused = await private_answer(circus.alice, circus.channel, "race new")
    assert "Hosts" in refused.content or f"<@&{hosts.id}>" in refused.content
    guild.give_role(circus.alice, hosts)
    assert not (await (await circus.alice.slash(circus.channel, "race new")).reply()).ephemeral_to
    # admins always may
    assert not (await (await guild.owner.slash(circus.channel, "race new")).reply()).ephemeral_to


async def test_open_game_limits_per_member(circus: Circus) -> None:
    await private_answer(circus.guild.owner, circus.channel, "settings", max_per_member=1)
    assert not (await (await circus.alice.slash(circus.channel, "race new")).reply()).ephemeral_to
    refused = await private_answer(circus.alice, circus.channel, "race new")
    assert "this server's limit of open games per member (1)" in refused.content
    assert not (await (await circus.bob.slash(circus.channel, "race new")).reply()).ephemeral_to


async def test_an_unstarted_lobby_closes_at_its_servers_expiry(circus: Circus) -> None:
    await private_answer(circus.guild.owner, circus.channel, "settings", lobby_expiry_hours=1)
    lobby = await (await circus.alice.slash(circus.channel, "race new")).reply()
    await circus.bot.finish_in_flight()  # the lobby message's id is stored after the reply
    service = circus.bot.service
    assert await circus.bot.community_cog.close_expired_lobbies() == []
    await service.storage.write_with(
        lambda db: db.execute("UPDATE game_tables SET created_at = created_at - 3601").close()
    )
    [closed] = await circus.bot.community_cog.close_expired_lobbies()
    assert (await service.table(closed)).status == "abandoned"
    await circus.fake.wait_for(
        lambda: "closed" in lobby.content, timeout=5, what="the lobby to say it closed"
    )
    assert lobby.components == []
