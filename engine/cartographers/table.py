"""The lifecycle API callers use: :class:`Expedition`, a live table whose state and
record advance together (see :class:`~engine.core.LiveTable`).

``Expedition.new(seats=2, seed=4, side="B")``, ``expedition.place(seat, placement)``,
``expedition.draw_monster(seat, placement)``, ``expedition.view(seat)``,
``expedition.legal_placements(seat, terrain, shape)``, ``expedition.result``.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.cartographers.components import Terrain
from engine.cartographers.placement import Drawing, Placement
from engine.cartographers.rules import MONSTER, PLACE, RULESET, legal_placements, table_config
from engine.cartographers.state import GameState, Result
from engine.cartographers.view import SeatView, view
from engine.core import JSON, Action, Event, Game, LiveTable


class Expedition(LiveTable[GameState]):
    """A live Cartographers table."""

    ruleset = RULESET

    @classmethod
    def new(
        cls, seats: int = 1, seed: int = 0, side: str = "A", ambush: str = "auto"
    ) -> Expedition:
        """A new table of ``seats`` players (named "1", "2", …)."""
        return cls(Game.new(RULESET, table_config(seats, side, ambush), seed))

    @property
    def waiting_for(self) -> tuple[str, ...]:
        return self.state.waiting_for

    @property
    def result(self) -> Result | None:
        return self.state.result

    def act(self, kind: str, seat: str, data: Placement | Mapping[str, JSON]) -> tuple[Event, ...]:
        """Submit an action; raises an :class:`~engine.core.EngineError` and changes
        nothing if refused."""
        payload = data.to_json() if isinstance(data, Placement) else dict(data)
        return self.game.act(Action(kind, seat, payload))

    def place(self, seat: str, placement: Placement | Mapping[str, JSON]) -> tuple[Event, ...]:
        """Choose (or change) ``seat``'s drawing of the explore card in play."""
        return self.act(PLACE, seat, placement)

    def draw_monster(
        self, seat: str, placement: Placement | Mapping[str, JSON]
    ) -> tuple[Event, ...]:
        """Neighbour mode: ``seat`` draws the ambush's monster on the map it holds."""
        return self.act(MONSTER, seat, placement)

    def view(self, seat: str | None = None) -> SeatView:
        return view(self.state, seat)

    def legal_placements(
        self, seat: str, terrain: Terrain | str, shape: int | None
    ) -> list[Drawing]:
        return legal_placements(self.state, seat, terrain, shape)
