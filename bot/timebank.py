"""Each seat's clock at a running table: since when it owes a move, what is left of its time
bank, and when its time runs out.

A table's time control is a time per turn (every seat owing a move has the same time from
the start of the turn), a time bank per seat (a reserve that a seat's owing time spends,
plus an increment for each move, capped at the reserve), or none. Each seat's clock is
stored with the table (``clocks``: seat → ``{"since": …, "left": …}``) and every time
here is computed from stored facts alone, so a restart or another process finds the same
deadlines. A member away (:class:`Away`) has their seats played by the AI as soon as a move
is owed, or, where the table lets banks pause, their bank stops while they are away.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.core import JSON

HOUR = 3600
DAY = 24 * HOUR
BANK_PRESETS: dict[str, tuple[int, int]] = {
    "fast": (2 * HOUR, HOUR),
    "daily": (36 * HOUR, 12 * HOUR),
    "weekly": (7 * DAY, DAY),
}
"""Time banks a lobby offers: (reserve, increment per move) in seconds."""
MIN_BANK_SECONDS = 60
VOTE_AFTER = DAY
"""How long a seat at a table without a time limit must have owed its move before the
other players may vote to hand it to the AI."""

Clocks = dict[str, dict[str, float]]
"""Each seat's clock: ``since`` (when it began owing its move; absent when it owes none),
``left`` (its bank's seconds left at ``since``, or now when it owes nothing), and
``away_since``, ``away_until`` while its member is (or was lately) away."""


@dataclass(frozen=True)
class Away:
    """A member away from ``since`` until ``until`` (seconds since the epoch)."""

    since: float
    until: float

    def at(self, now: float) -> bool:
        return self.since <= now < self.until

    @classmethod
    def of(cls, clock: Mapping[str, float]) -> Away | None:
        """The absence a seat's clock records, if any."""
        if "away_since" not in clock or "away_until" not in clock:
            return None
        return cls(clock["away_since"], clock["away_until"])


def with_away(clocks: Clocks, seats: Iterable[str], away: Away | None) -> Clocks:
    """``clocks`` with the absence of the member holding ``seats`` recorded (None: cleared)."""
    after = {seat: dict(clock) for seat, clock in clocks.items()}
    for seat in seats:
        clock = after.setdefault(seat, {})
        clock.pop("away_since", None)
        clock.pop("away_until", None)
        if away is not None:
            clock["away_since"], clock["away_until"] = away.since, away.until
    return after


def parse_bank(text: str) -> tuple[int, int] | None:
    """A custom bank as a player types it: ``36h+12h``, ``2d + 6h``, ``90m+30m`` (a reserve,
    then an increment; units ``m``, ``h``, ``d``); None when it does not read as one."""
    parts = [part.strip().lower() for part in text.split("+")]
    if len(parts) != 2:
        return None
    seconds = [_duration(part) for part in parts]
    reserve, increment = seconds
    if reserve is None or increment is None:
        return None
    return reserve, increment


def parse_duration(text: str) -> int | None:
    """``3d``, ``12h``, ``90m`` or ``2d12h`` as seconds; None when it does not read as one."""
    return _duration(text.strip().lower())


_UNITS = {"m": 60, "h": HOUR, "d": DAY}


def _duration(text: str) -> int | None:
    total, number = 0, ""
    for char in text.replace(" ", ""):
        if char.isdigit():
            number += char
        elif char in _UNITS and number:
            total += int(number) * _UNITS[char]
            number = ""
        else:
            return None
    return total if total > 0 and not number else None


def clocks_from_json(obj: JSON | None) -> Clocks:
    if not isinstance(obj, dict):
        return {}
    return {
        str(seat): {str(key): float(value) for key, value in clock.items()}
        for seat, clock in obj.items()
        if isinstance(clock, dict)
    }


def spent(since: float, now: float, away: Away | None) -> float:
    """Seconds of ``[since, now]`` a paused bank counts: all of it but the time away."""
    total = max(0.0, now - since)
    if away is None:
        return total
    overlap = max(0.0, min(now, away.until) - max(since, away.since))
    return total - overlap


def started(
    clocks: Clocks,
    seats: Iterable[str],
    now: float,
    reserve: int | None,
) -> Clocks:
    """``clocks`` with ``seats`` now owing a move (a seat new to the table gets a full bank)."""
    after = {seat: dict(clock) for seat, clock in clocks.items()}
    for seat in seats:
        clock = after.setdefault(seat, {})
        clock["since"] = now
        if reserve is not None:
            clock.setdefault("left", float(reserve))
    return after


def stopped(
    clocks: Clocks,
    seats: Iterable[str],
    now: float,
    bank: tuple[int, int] | None,
    pauses: bool,
) -> Clocks:
    """``clocks`` with ``seats`` done with their move: each bank pays the time it owed (the
    time away not counted where banks ``pauses``) and gains the increment, up to the
    reserve."""
    after = {seat: dict(clock) for seat, clock in clocks.items()}
    for seat in seats:
        clock = after.setdefault(seat, {})
        since = clock.pop("since", None)
        if bank is None or since is None:
            continue
        reserve, increment = bank
        away = Away.of(clock) if pauses else None
        left = clock.get("left", float(reserve)) - spent(since, now, away)
        clock["left"] = min(float(reserve), max(0.0, left) + increment)
    return after


def expiry(
    clock: Mapping[str, float],
    *,
    turn_seconds: int | None,
    bank: tuple[int, int] | None,
    pauses: bool,
) -> float | None:
    """When a seat owing a move runs out of time (None: never). A seat whose member is away
    runs out at once, unless its bank pauses while they are away."""
    away = Away.of(clock)
    since = clock.get("since")
    if since is None:
        return None
    if away is not None and not pauses and away.until > since:
        return max(since, away.since)
    if bank is not None:
        left = clock.get("left", float(bank[0]))
        if away is not None and pauses and away.since < since + left:
            before = max(0.0, away.since - since)
            return max(away.until, since) + left - before
        return since + left
    if turn_seconds is not None:
        return since + turn_seconds
    return None


def bank_left(clock: Mapping[str, float], now: float, pauses: bool) -> float:
    """A bank's seconds left now."""
    left = clock.get("left", 0.0)
    since = clock.get("since")
    if since is None:
        return left
    return max(0.0, left - spent(since, now, Away.of(clock) if pauses else None))


__all__ = [
    "BANK_PRESETS",
    "VOTE_AFTER",
    "Away",
    "Clocks",
    "bank_left",
    "clocks_from_json",
    "expiry",
    "parse_bank",
    "parse_duration",
    "spent",
    "started",
    "stopped",
    "with_away",
]
