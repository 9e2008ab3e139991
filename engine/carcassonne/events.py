"""Everything that can happen at a Carcassonne: Star Wars table, as events in the order it
happened. Every event is public: the only secret of the game is the stack's order (spec §7),
and no event tells it (a drawn tile is shown to everyone as it is drawn).

Scores are told by *unit*: a seat, or a team in the team variant (spec §5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.carcassonne.board import FeatureRef
from engine.carcassonne.components import Kind, Size
from engine.carcassonne.state import Result
from engine.core import Event


@dataclass(frozen=True)
class TileDrawn(Event):
    type: ClassVar[str] = "tile_drawn"
    seat: str
    tile: str
    stack_left: int


@dataclass(frozen=True)
class TileRemoved(Event):
    """A drawn tile fits nowhere and leaves the game (spec §2)."""

    type: ClassVar[str] = "tile_removed"
    tile: str


@dataclass(frozen=True)
class TileReturned(Event):
    """A drawn tile fits nowhere and goes back into the stack (the table option)."""

    type: ClassVar[str] = "tile_returned"
    tile: str


@dataclass(frozen=True)
class TilePlaced(Event):
    type: ClassVar[str] = "tile_placed"
    seat: str
    tile: str
    x: int
    y: int
    rotation: int
    """Degrees clockwise: 0, 90, 180 or 270."""


@dataclass(frozen=True)
class MeepleDeployed(Event):
    """``attack`` when the meeple lands on a planet around the placed tile (spec §2)."""

    type: ClassVar[str] = "meeple_deployed"
    seat: str
    size: Size
    at: FeatureRef
    kind: Kind
    attack: bool


@dataclass(frozen=True)
class NothingDeployed(Event):
    type: ClassVar[str] = "nothing_deployed"
    seat: str


@dataclass(frozen=True)
class BattleStarted(Event):
    """Meeples of several units share a feature (spec §3): ``sides`` are (unit, dice)."""

    type: ClassVar[str] = "battle_started"
    at: FeatureRef
    kind: Kind
    sides: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class DiceRolled(Event):
    """One roll of a battle: every fighting unit's dice (``round`` counts from 1)."""

    type: ClassVar[str] = "dice_rolled"
    at: FeatureRef
    round: int
    rolls: tuple[tuple[str, tuple[int, ...]], ...]


@dataclass(frozen=True)
class BattleLost(Event):
    """``unit`` rolled lower than the best: its meeples go home and it scores its dice."""

    type: ClassVar[str] = "battle_lost"
    at: FeatureRef
    unit: str
    points: int


@dataclass(frozen=True)
class BattleTied(Event):
    """The best die is shared: each tied unit scores 1 and they roll again."""

    type: ClassVar[str] = "battle_tied"
    at: FeatureRef
    units: tuple[str, ...]


@dataclass(frozen=True)
class BattleWon(Event):
    type: ClassVar[str] = "battle_won"
    at: FeatureRef
    unit: str


@dataclass(frozen=True)
class FeatureScored(Event):
    """A feature scores for ``unit`` (when it is completed, or at the end when ``final``);
    its meeples return to ``returned`` (one seat per meeple)."""

    type: ClassVar[str] = "feature_scored"
    at: FeatureRef
    kind: Kind
    unit: str
    points: int
    tiles: int
    symbols: int
    complete: bool
    final: bool
    returned: tuple[str, ...]


@dataclass(frozen=True)
class GameEnded(Event):
    type: ClassVar[str] = "game_ended"
    result: Result
