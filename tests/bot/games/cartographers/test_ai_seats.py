"""Cartographers' AI seats on the host play the engine's level they were given."""

from __future__ import annotations

import pytest

from bot.games.cartographers import AI_LEVELS, HOST
from engine.cartographers import Expedition, view
from engine.cartographers.ai import ai_action
from engine.core import MalformedAction, Rng


@pytest.mark.parametrize("level", AI_LEVELS)
def test_each_level_is_the_engines(level: str) -> None:
    expedition = Expedition.new(seats=3, seed=7, side="A", ambush="auto")
    seat_view = view(expedition.state, "2")
    assert HOST.ai_action(level, seat_view, Rng(5, 0)) == ai_action(level, seat_view, Rng(5, 0))


def test_an_unknown_level_is_refused() -> None:
    expedition = Expedition.new(seats=1, seed=7, side="A", ambush="auto")
    with pytest.raises(MalformedAction):
        HOST.ai_action("genius", view(expedition.state, "1"), Rng(5, 0))
