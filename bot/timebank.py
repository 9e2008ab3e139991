"""Each seat's clock at a running table: since when it owes a move, what is left of its time
bank, and when its time runs out.

A table's time control is a time per turn (every seat owing a move has the same time from
the start of the turn), a time bank per seat (a reserve that a seat's owing time spends,
plus an increment for each move, capped at the reserve), or none. Each seat's clock is
stored with the table (``clocks``: seat → ``{"since": …, "left": …}``) and every time
here is computed from stored facts alone, so a restart or another process finds the same
deadlines. A member away (:class:`Away`) has their seats played by the AI as soon as a move
is owed, or, where the table lets banks pause, their bank stops while they are away.

Every wait has a bound, so a player who vanishes never holds a table for ever: a time per
turn is at most 3 days (the lobby's presets), a bank at most :data:`MAX_BANK_SECONDS` plus
at most :data:`MAX_INCREMENT_SECONDS` a move, an absence at most :data:`MAX_AWAY_SECONDS`;
where there is no limit, or a paused bank waits for a member away, the other players may
vote on the seat (:data:`VOTE_AFTER`, :data:`AWAY_VOTE_AFTER`), and a vote decides only
after the absent player's grace (:data:`VOTE_GRACE_HOURS` of their waking hours).
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
MAX_BANK_SECONDS = 14 * DAY
MAX_INCREMENT_SECONDS = 3 * DAY
"""A bank's reserve is 1 minute to 14 days, its increment 0 to 3 days a move (and no more
than the reserve): the longest a vanished player can hold a banked table is 14 days."""
MAX_AWAY_SECONDS = 30 * DAY
"""The longest absence ``/away`` takes at once."""
VOTE_AFTER = DAY
"""How long a seat at a table without a time limit must have owed its move before the
other players may vote to hand it to the AI."""
AWAY_VOTE_AFTER = 3 * DAY
"""Where banks pause while a member is away: how long a seat must have owed its move while
its member was away before the other players may vote on it."""
VOTE_GRACE_HOURS = 12
"""A vote on a seat decides only once its player has had this many of their waking hours
(their quiet hours not counted) since the vote opened, to move and keep the seat..."""
MAX_VOTE_GRACE = 3 * DAY
"""... or this long, whichever comes first (quiet hours of 23 a day wait no longer)."""
MAX_DIGITS = 6
"""The most digits a number of a typed duration may have (``999999m`` reads; more does
not): nothing typed is ever too large to read."""

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


VOTE_OPENS = "vote_opens"
"""A seat clock's key: when the vote opened on the move it owes may decide (its player's
grace ends); gone once the seat moves or changes hands."""
VOTE_DUE = "vote_due"
"""A seat clock's key while the votes cast in its player's grace hand the seat over: when
that takes effect (the grace's end), unless the seat moves first."""


def with_vote(
    clocks: Clocks, seat: str, opens: float | None, *, due: float | None = None
) -> Clocks:
    """``clocks`` with a vote on ``seat``'s owed move deciding from ``opens``, and taking
    effect at ``due`` (None: no vote; no decision owed)."""
    after = {name: dict(clock) for name, clock in clocks.items()}
    clock = after.setdefault(seat, {})
    clock.pop(VOTE_OPENS, None)
    clock.pop(VOTE_DUE, None)
    if opens is not None:
        clock[VOTE_OPENS] = opens
        if due is not None:
            clock[VOTE_DUE] = due
    return after


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


def bank_in_bounds(bank: tuple[int, int]) -> bool:
    """Whether a bank's reserve and increment are within :data:`MAX_BANK_SECONDS` and
    :data:`MAX_INCREMENT_SECONDS` (and the increment no larger than the reserve)."""
    reserve, increment = bank
    return MIN_BANK_SECONDS <= reserve <= MAX_BANK_SECONDS and 0 <= increment <= min(
        reserve, MAX_INCREMENT_SECONDS
    )


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
    """``3d``, ``12h``, ``90m`` or ``2d12h`` as seconds; None when it does not read as one.

    Twelve lines rather than pytimeparse: it reads these, but also ``1.5 weeks`` and
    ``3:25:45``, forms the commands do not offer and would then have to refuse in words."""
    return _duration(text.strip().lower())


_UNITS = {"m": 60, "h": HOUR, "d": DAY}


_DIGITS = frozenset("0123456789")


def _duration(text: str) -> int | None:
    total, number = 0, ""
    for char in text.replace(" ", ""):
        if char in _DIGITS and len(number) < MAX_DIGITS:
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
    return max(0.0, now - since) - away_between(since, now, away)


def away_between(since: float, now: float, away: Away | None) -> float:
    """Seconds of ``[since, now]`` the member was away."""
    if away is None:
        return 0.0
    return max(0.0, min(now, away.until) - max(since, away.since))


def owed_away(clock: Mapping[str, float], now: float) -> float:
    """How long the seat has owed its move, until ``now``, while its member was away."""
    since = clock.get("since")
    return 0.0 if since is None else away_between(since, now, Away.of(clock))


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
        clock.pop(VOTE_OPENS, None)
        clock.pop(VOTE_DUE, None)
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
    "AWAY_VOTE_AFTER",
    "BANK_PRESETS",
    "MAX_AWAY_SECONDS",
    "MAX_BANK_SECONDS",
    "MAX_INCREMENT_SECONDS",
    "MAX_VOTE_GRACE",
    "VOTE_AFTER",
    "VOTE_DUE",
    "VOTE_GRACE_HOURS",
    "VOTE_OPENS",
    "Away",
    "Clocks",
    "away_between",
    "bank_in_bounds",
    "bank_left",
    "clocks_from_json",
    "expiry",
    "owed_away",
    "parse_bank",
    "parse_duration",
    "spent",
    "started",
    "stopped",
    "with_away",
    "with_vote",
]
