"""The shared panel's decisions that need no Discord: where a panel may be updated in place."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord

from cogs.front.panel import on_own_panel

ALICE, BOB = 1, 2


def click(by: int, *, ephemeral: bool, answered: int | None) -> Any:
    metadata = None if answered is None else SimpleNamespace(user=SimpleNamespace(id=answered))
    flags = discord.MessageFlags(ephemeral=ephemeral)
    message = SimpleNamespace(flags=flags, interaction_metadata=metadata)
    return SimpleNamespace(user=SimpleNamespace(id=by), message=message)


def test_a_users_own_ephemeral_panel_is_updated_in_place() -> None:
    assert on_own_panel(click(ALICE, ephemeral=True, answered=ALICE))


def test_a_public_message_is_never_turned_into_a_panel() -> None:
    assert not on_own_panel(click(ALICE, ephemeral=False, answered=ALICE))
    assert not on_own_panel(click(ALICE, ephemeral=False, answered=None))


def test_someone_elses_or_an_unknown_ephemeral_message_is_not_ones_panel() -> None:
    assert not on_own_panel(click(ALICE, ephemeral=True, answered=BOB))
    assert not on_own_panel(click(ALICE, ephemeral=True, answered=None))


def test_a_form_without_a_message_is_not_on_a_panel() -> None:
    assert not on_own_panel(SimpleNamespace(user=SimpleNamespace(id=ALICE), message=None))
