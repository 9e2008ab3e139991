"""The drawing panel as data (spec §2 "Play"): what it proposes, highlights, refuses and
earns, for explore cards, ruins, the 1×1 fallback and neighbour ambushes."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.cartographers.panel import (
    FALLBACK,
    DrawDraft,
    DrawDraftError,
    apply_choice,
    build_panel,
    parse_cell,
)
from engine.cartographers import Phase, view
from engine.cartographers.geometry import label, parse_label
from engine.cartographers.state import GameState
from tests.engine.cartographers.helpers import rows, table

EDICTS = ["sentinel_wood", "canal_lake", "great_city", "borderlands"]
"""Spring scores edicts A and B: Sentinel Wood and Canal Lake."""


def state(**kwargs: Any) -> GameState:
    kwargs.setdefault("edicts", EDICTS)
    return table(**kwargs).state


def panel_for(game: GameState, draft: DrawDraft | None = None, seat: str = "1") -> Any:
    built = build_panel(view(game, seat), draft or DrawDraft())
    assert built is not None
    return built


def at(name: str) -> tuple[int, int]:
    index = parse_label(name)
    assert index is not None
    return divmod(index, 11)


def test_an_empty_draft_proposes_the_first_legal_spot_of_the_first_shape() -> None:
    panel = panel_for(state(card="great_river"))
    assert panel.proposed and panel.candidate is not None and panel.refusal is None
    assert panel.draft.terrain == "water" and panel.draft.shape == 0
    assert panel.cells == panel.candidate.cells and len(panel.cells) == 3
    assert panel.can_confirm
    assert [o.value for o in panel.terrains] == ["water"]
    assert [o.label for o in panel.shapes] == ["1", "2"]


def test_the_coin_shape_earns_its_coin() -> None:
    first = panel_for(state(card="great_river"))
    second = panel_for(state(card="great_river"), DrawDraft(shape=1))
    assert first.coins == 1 and second.coins == 0


def test_surrounding_a_mountain_earns_a_coin() -> None:
    # A mountain at B2 with three sides filled: the fourth cell (B3) encloses it.
    game = state(card="rift_lands", maps=[rows("T T T", "T M T")])
    row, col = at("B3")
    panel = panel_for(game, DrawDraft(terrain="farm", row=row, col=col))
    assert panel.candidate is not None and panel.coins == 1


def test_off_the_map_is_refused_with_the_reason_and_highlighted() -> None:
    row, col = at("K11")
    panel = panel_for(state(card="great_river"), DrawDraft(row=row, col=col))
    assert panel.candidate is None and not panel.can_confirm
    assert panel.refusal is not None and "off the map" in panel.refusal
    assert panel.cells == ()


def test_filled_cells_are_refused_naming_them() -> None:
    game = state(card="great_river", maps=[rows("TTT")])
    row, col = at("A1")
    panel = panel_for(game, DrawDraft(row=row, col=col))
    assert panel.candidate is None
    assert panel.refusal is not None and "A1" in panel.refusal
    assert {label(i) for i in panel.cells} == {"A1", "B1", "C1"}


def test_after_ruins_the_shape_must_cover_a_ruins_cell() -> None:
    game = state(card="great_river", ruins=True)
    panel = panel_for(game)
    assert panel.ruins and panel.candidate is not None
    ruins = game.player("1").sheet.open_ruins_mask
    assert any(ruins >> index & 1 for index in panel.candidate.cells)
    row, col = at("A11")
    away = panel_for(game, DrawDraft(row=row, col=col))
    assert away.refusal is not None and "ruins" in away.refusal


def test_when_no_shape_fits_only_the_one_by_one_square_is_offered() -> None:
    full = ["TTTTTTTTTTT"] * 10 + ["TTTTTTTTT.."]
    panel = panel_for(state(card="great_river", maps=[full]))
    assert panel.fallback_only and [o.value for o in panel.shapes] == [FALLBACK]
    assert panel.candidate is not None and len(panel.candidate.cells) == 1
    assert panel.candidate.placement.fallback and panel.can_confirm


def test_after_ruins_with_no_room_the_fallback_takes_any_terrain() -> None:
    full = ["TTTTTTTTTTT"] * 10 + ["TTTTTTTTT.."]
    panel = panel_for(state(card="great_river", ruins=True, maps=[full]))
    assert panel.fallback_only
    assert {"forest", "village", "farm", "water", "monster"} <= {o.value for o in panel.terrains}


def test_a_chequered_map_leaves_only_the_one_by_one_square() -> None:
    chequer = ["T.T.T.T.T.T", ".T.T.T.T.T."] * 5 + ["T.T.T.T.T.T"]
    panel = panel_for(state(card="fishing_village", maps=[chequer]))
    assert panel.fallback_only and panel.candidate is not None


def test_a_chosen_shape_that_fits_nowhere_says_so() -> None:
    # Only A1-B1 are empty: Farmland's domino fits there, its cross nowhere.
    almost_full = [".." + "T" * 9] + ["T" * 11] * 10
    game = state(card="farmland", maps=[almost_full])
    assert panel_for(game).candidate is not None
    cross = panel_for(game, DrawDraft(shape=1))
    assert cross.nowhere and cross.candidate is None and not cross.fallback_only
    assert not cross.can_confirm


def test_the_season_edicts_stars_the_drawing_earns() -> None:
    # Sentinel Wood: a star per forest cell on the edge; A1-B1 are both on the edge.
    game = state(card="forgotten_forest")
    row, col = at("A1")
    panel = panel_for(game, DrawDraft(shape=0, row=row, col=col, rotation=0))
    assert panel.candidate is not None
    gained = dict(panel.stars)
    assert set(gained) == {"sentinel_wood", "canal_lake"}
    edge = sum(1 for i in panel.candidate.cells if divmod(i, 11)[0] in (0, 10) or i % 11 in (0, 10))
    assert gained["sentinel_wood"] == edge > 0 and gained["canal_lake"] == 0


def test_a_committed_drawing_is_shown_and_cannot_be_confirmed_twice() -> None:
    expedition = table(card="great_river", seats=2, edicts=EDICTS)
    first = panel_for(expedition.state).candidate
    expedition.act("place", "1", first.placement)
    again = panel_for(expedition.state)
    assert again.committed == first and again.candidate == first and not again.can_confirm
    changed = panel_for(expedition.state, DrawDraft(terrain="water", shape=1))
    assert changed.can_confirm and changed.candidate != first


def test_a_neighbour_ambush_draws_the_monster_on_the_neighbours_map() -> None:
    game = state(seats=3, ambush="neighbour", phase="ambush", card="gnoll_raid")
    assert game.phase is Phase.AMBUSH
    panel = panel_for(game, seat="2")
    assert panel.ambush and panel.target == game.target_of("2") != "2"
    assert [o.value for o in panel.terrains] == ["monster"]
    assert panel.candidate is not None and panel.coins == 0


def test_choices_move_the_draft() -> None:
    draft = DrawDraft()
    assert apply_choice(draft, "rotate", []).rotation == 90
    assert apply_choice(DrawDraft(rotation=270), "rotate", []).rotation == 0
    assert apply_choice(draft, "flip", []).flip
    moved = DrawDraft("farm", 1, False, 90, True, 4, 4)
    assert apply_choice(moved, "suggest", []) == DrawDraft("farm", 1)
    assert apply_choice(draft, "terrain", ["farm"]).terrain == "farm"
    assert apply_choice(draft, "shape", ["1"]).shape == 1
    assert apply_choice(draft, "shape", [FALLBACK]).fallback
    assert apply_choice(draft, "row", ["3"]).row == 3
    assert apply_choice(draft, "col", ["10"]).col == 10
    assert apply_choice(draft, "at", [" c4 "]).at == parse_label("C4")


@pytest.mark.parametrize(
    ("verb", "value"),
    [
        ("terrain", "lava"),
        ("shape", "x"),
        ("shape", "²"),
        ("row", "11"),
        ("row", "²"),
        ("col", "-1"),
        ("col", "٣"),
        ("col", "9" * 5000),
        ("at", "Z9"),
        ("at", "C²"),
        ("zap", ""),
    ],
)
def test_forged_choices_are_refused(verb: str, value: str) -> None:
    with pytest.raises(DrawDraftError):
        apply_choice(DrawDraft(), verb, [value])


def test_typed_cells() -> None:
    assert parse_cell("C4") == (3, 2)
    assert parse_cell("k11") == (10, 10)
    for bad in ("", "L1", "A12", "A0", "4C", "C4 D5", "C²", "C٣", "C" + "9" * 5000):
        with pytest.raises(DrawDraftError):
            parse_cell(bad)


def test_a_stored_draft_round_trips_and_junk_reads_as_empty() -> None:
    draft = DrawDraft("farm", 1, False, 180, True, 2, 5)
    assert DrawDraft.from_json(draft.to_json()) == draft
    assert DrawDraft.from_json({"row": 99, "rotation": 45, "shape": True}) == DrawDraft()
    assert DrawDraft.from_json(None) == DrawDraft()
