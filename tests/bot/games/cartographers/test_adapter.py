"""Cartographers' host adapter: AI seats play the engine's level they were given, and an
automatic ambush is announced."""

from __future__ import annotations

import dataclasses

import pytest

from bot.games.base import BOARD, REVEAL
from bot.games.cartographers import AI_LEVELS, HOST
from engine.cartographers import Expedition, view
from engine.cartographers.ai import ai_action
from engine.cartographers.events import AmbushIgnored, MonsterPlaced
from engine.core import MalformedAction, Rng
from tests.engine.cartographers.helpers import table


@pytest.mark.parametrize("level", AI_LEVELS)
def test_each_level_is_the_engines(level: str) -> None:
    expedition = Expedition.new(seats=3, seed=7, side="A", ambush="auto")
    seat_view = view(expedition.state, "2")
    assert HOST.ai_action(level, seat_view, Rng(5, 0)) == ai_action(level, seat_view, Rng(5, 0))


def test_an_unknown_level_is_refused() -> None:
    expedition = Expedition.new(seats=1, seed=7, side="A", ambush="auto")
    with pytest.raises(MalformedAction):
        HOST.ai_action("genius", view(expedition.state, "1"), Rng(5, 0))


def test_an_automatic_ambush_is_revealed_before_the_next_turns_board() -> None:
    before = table(card="great_river", seats=2).state
    after = dataclasses.replace(before, turn=before.turn + 1)
    landed = MonsterPlaced(map="1", card="goblin_attack", cells=("A1",))
    ignored = AmbushIgnored(map="2", card="goblin_attack")
    for events in ([landed], [ignored]):
        assert HOST.announcements(before, after, events) == (
            (REVEAL, before.turn),
            (BOARD, after.turn),
        )
    assert HOST.announcements(before, after, []) == ((BOARD, after.turn),)
    assert HOST.announcements(before, before, []) == ()
