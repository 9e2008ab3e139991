"""A race at one moment: options, chariots, cards, tokens, the emperor and the commits of
the turn in progress (spec §1–§3). Every value is immutable; rules build new states.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from engine.charioteer.components import (
    BONUS_SLOTS,
    COLOURS,
    LAPS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SKILL_BOX_LEVEL,
    Card,
    Colour,
    EmperorFace,
    Token,
    skill_bonus,
)
from engine.charioteer.moves import Move, RevealedMove
from engine.charioteer.track import finish_position, lap_index, laps_completed
from engine.core import JSON, MalformedPosition, commit_of

SEAT_NAMES: tuple[str, ...] = ("A", "B", "C", "D", "E", "F")
MAX_LAPS = 9


@dataclass(frozen=True)
class RaceOptions:
    """What a table may choose: the number of laps and the rulings the spec names."""

    laps: int = LAPS
    whips_stack: bool = True
    """Several whips in one move add 5 spaces each [ruling, from the Spanish text];
    off: one whip or several give 5."""
    crowd_counts_toward_minimum: bool = True
    """The crowd card counts toward the two matching cards a move needs [ruling];
    off: two matching cards from hand."""
    crowd_counts_for_attack: bool = True
    """The crowd card counts toward a minor (3) or major (4) attack [ruling]."""
    emperor_disrupts: bool = True
    """The disrupt face adds cubes; off: it does nothing (a gentler table)."""

    def __post_init__(self) -> None:
        if isinstance(self.laps, bool) or not isinstance(self.laps, int):
            raise MalformedPosition("laps must be a whole number")
        if not 1 <= self.laps <= MAX_LAPS:
            raise MalformedPosition(f"laps must be 1 to {MAX_LAPS}")
        for item in dataclasses.fields(self):
            if item.name != "laps" and not isinstance(getattr(self, item.name), bool):
                raise MalformedPosition(f"option {item.name} must be true or false")

    @property
    def finish(self) -> int:
        return finish_position(self.laps)

    def to_json(self) -> dict[str, JSON]:
        """Only the options that differ from the defaults."""
        default = RaceOptions()
        return {
            item.name: getattr(self, item.name)
            for item in dataclasses.fields(self)
            if getattr(self, item.name) != getattr(default, item.name)
        }

    @classmethod
    def from_json(cls, obj: JSON) -> RaceOptions:
        if not isinstance(obj, Mapping):
            raise MalformedPosition("options must be an object")
        names = {item.name for item in dataclasses.fields(cls)}
        unknown = set(obj) - names
        if unknown:
            raise MalformedPosition(f"unknown options: {', '.join(sorted(unknown))}")
        return cls(**obj)


@dataclass(frozen=True)
class Skill:
    """A skill marker: a level on the track (0–10), or in the bonus box with its slot."""

    level: int
    slot: int | None = None

    def __post_init__(self) -> None:
        if self.slot is None and not 0 <= self.level < SKILL_BOX_LEVEL:
            raise MalformedPosition(f"a skill level is 0 to {SKILL_BOX_LEVEL - 1}")
        if self.slot is not None and (
            self.slot not in BONUS_SLOTS or self.level != SKILL_BOX_LEVEL
        ):
            raise MalformedPosition(f"a bonus slot is one of {', '.join(map(str, BONUS_SLOTS))}")

    @property
    def in_box(self) -> bool:
        return self.slot is not None

    @property
    def bonus(self) -> int:
        return self.slot if self.slot is not None else skill_bonus(self.level)

    def to_json(self) -> JSON:
        return {"bonus": self.slot} if self.slot is not None else self.level

    @classmethod
    def from_json(cls, obj: JSON) -> Skill:
        if isinstance(obj, Mapping) and set(obj) == {"bonus"} and isinstance(obj["bonus"], int):
            return cls(SKILL_BOX_LEVEL, obj["bonus"])
        if isinstance(obj, int) and not isinstance(obj, bool):
            return cls(obj)
        raise MalformedPosition(f'a skill is a level or {{"bonus": slot}}, not {obj!r}')


@dataclass(frozen=True)
class Chariot:
    """One seat's chariot, display and secret holdings."""

    seat: str
    position: int
    lane: int
    damage: int
    attack: int
    skills: tuple[Skill, Skill, Skill, Skill]
    """In colour order: green, red, yellow, black."""
    hand: tuple[Card, ...]
    tokens: tuple[Token, ...]
    last_move: RevealedMove | None = None

    def skill(self, colour: Colour) -> Skill:
        return self.skills[COLOURS.index(colour)]

    def with_skill(self, colour: Colour, skill: Skill) -> Chariot:
        skills = list(self.skills)
        skills[COLOURS.index(colour)] = skill
        return dataclasses.replace(self, skills=(skills[0], skills[1], skills[2], skills[3]))

    @property
    def free_slots(self) -> tuple[int, ...]:
        taken = {skill.slot for skill in self.skills}
        return tuple(slot for slot in BONUS_SLOTS if slot not in taken)

    @property
    def laps(self) -> int:
        return laps_completed(self.position)


