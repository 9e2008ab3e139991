"""What the AI levels share: every turn a seat may play (a placement and a deployment),
and the expected outcome of one, battles weighed by their exact odds.

:func:`preview` applies a turn to a copy of what the seat sees, without dice: battles are
replaced by each unit's chance of winning and expected battle points
(:func:`~engine.carcassonne.battle.battle_odds`), completed features by their points times
the holder's chance of holding them. The levels differ only in how they value what is left.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.carcassonne.battle import battle_odds, dice_for, units_in
from engine.carcassonne.board import Board, Region, turned
from engine.carcassonne.components import AROUND, STEPS, Side
from engine.carcassonne.rules import (
    Deployment,
    Placement,
    legal_deployments,
    legal_placements,
    place,
    touched_regions,
)
from engine.carcassonne.state import GameState, Meeple, Phase
from engine.carcassonne.view import SeatView
from engine.core import GameOver, IllegalAction


@dataclass(frozen=True)
class Turn:
    placement: Placement
    deployment: Deployment | None


@dataclass
class Preview:
    """A turn's expected result: the board after it, each meeple with the chance it is
    still on the map, and each unit's expected points from the turn."""

    state: GameState
    board: Board
    survival: dict[int, float]
    """Index into ``meeples`` -> chance the meeple is still on the map after the turn."""
    meeples: list[Meeple]
    points: dict[str, float]
    holders: dict[int, dict[str, float]]
    """id of a region -> unit -> chance it holds that region after the turn."""


def check_turn(view: SeatView) -> GameState:
    """The view as a state, once sure the viewing seat has a turn to play."""
    if view.result is not None:
        raise GameOver("the game is over", seat=view.seat)
    if view.seat is None or view.seat != view.active:
        raise IllegalAction("it is not this seat's turn", seat=view.seat)
    return view.as_state()


def turns(state: GameState) -> Iterator[tuple[GameState, Turn]]:
    """Every turn open to the active seat, with the state after its placement. In the
    deploy phase only the deployments of the tile already placed."""
    if state.phase is Phase.DEPLOY:
        assert state.placed is not None
        placed = state.board.at[state.placed]
        placement = Placement(placed.x, placed.y, placed.rotation)
        for deployment in legal_deployments(state):
            yield state, Turn(placement, deployment)
        return
    for placement in legal_placements(state):
        after, _ = place(state, state.active_seat, placement)
        for deployment in legal_deployments(after):
            yield after, Turn(placement, deployment)


def preview(after_place: GameState, deployment: Deployment | None) -> Preview:
    """The expected result of deploying ``deployment`` in a state just after a placement."""
    seat = after_place.active_seat
    board = after_place.board
    meeples = list(after_place.meeples)
    if deployment is not None:
        meeples.append(Meeple(seat, deployment.size, deployment.at))
    survival = {index: 1.0 for index in range(len(meeples))}
    points: dict[str, float] = {unit: 0.0 for unit in after_place.units}
    holders: dict[int, dict[str, float]] = {}
    assert after_place.placed is not None
    x, y = after_place.placed
    unit_of = after_place.unit_of
    for region in touched_regions(board, x, y):
        inside = [i for i, m in enumerate(meeples) if board.region(m.at) is region]
        if not inside:
            continue
        units = units_in([meeples[i] for i in inside], unit_of)
        if len(units) > 1:
            group = [meeples[i] for i in inside]
            dice = {
                unit: dice_for(unit, group, region, unit_of, after_place.faction_of)
                for unit in units
            }
            win, battle_points = battle_odds(dice)
            for unit in units:
                points[unit] += battle_points[unit]
            for i in inside:
                survival[i] = win[unit_of(meeples[i].seat)]
        else:
            win = {units[0]: 1.0}
        if region.complete:
            for unit in units:
                points[unit] += win[unit] * region.value(final=False)
            for i in inside:
                survival[i] = 0.0
        else:
            holders[id(region)] = win
    return Preview(after_place, board, survival, meeples, points, holders)


def holder_odds(preview: Preview, region: Region) -> dict[str, float]:
    """Who holds ``region`` after the turn, with what chance."""
    known = preview.holders.get(id(region))
    if known is not None:
        return known
    board = preview.board
    units = [
        preview.state.unit_of(m.seat)
        for i, m in enumerate(preview.meeples)
        if preview.survival[i] > 0 and board.region(m.at) is region
    ]
    return {units[0]: 1.0} if units else {}


def held_regions(preview: Preview) -> list[Region]:
    """The regions still holding meeples after the turn, each once."""
    board = preview.board
    seen: dict[int, Region] = {}
    for i, meeple in enumerate(preview.meeples):
        if preview.survival[i] > 0:
            region = board.region(meeple.at)
            seen.setdefault(id(region), region)
    return list(seen.values())


def open_squares(board: Board, region: Region) -> list[tuple[int, int]]:
    """The empty squares a region still needs filled: across its open edges, or around
    its planet."""
    at = board.at
    if region.anchor.is_planet:
        x, y = region.anchor.square
        return [(x + dx, y + dy) for dx, dy in AROUND if (x + dx, y + dy) not in at]
    squares: list[tuple[int, int]] = []
    for ref in region.segments:
        placed = at[ref.square]
        assert ref.feature is not None
        for side in turned(placed.tile, placed.rotation)[0][ref.feature]:
            dx, dy = STEPS[Side(side)]
            square = (ref.x + dx, ref.y + dy)
            if square not in at and square not in squares:
                squares.append(square)
    return squares
