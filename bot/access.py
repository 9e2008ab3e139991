"""Who may act on a table from where: a table belongs to the server it was opened in.

The host's one rule book for the *place* of a request, for every game and front end
(ARCHITECTURE.md, "Authorisation lives in the host"). It knows no game and no Discord:
the front end says where a request came from and who asks, and gets back whether to go on
and, if not, the message key of the refusal. Whether the asker holds a seat or hosts the
table is then checked by the service, as for any request.

- From a server: only that table's own server; the Manage Server override counts there
  and nowhere else. Another server's table reads as no table at all.
- From a direct message: only a seated player's own move, through a button (or its form)
  on a message the bot sent to that player; nothing else — no commands, no lobby, no
  host controls.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Act(StrEnum):
    """What a request does to a table, as far as its place matters."""

    LOOK = "look"
    """Read what the table shows publicly in its server (status, log)."""
    PLAY = "play"
    """Act in one's own seat: the private panel, a move, leaving."""
    MANAGE = "manage"
    """Join, host's and admins' controls: lobby buttons, abandon, substitute."""


@dataclass(frozen=True)
class Asker:
    """Who asks, and from where."""

    user_id: int
    guild_id: int | None
    """The server the request came from; ``None`` in a direct message."""
    manages_server: bool = False
    """Holds Manage Server in ``guild_id``."""
    via_dm_button: bool = False
    """A button, select or form on a message the bot sent to this user by direct message."""


@dataclass(frozen=True)
class Verdict:
    refusal: str | None
    """The message key to answer with, or ``None`` to go on."""
    admin: bool = False
    """The Manage Server override applies (the request comes from the table's server)."""

    @property
    def allowed(self) -> bool:
        return self.refusal is None


NOT_HERE = "error.no_such_race"
"""Another server's table is answered as if it did not exist."""
SERVER_ONLY = "error.server_only"
NOT_SEATED = "error.not_seated"


def judge(table_guild_id: int | None, asker: Asker, act: Act, *, seated: bool) -> Verdict:
    """May ``asker`` do ``act`` on a table of server ``table_guild_id``?"""
    if asker.guild_id is None:
        if act is not Act.PLAY or not asker.via_dm_button:
            return Verdict(SERVER_ONLY)
        return Verdict(None) if seated else Verdict(NOT_SEATED)
    if table_guild_id is None or table_guild_id != asker.guild_id:
        return Verdict(NOT_HERE)
    return Verdict(None, admin=asker.manages_server)


__all__ = ["NOT_HERE", "NOT_SEATED", "SERVER_ONLY", "Act", "Asker", "Verdict", "judge"]
