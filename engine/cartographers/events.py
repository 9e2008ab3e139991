"""Everything that can happen at a Cartographers table, as events in the order it happened
(spec §2). Events are public unless marked private: a player's own choice, before the
turn resolves, is seen only by that player.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.cartographers.placement import Drawing
from engine.cartographers.state import Result, SeasonScore
from engine.core import Event, SeatCommitted, SeatWithdrawn


@dataclass(frozen=True)
class CardRevealed(Event):
    """The top explore card is turned over (an explore, ruins or ambush card)."""

    type: ClassVar[str] = "card_revealed"
    card: str
    season: str
    time_used: int


@dataclass(frozen=True)
class TurnStarted(Event):
    """Players now owe a drawing: ``phase`` is ``draw`` (the explore card) or ``ambush``
    (a neighbour's monster)."""

    type: ClassVar[str] = "turn_started"
    turn: int
    phase: str
    card: str
    ruins: bool
    waiting_for: tuple[str, ...]


@dataclass(frozen=True)
class PlacementCommitted(SeatCommitted):
    """A seat has chosen its drawing (what it chose stays secret); ``changed`` if it
    replaced an earlier choice this turn."""


@dataclass(frozen=True)
class PlacementWithdrawn(SeatWithdrawn):
    """A seat's drawing of this turn was taken back unrevealed (its seat changed hands):
    the seat owes a drawing again."""


@dataclass(frozen=True)
class PlacementChosen(Event):
    """What a seat chose, for that seat only until the turn resolves."""

    type: ClassVar[str] = "placement_chosen"
    private: ClassVar[bool] = True
    seat: str
    map: str
    drawing: Drawing


@dataclass(frozen=True)
class ShapeDrawn(Event):
    """A drawing lands on ``map``'s sheet; ``seat`` drew it (a neighbour for monsters)."""

    type: ClassVar[str] = "drawn"
    seat: str
    map: str
    card: str
    drawing: Drawing


@dataclass(frozen=True)
class MonsterPlaced(Event):
    """The solo scan (solo and auto-ambush) draws an ambush's monster on ``map``."""

    type: ClassVar[str] = "monster_placed"
    map: str
    card: str
    cells: tuple[str, ...]


@dataclass(frozen=True)
class AmbushIgnored(Event):
    """The solo scan finds no room for the monster on ``map``: the card is ignored there."""

    type: ClassVar[str] = "ambush_ignored"
    map: str
    card: str


@dataclass(frozen=True)
class CoinsGained(Event):
    """Coins for ``map``'s owner: ``shape`` from a coin shape, ``mountains`` newly
    surrounded; ``coins`` is the new total (the track stops at its last space)."""

    type: ClassVar[str] = "coins"
    map: str
    shape: int
    mountains: tuple[str, ...]
    coins: int


@dataclass(frozen=True)
class SeasonScored(Event):
    type: ClassVar[str] = "season_scored"
    seat: str
    edicts: tuple[str, str]
    score: SeasonScore
    stars: int


@dataclass(frozen=True)
class SeasonEnded(Event):
    """A season is over; the explore deck is reshuffled with ``ambushes`` ambush cards."""

    type: ClassVar[str] = "season_ended"
    season: str
    next_season: str
    deck_size: int
    ambushes: int


@dataclass(frozen=True)
class GameEnded(Event):
    type: ClassVar[str] = "game_ended"
    result: Result
