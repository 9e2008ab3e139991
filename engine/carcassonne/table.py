"""A live game for callers (the command line, the AI runs, later the bot): state and record
advanced together, one accepted action at a time (see :class:`~engine.core.LiveTable`).

``Table.new(seats=3, seed=5)``, ``table.place(seat, placement)``, ``table.deploy(seat,
deployment_or_None)``, ``table.view(seat)``, ``table.legal_placements()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.carcassonne.rules import (
    DEPLOY,
    PLACE,
    RULESET,
    Deployment,
    Placement,
    game_config,
    legal_deployments,
    legal_placements,
)
from engine.carcassonne.state import GameState, Result
from engine.carcassonne.view import SeatView, view
from engine.core import JSON, Action, Event, Game, LiveTable


class Table(LiveTable[GameState]):
    """A live Carcassonne table."""

    ruleset = RULESET

    @classmethod
    def new(cls, seats: int = 2, seed: int = 0, **options: Any) -> Table:
        """A new game of 2–5 seats (named by colour) with the options of
        :func:`~engine.carcassonne.rules.game_config`."""
        return cls(Game.new(RULESET, game_config(seats, **options), seed))

    @classmethod
    def from_config(cls, config: Mapping[str, JSON], seed: int) -> Table:
        return cls(Game.new(RULESET, config, seed))

    @property
    def active(self) -> str:
        return self.state.active_seat

    @property
    def result(self) -> Result | None:
        return self.state.result

    def act(self, action: Action) -> tuple[Event, ...]:
        return self.game.act(action)

    def place(self, seat: str, placement: Placement | Mapping[str, JSON]) -> tuple[Event, ...]:
        data = placement.to_json() if isinstance(placement, Placement) else dict(placement)
        return self.act(Action(PLACE, seat, data))

    def deploy(
        self, seat: str, deployment: Deployment | Mapping[str, JSON] | None = None
    ) -> tuple[Event, ...]:
        if deployment is None:
            data: dict[str, JSON] = {}
        elif isinstance(deployment, Deployment):
            data = deployment.to_json()
        else:
            data = dict(deployment)
        return self.act(Action(DEPLOY, seat, data))

    def view(self, seat: str | None = None) -> SeatView:
        return view(self.state, seat)

    def legal_placements(self) -> list[Placement]:
        return legal_placements(self.state)

    def legal_deployments(self) -> list[Deployment | None]:
        return legal_deployments(self.state)
