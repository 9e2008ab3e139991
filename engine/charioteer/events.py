"""Everything that can happen in a race, as events in the order it happened (spec §3–§8).

Events are public unless marked private; a private event is seen only by its ``seat``
(cards drawn, the face of a fan token drawn). Renderers tell the story from these.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.charioteer.components import Card, Colour, EmperorFace, Token
from engine.charioteer.moves import RevealedMove
from engine.core import Event, SeatCommitted, SeatWithdrawn


@dataclass(frozen=True)
class MoveCommitted(SeatCommitted):
    """A seat has chosen its move (what it chose stays secret); ``changed`` if it replaced
    an earlier choice this turn."""


@dataclass(frozen=True)
class MoveWithdrawn(SeatWithdrawn):
    """A seat's move for this turn was taken back unrevealed (its seat changed hands): the
    seat owes a move again."""


@dataclass(frozen=True)
class MoveRevealed(Event):
    type: ClassVar[str] = "revealed"
    seat: str
    move: RevealedMove


@dataclass(frozen=True)
class AttackBoxesEmptied(Event):
    """A shield or reset empties the attack boxes at reveal; no cube arrives this turn."""

    type: ClassVar[str] = "attack_boxes_emptied"
    seat: str
    reason: str
    cubes: int


@dataclass(frozen=True)
class MoveOrder(Event):
    """The order chariots move in this turn: race order, or on turn 1 seat order from the
    first player."""

    type: ClassVar[str] = "move_order"
    order: tuple[str, ...]
    first_turn: bool


@dataclass(frozen=True)
class ResetMade(Event):
    type: ClassVar[str] = "reset"
    seat: str
    damage_removed: int


@dataclass(frozen=True)
class Recovered(Event):
    type: ClassVar[str] = "recovery"
    seat: str
    recoveries: int
    removed: int
    damage: int


@dataclass(frozen=True)
class DistanceComputed(Event):
    """The move's length: symbols + number + token + skill − damage, never below 0."""

    type: ClassVar[str] = "distance"
    seat: str
    symbols: int
    number: int
    token: int
    skill: int
    damage: int
    distance: int


@dataclass(frozen=True)
class Entered(Event):
    """One point of movement (or one whip step) entering the next space."""

    type: ClassVar[str] = "entered"
    seat: str
    position: int
    lane: int
    outer: bool
    whip: bool = False


@dataclass(frozen=True)
class Passed(Event):
    """``seat`` passes ``rival``: moving inside it in a space (``cost`` 1, or 0 on turn 1),
    or skipping the outer space it stands on (``how`` = ``"outer"``, cost 0)."""

    type: ClassVar[str] = "passed"
    seat: str
    rival: str
    position: int
    cost: int
    how: str


@dataclass(frozen=True)
class Whipped(Event):
    """A move's whips: ``spaces`` gained, and why they stopped (``"turn 1"``,
    ``"leading"``, ``"passed"``, ``"blocked"`` by a rival ahead, or ``"spent"``)."""

    type: ClassVar[str] = "whip"
    seat: str
    whips: int
    spaces: int
    stopped: str


@dataclass(frozen=True)
class MoveFinished(Event):
    """Where the chariot stopped after its move and whips."""

    type: ClassVar[str] = "moved"
    seat: str
    start: int
    position: int
    lane: int
    spaces: int
    passed: tuple[str, ...]


@dataclass(frozen=True)
class LapCompleted(Event):
    type: ClassVar[str] = "lap"
    seat: str
    lap: int
    final: bool


@dataclass(frozen=True)
class Attacked(Event):
    """A red attack: ``hits`` lists each rival and the cubes it took; shielded and reset
    rivals took none, and full attack boxes take no more."""

    type: ClassVar[str] = "attack"
    seat: str
    size: str
    cubes: int
    hits: tuple[tuple[str, int], ...]
    shielded: tuple[str, ...]


@dataclass(frozen=True)
class SkillAdvanced(Event):
    """A skill marker's steps: 1 for the move, +1 for the emperor, +1 per learning."""

    type: ClassVar[str] = "skill"
    seat: str
    colour: Colour
    steps: int
    emperor: bool
    learning: int
    start: int
    level: int


@dataclass(frozen=True)
class BonusSlotTaken(Event):
    type: ClassVar[str] = "bonus_slot"
    seat: str
    colour: Colour
    slot: int


@dataclass(frozen=True)
class FanTokenDrawn(Event):
    """A move of six or more matching symbols drew a fan token (its face is private);
    ``drawn`` is false when the bag and its discards were both empty."""

    type: ClassVar[str] = "fan_token"
    seat: str
    symbols: int
    drawn: bool


@dataclass(frozen=True)
class FanTokenReceived(Event):
    type: ClassVar[str] = "fan_token_received"
    private: ClassVar[bool] = True
    seat: str
    token: Token


@dataclass(frozen=True)
class FanBagRefilled(Event):
    type: ClassVar[str] = "fan_bag_refilled"
    tokens: int


@dataclass(frozen=True)
class DamageTaken(Event):
    """End of turn: the attack boxes empty into the damage box."""

    type: ClassVar[str] = "damage"
    seat: str
    cubes: int
    damage: int


@dataclass(frozen=True)
class DeckReshuffled(Event):
    type: ClassVar[str] = "reshuffle"
    cards: int


@dataclass(frozen=True)
class HandRefilled(Event):
    type: ClassVar[str] = "refill"
    seat: str
    cards: int


@dataclass(frozen=True)
class CardsDrawn(Event):
    type: ClassVar[str] = "drawn"
    private: ClassVar[bool] = True
    seat: str
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class CrowdAdvanced(Event):
    type: ClassVar[str] = "crowd"
    discarded: Card | None
    crowd: tuple[Card, ...]


@dataclass(frozen=True)
class EmperorRolled(Event):
    type: ClassVar[str] = "emperor"
    face: EmperorFace
    turn: int


@dataclass(frozen=True)
class Disrupted(Event):
    """The disrupt face: cubes added to each chariot's attack boxes."""

    type: ClassVar[str] = "disrupt"
    hits: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class RaceEnded(Event):
    type: ClassVar[str] = "race_end"
    winner: str
    ranking: tuple[str, ...]
    turns: int
