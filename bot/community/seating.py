"""A tournament's tables checked against its game when the tournament is opened: the
game's options as the organiser types them (``laps=1 team=yes``), and every table size the
tournament could pair (:meth:`~bot.community.tournament.TournamentSettings.table_sizes`)
against the game's host (:class:`~bot.games.base.GameHost`: its seats and its options), so
a tournament never pairs a table its game cannot seat. Each refusal says what is wrong."""

from __future__ import annotations

from collections.abc import Mapping

from bot.community.tournament import TournamentError, TournamentSettings
from bot.games.base import GameHost, ServiceError
from bot.text import plain
from engine.core import JSON

MAX_OPTIONS_TEXT = 200
"""The longest options text (as the ``options`` of ``/tournament new`` allows)."""
YES, NO = ("yes", "true"), ("no", "false")


def read_options(text: str) -> dict[str, JSON]:
    """The game's options as typed, ``name=value`` separated by spaces or commas: whole
    numbers (in ASCII digits) and yes/no read as such, any other value as text; the game's
    host checks them (:func:`table_options`)."""
    if len(text) > MAX_OPTIONS_TEXT:
        raise TournamentError("error.tournament_bad_options")
    chosen: dict[str, JSON] = {}
    for word in plain(text).replace(",", " ").split():
        name, equals, value = word.partition("=")
        if not equals or not name or not value:
            raise TournamentError("error.tournament_bad_options")
        lowered = value.lower()
        if lowered in YES + NO:
            chosen[name] = lowered in YES
        elif value.isascii() and value.isdigit():
            chosen[name] = int(value)
        else:
            chosen[name] = value
    return chosen


def shown(options: Mapping[str, JSON]) -> str:
    """Options as the organiser would type them."""
    words = []
    for name, value in options.items():
        if isinstance(value, bool):
            value = YES[0] if value else NO[0]
        words.append(f"{name}={value}")
    return " ".join(words)


def table_options(
    host: GameHost, settings: TournamentSettings, options: Mapping[str, JSON]
) -> dict[str, JSON]:
    """``options`` checked by the game's host and completed with its defaults, for every
    table the tournament could pair; raises :class:`TournamentError` naming what the game
    refuses (a table it cannot seat, an option it does not have, a value it does not take,
    options it cannot play at a smaller table)."""
    sizes = settings.table_sizes()
    if not host.min_seats <= sizes[0] or not sizes[-1] <= host.max_seats:
        raise TournamentError(
            "error.tournament_unseatable",
            least=host.min_seats,
            most=host.max_seats,
            seats=settings.table_size,
        )
    known = ", ".join(host.option_names) or "—"
    unknown = [name for name in options if name not in host.option_names]
    if unknown:
        raise TournamentError("error.tournament_unknown_option", name=unknown[0], known=known)
    try:
        completed = host.check_options(options, settings.table_size)
    except ServiceError:
        raise TournamentError(
            "error.tournament_options_refused", options=shown(options), known=known
        ) from None
    for seats in sizes:
        try:
            host.check_options(options, seats)
        except ServiceError:
            raise TournamentError(
                "error.tournament_options_unseatable",
                options=shown(options),
                seats=seats,
                most=settings.table_size,
            ) from None
    return completed


__all__ = ["MAX_OPTIONS_TEXT", "read_options", "table_options"]
