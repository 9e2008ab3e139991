"""How reliable a member is in a server, for every game alike: the share of the finished
games they sat at that they played to the end without letting their time run out once,
and how many games they left (withdrew from, or handed their seat to someone else) before
the end. Read from the seats a member held (``seat_holders``), the seats at the end
(``seats``) and the time-outs recorded on their seat while it was theirs (``actions``).

A tournament's organiser may ask for a minimum share to sign up
(:func:`check_reliable_enough`); a member with no finished game yet has no share and is
not refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.community.ratings import guild_key
from bot.games.base import ServiceError
from bot.storage import Storage


@dataclass(frozen=True)
class Reliability:
    finished: int
    """Finished games the member held a seat at."""
    clean: int
    """Of those, the games they played to the end without a time-out."""
    left: int
    """Started games whose seat they gave up (left, or handed over) before the end."""

    @property
    def percent(self) -> int | None:
        """The share of clean games, rounded down to a whole percent (None: no game)."""
        return None if self.finished == 0 else 100 * self.clean // self.finished


async def reliability(storage: Storage, guild_id: int | None, user_id: int) -> Reliability:
    """The member's reliability over the started games of this server."""
    rows = await storage.read(
        "SELECT game_tables.status,"
        " EXISTS (SELECT 1 FROM seats WHERE seats.table_id = seat_holders.table_id"
        " AND seats.user_id = seat_holders.user_id),"
        " EXISTS (SELECT 1 FROM actions WHERE actions.table_id = seat_holders.table_id"
        " AND actions.seat = seat_holders.seat AND actions.source = 'timeout'"
        " AND actions.at >= seat_holders.since)"
        " FROM seat_holders JOIN game_tables ON game_tables.id = seat_holders.table_id"
        " WHERE seat_holders.user_id = ? AND COALESCE(game_tables.guild_id, 0) = ?"
        " AND game_tables.status <> 'lobby'",
        (user_id, guild_key(guild_id)),
    )
    finished = [
        (bool(kept), bool(timed_out)) for status, kept, timed_out in rows if status == "finished"
    ]
    return Reliability(
        finished=len(finished),
        clean=sum(kept and not timed_out for kept, timed_out in finished),
        left=sum(not kept for _, kept, _ in rows),
    )


def check_reliable_enough(found: Reliability, minimum: int | None) -> None:
    """Refuse (:class:`ServiceError`, saying why) a member below ``minimum`` percent."""
    share = found.percent
    if minimum is None or share is None or share >= minimum:
        return
    raise ServiceError(
        "error.not_reliable_enough",
        minimum=minimum,
        share=share,
        clean=found.clean,
        count=found.finished,
    )


__all__ = ["Reliability", "check_reliable_enough", "reliability"]
