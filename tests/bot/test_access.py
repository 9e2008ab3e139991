"""Where a request may come from (bot/access.py): a table belongs to its server."""

from __future__ import annotations

import pytest

from bot.access import NOT_HERE, NOT_SEATED, SERVER_ONLY, Act, Asker, judge

HOME, OTHER, USER = 10, 20, 7


@pytest.mark.parametrize("act", list(Act))
def test_the_tables_own_server_may_go_on(act: Act) -> None:
    verdict = judge(HOME, Asker(USER, HOME), act, seated=False)
    assert verdict.allowed and verdict.refusal is None and not verdict.admin


@pytest.mark.parametrize("act", list(Act))
@pytest.mark.parametrize("seated", [False, True])
def test_another_server_finds_no_table_even_its_admins(act: Act, seated: bool) -> None:
    verdict = judge(HOME, Asker(USER, OTHER, manages_server=True), act, seated=seated)
    assert verdict.refusal == NOT_HERE and not verdict.admin


def test_the_manage_server_override_counts_in_the_tables_server() -> None:
    assert judge(HOME, Asker(USER, HOME, manages_server=True), Act.MANAGE, seated=False).admin


def test_a_table_without_a_server_is_nobodys_from_a_server() -> None:
    assert judge(None, Asker(USER, HOME), Act.LOOK, seated=True).refusal == NOT_HERE


def test_a_dm_button_plays_for_a_seated_player_only() -> None:
    button = Asker(USER, None, via_dm_button=True)
    assert judge(HOME, button, Act.PLAY, seated=True).allowed
    assert judge(HOME, button, Act.PLAY, seated=False).refusal == NOT_SEATED


@pytest.mark.parametrize("act", [Act.LOOK, Act.MANAGE])
def test_nothing_but_ones_own_move_comes_from_a_dm(act: Act) -> None:
    button = Asker(USER, None, manages_server=True, via_dm_button=True)
    verdict = judge(HOME, button, act, seated=True)
    assert verdict.refusal == SERVER_ONLY and not verdict.admin


def test_a_command_typed_in_a_dm_is_refused_even_for_a_seated_player() -> None:
    assert judge(HOME, Asker(USER, None), Act.PLAY, seated=True).refusal == SERVER_ONLY
