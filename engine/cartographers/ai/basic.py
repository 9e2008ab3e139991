"""The two simple levels: ``random`` (any legal drawing) and ``greedy`` (the most stars if
the season ended now).

Greedy judges a drawing by :class:`~engine.cartographers.ai.evaluation.ImmediateGain`:
the season's two edicts, coins and cells next to monsters, and looks no further. Drawing
a monster on a neighbour's map (neighbour-ambush mode) it takes the spot that costs that
neighbour the most by the same measure. Equal drawings are broken by the rng.
"""

from __future__ import annotations

from engine.cartographers.ai.base import check_can_draw, legal_choices, pick_best
from engine.cartographers.ai.evaluation import ImmediateGain
from engine.cartographers.placement import Drawing
from engine.cartographers.state import Phase
from engine.cartographers.view import SeatView
from engine.core import Rng


class RandomPolicy:
    """Any legal drawing, uniformly."""

    name = "random"

    def choose(self, view: SeatView, rng: Rng) -> Drawing:
        choices = legal_choices(view)
        return choices[rng.below(len(choices))]


class GreedyPolicy:
    """The drawing that scores most at this season's end as the map stands."""

    name = "greedy"

    def choose(self, view: SeatView, rng: Rng) -> Drawing:
        _, sheet, _ = check_can_draw(view)
        assert view.target is not None
        coins = view.player(view.target).coins
        sign = -1 if view.phase is Phase.AMBUSH else 1
        gain = ImmediateGain(view, sheet, coins)
        scored = [(float(sign * gain(drawing)), drawing) for drawing in legal_choices(view)]
        return pick_best(scored, rng)