@dataclass(frozen=True)
class Result:
    """How a race ended: the winner and the full ranking (race order at the end)."""

    winner: str
    ranking: tuple[str, ...]
    turns: int

    def to_json(self) -> dict[str, JSON]:
        return {"winner": self.winner, "ranking": list(self.ranking)}


@dataclass(frozen=True)
class RaceState:
    """The whole race. ``seed`` and ``draws`` feed live chance (never shown to players);
    ``deck`` and ``fan_bag`` list their top first; ``crowd`` is slot 1 first."""

    options: RaceOptions
    seed: int
    draws: int
    turn: int
    emperor: EmperorFace
    next_emperor: EmperorFace | None
    crowd: tuple[Card, ...]
    deck: tuple[Card, ...]
    discard: tuple[Card, ...]
    fan_bag: tuple[Token, ...]
    fan_discard: tuple[Token, ...]
    chariots: tuple[Chariot, ...]
    first_seat: str | None
    commits: tuple[tuple[str, Move], ...] = ()
    result: Result | None = None

    def __post_init__(self) -> None:
        seats = [chariot.seat for chariot in self.chariots]
        if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
            raise MalformedPosition(f"a race has {MIN_PLAYERS} to {MAX_PLAYERS} chariots")
        if len(set(seats)) != len(seats):
            raise MalformedPosition("every chariot needs its own seat")
        spots = [(lap_index(chariot.position), chariot.lane) for chariot in self.chariots]
        if len(set(spots)) != len(spots):
            raise MalformedPosition("two chariots stand in the same lane of the same space")
        for chariot in self.chariots:
            if chariot.position < 0 or chariot.lane < 0:
                raise MalformedPosition(f"chariot {chariot.seat}: position and lane start at 0")
            if chariot.damage < 0 or not 0 <= chariot.attack <= 3:
                raise MalformedPosition(
                    f"chariot {chariot.seat}: damage is 0 or more, attack boxes hold 0 to 3"
                )
            slots = [skill.slot for skill in chariot.skills if skill.slot is not None]
            if len(set(slots)) != len(slots):
                raise MalformedPosition(f"chariot {chariot.seat}: two markers in one bonus slot")
        if self.first_seat is not None and self.first_seat not in seats:
            raise MalformedPosition(f"first_seat {self.first_seat} is not a seat of the race")

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(chariot.seat for chariot in self.chariots)

    def chariot(self, seat: str) -> Chariot:
        for chariot in self.chariots:
            if chariot.seat == seat:
                return chariot
        raise KeyError(seat)

    def commit_of(self, seat: str) -> Move | None:
        return commit_of(self.commits, seat)

    @property
    def waiting_for(self) -> tuple[str, ...]:
        """Seats that still owe a move this turn, in seat order."""
        if self.result is not None:
            return ()
        done = {seat for seat, _ in self.commits}
        return tuple(seat for seat in self.seats if seat not in done)

    @property
    def is_over(self) -> bool:
        return self.result is not None

    def race_order(self) -> tuple[str, ...]:
        """Seats from the leader back: furthest position first, inner lane first."""
        return race_order(self.chariots)

    def turn_one_order(self) -> tuple[str, ...]:
        """Turn 1: seat order starting from the first player."""
        seats = self.seats
        first = seats.index(self.first_seat) if self.first_seat in seats else 0
        return seats[first:] + seats[:first]


def race_order(chariots: tuple[Chariot, ...] | list[Chariot]) -> tuple[str, ...]:
    ordered = sorted(chariots, key=lambda chariot: (-chariot.position, chariot.lane))
    return tuple(chariot.seat for chariot in ordered)
