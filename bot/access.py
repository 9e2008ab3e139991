"""Who may act on a table from where: a table belongs to the server it was opened in, and
is seen by whoever can view the channel it was opened in.

The host's one rule book for the *place* of a request, for every game and front end
(ARCHITECTURE.md, "Authorisation lives in the host"). It knows no game and no Discord:
the front end says where a request came from, who asks and which channels the asker can
view (as the front end computes it: on Discord, from the member's roles and the channel's
permission overwrites), and gets back whether to go on and, if not, the message key of
the refusal. Whether the asker holds a seat or hosts the table is then checked by the
service, as for any request.

- From a server: only that table's own server. Another server's table reads as no table
  at all, and so does a table of a channel the asker cannot view (a private channel): its
  status, log, lobby and suggestions are for those who see its channel (and its thread,
  which is that channel's). A seated player always reaches their own seat (the panel, a
  move, leaving), even once they no longer view the channel: the seat is theirs. Manage
  Server sees and manages every table of its server (as Discord's Administrator sees
  every channel), there and nowhere else.
- From a direct message: only a seated player's own move, through a button (or its form)
  on a message the bot sent to that player; nothing else — no commands, no lobby, no
  host controls.

The same rule decides who reads anything else that lives in a channel (a tournament's
standings, a game named in a record): :func:`may_look`. A member's own list of the tables
where they sit (:func:`lists_own_seat`) holds, from a server, that server's tables only,
and from a DM, the tables of the servers the member shares with the bot.
"""

from __future__ import annotations

from collections.abc import Callable
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


def views_no_channel(channel_id: int) -> bool:
    """An asker the front end could tell nothing about views no channel."""
    return False


@dataclass(frozen=True)
class Place:
    """Where a table (or a tournament) lives: its server and the channel it was opened in
    (a game's thread is a thread of that channel, seen by whoever views it)."""

    guild_id: int | None
    channel_id: int | None


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
    views: Callable[[int], bool] = views_no_channel
    """Whether the asker can view the channel of this id; a channel the front end does not
    know is not viewed."""


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


def judge(place: Place, asker: Asker, act: Act, *, seated: bool = False) -> Verdict:
    """May ``asker`` do ``act`` on a table at ``place`` (``seated``: the asker holds one of
    its seats)?"""
    if asker.guild_id is None:
        if act is not Act.PLAY or not asker.via_dm_button:
            return Verdict(SERVER_ONLY)
        return Verdict(None) if seated else Verdict(NOT_SEATED)
    if place.guild_id is None or place.guild_id != asker.guild_id:
        return Verdict(NOT_HERE)
    if asker.manages_server:
        return Verdict(None, admin=True)
    if act is Act.PLAY and seated:
        return Verdict(None)
    if place.channel_id is None or not asker.views(place.channel_id):
        return Verdict(NOT_HERE)
    return Verdict(None)


def may_look(place: Place, asker: Asker) -> bool:
    """Whether ``asker`` may read what lives at ``place`` (:attr:`Act.LOOK`)."""
    return judge(place, asker, Act.LOOK).allowed


def lists_own_seat(place: Place, asker: Asker, shares: Callable[[int], bool]) -> bool:
    """Whether a table where ``asker`` holds a seat, at ``place``, is on the asker's own
    list of their games: from a server, a table of that server (the seat is theirs, as
    :func:`judge` lets them play it, even in a channel they no longer view); from a DM, a
    table of a server the asker shares with the bot (``shares``, by server id)."""
    if place.guild_id is None:
        return False
    if asker.guild_id is None:
        return shares(place.guild_id)
    return place.guild_id == asker.guild_id


__all__ = [
    "NOT_HERE",
    "NOT_SEATED",
    "SERVER_ONLY",
    "Act",
    "Asker",
    "Place",
    "Verdict",
    "judge",
    "lists_own_seat",
    "may_look",
    "views_no_channel",
]
