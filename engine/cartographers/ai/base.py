"""The interface every AI level implements, and what the levels share: the drawings a seat
may make now (spec §2 "Draw", the ruins requirement and the 1×1 fallback), and the
action that submits one.

A level sees only a :class:`~engine.cartographers.view.SeatView`: every map, coin and score
is public (spec §4), and the deck order never reaches it. In a draw turn the seat draws on
its own map; in neighbour-ambush mode, when an ambush is revealed, it draws the monster on
the neighbour's map it holds (``view.target``).
"""

from __future__ import annotations

from typing import Protocol

from engine.cartographers.placement import Drawing, Offer, legal_drawings, needs_a_drawing
from engine.cartographers.rules import MONSTER, PLACE
from engine.cartographers.sheet import MapSheet
from engine.cartographers.state import Phase
from engine.cartographers.view import SeatView
from engine.core import Action, GameOver, IllegalAction, Rng


class Policy(Protocol):
    """A way of choosing a seat's drawing from what that seat may see."""

    name: str

    def choose(self, view: SeatView, rng: Rng) -> Drawing:
        """A legal drawing for ``view.seat`` on ``view.target``'s map.

        Raises:
            GameOver: the game has ended.
            IllegalAction: a spectator's view, or a seat with nowhere to draw.
        """
        ...


def check_can_draw(view: SeatView) -> tuple[str, MapSheet, Offer]:
    """The viewing seat, the map it draws on and what the card lets it draw.

    Raises:
        GameOver: the game has ended.
        IllegalAction: a spectator's view, or a seat whose target map is full.
    """
    if view.result is not None:
        raise GameOver("the game is over", seat=view.seat)
    if view.seat is None or view.target is None:
        raise IllegalAction("a spectator has nothing to draw")
    offer = view.offer
    sheet = view.player(view.target).sheet
    if offer is None or not needs_a_drawing(sheet):
        raise IllegalAction("there is nowhere left to draw", seat=view.seat)
    return view.seat, sheet, offer


def legal_choices(view: SeatView) -> list[Drawing]:
    """Every legal drawing of the viewing seat now: each terrain with each shape of the
    card, or — only when no shape fits — the 1×1 fallbacks (never empty).

    Raises like :func:`check_can_draw`.
    """
    _, sheet, offer = check_can_draw(view)
    found = [
        drawing
        for terrain in offer.terrains
        for shape in range(len(offer.shapes))
        for drawing in legal_drawings(sheet, offer, terrain, shape)
    ]
    if found:
        return found
    return [
        drawing
        for terrain in offer.fallback_terrains
        for drawing in legal_drawings(sheet, offer, terrain, None)
    ]


def action_for(view: SeatView, drawing: Drawing) -> Action:
    """The action submitting ``drawing`` for the viewing seat: ``place`` in a draw turn,
    ``monster`` in an ambush."""
    kind = MONSTER if view.phase is Phase.AMBUSH else PLACE
    return Action(kind, view.seat, drawing.placement.to_json())


def pick_best(scored: list[tuple[float, Drawing]], rng: Rng) -> Drawing:
    """The drawing of highest score; equal best scores are broken by ``rng``."""
    top = max(value for value, _ in scored)
    best = [drawing for value, drawing in scored if value >= top - 1e-9]
    return best[rng.below(len(best))]
