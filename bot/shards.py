"""Which servers' tables this process serves when the bot runs as several processes.

Discord splits a bot's servers into gateway shards: a server's events, interactions
included, reach the connection of shard ``(guild_id >> 22) % shard_count``, and direct
messages reach shard 0. A process holding some shards serves the tables of those servers
only: its time limits, reminders, AI seats, start-up resumption and outbox act on them and
on no other. Tables outside a server (the console's) count as shard 0's, like DMs.

:class:`Shards` is that predicate, in Python (:meth:`Shards.owns`) and as a SQL condition
on a guild id column (:meth:`Shards.where`) that SQLite and PostgreSQL read alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

SHARD_SHIFT = 22
"""A snowflake's bits below its timestamp: Discord shards by the timestamp part."""


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard that holds this server (shard 0 for a DM or no server)."""
    return 0 if guild_id is None else (guild_id >> SHARD_SHIFT) % count


def cluster_shards(count: int, index: int, size: int) -> tuple[int, ...]:
    """The shards of process ``index`` of ``size``: consecutive ranges, as even as they
    can be (8 shards over 3 processes: 0-1, 2-4, 5-7)."""
    return tuple(range(index * count // size, (index + 1) * count // size))


@dataclass(frozen=True)
class Shards:
    """The shards ``ids`` of ``count`` that this process holds (the default: all of one)."""

    count: int = 1
    ids: tuple[int, ...] = (0,)

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("a bot has at least one shard")
        if not self.ids or any(not 0 <= shard < self.count for shard in self.ids):
            raise ValueError(f"shard ids must lie in 0..{self.count - 1}")
        if len(set(self.ids)) != len(self.ids):
            raise ValueError("each shard is held once")

    @classmethod
    def of(cls, count: int, ids: Iterable[int] | None = None) -> Shards:
        """``ids`` of ``count`` (all of them when left out), in order."""
        return cls(count, tuple(sorted(range(count) if ids is None else ids)))

    @property
    def everything(self) -> bool:
        """Whether this process holds every shard (it is the only one)."""
        return len(self.ids) == self.count

    @property
    def holds_dms(self) -> bool:
        """Whether direct messages reach this process (shard 0 is here)."""
        return 0 in self.ids

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process serves the tables of this server."""
        return self.everything or shard_of(guild_id, self.count) in self.ids

    def where(self, column: str = "guild_id") -> str:
        """The SQL condition "the server in ``column`` is ours" (NULL counts as shard 0).
        Only integers this class checked enter the text."""
        if self.everything:
            return "1 = 1"
        held = ", ".join(str(shard) for shard in self.ids)
        return f"((COALESCE({column}, 0) >> {SHARD_SHIFT}) % {self.count}) IN ({held})"

    def __str__(self) -> str:
        return f"shards {','.join(map(str, self.ids))} of {self.count}"


EVERY_SHARD = Shards()
"""One process serving every server: the bot without shard settings."""
