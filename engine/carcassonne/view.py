"""What a seat (or a spectator) may see of a game (spec §7): everything on the map, the
tile in hand, the scores and supplies, and which tiles are still to come, but not the
stack's order. Every seat sees the same thing; :func:`view` is the one way a renderer or
an AI seat looks at a game.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from engine.carcassonne.board import Board
from engine.carcassonne.components import Size, catalogue
from engine.carcassonne.state import GameState, Meeple, Options, Phase, Result
from engine.core import JSON


@dataclass(frozen=True)
class SeatView:
    seat: str | None
    tile_set: str
    seats: tuple[str, ...]
    options: Options
    board: Board
    meeples: tuple[Meeple, ...]
    current: str | None
    tiles_left: tuple[tuple[str, int], ...]
    """How many of each tile are still in the stack (public: anyone can count them)."""
    stack_size: int
    removed: tuple[str, ...]
    active: str
    turn: int
    phase: Phase
    placed: tuple[int, int] | None
    units: tuple[str, ...]
    scores: tuple[int, ...]
    result: Result | None

    def supply(self, seat: str) -> dict[Size, int]:
        return self.as_state().supply(seat)

    def as_state(self, stack: tuple[str, ...] | None = None) -> GameState:
        """A state that looks like this view, with the stack in catalogue order (or in
        the order given): what an AI reasons on without knowing the real order."""
        if stack is None:
            return self._looks_like
        return self._state_with(stack)

    @cached_property
    def _looks_like(self) -> GameState:
        """:meth:`as_state` with the stack in catalogue order, worked out once (states are
        never changed, only replaced)."""
        return self._state_with(
            tuple(tile for tile, count in self.tiles_left for _ in range(count))
        )

    def __getstate__(self) -> dict[str, object]:
        """Pickled (for a picture drawn in another process) without what it works out."""
        return {key: value for key, value in self.__dict__.items() if key != "_looks_like"}

    def _state_with(self, stack: tuple[str, ...]) -> GameState:
        return GameState(
            seats=self.seats,
            options=self.options,
            seed=0,
            draws=0,
            board=self.board,
            meeples=self.meeples,
            stack=stack,
            current=self.current,
            removed=self.removed,
            active=self.seats.index(self.active),
            turn=self.turn,
            phase=self.phase,
            placed=self.placed,
            scores=self.scores,
            result=self.result,
        )

    def to_json(self) -> dict[str, JSON]:
        return {
            "seat": self.seat,
            "tile_set": self.tile_set,
            "seats": list(self.seats),
            "options": self.options.to_json(),
            "board": [placed.to_json() for placed in self.board.tiles],
            "meeples": [meeple.to_json() for meeple in self.meeples],
            "current": self.current,
            "tiles_left": dict(self.tiles_left),
            "stack_size": self.stack_size,
            "removed": list(self.removed),
            "active": self.active,
            "turn": self.turn,
            "phase": self.phase.value,
            "placed": None if self.placed is None else list(self.placed),
            "scores": dict(zip(self.units, self.scores, strict=True)),
            "supplies": {
                seat: {size.value: n for size, n in self.supply(seat).items()}
                for seat in self.seats
            },
            "result": None if self.result is None else self.result.to_json(),
        }


def view(state: GameState, seat: str | None = None) -> SeatView:
    counts = Counter(state.stack)
    order = [tile.id for tile in catalogue().tiles]
    return SeatView(
        seat=seat,
        tile_set=catalogue().name,
        seats=state.seats,
        options=state.options,
        board=state.board,
        meeples=state.meeples,
        current=state.current,
        tiles_left=tuple((tile, counts[tile]) for tile in order if counts[tile]),
        stack_size=len(state.stack),
        removed=state.removed,
        active=state.active_seat,
        turn=state.turn,
        phase=state.phase,
        placed=state.placed,
        units=state.units,
        scores=state.scores,
        result=state.result,
    )


__all__ = ["SeatView", "view"]
