"""A game at one moment (spec §2): the tiles on the map, the meeples on them, the draw
stack, the tile in hand, whose turn it is, the scores. Every value is immutable; the rules
build new states. Supplies are not stored: a player's supply is their 4 small and 1 large
meeples less those on the map, so meeples are conserved by construction.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

from engine.carcassonne.board import Board, FeatureRef
from engine.carcassonne.components import (
    LARGE_MEEPLES,
    SMALL_MEEPLES,
    Colour,
    Faction,
    Size,
)
from engine.core import JSON

REBELS = "rebels"
EMPIRE = "empire"
TEAM_OF: dict[str, str] = {
    Colour.RED: REBELS,
    Colour.GREEN: REBELS,
    Colour.BLACK: EMPIRE,
    Colour.WHITE: EMPIRE,
}
TEAM_FACTION: dict[str, Faction] = {REBELS: Faction.REBEL, EMPIRE: Faction.EMPIRE}


class Phase(StrEnum):
    PLACE = "place"
    """The active player places the tile in hand."""
    DEPLOY = "deploy"
    """The active player deploys a meeple (or not) on or from the tile just placed."""
    OVER = "over"


class Unplaceable(StrEnum):
    REMOVE = "remove"
    """A tile that fits nowhere leaves the game (spec §2, the publisher's rule; default)."""
    RETURN = "return"
    """It goes back into the stack at a random depth and another is drawn (table option)."""


@dataclass(frozen=True)
class Options:
    team: bool = False
    """The team variant (spec §5): 4 players, rebels (red, green) against empire (black, white)."""
    unplaceable: Unplaceable = Unplaceable.REMOVE

    def to_json(self) -> dict[str, JSON]:
        return {"team": self.team, "unplaceable": self.unplaceable.value}


@dataclass(frozen=True)
class Meeple:
    seat: str
    size: Size
    at: FeatureRef

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "size": self.size.value, **self.at.to_json()}


@dataclass(frozen=True)
class Result:
    """The final scores by scoring unit (a seat, or a team), best first; ``winners`` are
    every unit sharing the top score."""

    scores: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]

    def to_json(self) -> dict[str, JSON]:
        return {"scores": dict(self.scores), "winners": list(self.winners)}


@dataclass(frozen=True)
class GameState:
    seats: tuple[str, ...]
    options: Options
    seed: int
    draws: int
    """Chance outcomes used so far (the next live stream)."""
    board: Board
    meeples: tuple[Meeple, ...]
    stack: tuple[str, ...]
    """The tiles still to draw, top first: the only secret of the game (spec §7)."""
    current: str | None
    """The tile in hand (drawn for the active player), ``None`` once the game is over."""
    removed: tuple[str, ...]
    """Tiles that fitted nowhere and left the game."""
    active: int
    turn: int
    phase: Phase
    placed: tuple[int, int] | None
    """The square of the tile placed last (the one to deploy from in the deploy phase)."""
    scores: tuple[int, ...]
    """Points per scoring unit, in the order of :attr:`units`."""
    result: Result | None = None

    @property
    def active_seat(self) -> str:
        return self.seats[self.active]

    @cached_property
    def units(self) -> tuple[str, ...]:
        """Who scores: each seat, or the two teams in the team variant."""
        if self.options.team:
            return (REBELS, EMPIRE)
        return self.seats

    def unit_of(self, seat: str) -> str:
        return TEAM_OF[seat] if self.options.team else seat

    def faction_of(self, unit: str) -> Faction:
        if self.options.team:
            return TEAM_FACTION[unit]
        return Colour(unit).faction

    def score_of(self, unit: str) -> int:
        return self.scores[self.units.index(unit)]

    def supply(self, seat: str) -> dict[Size, int]:
        """Meeples of each size ``seat`` still holds."""
        small = sum(m.seat == seat and m.size is Size.SMALL for m in self.meeples)
        large = sum(m.seat == seat and m.size is Size.LARGE for m in self.meeples)
        return {Size.SMALL: SMALL_MEEPLES - small, Size.LARGE: LARGE_MEEPLES - large}

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER
