"""The interface every AI level implements, and the step from a chosen turn to the action
of the phase in play."""

from __future__ import annotations

from typing import Protocol

from engine.carcassonne.ai.evaluation import Turn
from engine.carcassonne.rules import DEPLOY, PLACE
from engine.carcassonne.state import Phase
from engine.carcassonne.view import SeatView
from engine.core import Action, Rng


class Policy(Protocol):
    """A way of choosing a seat's turn from what that seat may see."""

    name: str

    def choose_turn(self, view: SeatView, rng: Rng) -> Turn:
        """The placement and deployment the seat would play (in the deploy phase, the
        placement already made).

        Raises:
            GameOver: the game has ended.
            IllegalAction: it is not the viewing seat's turn.
        """
        ...


def next_action(policy: Policy, view: SeatView, rng: Rng) -> Action:
    """The action ``policy`` takes now: its placement in the place phase, its deployment in
    the deploy phase (the bot and the simulations call this once per phase)."""
    turn = policy.choose_turn(view, rng)
    if view.phase is Phase.PLACE:
        return Action(PLACE, view.seat, turn.placement.to_json())
    data = {} if turn.deployment is None else turn.deployment.to_json()
    return Action(DEPLOY, view.seat, data)
