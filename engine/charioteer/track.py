"""The track's geometry (spec §2, reconstructed [R]; every number a named constant).

A chariot's position is one integer that grows across laps: the Start space is 0, the
finish line follows position 2, and position ``p >= 3`` is lap index ``(p - 3) % 62 + 1``.
Lap indices run 1–62 counter-clockwise from the finish line; the two curves hold outer
spaces between their regular spaces.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.charioteer.components import LAPS

LAP_LENGTH = 62
START_LAP_INDEX = 60
"""The Start space, three spaces behind the finish line."""
FIRST_LAP_OFFSET = LAP_LENGTH - START_LAP_INDEX + 1
"""Positions before the first crossing of the finish line (0, 1, 2)."""


@dataclass(frozen=True)
class Section:
    """A stretch of the track by lap index (inclusive)."""

    name: str
    first: int
    last: int
    curve: bool


SECTIONS: tuple[Section, ...] = (
    Section("first straight", 1, 3, curve=False),
    Section("first curve", 4, 20, curve=True),
    Section("back straight", 21, 34, curve=False),
    Section("second curve", 35, 51, curve=True),
    Section("home straight", 52, 62, curve=False),
)
"""[R] The five sections; in a curve the first space is regular, then outer and regular
alternate, and the last is regular."""


def _outer_indices() -> frozenset[int]:
    outer: set[int] = set()
    for section in SECTIONS:
        if section.curve:
            outer.update(range(section.first + 1, section.last, 2))
    return frozenset(outer)


OUTER_LAP_INDICES: frozenset[int] = _outer_indices()
REGULAR_PER_LAP = LAP_LENGTH - len(OUTER_LAP_INDICES)


def lap_index(position: int) -> int:
    """The space's index on the lap, 1–62."""
    return (position - FIRST_LAP_OFFSET) % LAP_LENGTH + 1


def section_of(position: int) -> Section:
    index = lap_index(position)
    for section in SECTIONS:
        if section.first <= index <= section.last:
            return section
    raise AssertionError(f"lap index {index} is in no section")


def is_outer(position: int) -> bool:
    """Whether the space is an outer space of a curve."""
    return lap_index(position) in OUTER_LAP_INDICES


def finish_position(laps: int = LAPS) -> int:
    """The first position past the final finish line: the race ends on reaching it."""
    return FIRST_LAP_OFFSET + LAP_LENGTH * laps


def laps_completed(position: int) -> int:
    """How many times a chariot at ``position`` has crossed the finish line after Start,
    i.e. completed laps (crossing at position 3 only starts lap 1)."""
    if position < FIRST_LAP_OFFSET:
        return 0
    return (position - FIRST_LAP_OFFSET) // LAP_LENGTH


def next_space(position: int, regular_only: bool) -> tuple[int, tuple[int, ...]]:
    """The space one point of movement enters, and the outer spaces it skips on the way."""
    target = position + 1
    skipped: list[int] = []
    while regular_only and is_outer(target):
        skipped.append(target)
        target += 1
    return target, tuple(skipped)
