"""The vote on a long-absent player's seat, for every game: the board's "Absent player?"
button (at a table without a time limit, or whose banks pause while a member is away),
the public vote it opens (one short message) with a button per choice, each seated
player's vote, and the result (one short message). Who may vote, when a vote may decide
and what the votes decide is the service's (:meth:`bot.service.TableService.open_vote`,
:meth:`~bot.service.TableService.vote`): a forged button is refused there.

The absent player hears of the vote as they chose to hear of their moves (a ping, a DM,
held until their quiet hours end, or nothing: :mod:`bot.notices`), and the vote decides
only once they have had their grace (12 of their waking hours) to move; votes cast before
are counted and take effect when it ends. A second "Absent player?" on a vote already open
answers privately.

A vote's button carries the seat's place among the table's seats and the turn it was
opened in (``…:vote<choice><seat>:<turn>``), so it is void once the turn moves on.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.games.base import ServiceError
from bot.notices import Delivery
from bot.service import VOTE_CHOICES, Table, TableService, Vote
from bot.text import t
from cogs.front.announce import Announcer, mention, pings, timestamp
from cogs.front.answers import TRANSIENT, locale_of, reply
from cogs.front.components import Controls

log = logging.getLogger(__name__)

OPEN = "absent"
"""The board button's verb: open a vote on the seat that has owed its move longest."""
VOTE = "vote"
SEAT_LETTERS = "abcdefghijklmnop"


def is_vote(verb: str) -> bool:
    return verb == OPEN or (
        verb.startswith(VOTE) and len(verb) == len(VOTE) + 2 and verb[-1] in SEAT_LETTERS
    )


def offers_vote(table: Table) -> bool:
    """Whether the table's boards carry the vote's button: at a table without a time
    limit, or whose banks pause while a member is away."""
    settings = table.settings
    return not settings.limited or (settings.bank is not None and settings.away_pauses)


def board_button(controls: Controls, table: Table, turn: int, locale: str | None) -> Any:
    """The board's button opening a vote (where :func:`offers_vote`)."""
    return controls.button(table.id, OPEN, turn, label=t(locale, "board.vote"))


def _verb(choice: str, index: int) -> str:
    return f"{VOTE}{choice[0]}{SEAT_LETTERS[index]}"


def _choice_of(verb: str) -> str:
    initial = verb[len(VOTE)]
    return next((choice for choice in VOTE_CHOICES if choice[0] == initial), "")


async def on_vote(
    interaction: discord.Interaction[Any],
    announcer: Announcer,
    controls: Controls,
    table: Table,
    verb: str,
    turn: int,
) -> bool:
    """A click on the board's vote button or on a vote's choice; True when the vote handed
    the seat to the AI (its move is then owed to the table's follow-up)."""
    service = announcer.service
    if verb == OPEN:
        await _open(interaction, announcer, controls, table)
        return False
    seats = sorted(seat.seat for seat in table.seats)
    index = SEAT_LETTERS.index(verb[-1])
    if index >= len(seats):
        raise ServiceError("error.unknown_button")
    choice = _choice_of(verb)
    vote = await service.vote(table.id, interaction.user.id, seats[index], turn, choice)
    locale = locale_of(interaction)
    chosen = t(locale, f"vote.{choice}")
    if vote.decision is None and vote.opens > service.clock.now():
        person = mention(vote.seat.user_id, vote.seat.name)
        opens = timestamp(vote.opens)
        await reply(
            interaction,
            t(locale, "vote.counted_grace", choice=chosen, person=person, opens=opens),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        return False
    await reply(interaction, t(locale, "vote.counted", choice=chosen))
    if vote.decision is None:
        return False
    await announce_result(announcer, vote, interaction.channel)
    return vote.update is not None


async def announce_result(announcer: Announcer, vote: Vote, channel: Any = None) -> None:
    """The vote's result, in the table's channel (``channel``, else where the table
    lives); it pings the absent player only as they chose (a DM where they chose DMs)."""
    table, absent = vote.table, vote.seat
    if vote.decision is None:
        return
    channel = channel if channel is not None else await announcer.channel_for(table)
    if channel is None:
        return
    text = t(
        table.row.locale,
        f"vote.result.{vote.decision}",
        person=mention(absent.user_id, absent.name),
    )
    told = await _delivery(announcer, absent.user_id)
    try:
        await channel.send(text, allowed_mentions=pings([absent.user_id] if told.ping else []))
    except TRANSIENT:
        log.warning("table %d: could not post the vote's result", table.id)
    if told.dm and absent.user_id is not None:
        empty = discord.ui.View(timeout=None)
        await announcer.send_dm(table, channel, absent.user_id, absent.name, text, empty, None)


async def _delivery(announcer: Announcer, user_id: int | None) -> Delivery:
    """How a notice reaches the absent player now, by their own choices."""
    if user_id is None:
        return Delivery()
    member = await announcer.service.notices.member(user_id)
    return member.delivery(announcer.service.clock.now())


async def _open(
    interaction: discord.Interaction[Any],
    announcer: Announcer,
    controls: Controls,
    table: Table,
) -> None:
    service: TableService = announcer.service
    opening = await service.open_vote(table.id, interaction.user.id)
    absent = opening.seat
    person = mention(absent.user_id, absent.name)
    if not opening.opened:
        opens = timestamp(opening.opens)
        await reply(
            interaction,
            t(locale_of(interaction), "vote.already_open", person=person, opens=opens),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        return
    locale = table.row.locale
    index = sorted(seat.seat for seat in table.seats).index(absent.seat)
    view = discord.ui.View(timeout=None)
    for choice in VOTE_CHOICES:
        label = t(locale, f"vote.{choice}")
        view.add_item(controls.button(table.id, _verb(choice, index), table.row.turn, label=label))
    text = t(locale, "vote.open", person=person, since=timestamp(opening.since))
    grace = t(locale, "vote.grace", person=person, opens=timestamp(opening.opens))
    told = await _delivery(announcer, absent.user_id)
    await interaction.response.send_message(
        f"{text}\n{grace}",
        view=view,
        allowed_mentions=pings([absent.user_id] if told.ping else []),
    )
    assert absent.user_id is not None
    now_table = opening.table
    if told.dm:
        channel: Any = interaction.channel
        notice, buttons = await announcer.front(now_table).turn_notice(now_table, absent.user_id)
        pending = t(locale, "vote.pending_you", opens=timestamp(opening.opens))
        await announcer.send_dm(
            now_table, channel, absent.user_id, absent.name, f"{notice}\n{pending}", buttons, None
        )
    elif told.held_until is not None:
        await announcer.owe_next(now_table, absent.user_id, told)


__all__ = ["announce_result", "board_button", "is_vote", "offers_vote", "on_vote"]
