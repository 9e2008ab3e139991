"""The active player's panel without Discord: every legal placement reachable through the
numbered spots and Rotate, paging, the deployment choices of the placed tile, and values
that are not on offer refused (spec §2)."""

from __future__ import annotations

import pytest

from bot.games.base import ServiceError
from bot.games.carcassonne import panel as panels
from bot.games.carcassonne.panel import (
    NOTHING,
    TurnDraft,
    choose,
    deploy_action,
    deploy_panel,
    deploy_png,
    draft_placement,
    place_action,
    place_panel,
    place_png,
    placed,
    placing,
    preview,
    spots_of,
    tile_text,
)
from engine.carcassonne import Deployment, Phase, Placement, Table
from engine.carcassonne.render import board_png
from engine.carcassonne.rules import deploy_targets


def game(seed: int = 5, turns: int = 6) -> Table:
    """A game after ``turns`` turns of first placements, deploying nothing."""
    table = Table.new(seats=3, seed=seed)
    for _ in range(turns):
        seat = table.active
        table.place(seat, table.legal_placements()[0])
        table.deploy(seat, None)
    return table


def test_every_legal_placement_is_a_spot_and_one_of_its_turns() -> None:
    table = game()
    seat_view = table.view(table.active)
    spots = spots_of(seat_view)
    offered = {Placement(x, y, turn) for (x, y), turns in spots.items() for turn in turns}
    assert offered == set(table.legal_placements())
    assert list(spots) == list(dict.fromkeys((p.x, p.y) for p in table.legal_placements()))


def test_rotate_goes_through_the_turns_that_fit_on_the_spot_and_back() -> None:
    table = game()
    seat_view = table.view(table.active)
    spots = spots_of(seat_view)
    index, square = next((i, s) for i, s in enumerate(spots) if len(spots[s]) > 1)
    draft = choose(seat_view, TurnDraft(), "spot", [str(index)])
    seen = []
    for _ in spots[square]:
        shown = place_panel(seat_view, draft)
        assert shown is not None and shown.square == square
        seen.append(shown.turn)
        draft = choose(seat_view, draft, "rotate", [])
    assert seen == list(spots[square])
    back = place_panel(seat_view, draft)
    assert back is not None and back.turn == seen[0]


