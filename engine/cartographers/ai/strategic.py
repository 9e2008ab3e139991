"""The ``strategic`` level: a drawing judged by what the map will be worth over the rest of
the game (:class:`~engine.cartographers.ai.evaluation.Outlook`), not only this season.

Two looks: every legal drawing gets the first look (each edict still to be scored,
weighted by its scorings left; coins by the seasons they still score; cells next to
monsters); the best :attr:`~engine.cartographers.ai.evaluation.Weights.shortlist` get the
full look (progress the cards do not pay yet, unfilled ruins kept for ruins cards, and
the monsters the solo scan would still draw). Drawing a monster on a neighbour's map, it
takes the spot that lowers that map's worth the most. Ties are broken by the rng.
"""

from __future__ import annotations

from engine.cartographers.ai.base import check_can_draw, legal_choices, pick_best
from engine.cartographers.ai.evaluation import DEFAULT_WEIGHTS, Outlook, Weights, coins_after
from engine.cartographers.placement import Drawing
from engine.cartographers.state import Phase
from engine.cartographers.view import SeatView
from engine.core import Rng


class StrategicPolicy:
    """Looks at the seasons left (see the module doc)."""

    name = "strategic"

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.weights = weights

    def choose(self, view: SeatView, rng: Rng) -> Drawing:
        _, sheet, _ = check_can_draw(view)
        assert view.target is not None
        coins = view.player(view.target).coins
        sign = -1.0 if view.phase is Phase.AMBUSH else 1.0
        outlook = Outlook(view, self.weights)
        surrounded = sheet.enclosed_mountains()
        afters = []
        for drawing in legal_choices(view):
            after = sheet.draw(drawing.cells, drawing.terrain)
            afters.append((drawing, after, coins_after(surrounded, after, drawing, coins)))
        first = [sign * outlook.first_look(after, gained) for _, after, gained in afters]
        ranked = sorted(range(len(afters)), key=lambda index: -first[index])
        weights = self.weights
        cut = first[ranked[min(max(1, weights.shortlist), len(ranked)) - 1]]
        tied = [index for index in ranked if first[index] >= cut - 1e-9]
        if len(tied) > weights.shortlist_limit:
            order = rng.permutation(len(tied))[: weights.shortlist_limit]
            tied = [tied[position] for position in sorted(order)]
        scored = []
        for index in tied:
            drawing, after, _ = afters[index]
            look = sign * outlook.further_look(after, sign * first[index])
            scored.append((look, drawing))
        return pick_best(scored, rng)
