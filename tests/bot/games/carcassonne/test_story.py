"""Carcassonne's public texts without Discord: a turn told in order with every die of
every battle round (spec §3), the placement read from the map, completed features, tiles
that fit nowhere, the final scoring feature by feature and the ranking (spec §4, §5)."""

from __future__ import annotations

import dataclasses

from bot.games.carcassonne.story import (
    final_scoring,
    ranking_lines,
    tile_text,
    turn_story,
    unit_name,
)
from engine.carcassonne import FeatureRef, Kind, Size, Table
from engine.carcassonne.events import (
    BattleLost,
    BattleStarted,
    BattleTied,
    BattleWon,
    DiceRolled,
    FeatureScored,
    MeepleDeployed,
    NothingDeployed,
    TileDrawn,
    TileRemoved,
)

NAMES = {"red": "alice", "green": "bob", "black": "AI 1"}
ROUTE = FeatureRef(0, 0, 1)
"""The start tile's trade route (west–east)."""


def start() -> Table:
    return Table.new(seats=3, seed=5)


def test_a_battle_is_told_round_by_round_with_every_die() -> None:
    seat_view = start().view()
    events = [
        BattleStarted(ROUTE, Kind.ROUTE, (("red", 3), ("black", 1))),
        DiceRolled(ROUTE, 1, (("red", (2, 5, 1)), ("black", (5,)))),
        BattleTied(ROUTE, ("red", "black")),
        DiceRolled(ROUTE, 2, (("red", (6, 3, 4)), ("black", (2,)))),
        BattleLost(ROUTE, "black", 1),
        BattleWon(ROUTE, "red"),
    ]
    lines = turn_story(events, seat_view, NAMES, "en")
    assert lines == [
        "⚔️ Battle for the trade route (east–west): "
        "alice (red) with 3 dice, AI 1 (black) with 1 die.",
        "  Roll 1: alice (red) [2] [5] [1] · AI 1 (black) [5]",
        "  A tie for the highest die: alice (red), AI 1 (black) score 1 point each and roll again.",
        "  Roll 2: alice (red) [6] [3] [4] · AI 1 (black) [2]",
        "  AI 1 (black) loses, takes their meeples home and scores 1 point.",
        "  alice (red) wins and keeps the feature.",
    ]


def test_the_placement_comes_first_read_from_the_map() -> None:
    table = start()
    placement = table.legal_placements()[0]
    table.place("red", placement)
    table.deploy("red", None)
    seat_view = table.view()
    drawn = table.state.current
    events = [NothingDeployed("red"), TileRemoved("SW25"), TileDrawn("green", str(drawn), 70)]
    lines = turn_story(events, seat_view, NAMES, "en")
    placed = seat_view.board.tiles[-1]
    assert lines == [
        f"alice (red) placed a tile: {tile_text(placed.tile, placed.rotation)}.",
        "alice (red) deployed no meeple.",
        "A tile fits nowhere and leaves the game: asteroid field, north-east corner.",
        f"bob (green) draws a tile: {tile_text(str(drawn))} (70 left in the stack).",
    ]
    assert not any(word in "\n".join(lines) for word in ("SW", "(0, ", "°"))


def test_a_deployment_an_attack_and_a_completed_feature() -> None:
    seat_view = start().view()
    events = [
        MeepleDeployed("red", Size.LARGE, ROUTE, Kind.ROUTE, False),
        FeatureScored(ROUTE, Kind.ROUTE, "red", 5, 3, 1, True, False, ("red",)),
    ]
    lines = turn_story(events, seat_view, NAMES, "en")[1:]
    assert lines == [
        "alice (red) deployed a large meeple on the trade route (east–west).",
        "✅ Trade route completed: alice (red) scores 5 (3 tiles, 1 symbol).",
    ]
    attack = MeepleDeployed("green", Size.SMALL, ROUTE, Kind.PLANET, True)
    assert "bob (green) attacked the" in turn_story([attack], seat_view, NAMES, "en")[1]


def test_a_feature_next_to_the_tile_placed_is_named_by_its_direction() -> None:
    table = start()
    placement = next(p for p in table.legal_placements() if (p.x, p.y) == (0, 1))
    table.place("red", placement)
    table.deploy("red", None)
    seat_view = table.view()
    attack = MeepleDeployed("green", Size.SMALL, ROUTE, Kind.ROUTE, True)
    [_, told] = turn_story([attack], seat_view, NAMES, "en")
    assert told.startswith("bob (green) attacked the trade route (east–west) to the ")
    assert "(0, 0)" not in told


def test_the_final_scoring_lists_every_feature_scored_at_the_end_and_only_there() -> None:
    seat_view = start().view()
    during = FeatureScored(ROUTE, Kind.ROUTE, "red", 3, 3, 0, True, False, ("red",))
    end = [
        FeatureScored(ROUTE, Kind.ASTEROID, "green", 4, 4, 0, False, True, ("green",)),
        FeatureScored(FeatureRef(1, 0, None), Kind.PLANET, "red", 6, 1, 1, False, True, ()),
    ]
    assert all("+4" not in line for line in turn_story([during, *end], seat_view, NAMES, "en"))
    assert final_scoring([during, *end], seat_view, NAMES, "en") == [
        "• asteroid field: bob (green) +4 (4 tiles, 0 symbols)",
        "• planet: alice (red) +6 (1 tile, 1 symbol)",
    ]


def test_the_ranking_shares_a_place_between_equal_scores() -> None:
    seat_view = dataclasses.replace(start().view(), scores=(12, 20, 12))
    assert ranking_lines(seat_view, NAMES, "en") == [
        "1. bob (green) — 20 points",
        "2. alice (red) — 12 points",
        "2. AI 1 (black) — 12 points",
    ]


def test_the_team_variant_names_the_teams() -> None:
    assert unit_name("rebels", NAMES, "en") == "Rebel Alliance"
    assert unit_name("empire", NAMES, "en") == "Empire"
    assert unit_name("orange", {}, "en") == "orange"
    team = Table.new(seats=4, seed=1, team=True).view()
    lines = ranking_lines(team, {}, "en")
    assert [line.split(" — ")[0] for line in lines] == ["1. Rebel Alliance", "1. Empire"]


def test_a_seat_is_named_by_its_colour_in_the_players_language() -> None:
    seat_view = start().view()
    events = [BattleStarted(ROUTE, Kind.ROUTE, (("red", 3), ("black", 1)))]
    for locale, red, black in (("es", "rojo", "negro"), ("it", "rosso", "nero")):
        [told] = turn_story(events, seat_view, NAMES, locale)
        assert f"alice ({red})" in told and f"AI 1 ({black})" in told
        assert "(red)" not in told and "(black)" not in told
