"""Cartographers' Discord texts without Discord: the panel in a neighbour ambush, where
automatic ambushes landed, a season's scores, the final ranking with ties and the solo
title, and the panel's controls."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.games.cartographers.panel import DrawDraft, DrawPanel, build_panel
from bot.games.cartographers.pictures import panel_picture
from bot.service import Table
from bot.storage import SeatRow, TableRow
from cogs.games.cartographers.panel import panel_content, panel_view
from cogs.games.cartographers.posts import ambush_lines, podium_text, season_text
from engine.cartographers import view
from engine.cartographers.events import AmbushIgnored, MonsterPlaced, SeasonScored
from engine.cartographers.state import Result, SeasonScore, SoloResult
from tests.engine.cartographers.helpers import table as expedition

NAMES = {"1": "alice", "2": "bob", "3": "carol"}
USERS = {"1": 11, "2": 22, "3": None}


def host_table(seats: int = 3) -> Table:
    row = TableRow(
        id=7,
        game="cartographers",
        guild_id=1,
        channel_id=2,
        thread_id=None,
        host_id=11,
        status="running",
        settings={},
        seed=1,
        setup=None,
        state=None,
        seq=0,
        turn=1,
        waiting="",
        deadline=None,
        reminders=0,
        lobby_message_id=None,
        board_message_id=None,
        locale="en",
        created_at=0.0,
        updated_at=0.0,
    )
    rows = tuple(
        SeatRow(7, seat, USERS[seat], NAMES[seat], None if USERS[seat] else "greedy", 0.0)
        for seat in list(NAMES)[:seats]
    )
    return Table(row, rows)


def components(panel: DrawPanel) -> list[dict[str, Any]]:
    rows = panel_view(7, 1, panel, "en").to_components()
    return [component for row in rows for component in row["components"]]


def confirm_of(panel: DrawPanel) -> dict[str, Any]:
    return next(c for c in components(panel) if c["custom_id"] == "cg:7:confirm:1")


def test_a_neighbour_ambush_panel_names_the_neighbour_and_shows_their_map() -> None:
    state = expedition(seats=3, ambush="neighbour", phase="ambush", card="gnoll_raid").state
    seat_view = view(state, "2")
    target = state.target_of("2")
    panel = build_panel(seat_view, DrawDraft())
    assert panel is not None and panel.ambush
    content = panel_content(host_table(), seat_view, panel, "en")
    assert "Ambush: **Gnoll Raid**" in content
    assert f"on the map of **{NAMES[target]}**" in content
    assert "coins earned: 0" in content
    picture = panel_picture(seat_view, NAMES, panel.shown, panel.cells, True)
    assert picture.says(NAMES[target]) and not picture.says(NAMES["2"])


def test_the_panel_has_every_control_and_confirm_only_when_legal() -> None:
    state = expedition(card="great_river").state
    panel = build_panel(view(state, "1"), DrawDraft())
    assert panel is not None
    ids = {component["custom_id"] for component in components(panel)}
    verbs = {str(i).split(":")[2] for i in ids}
    assert verbs == {
        "terrain",
        "shape",
        "row",
        "col",
        "rotate",
        "flip",
        "type",
        "suggest",
        "confirm",
    }
    assert all(str(i).split(":")[1] == "7" and str(i).endswith(":1") for i in ids)
    refused = build_panel(view(state, "1"), DrawDraft(row=10, col=10))
    assert refused is not None and not refused.can_confirm
    confirm = [c for c in components(refused) if c["custom_id"] == "cg:7:confirm:1"]
    assert confirm[0]["disabled"] and not confirm_of(panel)["disabled"]
    assert "Not legal" in panel_content(host_table(1), view(state, "1"), refused, "en")


def test_automatic_ambushes_say_where_they_landed() -> None:
    events = [
        MonsterPlaced(map="1", card="goblin_attack", cells=("K9", "J10", "I11")),
        AmbushIgnored(map="2", card="goblin_attack"),
    ]
    lines = ambush_lines(events, host_table(), "en")
    assert lines == [
        "Ambush! Goblin Attack: monsters drawn on the map of alice at K9, J10, I11.",
        "Ambush! Goblin Attack finds no room on the map of bob and is ignored there.",
    ]


def test_a_seasons_post_scores_both_edicts_coins_and_monsters_per_player() -> None:
    state = expedition(seats=2).state
    spring = SeasonScore("spring", (3, 2), 1, 2)
    events = [
        SeasonScored(seat="1", edicts=("sentinel_wood", "canal_lake"), score=spring, stars=4),
        SeasonScored(
            seat="2",
            edicts=("sentinel_wood", "canal_lake"),
            score=SeasonScore("spring", (0, 5), 0, 0),
            stars=5,
        ),
    ]
    text = season_text(host_table(2), events, view(state, None), "en")
    lines = text.splitlines()
    assert lines[0] == "**Cartographers #7 · Spring: end of the season**"
    assert lines[1] == (
        "<@11>: Sentinel Wood 3 + Canal Lake 2 + coins 1 − monsters 2 = 4 (total 4)"
    )
    assert lines[2].startswith("<@22>: Sentinel Wood 0 + Canal Lake 5")


def test_the_final_ranking_shares_first_place_between_tied_winners() -> None:
    state = expedition(seats=3).state
    public = dataclasses.replace(view(state, None), result=Result(("2", "1", "3"), ("2", "1")))
    lines = podium_text(host_table(), public, "en").splitlines()
    assert lines[0] == "**Cartographers #7 is over**"
    assert lines[1].startswith("1. <@22>") and lines[2].startswith("1. <@11>")
    assert lines[3].startswith("3. carol")


def test_a_solo_ranking_gives_the_title() -> None:
    state = expedition(seats=1).state
    result = Result(("1",), ("1",), SoloResult(40, 28, "master_mapsmith"))
    public = dataclasses.replace(view(state, None), result=result)
    text = podium_text(host_table(1), public, "en")
    assert "Score 40 − solo values 28 = 12: **Master Mapsmith**" in text


def test_a_drawing_that_costs_stars_says_so_with_the_minus_sign() -> None:
    state = expedition(card="great_river").state
    seat_view = view(state, "1")
    panel = build_panel(seat_view, DrawDraft())
    assert panel is not None and len(panel.stars) == 2
    (first, _), (second, _) = panel.stars
    costly = dataclasses.replace(panel, stars=((first, -3), (second, 2)))
    content = panel_content(host_table(1), seat_view, costly, "en")
    assert "**−3** — " in content and "**+2** — " in content
    assert "-3" not in content


@pytest.mark.parametrize(
    ("locale", "shown"),
    [
        ("en", ("Terrain: water", "Shape 1", "Row 2", "Column C")),
        ("es", ("Terreno: agua", "Forma 1", "Fila 2", "Columna C")),
        ("it", ("Terreno: acqua", "Forma 1", "Riga 2", "Colonna C")),
    ],
)
def test_the_selects_say_what_they_choose_in_the_tables_language(
    locale: str, shown: tuple[str, ...]
) -> None:
    state = expedition(card="great_river").state
    panel = build_panel(view(state, "1"), DrawDraft(row=1, col=2), locale)
    assert panel is not None
    rows = panel_view(7, 1, panel, locale).to_components()
    selects = [row["components"][0] for row in rows[:4]]
    chosen = tuple(
        next(option["label"] for option in select["options"] if option.get("default"))
        for select in selects
    )
    assert chosen == shown


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("en", "Cartographers #7 was abandoned."),
        ("es", "Partida abandonada: Cartographers #7."),
        ("it", "Partita abbandonata: Cartographers #7."),
    ],
)
def test_an_abandoned_game_is_named_as_its_thread(locale: str, said: str) -> None:
    public = view(expedition(seats=3).state)
    assert public.result is None
    assert podium_text(host_table(), public, locale) == said
