"""Where a request may come from (bot/access.py): a table belongs to its server, and is seen
by whoever can view its channel."""

from __future__ import annotations

import pytest

from bot.access import NOT_HERE, NOT_SEATED, SERVER_ONLY, Act, Asker, Place, judge, may_look

HOME, OTHER, USER = 10, 20, 7
OPEN, PRIVATE = 100, 200
"""A channel the asker views, and one they do not."""
TABLE = Place(HOME, OPEN)
HIDDEN = Place(HOME, PRIVATE)


def views_open(channel_id: int) -> bool:
    return channel_id == OPEN


def member(**flags: bool) -> Asker:
    """A member of HOME who views OPEN only."""
    return Asker(USER, HOME, views=views_open, **flags)


@pytest.mark.parametrize("act", list(Act))
def test_the_tables_own_server_may_go_on(act: Act) -> None:
    verdict = judge(TABLE, member(), act, seated=False)
    assert verdict.allowed and verdict.refusal is None and not verdict.admin


@pytest.mark.parametrize("act", list(Act))
@pytest.mark.parametrize("seated", [False, True])
def test_another_server_finds_no_table_even_its_admins(act: Act, seated: bool) -> None:
    asker = Asker(USER, OTHER, manages_server=True, views=views_open)
    verdict = judge(TABLE, asker, act, seated=seated)
    assert verdict.refusal == NOT_HERE and not verdict.admin


def test_the_manage_server_override_counts_in_the_tables_server() -> None:
    assert judge(TABLE, member(manages_server=True), Act.MANAGE, seated=False).admin


def test_a_table_without_a_server_is_nobodys_from_a_server() -> None:
    assert judge(Place(None, OPEN), member(), Act.LOOK, seated=True).refusal == NOT_HERE


@pytest.mark.parametrize("act", list(Act))
def test_a_table_of_a_channel_the_asker_cannot_view_is_no_table(act: Act) -> None:
    assert judge(HIDDEN, member(), act, seated=False).refusal == NOT_HERE
    assert judge(Place(HOME, None), member(), act, seated=False).refusal == NOT_HERE
    assert not may_look(HIDDEN, member())


def test_an_asker_the_front_end_told_nothing_about_views_no_channel() -> None:
    assert judge(TABLE, Asker(USER, HOME), Act.LOOK).refusal == NOT_HERE


def test_a_seated_player_plays_their_seat_without_the_view_and_reads_nothing_else() -> None:
    assert judge(HIDDEN, member(), Act.PLAY, seated=True).allowed
    for act in (Act.LOOK, Act.MANAGE):
        assert judge(HIDDEN, member(), act, seated=True).refusal == NOT_HERE


@pytest.mark.parametrize("act", list(Act))
def test_manage_server_sees_every_channels_tables(act: Act) -> None:
    verdict = judge(HIDDEN, member(manages_server=True), act, seated=False)
    assert verdict.allowed and verdict.admin
    assert may_look(HIDDEN, member(manages_server=True))


def test_a_dm_button_plays_for_a_seated_player_only() -> None:
    button = Asker(USER, None, via_dm_button=True)
    assert judge(TABLE, button, Act.PLAY, seated=True).allowed
    assert judge(TABLE, button, Act.PLAY, seated=False).refusal == NOT_SEATED


@pytest.mark.parametrize("act", [Act.LOOK, Act.MANAGE])
def test_nothing_but_ones_own_move_comes_from_a_dm(act: Act) -> None:
    button = Asker(USER, None, manages_server=True, via_dm_button=True)
    verdict = judge(TABLE, button, act, seated=True)
    assert verdict.refusal == SERVER_ONLY and not verdict.admin


def test_a_command_typed_in_a_dm_is_refused_even_for_a_seated_player() -> None:
    assert judge(TABLE, Asker(USER, None), Act.PLAY, seated=True).refusal == SERVER_ONLY
