"""The vote on a long-absent player's seat, for every game: the board's "Absent player?"
button at a table without a time limit, the public vote it opens (one short message,
pinging the absent player alone) with a button per choice, each seated player's vote,
and the result (one short message). Who may vote, and what the votes decide, is the
service's (:meth:`bot.service.TableService.vote`): a forged button is refused there.

A vote's button carries the seat's place among the table's seats and the turn it was
opened in (``…:vote<choice><seat>:<turn>``), so it is void once the turn moves on.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.games.base import ServiceError
from bot.service import VOTE_CHOICES, Table, TableService
from bot.text import t
from cogs.front.announce import mention, pings, timestamp
from cogs.front.answers import locale_of, reply
from cogs.front.components import Controls

OPEN = "absent"
"""The board button's verb: open a vote on the seat that has owed its move longest."""
VOTE = "vote"
SEAT_LETTERS = "abcdefghijklmnop"


def is_vote(verb: str) -> bool:
    return verb == OPEN or (
        verb.startswith(VOTE) and len(verb) == len(VOTE) + 2 and verb[-1] in SEAT_LETTERS
    )


def board_button(controls: Controls, table: Table, turn: int, locale: str | None) -> Any:
    """The board's button opening a vote (only at a table without a time limit)."""
    return controls.button(table.id, OPEN, turn, label=t(locale, "board.vote"))


def _verb(choice: str, index: int) -> str:
    return f"{VOTE}{choice[0]}{SEAT_LETTERS[index]}"


def _choice_of(verb: str) -> str:
    initial = verb[len(VOTE)]
    return next((choice for choice in VOTE_CHOICES if choice[0] == initial), "")


async def on_vote(
    interaction: discord.Interaction[Any],
    service: TableService,
    controls: Controls,
    table: Table,
    verb: str,
    turn: int,
) -> bool:
    """A click on the board's vote button or on a vote's choice; True when the vote handed
    the seat to the AI (its move is then owed to the table's follow-up)."""
    if verb == OPEN:
        await _open(interaction, service, controls, table)
        return False
    seats = sorted(seat.seat for seat in table.seats)
    index = SEAT_LETTERS.index(verb[-1])
    if index >= len(seats):
        raise ServiceError("error.unknown_button")
    choice = _choice_of(verb)
    vote = await service.vote(table.id, interaction.user.id, seats[index], turn, choice)
    locale = locale_of(interaction)
    await reply(interaction, t(locale, "vote.counted", choice=t(locale, f"vote.{choice}")))
    if vote.decision is None:
        return False
    absent = vote.seat
    channel: Any = interaction.channel
    if channel is not None:
        await channel.send(
            t(
                table.row.locale,
                f"vote.result.{vote.decision}",
                person=mention(absent.user_id, absent.name),
            ),
            allowed_mentions=pings([absent.user_id]),
        )
    return vote.update is not None


async def _open(
    interaction: discord.Interaction[Any],
    service: TableService,
    controls: Controls,
    table: Table,
) -> None:
    if table.seat_of(interaction.user.id) is None:
        raise ServiceError("error.not_seated")
    owing = [
        (since, seat)
        for seat in table.waiting_humans()
        if seat.user_id != interaction.user.id
        and (since := service.may_vote_on(table, seat.seat)) is not None
    ]
    if not owing:
        raise ServiceError("error.no_vote_yet")
    since, absent = min(owing, key=lambda pair: pair[0])
    locale = table.row.locale
    index = sorted(seat.seat for seat in table.seats).index(absent.seat)
    view = discord.ui.View(timeout=None)
    for choice in VOTE_CHOICES:
        label = t(locale, f"vote.{choice}")
        view.add_item(controls.button(table.id, _verb(choice, index), table.row.turn, label=label))
    text = t(
        locale, "vote.open", person=mention(absent.user_id, absent.name), since=timestamp(since)
    )
    await interaction.response.send_message(
        text, view=view, allowed_mentions=pings([absent.user_id])
    )


__all__ = ["board_button", "is_vote", "on_vote"]
