"""The two simple levels: ``random`` (any legal placement, then any legal deployment) and
``greedy`` (the best immediate expected score, plus a meeple's worth).

Greedy values a turn as the points it expects this turn (battles by their odds, features
the tile completes) plus half the end-of-game value of the feature a new meeple holds,
less the meeple (1 point for a small one, 2 for the large one). It looks no further and
ignores what the turn gives the others.
"""

from __future__ import annotations

from engine.carcassonne.ai.evaluation import Turn, check_turn, preview, turns
from engine.carcassonne.components import Size
from engine.carcassonne.rules import Placement, legal_deployments, legal_placements, place
from engine.carcassonne.state import Phase
from engine.carcassonne.view import SeatView
from engine.core import Rng

MEEPLE_COST = {Size.SMALL: 1.0, Size.LARGE: 2.0}


class RandomPolicy:
    name = "random"

    def choose_turn(self, view: SeatView, rng: Rng) -> Turn:
        state = check_turn(view)
        if state.phase is Phase.PLACE:
            placements = legal_placements(state)
            placement = placements[rng.below(len(placements))]
            state, _ = place(state, state.active_seat, placement)
        else:
            assert state.placed is not None
            placed = state.board.at[state.placed]
            placement = Placement(placed.x, placed.y, placed.rotation)
        deployments = legal_deployments(state)
        return Turn(placement, deployments[rng.below(len(deployments))])


class GreedyPolicy:
    name = "greedy"

    def choose_turn(self, view: SeatView, rng: Rng) -> Turn:
        state = check_turn(view)
        me = state.unit_of(state.active_seat)
        best: Turn | None = None
        best_value = float("-inf")
        for after, turn in turns(state):
            result = preview(after, turn.deployment)
            value = result.points[me]
            if turn.deployment is not None:
                index = len(result.meeples) - 1
                survival = result.survival[index]
                if survival > 0:
                    region = result.board.region(turn.deployment.at)
                    value += 0.5 * survival * region.value(final=True)
                value -= MEEPLE_COST[turn.deployment.size]
            if value > best_value:
                best, best_value = turn, value
        assert best is not None
        return best
