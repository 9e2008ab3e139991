"""The ``strategic`` level: plays for the final margin, looking ahead over the tiles
still in the stack and weighing battles by their odds.

A turn is valued by what every unit can expect from the position it leaves:

- the points of this turn (battle points and completed features, by the exact battle
  odds);
- for every feature still held: its points if completed times the chance it will be, plus
  its end-of-game points otherwise. The chance of completion comes from the stack: for
  each empty square the feature needs filled, the share of the tiles still to come that
  fit there, over the draws left;
- the meeples in supply, worth more the more tiles are left to use them on.

The turn with the best margin (own value minus the opponents' average) is played.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.carcassonne.ai.evaluation import (
    Preview,
    Turn,
    check_turn,
    held_regions,
    holder_odds,
    open_squares,
    preview,
    turns,
)
from engine.carcassonne.board import Region
from engine.carcassonne.components import (
    Edge,
    Kind,
    Size,
    tile_type,
)
from engine.carcassonne.state import GameState
from engine.carcassonne.view import SeatView
from engine.core import Rng

FILL_SHARE = 0.4
"""Of the draws left, the share that may go to one given square (players fill squares
they care about; many squares compete)."""
EXTEND = 0.8
"""The chance a fitting tile closes a route or field edge rather than carrying it on."""
UNREACHED = 0.5
"""The share of tiles that fit a square no tile touches yet (a planet's diagonal)."""
MEEPLE_WORTH = {Size.SMALL: 2.5, Size.LARGE: 4.0}
"""A meeple in supply with the whole game ahead; it falls to 0 as the stack empties."""
FULL_STACK = 40


class StrategicPolicy:
    name = "strategic"

    def choose_turn(self, view: SeatView, rng: Rng) -> Turn:
        state = check_turn(view)
        me = state.unit_of(state.active_seat)
        fits = _FitOdds(view.tiles_left)
        best: Turn | None = None
        best_value = float("-inf")
        for after, turn in turns(state):
            values = unit_values(preview(after, turn.deployment), fits)
            others = [value for unit, value in values.items() if unit != me]
            margin = values[me] - (sum(others) / len(others) if others else 0.0)
            if margin > best_value + 1e-9:
                best, best_value = turn, margin
        assert best is not None
        return best


class _FitOdds:
    """The share of the tiles still to come that fit a square, cached by what the
    square's neighbours show."""

    def __init__(self, tiles_left: tuple[tuple[str, int], ...]) -> None:
        self.tiles = [(tile_type(tile), count) for tile, count in tiles_left]
        self.total = sum(count for _, count in tiles_left)
        self.cache: dict[tuple[tuple[int, Edge], ...], float] = {}

    def share(self, needs: tuple[tuple[int, Edge], ...] | None) -> float:
        if self.total == 0:
            return 0.0
        if needs is None:
            return UNREACHED
        found = self.cache.get(needs)
        if found is None:
            fitting = sum(
                count
                for tile, count in self.tiles
                if any(
                    all(tile.rotated_edges(r)[side] is edge for side, edge in needs)
                    for r in range(4)
                )
            )
            found = fitting / self.total
            self.cache[needs] = found
        return found


def completion_odds(preview: Preview, region: Region, fits: _FitOdds) -> float:
    """The chance ``region`` is completed before the stack runs out."""
    if region.complete:
        return 1.0
    draws = fits.total * FILL_SHARE
    needs = preview.board.needs
    odds = 1.0
    for square in open_squares(preview.board, region):
        share = fits.share(needs.get(square))
        fill = 1.0 - (1.0 - share) ** draws
        if region.kind is not Kind.PLANET:
            fill *= EXTEND
        odds *= fill
    return odds


def region_worth(preview: Preview, region: Region, fits: _FitOdds) -> float:
    odds = completion_odds(preview, region, fits)
    return odds * region.value(final=False) + (1 - odds) * region.value(final=True)


def unit_values(preview: Preview, fits: _FitOdds) -> dict[str, float]:
    """What each unit may expect from the position a turn leaves (see the module)."""
    state: GameState = preview.state
    values = {unit: float(state.score_of(unit)) + preview.points[unit] for unit in state.units}
    for region in held_regions(preview):
        worth = region_worth(preview, region, fits)
        for unit, odds in holder_odds(preview, region).items():
            values[unit] += odds * worth
    _add_supplies(values, preview, state, fits.total)
    return values


def _add_supplies(values: dict[str, float], preview: Preview, state: GameState, stack: int) -> None:
    scale = min(1.0, stack / FULL_STACK)
    on_map: dict[str, dict[Size, float]] = {
        unit: {Size.SMALL: 0.0, Size.LARGE: 0.0} for unit in state.units
    }
    for index, meeple in enumerate(preview.meeples):
        on_map[state.unit_of(meeple.seat)][meeple.size] += preview.survival[index]
    owned: Mapping[Size, int] = {Size.SMALL: 4, Size.LARGE: 1}
    seats_per_unit = {
        unit: sum(state.unit_of(s) == unit for s in state.seats) for unit in state.units
    }
    for unit in state.units:
        for size in (Size.SMALL, Size.LARGE):
            left = owned[size] * seats_per_unit[unit] - on_map[unit][size]
            values[unit] += scale * MEEPLE_WORTH[size] * left
