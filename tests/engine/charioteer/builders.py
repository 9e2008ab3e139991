"""Small builders for Charioteer positions (spec §10) and one-turn resolutions, so that a
test reads like the rulebook example it pins.

A position built here gives ``deck``, ``fan_bag`` and ``next_emperor`` explicitly, so no
outcome depends on the seed. Defaults are neutral: every skill at level 0 (bonus 0), no
damage, an emperor face (``disrupt``) whose cubes are already counted in ``attack`` and
that favours no colour, and a next face (``green``) that adds no cube.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.charioteer import Race
from engine.charioteer.events import (
    Entered,
    MoveFinished,
    Passed,
)
from engine.core import JSON, Event

E = TypeVar("E", bound=Event)

FILLER = "Y0 B0"
"""A card no example plays: decks and crowds are filled with it."""

LEVEL_ZERO: dict[str, JSON] = {"green": 0, "red": 0, "yellow": 0, "black": 0}


# Track landmarks on the first lap (spec §2): position = lap index + 2 for positions ≥ 3.
BACK_STRAIGHT = 23
"""Lap index 21, the first space of the back straight (14 regular spaces: 23–36)."""
CURVE_1_FIRST = 6
"""Lap index 4, the first (regular) space of curve 1; its outer spaces are 7, 9, … 21."""
HOME_STRAIGHT = 54
"""Lap index 52, the first space of the home straight (54–64; the line follows 64)."""


def skills(green: JSON = 0, red: JSON = 0, yellow: JSON = 0, black: JSON = 0) -> dict[str, JSON]:
    """A skills object: a level 0–10, or ``{"bonus": slot}`` for a marker in the box."""
    return {"green": green, "red": red, "yellow": yellow, "black": black}


def box(slot: int) -> dict[str, int]:
    """A marker in the bonus box, in the slot worth ``slot``."""
    return {"bonus": slot}


def chariot(
    seat: str,
    position: int,
    lane: int = 0,
    *,
    hand: Sequence[str] = (),
    tokens: Sequence[str] = (),
    damage: int = 0,
    attack: int = 0,
    skill: Mapping[str, JSON] | None = None,
) -> dict[str, JSON]:
    """One chariot of a position (spec §10)."""
    return {
        "seat": seat,
        "position": position,
        "lane": lane,
        "damage": damage,
        "attack": attack,
        "skills": dict(skill if skill is not None else LEVEL_ZERO),
        "hand": list(hand),
        "tokens": list(tokens),
    }


def position(
    *chariots: dict[str, JSON],
    turn: int = 2,
    emperor: str = "disrupt",
    next_emperor: str = "green",
    crowd: Sequence[str] = (FILLER, FILLER, FILLER),
    deck: Sequence[str] | None = None,
    fan_bag: Sequence[str] = ("green:+3", "red:+3", "yellow:+3", "black:+3"),
    options: Mapping[str, JSON] | None = None,
    **extra: JSON,
) -> dict[str, JSON]:
    """A whole position with every chance outcome given: ``deck`` (top first; default 60
    filler cards), ``fan_bag`` (top first) and ``next_emperor``."""
    out: dict[str, JSON] = {
        "turn": turn,
        "emperor": emperor,
        "next_emperor": next_emperor,
        "crowd": list(crowd),
        "chariots": list(chariots),
        "deck": list(deck) if deck is not None else [FILLER] * 60,
        "fan_bag": list(fan_bag),
    }
    if options:
        out["options"] = dict(options)
    out.update(extra)
    return out


def move(symbol: str, *cards: int, **more: JSON) -> dict[str, JSON]:
    """A normal move: ``move("R5", 0, 1, 2, crowd=True, token=0)``."""
    return {"symbol": symbol, "cards": list(cards), **more}


def reset(*cards: int, **more: JSON) -> dict[str, JSON]:
    """A reset move: ``reset(0)``."""
    return {"reset": True, "cards": list(cards), **more}


STAY = reset(0)
"""A reset with the first hand card: the chariot stays where it is (spec §5 Reset)."""


@dataclass
class Turn:
    """One resolved turn: the race after it, its events and the position written."""

    race: Race
    events: list[Event]

    @property
    def after(self) -> dict[str, JSON]:
        return self.race.position()

    def chariot(self, seat: str) -> dict[str, JSON]:
        for item in self.after["chariots"]:
            if item["seat"] == seat:
                return dict(item)
        raise KeyError(seat)

    def of(self, kind: type[E], **fields: Any) -> list[E]:
        """Events of one class whose fields equal ``fields``."""
        return [
            event
            for event in self.events
            if isinstance(event, kind)
            and all(getattr(event, name) == value for name, value in fields.items())
        ]

    def one(self, kind: type[E], **fields: Any) -> E:
        found = self.of(kind, **fields)
        assert len(found) == 1, f"expected one {kind.__name__} {fields}, got {found}"
        return found[0]

    def entered(self, seat: str) -> list[int]:
        """The spaces ``seat`` entered, in order (regular move and whip steps)."""
        return [event.position for event in self.of(Entered, seat=seat)]

    def passed(self, seat: str) -> list[tuple[str, int, int, str]]:
        """(rival, space, cost, how) for every pass ``seat`` made."""
        return [
            (event.rival, event.position, event.cost, event.how)
            for event in self.of(Passed, seat=seat)
        ]

    def finished(self, seat: str) -> MoveFinished:
        return self.one(MoveFinished, seat=seat)

    def spot(self, seat: str) -> tuple[int, int]:
        """(position, lane) of ``seat`` after the turn."""
        item = self.chariot(seat)
        return item["position"], item["lane"]


def play(start: Mapping[str, JSON], moves: Mapping[str, Mapping[str, JSON]]) -> Turn:
    """Resolve one turn of ``start``: every seat commits its move in seat order."""
    race = Race.from_position(start)
    events: list[Event] = []
    for seat in race.seats:
        events.extend(race.commit(seat, moves[seat]))
    assert race.turn != start["turn"] or race.is_over, "the turn did not resolve"
    return Turn(race, events)


def event_types(events: Iterable[Event]) -> list[str]:
    return [event.type for event in events]