def test_more_spots_pages_through_every_spot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(panels, "SPOTS_PER_PAGE", 2)
    table = game()
    seat_view = table.view(table.active)
    count = len(spots_of(seat_view))
    draft, firsts = TurnDraft(), []
    for _ in range(-(-count // 2) + 1):
        shown = place_panel(seat_view, draft)
        assert shown is not None
        firsts.append(shown.spot)
        assert [index for index, _ in shown.page_spots()] == list(
            range(shown.spot, min(shown.spot + 2, count))
        )
        draft = choose(seat_view, draft, "page", [])
    assert firsts == [*range(0, count, 2), 0]


@pytest.mark.parametrize("value", ["999", "-1", "x", "", "１"])
def test_a_spot_not_on_offer_is_refused(value: str) -> None:
    table = game()
    seat_view = table.view(table.active)
    with pytest.raises(ServiceError) as refused:
        choose(seat_view, TurnDraft(), "spot", [value])
    assert refused.value.key == "game.stale_choice"


def test_the_placement_played_is_the_one_shown_and_the_real_view_is_untouched() -> None:
    table = game()
    seat = table.active
    seat_view = table.view(seat)
    shown = place_panel(seat_view, choose(seat_view, TurnDraft(), "spot", ["1"]))
    assert shown is not None
    assert preview(seat_view, shown.placement).board.at[shown.square].tile == seat_view.current
    assert shown.square not in seat_view.board.at
    assert place_png(seat_view, shown.placement, shown.squares).startswith(b"\x89PNG")
    assert place_png(seat_view, shown.placement, shown.squares, "it", {"red": "Ana"}) == board_png(
        preview(seat_view, shown.placement),
        names={"red": "Ana"},
        last=shown.square,
        spots=shown.squares,
        locale="it",
    )
    action = place_action(seat_view, shown)
    table.act(action)
    assert table.state.phase is Phase.DEPLOY and table.state.placed == shown.square


def test_the_deployment_choices_are_the_engines_and_nothing_is_the_default() -> None:
    table = game()
    seat = table.active
    table.place(seat, table.legal_placements()[0])
    seat_view = table.view(seat)
    shown = deploy_panel(seat_view, TurnDraft())
    assert shown is not None
    assert list(shown.targets) == deploy_targets(table.state)
    assert shown.target is None and shown.deployment is None
    assert shown.sizes == ("small", "large")
    assert deploy_action(seat_view, shown).data == {}
    draft = choose(seat_view, TurnDraft(), "where", ["0"])
    draft = choose(seat_view, draft, "size", ["large"])
    chosen = deploy_panel(seat_view, draft)
    assert chosen is not None and chosen.deployment in table.legal_deployments()
    assert isinstance(chosen.deployment, Deployment) and chosen.deployment.size.value == "large"
    assert choose(seat_view, draft, "where", [NOTHING]).target is None
    with pytest.raises(ServiceError):
        choose(seat_view, draft, "where", [str(len(shown.targets))])
    with pytest.raises(ServiceError):
        choose(seat_view, draft, "size", ["huge"])


def test_the_deploy_picture_numbers_the_choices_in_the_order_they_are_listed() -> None:
    table = game()
    seat = table.active
    table.place(seat, table.legal_placements()[0])
    seat_view = table.view(seat)
    shown = deploy_panel(seat_view, TurnDraft())
    assert shown is not None and shown.targets
    names = {"red": "Ana"}
    numbered = board_png(seat_view, names=names, targets=shown.targets, locale="es")
    assert deploy_png(seat_view, "es", names) == numbered
    assert deploy_png(seat_view, "es", names) != board_png(seat_view, names=names, locale="es")


def test_the_deploy_picture_of_a_drafted_placement_is_that_of_the_placement_played() -> None:
    table = game()
    seat = table.active
    in_hand = table.view(seat)
    chosen = placing(in_hand, TurnDraft(spot=1))
    assert chosen is not None
    draft = placed(in_hand, TurnDraft(spot=1))
    assert draft_placement(in_hand, draft) == chosen.placement
    assert draft_placement(in_hand, TurnDraft(spot=1)) is None, "not placed yet"
    drafted = deploy_png(in_hand, "it", {"red": "Ana"}, draft_placement(in_hand, draft))
    table.place(seat, chosen.placement)
    played = table.view(seat)
    assert draft_placement(played, draft) is None, "a placement played is no draft's"
    assert drafted == deploy_png(played, "it", {"red": "Ana"})


def test_each_step_refuses_the_other_steps_controls() -> None:
    table = game()
    seat = table.active
    placing = table.view(seat)
    with pytest.raises(ServiceError) as early:
        choose(placing, TurnDraft(), "where", ["0"])
    assert early.value.key == "carc.place_first"
    table.place(seat, table.legal_placements()[0])
    with pytest.raises(ServiceError) as late:
        choose(table.view(seat), TurnDraft(), "rotate", [])
    assert late.value.key == "carc.already_placed"


def test_a_draft_from_json_keeps_only_sane_values() -> None:
    assert TurnDraft.from_json(None) == TurnDraft()
    odd = {"spot": -3, "turn": 7, "target": "x", "size": "huge"}
    assert TurnDraft.from_json(odd) == TurnDraft()  # type: ignore[arg-type]
    kept = TurnDraft(spot=2, turn=1, target=0, size="large")
    assert TurnDraft.from_json(kept.to_json()) == kept


def test_a_tile_is_told_by_its_features_as_turned() -> None:
    text = tile_text("SW25")
    assert text == "asteroid field, north-east corner"
    assert tile_text("SW25", 1) == "asteroid field, south-east corner"
    assert tile_text("SW25", 1, "es-ES") == "campo de asteroides, esquina sureste"


def test_a_placement_is_kept_in_the_draft_until_confirm_and_undo_takes_it_back() -> None:
    table = game()
    seat = table.active
    hand = table.view(seat)
    draft = choose(hand, TurnDraft(), "spot", ["1"])
    placed = panels.placed(hand, draft)
    assert placed.placed and TurnDraft.from_json(placed.to_json()) == placed
    chosen = place_panel(hand, draft)
    assert chosen is not None and place_panel(hand, placed) is None
    deploying = deploy_panel(hand, placed)
    expected = deploy_panel(preview(hand, chosen.placement), TurnDraft())
    assert deploying is not None and expected is not None
    assert deploying.targets == expected.targets and deploying.placed == chosen.square
    aiming = choose(hand, placed, "where", ["0"])
    assert aiming.placed and aiming.target == 0
    kinds = [(action.kind, dict(action.data)) for action in panels.turn_actions(hand, aiming)]
    assert kinds[0] == ("place", chosen.placement.to_json())
    assert kinds[1][0] == "deploy" and kinds[1][1]
    back = choose(hand, aiming, "undo", [])
    assert not back.placed and back.spot == 1 and back.target is None
    with pytest.raises(ServiceError) as nothing:
        choose(hand, back, "undo", [])
    assert nothing.value.key == "carc.nothing_to_undo"
    table.place(seat, chosen.placement)
    with pytest.raises(ServiceError) as stored:
        choose(table.view(seat), placed, "undo", [])
    assert stored.value.key == "carc.nothing_to_undo"
    [deploy] = panels.turn_actions(table.view(seat), placed)
    assert deploy.kind == "deploy", "a placement stored already is not played again"
