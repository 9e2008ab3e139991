"""The leak scanner itself: it must catch what it is there to catch."""

import sqlite3
from pathlib import Path

import pytest

from engine.charioteer import Race
from engine.charioteer.render import hand_text
from tests.e2e.leaks import leaks_in_log, leaks_in_public


@pytest.fixture
def backend() -> str:
    """The scanner is checked on files of its own: it does not run once per database."""
    return "sqlite"


def test_a_hand_listing_in_public_is_caught() -> None:
    race = Race.new(seats=2, seed=1)
    panel = hand_text(race.view("A"))
    assert leaks_in_public([panel], None)
    assert leaks_in_public(["**Race #1 · turn 3** · waiting for <@1>"], None) == []


def test_a_committed_move_in_public_or_in_the_log_is_caught(tmp_path: Path) -> None:
    database = tmp_path / "races.db"
    with sqlite3.connect(database) as db:
        db.execute("CREATE TABLE actions (kind TEXT, data TEXT)")
        db.execute("""INSERT INTO actions VALUES ('commit', '{"symbol": "R5", "cards": [0, 1]}')""")
    assert leaks_in_public(["Move confirmed: `R5 1 2`."], database)
    assert leaks_in_log(["INFO something 'R5 1 2'"], database)
    assert leaks_in_public(["Race #1 turn 2 revealed"], database) == []


def test_card_faces_in_the_log_are_caught() -> None:
    assert leaks_in_log(["DEBUG payload {'content': 'G2×2 R3×2'}"], None)
    assert leaks_in_log(["INFO race 3: seat B committed (player, seq 4)"], None) == []


def test_a_cartographers_drawing_panel_in_public_is_caught() -> None:
    from bot.games.cartographers.panel import DrawDraft, build_panel
    from bot.service import Table
    from cogs.games.cartographers.panel import panel_content
    from engine.cartographers import Expedition, view
    from tests.cogs.games.cartographers.test_front import host_table

    seat_view = view(Expedition.new(seats=2, seed=1, side="A", ambush="auto").state, "1")
    panel = build_panel(seat_view, DrawDraft())
    assert panel is not None
    table: Table = host_table(2)
    assert leaks_in_public([panel_content(table, seat_view, panel, "en")], None)
    assert leaks_in_public(["**Cartographers #1 · Spring · turn 2** · time 1/8"], None) == []
